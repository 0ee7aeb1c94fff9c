"""Issue 30 (left open at stop 32) on the real published results of ../shared/data: what the
archive import makes of the rounds the review named."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Person, Result, Round
from puzzlecomp.championships.services.archive import archive_import
from puzzlecomp.formats.history_csv import read_history

pytestmark = [pytest.mark.realdata, pytest.mark.django_db]


def real_rows(shared_data, *years: int):
    """The WJPC rows of these years, without the one duplicated row (docs/archive.md, The
    sample: the 2024 pair Ec640f73b published in groups A and C keeps group A)."""
    path = shared_data / "wjpc-results.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [lines[0]] + [line for line in lines[1:] if int(line[:4]) in years
                         and not (line.startswith("2024,duo,C,") and ",Ec640f73b," in line)]
    return read_history("".join(kept), source=str(path))


def imported(shared_data, *years: int):
    return archive_import(rows=real_rows(shared_data, *years), source="wjpc-results.csv",
                          ruleset_id="wjpc-2025", slug_prefix="wjpc", title="WJPC")


def test_the_2024_individual_semifinal_keeps_the_rules_75_minutes_and_no_finish_past_them(
        shared_data):
    """wjpc-2025.txt, Second round: a 500-piece puzzle "within a maximum period of 75
    minutes". The data's limit column for the 2024 semifinal is its slowest finish (5183 s,
    shown as a 1:27:00 limit before); the four finishes past 75 minutes are not finishes
    within the limit: their places stay, with no time."""
    done = imported(shared_data, 2024)
    semifinal = Round.objects.get(event__championship__slug="wjpc-2024",
                                  event__code="individual", code="second")
    assert semifinal.time_limit_minutes == 75
    results = Result.objects.filter(round=semifinal)
    assert not results.filter(time_seconds__gt=75 * 60).exists()
    late = results.filter(status="dnf")
    assert sorted((r.archive_group, r.published_rank) for r in late) == [
        ("S1", 179), ("S1", 180), ("S2", 180), ("S2", 181)]
    assert all(r.time_seconds is None and r.pieces is None for r in late)
    assert any("2024 individual second says 5183, the slowest finish, not a limit" in w
               for w in done.limit_warnings)


def test_namesakes_of_one_event_and_edition_are_reported_with_their_ids(shared_data):
    """wjpc-2025.txt, Registration: one entry per person and category."""
    done = imported(shared_data, 2019, 2022, 2023, 2024, 2025)
    ids = {n.person for n in done.namesakes}
    assert (len(ids), len(done.namesakes)) == (32, 153)
    assert len({n.person for n in done.namesakes if n.scope == "round"}) == 32
    # A pair renumbered after the first round with one member named otherwise is the same
    # entry (review of issue 30, finding 3): those members are one person, not namesakes.
    assert not {"P5dfdbdce", "P50fba802", "P6120c5aa", "Paee871d6"} & ids
    assert Person.objects.filter(archive_id__contains="~").count() == len(
        {n.kept_as for n in done.namesakes})


def test_the_2019_teams_final_is_unsized_its_results_shown_and_out_of_the_records(
        shared_data, client):
    """The data's 2019 teams final placed up to 4,897 pieces against the rules' 2 x 1000
    (wjpc-2025.txt, Teams: two 1000-piece puzzles) and ../shared/data/README.md gives no size
    for it: the round is unsized, its results shown with a note, no record of it."""
    from html import escape

    from django.urls import reverse

    from puzzlecomp.championships.selectors.careers import counted_results

    done = imported(shared_data, 2019)
    final = Round.objects.get(event__championship__slug="wjpc-2019", event__code="teams",
                              code="final")
    assert final.size_unknown
    assert not final.puzzles.exists()
    assert [(w.year, w.event, w.round) for w in done.pieces_warnings] == [
        (2019, "teams", "final")]
    assert len(done.pieces_warnings[0].rows) == 64
    html = client.get(reverse("public:live:round", args=["wjpc-2019", final.pk])).content.decode()
    assert "puzzles is not known: more pieces were counted" in html
    assert "not available" not in html
    winner = Result.objects.get(round=final, published_rank=1)
    assert winner.time_seconds is not None
    assert escape(winner.entry.name) in html
    assert not [key for key in counted_results().world if key[0] == "teams"]
    # No pace of a finish from a size nobody knows.
    from puzzlecomp.public.live.selectors import snapshot_now

    _, data = snapshot_now(final)
    assert data["round"]["pieces"] is None  # unknown (review of issue 30, finding 9)
    assert all(line["pieces_per_minute"] is None for line in data["lines"]
               if line["status"] == "finished")


@pytest.mark.parametrize(("event", "code"), [("individual", "second"), ("pairs", "semifinal")])
def test_an_archived_semifinal_ranks_each_group_apart_at_its_published_places(
        shared_data, event, code):
    """Review of issue 30, finding 2: a later round's groups come from seats while it runs, and
    the archive has no seats; its rows keep the published group (S1, S2), each ranked apart,
    and a finish past the limit keeps its published place as did-not-finish."""
    from puzzlecomp.championships.engine import round_ranking

    imported(shared_data, 2024)
    semifinal = Round.objects.get(event__championship__slug="wjpc-2024",
                                  event__code=event, code=code)
    ranked = round_ranking(semifinal)
    published = {r.entry.number: (r.archive_group, r.published_rank)
                 for r in Result.objects.filter(round=semifinal).select_related("entry")}
    # The 2024 pairs semifinal was published as one group, S1.
    assert {line.entry.group for line in ranked.lines} == (
        {"S1", "S2"} if event == "individual" else {"S1"})
    shown = {int(line.entry.id): (line.entry.group, line.rank) for line in ranked.lines}
    assert shown == published


def test_the_pairs_debutant_records_are_of_true_debutants(shared_data):
    """Review of issue 30, finding 3: P5dfdbdce's 2024 pairs final (renumbered Ed59c4f40 after
    the first round) is no namesake's debut: the same two people are one pair in 2025. The
    Debutant records go to the fastest pairs at their first edition (with the sample's
    editions file, as `puzzlecomp archive import` is run with it)."""
    from importlib.resources import files

    from puzzlecomp.championships.selectors.rankings import records_get
    from puzzlecomp.formats.archive_sizes import read_edition_sizes

    editions = read_edition_sizes(
        files("puzzlecomp.samples").joinpath("wjpc-editions.toml").read_text(encoding="utf-8"),
        source="wjpc-editions.toml")
    archive_import(rows=real_rows(shared_data, 2019, 2022, 2023, 2024, 2025),
                   source="wjpc-results.csv", ruleset_id="wjpc-2025", slug_prefix="wjpc",
                   title="WJPC", editions=editions)
    found = {(row.result.round.event_code, row.puzzle_pieces): row for row in records_get()
             if row.category == "debutant"}
    assert not any("~" in (p.archive_id or "") for p in Person.objects.filter(
        pk__in=[h.person for row in found.values() for h in row.holders]))
    half = found[("pairs", 500)]
    whole = found[("pairs", 1000)]
    # 24:18 in the 2025 first round (E6c30f1aa, group B: both new to pairs that year), ahead
    # of 2024's fastest debutants (26:20, Eb5352055); no longer the split's 24:06.
    assert (half.timed.final_seconds, half.result.round.year,
            half.result.round.code) == (24 * 60 + 18, 2025, "first")
    assert (whole.timed.final_seconds, whole.result.round.year,
            whole.result.round.code) == (54 * 60 + 41, 2024, "final")
