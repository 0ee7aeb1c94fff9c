"""The archive of past championships (docs/archive.md) and seeding from it (docs/seeding.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Result,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.planning import planning_entrants, seating_order
from puzzlecomp.championships.services.archive import archive_import, invented_name
from puzzlecomp.cli.main import main
from puzzlecomp.formats.history_csv import read_history
from tests.web.test_groups import first_round

HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")
HISTORY = HEADER + """\
2023,solo,A,1,E1,Spain,True,3000.0,,500,5400,Pfast
2023,solo,A,2,E2,Czech Republic,True,4000.0,,500,5400,Pslow
2023,solo,final,1,E1,Spain,True,3300.0,,500,4500,Pfast
2023,duo,A,1,D1,Mixed,False,,400.0,500,4500,Pslow;Pfast
2024,solo,B,1,F1,Czech Republic,True,3500.0,,500,5400,Pslow
2024,solo,B,2,F2,The Netherlands,False,,100.0,500,5400,Plast
"""


def imported(text: str = HISTORY) -> list[str]:
    rows = read_history(text, source="history.csv")
    done = archive_import(rows=rows, source="history.csv", ruleset_id="wjpc-2025",
                          slug_prefix="wjpc", title="WJPC")
    return list(done.championships)


@pytest.mark.django_db
def test_each_year_becomes_a_final_read_only_championship_with_its_rounds_and_results():
    assert imported() == ["wjpc-2023", "wjpc-2024"]
    c2023 = Championship.objects.get(slug="wjpc-2023")
    assert (c2023.archived, c2023.name) == (True, "WJPC 2023")
    rounds = {(r.event.code, r.code): r for r in Round.objects.filter(event__championship=c2023)}
    assert set(rounds) == {("individual", "first"), ("individual", "final"), ("pairs", "first")}
    assert rounds["individual", "first"].groups == ["A"]
    assert all(r.state == RoundState.FINAL for r in rounds.values())
    assert rounds["individual", "final"].time_limit_minutes == 75
    fast = Result.objects.get(round=rounds["individual", "first"], published_rank=1)
    assert (fast.status, fast.time_seconds, fast.archive_group) == ("finished", 3000, "A")
    pair = Result.objects.get(round=rounds["pairs", "first"])
    assert (pair.status, pair.pieces) == ("unfinished", 400)
    assert (pair.entry.mixed, pair.entry.country) == (True, "")
    assert AuditEntry.objects.filter(championship=c2023,
                                     action="puzzlecomp.archive.imported").exists()


@pytest.mark.django_db
def test_a_person_keeps_one_identity_and_an_invented_name_across_editions_and_events():
    imported()
    slow = Person.objects.get(archive_id="Pslow")
    assert (slow.first_name, slow.last_name) == invented_name("Pslow")
    assert slow.nationality.code == "CZ"
    assert EntryMember.objects.filter(person=slow).count() == 3
    assert Person.objects.get(archive_id="Plast").nationality.code == "NL"
    assert Entry.objects.get(event__championship__slug="wjpc-2024", number=1).country == "CZE"


@pytest.mark.django_db
def test_a_bad_row_exits_2_naming_row_and_field_and_imports_nothing(tmp_path, capsys):
    path = tmp_path / "history.csv"
    path.write_text(HISTORY.replace("2024,solo,B,2,F2", "2024,solo,B,x,F2"), encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 2
    assert "row 7, entry F2, field rank: 'x' is not a whole number" in capsys.readouterr().err
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_an_entrant_twice_in_one_round_and_a_year_already_archived_are_refused(tmp_path, capsys):
    path = tmp_path / "history.csv"
    path.write_text(HISTORY + "2024,solo,C,1,F1,Czech Republic,True,3600.0,,500,5400,Pslow\n",
                    encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 2
    assert "row 8, entry F1, field round: entrant F1 is already in this round (B, row 6)" in (
        capsys.readouterr().err)
    imported()
    path.write_text(HISTORY, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025", "--prefix",
                 "wjpc"]) == 2
    assert "field year: championship wjpc-2023 exists already" in capsys.readouterr().err


@pytest.mark.django_db
def test_the_shipped_sample_imports_as_wjpc_2019_to_2025(capsys):
    assert main(["archive", "import", "sample", "--ruleset", "wjpc-2025"]) == 0
    assert "wjpc-2019, wjpc-2022, wjpc-2023, wjpc-2024, wjpc-2025" in capsys.readouterr().out
    assert Result.objects.count() == 7926


@pytest.mark.django_db
def test_an_archived_championship_refuses_every_change(client_as):
    imported()
    archived = Championship.objects.get(slug="wjpc-2023")
    organiser = client_as(archived, Role.OWNER)
    page = reverse("control:setup:championship", args=[archived.slug])
    assert organiser.get(page).status_code == 200
    response = organiser.post(page, {"name": "Renamed"})
    assert response.status_code == 403
    assert "archive" in response.content.decode()
    archived.refresh_from_db()
    assert archived.name == "WJPC 2023"


def entrants_of(championship: Championship, people: list[str]) -> Round:
    rnd = first_round(championship)
    for number, archive_id in enumerate(people, start=1):
        entry = Entry.objects.create(event=rnd.event, number=number, name=archive_id,
                                     status=EntryStatus.CONFIRMED, confirmed_at=timezone.now(),
                                     seed_rank=number, group="A")
        person = Person.objects.filter(archive_id=archive_id).first() or Person.objects.create(
            first_name="New", last_name=archive_id, nationality="ES")
        EntryMember.objects.create(entry=entry, person=person)
    return rnd


@pytest.mark.django_db
def test_group_assignment_and_first_round_seating_use_the_history_before_typed_seed_ranks(
        championship):
    """wjpc-2025.txt, Competition Area: the initial phase is seated by previous results."""
    imported()
    rnd = entrants_of(championship, ["Pnew", "Plast", "Pslow", "Pfast"])
    ranks = {e.entry: e.seed_rank for e in planning_entrants(rnd)}
    assert ranks == {"4": 1, "3": 2, "2": 3, "1": 4}
    seated, _ = seating_order(rnd, "A")
    assert [s.entry for s in seated] == ["4", "3", "2", "1"]


@pytest.mark.django_db
def test_only_earlier_championships_count_as_history(championship):
    imported()
    championship.starts_at = Championship.objects.get(slug="wjpc-2024").starts_at
    championship.save()
    rnd = entrants_of(championship, ["Pnew", "Plast"])
    assert {e.entry: e.seed_rank for e in planning_entrants(rnd)} == {"1": 1, "2": 2}


@pytest.mark.django_db
def test_a_finished_championship_goes_into_the_archive_only_when_every_round_is_final(
        championship, capsys):
    assert main(["archive", "add", championship.slug]) == 2
    assert "rounds not final yet: individual first" in capsys.readouterr().err
    Round.objects.filter(event__championship=championship).update(state=RoundState.FINAL)
    assert main(["archive", "add", championship.slug]) == 0
    championship.refresh_from_db()
    assert championship.archived
    assert AuditEntry.objects.filter(championship=championship,
                                     action="puzzlecomp.archive.added").exists()


@pytest.mark.django_db
def test_an_archived_round_marks_no_one_as_going_on_by_todays_rules():
    """Review of issue 30: archived groups read "S1 by place (expected)" for ranks up to 85,
    the 2025 rule, where the published results say nothing of who went on."""
    from puzzlecomp.championships.engine import round_ranking
    from puzzlecomp.championships.services.qualifiers import round_qualification_marks

    imported()
    first = Round.objects.filter(event__championship__slug="wjpc-2024",
                                 event__code="individual").order_by("position").first()
    assert round_qualification_marks(first, round_ranking(first).lines) == {}
