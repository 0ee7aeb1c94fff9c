"""The archive tells the truth (issue 30): puzzle sizes from the rules, debutants in history,
no birth-year category without its edition's rules, one person in one entry of a round."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    Person,
    Puzzle,
    Result,
    Round,
)
from puzzlecomp.championships.selectors.careers import counted_results
from puzzlecomp.championships.services.archive import archive_import
from puzzlecomp.cli.main import main
from puzzlecomp.formats.archive_sizes import read_edition_sizes
from puzzlecomp.formats.history_csv import read_history
from puzzlecomp.formats.results_csv import InputError

HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")
# The source says 1000 pieces for every pairs round, as ../shared/data does.
HISTORY = HEADER + """\
2023,duo,A,1,D1,Spain,True,1217.0,,1000,4500,Pa;Pb
2023,duo,A,2,D2,Spain,True,2000.0,,1000,4500,Pc;Pd
2023,duo,final,1,D1,Spain,True,2861.0,,1000,7200,Pa;Pb
2023,solo,A,1,E1,Spain,True,3000.0,,500,5400,Pa
2024,duo,A,1,F1,Spain,True,1500.0,,1000,4500,Pa;Pc
2024,solo,A,1,G1,Spain,True,2900.0,,500,5400,Pa
2024,solo,A,2,G2,Spain,True,3100.0,,500,5400,Pe
"""


def imported(text: str = HISTORY, **kwargs):
    return archive_import(rows=read_history(text, source="history.csv"), source="history.csv",
                          ruleset_id="wjpc-2025", slug_prefix="wjpc", title="WJPC", **kwargs)


def pieces(year: int, event: str, code: str) -> list[int | None]:
    return list(Puzzle.objects.filter(
        round__event__championship__slug=f"wjpc-{year}", round__event__code=event,
        round__code=code).order_by("position").values_list("pieces", flat=True))


@pytest.mark.django_db
def test_pairs_first_rounds_take_the_rulebooks_500_pieces_and_the_disagreeing_rows_are_named():
    """wjpc-2025.txt, Pairs First Round: 500 pieces; Final Pairs: 1000 pieces."""
    done = imported()
    assert pieces(2023, "pairs", "first") == [500]
    assert pieces(2023, "pairs", "final") == [1000]
    first, later = done.size_warnings
    assert (first.year, first.event, first.round, first.rows) == (2023, "pairs", "first", (2, 3))
    assert "history.csv, rows 2, 3, field puzzle_pieces: 2 rows of 2023 pairs first say 1000" \
        in str(first)
    assert (later.year, later.rows) == (2024, (6,))


@pytest.mark.django_db
def test_the_pairs_1000_piece_record_is_a_final_time_not_a_500_piece_first_round():
    imported()
    records = counted_results().world
    assert records[("pairs", 1000, "overall")].final_seconds == 2861
    assert records[("pairs", 500, "overall")].final_seconds == 1217


@pytest.mark.django_db
def test_the_import_command_warns_with_the_count_of_rows_whose_size_the_rules_contradict(
        tmp_path, capsys):
    path = tmp_path / "history.csv"
    path.write_text(HISTORY, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 0
    err = capsys.readouterr().err
    assert "warning: 3 rows give a puzzle size the rules contradict" in err
    assert "field puzzle_pieces: 1 rows of 2024 pairs first say 1000 pieces; the ruleset " \
           "says 500, taken" in err


@pytest.mark.django_db
def test_an_editions_file_gives_a_past_editions_own_puzzles(tmp_path, capsys):
    editions = tmp_path / "editions.toml"
    editions.write_text('[[rounds]]\nyear = 2023\nevent = "pairs"\nround = "final"\n'
                        'puzzles = [1000, 1500]\n', encoding="utf-8")
    path = tmp_path / "history.csv"
    path.write_text(HISTORY, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025", "--prefix", "wjpc",
                 "--editions", str(editions)]) == 0
    assert pieces(2023, "pairs", "final") == [1000, 1500]
    assert "the editions file says 1000 + 1500, taken" in capsys.readouterr().err


def test_a_bad_editions_file_names_its_table_and_field():
    with pytest.raises(InputError) as raised:
        read_edition_sizes('[[rounds]]\nyear = 2023\nevent = "pairs"\nround = "final"\n'
                           'puzzles = [0]\n', source="editions.toml")
    assert str(raised.value.problems[0]) == (
        "editions.toml, entry rounds[1], field puzzles: [0] is not a list of piece counts "
        "above zero")


@pytest.mark.django_db
def test_a_round_the_rules_do_not_size_must_give_one_size_or_nothing_is_imported():
    text = HISTORY + ("2024,solo,X,1,H1,Spain,True,900.0,,500,5400,Px\n"
                      "2024,solo,X,2,H2,Spain,True,950.0,,300,5400,Py\n")
    with pytest.raises(InputError) as raised:
        imported(text)
    assert [str(p) for p in raised.value.problems] == [
        "history.csv, row 10, entry H2, field puzzle_pieces: 300 pieces, but row 9 of the same "
        "round says 500 and the rules do not size round X"]
    assert not Championship.objects.exists()
    assert not Person.objects.exists()


@pytest.mark.django_db
def test_archived_entries_carry_the_debutant_fact_per_event():
    """wjpc-2025.txt, Subcategories: a debutant has not competed in this category at any
    previous edition."""
    imported()

    def debutant(year: int, event: str, person: str) -> bool:
        return EntryMember.objects.get(entry__event__championship__slug=f"wjpc-{year}",
                                       entry__event__code=event,
                                       person__archive_id=person).debutant

    assert debutant(2023, "pairs", "Pa")
    assert debutant(2023, "individual", "Pa")
    assert not debutant(2024, "pairs", "Pa")
    assert not debutant(2024, "individual", "Pa")
    assert debutant(2024, "individual", "Pe")
    # Pc played pairs in 2023 with someone else: still not a debutant of the category.
    assert not debutant(2024, "pairs", "Pc")


@pytest.mark.django_db
def test_debutant_records_and_ranking_lines_exist_for_the_archive():
    imported()
    records = counted_results().world
    assert records[("individual", 500, "debutant")].final_seconds == 3000
    assert records[("pairs", 500, "debutant")].final_seconds == 1217


@pytest.mark.django_db
def test_a_birth_year_category_is_judged_only_by_its_own_editions_rules():
    """wjpc-2025.txt, Subcategories: Senior B is born in 1964 or before, for 2025. A 2023 result
    of an archive imported with the 2025 rules has no age category: 2023's limits are unknown."""
    import datetime as dt

    imported(HISTORY + "2025,solo,A,1,K1,Spain,True,3300.0,,500,5400,Pold\n")
    Person.objects.filter(archive_id__in=["Pa", "Pold"]).update(birth_date=dt.date(1950, 1, 1))
    results = counted_results().results
    individual = [r for r in results if r.round.event_code == "individual"]
    assert {r.round.year for r in individual} == {2023, 2024, 2025}
    assert not any("senior-b" in r.categories for r in individual if r.round.year < 2025)
    assert [r.round.year for r in individual if "senior-b" in r.categories] == [2025]
    assert Result.objects.filter(round__in=Round.objects.all()).count() == 8


@pytest.mark.django_db
def test_a_person_in_two_entries_of_one_round_is_two_namesakes_reported_and_kept_apart(
        tmp_path, capsys):
    """wjpc-2025.txt, Registration: one entry per person and category. The source gives two
    people of one name one id; the import keeps their histories apart."""
    text = HISTORY + ("2024,duo,B,1,F2,Spain,True,1600.0,,500,4500,Pe;Pa\n"
                      "2024,duo,final,1,F2,Spain,True,3000.0,,1000,7200,Pe;Pa\n")
    path = tmp_path / "history.csv"
    path.write_text(text, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025", "--prefix",
                 "wjpc"]) == 0
    err = capsys.readouterr().err
    assert ("history.csv, row 9, entry F2, field people: person Pa is also in entrant F1 of "
            "this round (row 6): a namesake, kept apart as Pa~2024-pairs-F2") in err
    assert ("warning: 1 entries name a person already in another entry of the round, or of "
            "the event and edition with other members") in err
    assert "1 ids: Pa\n" in err
    namesake = Person.objects.get(archive_id="Pa~2024-pairs-F2")
    assert EntryMember.objects.filter(person=namesake).count() == 1
    assert EntryMember.objects.filter(person__archive_id="Pa",
                                      entry__event__championship__slug="wjpc-2024",
                                      entry__event__code="pairs").count() == 1


@pytest.mark.django_db
def test_a_person_in_two_entries_of_one_event_and_edition_with_other_members_is_two_namesakes(
        tmp_path, capsys):
    """Issue 30 (left open at stop 32), wjpc-2025.txt, Registration: one entry per person and
    category, so one id in a first-round pair and in another pair of the final is two people
    (reported with the count and the ids); the same pair renumbered in the final is one."""
    text = HISTORY + ("2024,duo,final,1,F9,Spain,True,3000.0,,1000,7200,Pa;Pc\n"
                      "2024,duo,S1,1,F8,Spain,True,2100.0,,500,4500,Pe;Pa\n")
    path = tmp_path / "history.csv"
    path.write_text(text, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025", "--prefix",
                 "wjpc"]) == 0
    err = capsys.readouterr().err
    assert ("history.csv, row 10, entry F8, field people: person Pa is also in entrant F1 of "
            "this event and edition, with other members (row 6): a namesake, kept apart as "
            "Pa~2024-pairs-F8") in err
    assert "1 ids: Pa\n" in err
    # F9 is F1 (Pa and Pc) renumbered for the final: the same people.
    assert EntryMember.objects.filter(person__archive_id="Pa",
                                      entry__event__championship__slug="wjpc-2024",
                                      entry__event__code="pairs").count() == 2
    assert EntryMember.objects.filter(person__archive_id="Pa~2024-pairs-F8").count() == 1


@pytest.mark.django_db
def test_the_shipped_sample_takes_the_rules_sizes_and_says_how_many_rows_disagreed(capsys):
    """wjpc-2025.txt: pairs first rounds and semifinals of 500 pieces, finals of 1000; the
    sample's editions file gives the 2019 pairs round (500) and the 2022 teams final."""
    assert main(["archive", "import", "sample", "--ruleset", "wjpc-2025"]) == 0
    err = capsys.readouterr().err
    assert "warning: 2037 rows give a puzzle size the rules contradict" in err
    assert pieces(2019, "pairs", "final") == [500]
    assert pieces(2022, "teams", "final") == [1000, 1500]
    assert pieces(2024, "pairs", "semifinal") == [500]
    assert counted_results().world[("pairs", 1000, "overall")].final_seconds == 2861
    assert "namesake" in err


# The 2019 teams final as ../shared/data gives it: 2000 pieces, but counts past 2000.
TEAMS_2019 = HEADER + """\
2019,group,final,1,T1,Spain,True,20000.0,,2000,28800,Pa;Pb;Pc;Pd
2019,group,final,2,T2,Spain,False,,4897,2000,28800,Pe;Pf;Pg;Ph
2019,group,final,3,T3,Spain,False,,2100,2000,28800,Pi;Pj;Pk;Pl
2019,group,final,4,T4,Spain,False,,1500,2000,28800,Pm;Pn;Po;Pq
"""


@pytest.mark.django_db
def test_counts_past_the_rounds_pieces_are_named_by_file_row_and_field(tmp_path, capsys):
    """wjpc-2025.txt, Final Teams (two 1000-piece puzzles); archive review finding 2: the 2019 teams
    final placed up to 4,897: the import says which rows, in the command's warnings too."""
    done = imported(TEAMS_2019)
    [over] = done.pieces_warnings
    assert (over.year, over.event, over.round, over.rows, over.most) == \
        (2019, "teams", "final", (3, 4), 4897)
    assert "history.csv, rows 3, 4, field pieces: 2 rows of 2019 teams final placed more " \
           "than the 1000 + 1000 pieces of the rules (up to 4897); the round is kept " \
           "unsized" in str(over)
    path = tmp_path / "history.csv"
    path.write_text(TEAMS_2019, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025",
                 "--prefix", "again"]) == 0
    assert "field pieces: 2 rows of 2019 teams final placed more" in capsys.readouterr().err


# WJPC 2022 teams group A as ../shared/data gives it: ranks 70 and 71 finished, ranked among
# the unfinished (their counts unpublished).
RANKED_AMONG_UNFINISHED = HEADER + """\
2022,group,A,65,T65,Spain,True,9000.0,,2000,10800,Pa;Pb;Pc;Pd
2022,group,A,68,T68,Spain,False,,1131,2000,10800,Pv;Pw;Px;Py
2022,group,A,69,T69,Spain,False,,1042,2000,10800,Pe;Pf;Pg;Ph
2022,group,A,70,T70,Spain,True,10057.0,,2000,10800,Pi;Pj;Pk;Pl
2022,group,A,71,T71,Spain,True,10530.0,,2000,10800,Pm;Pn;Po;Pq
2022,group,A,72,T72,Spain,False,,963,2000,10800,Pr;Ps;Pt;Pu
2022,group,A,73,T73,Spain,False,,952,2000,10800,Pz;Qa;Qb;Qc
"""


@pytest.mark.django_db
def test_finishes_ranked_among_the_unfinished_are_taken_as_unfinished_between_neighbours(
        tmp_path, capsys):
    """wjpc-2025.txt, Classification (finishers by time, then the most pieces placed); archive
    review finding 4, as ../shared/data/README.md advises: not finished, a count between the
    neighbours', so the published ranks stand and no best time is made up."""
    done = imported(RANKED_AMONG_UNFINISHED)
    assert [(u.row, u.entrant, u.pieces) for u in done.ranked_unfinished] == \
        [(5, "T70", 1016), (6, "T71", 989)]
    assert "history.csv, row 5, entry T70, field completed: finished but ranked 70" \
        in str(done.ranked_unfinished[0])
    stored = {r.published_rank: (r.status, r.time_seconds, r.pieces) for r in Result.objects.all()}
    assert stored[65] == ("finished", 9000, None)
    assert stored[70] == ("unfinished", None, 1016)
    assert stored[71] == ("unfinished", None, 989)
    path = tmp_path / "history.csv"
    path.write_text(RANKED_AMONG_UNFINISHED, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025",
                 "--prefix", "again"]) == 0
    assert "entry T71, field completed: finished but ranked 71" in capsys.readouterr().err


# The 2024 teams final's column is its slowest finish (2:41:33), not the limit.
LIMITS = HEADER + """\
2024,group,final,1,T1,Spain,True,9000.0,,2000,9693,Pa;Pb;Pc;Pd
2024,group,final,2,T2,Spain,True,9693.0,,2000,9693,Pe;Pf;Pg;Ph
2019,group,final,1,T3,Spain,True,20000.0,,2000,28800,Pi;Pj;Pk;Pl
"""


@pytest.mark.django_db
def test_an_archived_rounds_time_limit_is_the_rules_unless_a_finish_passes_it():
    """wjpc-2025.txt, Teams Final: 3 hours (archive review finding 3): the 2024 column's
    2:41:33 is its slowest finish; the 2019 final's 8 hours, passed by a finish, stay."""
    done = imported(LIMITS)
    limits = dict(Round.objects.values_list("event__championship__slug", "time_limit_minutes"))
    assert limits == {"wjpc-2024": 180, "wjpc-2019": 480}
    ruled, passed = sorted(done.limit_warnings)
    assert "history.csv, rows 4, field time_limit_seconds: 2019 teams final says 28800, the " \
           "ruleset 180 minutes; a finish passes them" in passed
    assert "rows 2, 3, field time_limit_seconds: 2024 teams final says 9693; the ruleset's " \
           "180 minutes taken" in ruled


@pytest.mark.django_db
def test_an_entry_renumbered_after_the_first_round_keeps_its_members_person(capsys):
    """Review of issue 30, finding 3: the 2024 pairs semifinal and final name under a new
    entrant id a pair whose first-round rows stop (one member named otherwise). An entry with
    no first-round row that shares a member with such an entry is that entry renumbered: its
    member is the same person, not a namesake."""
    text = HISTORY + ("2024,duo,B,1,F5,Spain,True,1500.0,,1000,4500,Pf;Pg\n"
                      "2024,duo,S1,1,F6,Spain,True,2100.0,,1000,4500,Pf;Ph\n"
                      "2024,duo,final,1,F6,Spain,True,3100.0,,1000,7200,Pf;Ph\n")
    done = imported(text)
    assert not [n for n in done.namesakes if n.person == "Pf"]
    assert not Person.objects.filter(archive_id__startswith="Pf~").exists()
    assert EntryMember.objects.filter(person__archive_id="Pf").count() == 2


@pytest.mark.django_db
def test_an_archived_round_is_not_live(client):
    """Review of issue 30, finding 10: an archived round changes no more, so its page neither
    follows the live stream nor says it would update."""
    from django.urls import reverse

    imported()
    rnd = Round.objects.get(event__championship__slug="wjpc-2023", event__code="pairs",
                            code="final")
    page = client.get(reverse("public:live:round", args=["wjpc-2023", rnd.pk])).content.decode()
    assert "data-settled" in page
    assert "does not update by itself" not in page


@pytest.mark.django_db
def test_an_unsized_rounds_snapshot_gives_no_size_rather_than_zero_pieces():
    """Review of issue 30, finding 9: the API and live snapshot of the unsized 2019 teams final
    said `"pieces": 0`; its size is unknown (null)."""
    from puzzlecomp.live.snapshot import round_snapshot

    imported(TEAMS_2019)
    final = Round.objects.get(event__championship__slug="wjpc-2019", event__code="teams",
                              code="final")
    assert final.size_unknown
    assert round_snapshot(final)["round"]["pieces"] is None
