"""`puzzlecomp awards` and `standings` name prizes only from the round that awards them, once it is
final (wjpc-2025.txt, Individual Final: the World Champion is decided in the final)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from puzzlecomp.cli.main import main

WJPC_FOLDER = Path(__file__).parent / "fixtures" / "championship" / "wjpc-2025"
WJPC = ["--ruleset", "wjpc-2025", "--event", "individual"]
TO_COME = ("provisional: the final round of individual decides the titles and prizes and is "
           "still to come (not final); no prize is named before\n")


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def before_the_final(tmp_path: Path) -> Path:
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    (folder / "individual" / "final.csv").unlink()
    return folder


def test_no_prize_for_the_leader_of_a_semifinal(tmp_path, capsys):
    """wjpc-2025.txt, Prizes: the trophy and EUR 2,000 go to the final's winner; with the final
    still to come `awards` lists no prize and says which round is awaited."""
    folder = before_the_final(tmp_path)
    code, out, err = run(capsys, "awards", folder, *WJPC)
    assert (code, err) == (0, TO_COME)
    assert out.splitlines() == [
        "category,place,entry,name,country,overall_place,round,trophy,money,currency,items"]
    code, out, err = run(capsys, "awards", folder, *WJPC, "--format", "json")
    document = json.loads(out)
    assert (document["provisional"], document["prize_round"], document["awards"]) == (
        True, "final", [])


def test_no_subcategory_tiebreaker_is_called_before_the_final(tmp_path, capsys):
    """wjpc-2025.txt, Subcategories (*): a tiebreaker is held when the finals lack a
    subcategory's entrants, which is known only once the final is."""
    code, out, err = run(capsys, "awards", before_the_final(tmp_path), *WJPC, "--tiebreakers")
    assert (code, err) == (0, TO_COME)
    assert out.splitlines() == ["category,open_places,entry,name,country,overall_place,round"]


def test_provisional_standings_keep_their_places_and_say_so(tmp_path, capsys):
    code, out, err = run(capsys, "standings", before_the_final(tmp_path), *WJPC,
                         "--format", "json")
    assert (code, err) == (0, TO_COME)
    document = json.loads(out)
    assert document["provisional"] is True
    assert [line["place"] for line in document["standings"]][:3] == [1, 2, 3]


def test_with_the_final_the_prizes_are_named(capsys):
    code, out, err = run(capsys, "awards", WJPC_FOLDER, *WJPC, "--format", "json")
    # The fixture's subcategories call tiebreakers not given: only those are still to come.
    assert code == 0
    assert err.startswith("pending: ")
    assert "provisional" not in err
    document = json.loads(out)
    assert document["provisional"] is False
    assert document["awards"][0]["money"] == 2000


def final_without_placed_result(tmp_path: Path, *, all_dns: bool) -> Path:
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    final = folder / "individual" / "final.csv"
    header, *rows = final.read_text(encoding="utf-8").splitlines()
    kept = [",".join([row.split(",")[0], "", "", "", "dns", "", ""]) for row in rows]
    final.write_text("\n".join([header, *(kept if all_dns else [])]) + "\n", encoding="utf-8")
    return folder


def test_a_final_with_no_placed_result_names_no_champion(tmp_path, capsys):
    """wjpc-2025.txt, Individual Final: the champion is the winner of the final. A header-only
    final, or one where every entrant is DNS, decides nothing: no title or money goes to the
    semifinalists, and no subcategory tiebreaker is called."""
    for all_dns in (False, True):
        folder = final_without_placed_result(tmp_path / str(all_dns), all_dns=all_dns)
        code, out, err = run(capsys, "awards", folder, *WJPC, "--format", "json")
        assert (code, err) == (0, TO_COME)
        document = json.loads(out)
        assert (document["provisional"], document["awards"]) == (True, [])
        code, out, err = run(capsys, "awards", folder, *WJPC, "--tiebreakers")
        assert (code, err) == (0, TO_COME)
        assert out.splitlines() == [
            "category,open_places,entry,name,country,overall_place,round"]
