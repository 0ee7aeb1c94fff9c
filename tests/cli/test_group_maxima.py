"""The WJPC's maxima per group (wjpc-2025.txt: first round "a maximum of 200 participants per
group", second round and pairs semifinal "a maximum of 180 ... per group"): the qualification
rules come first, and `advance` and `groups` warn, naming the group and its count, whenever a
group passes its maximum (docs/qualification.md, Group maxima)."""

from __future__ import annotations

import pytest

from puzzlecomp.cli.main import main
from puzzlecomp.rules.group_maxima import group_maximum, groups_over_maximum
from puzzlecomp.rules.loading import load_ruleset

HEADER = "entry,name,country,group,status,time,pieces\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def tied_group(group: str, size: int, tied_from: int) -> str:
    """Finishers one second apart, everyone from place `tied_from` on in the same time."""
    return "".join(
        f"{group}{p:03d},Name {p},CZE,{group},finished,{1000 + min(p, tied_from)},\n"
        for p in range(1, size + 1)
    )


@pytest.mark.parametrize(("event", "first", "semifinal"), [
    ("individual", "first", "second"), ("pairs", "first", "semifinal")])
def test_advance_warns_when_ties_at_the_cut_off_pass_the_semifinals_180(
        tmp_path, capsys, event, first, semifinal):
    """wjpc-2025.txt: "In the event of a tie for the last place that gives access to the next
    round, both participants will access": 16 tied on the 85th place of group A all go, so S1
    holds 185, past "a maximum of 180"; nobody is left out, and the organiser is told."""
    source = tmp_path / "first.csv"
    source.write_text(HEADER + tied_group("A", 100, 85) + tied_group("B", 85, 85),
                      encoding="utf-8")
    code, out, err = run(capsys, "advance", str(source), "--ruleset", "wjpc-2025",
                         "--event", event, "--round", first)
    assert code == 0
    assert len(out.splitlines()) == 1 + 185
    assert err == (f"warning: group S1 of round {semifinal} has 185 entrants, past the maximum "
                   "of 180 per group\n")


def test_groups_warns_when_a_first_round_group_passes_200(tmp_path, capsys):
    """wjpc-2025.txt, Individual First Round: "a maximum of 200 participants per group"; 1,206
    entrants in six groups make groups of 201."""
    source = tmp_path / "entries.csv"
    source.write_text("entry,name,country\n" + "".join(
        f"E{n:04d},Name {n},C{n % 40:02d}\n" for n in range(1206)), encoding="utf-8")
    code, _, err = run(capsys, "groups", str(source), "--ruleset", "wjpc-2025",
                         "--event", "individual", "--round", "first")
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: group {g} of round first has 201 entrants, past the maximum "
                        "of 200 per group" for g in "ABCDEF"]


def test_the_maxima_each_round_declares():
    """wjpc-2025.txt: first rounds 200 per group (teams 100), semifinals 180, the finals none."""
    wjpc = load_ruleset("wjpc-2025")
    maxima = {(e.id, r.id): group_maximum(e, r.id) for e in wjpc.events for r in e.rounds}
    assert maxima == {
        ("individual", "first"): 200, ("individual", "second"): 180,
        ("individual", "final"): None, ("pairs", "first"): 200, ("pairs", "semifinal"): 180,
        ("pairs", "final"): None, ("teams", "first"): 100, ("teams", "final"): None}
    assert groups_over_maximum(wjpc.event("individual"), "second", ["S1"] * 180) == []
