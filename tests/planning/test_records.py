"""Records and personal bests (docs/archive.md, "Records"): the fastest final time of an event
and puzzle size; the badge on live results when a time breaks one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.planning.records import (
    RecordKind,
    TimedResult,
    national_records,
    personal_bests,
    record_kind,
    world_records,
)


def timed(result: int, seconds: int, *, event: str = "individual", pieces: int = 500,
          country: str = "CZE", people: tuple[int, ...] = (1,),
          categories: frozenset[str] = frozenset(), edition: str = "2024") -> TimedResult:
    return TimedResult(result, event, pieces, seconds, country, people, categories,
                       (edition, 0))


results = st.lists(st.builds(
    timed, result=st.integers(0, 10_000), seconds=st.integers(600, 9000),
    event=st.sampled_from(["individual", "pairs"]), pieces=st.sampled_from([500, 1000]),
    country=st.sampled_from(["CZE", "ESP", ""]), people=st.tuples(st.integers(1, 5)),
    categories=st.frozensets(st.sampled_from(["junior-18", "senior-a"])),
    edition=st.sampled_from(["2019", "2024"])), max_size=40)


@given(results)
def test_a_record_is_never_slower_than_any_counted_result_of_its_event_size_and_category(found):
    records = world_records(found)
    for result in found:
        for category in ("overall", *result.categories):
            held = records[(result.event, result.puzzle_pieces, category)]
            assert held.final_seconds <= result.final_seconds
    assert set(records.values()) <= set(found)


@given(results)
def test_a_national_record_is_the_fastest_of_its_country_and_never_beats_the_world_record(found):
    world = world_records(found)
    for (event, pieces, country), held in national_records(found).items():
        assert held.country == country
        assert all(held.final_seconds <= r.final_seconds for r in found
                   if (r.event, r.puzzle_pieces, r.country) == (event, pieces, country))
        assert world[(event, pieces, "overall")].final_seconds <= held.final_seconds


@given(results, st.integers(1, 5))
def test_a_personal_best_is_the_persons_fastest_and_theirs(found, person):
    for (event, pieces), best in personal_bests(found, person).items():
        assert person in best.people
        assert all(best.final_seconds <= r.final_seconds for r in found
                   if person in r.people and (r.event, r.puzzle_pieces) == (event, pieces))


def test_on_equal_times_the_record_set_first_stands():
    later, earlier = timed(1, 3000, edition="2024"), timed(2, 3000, edition="2019")
    assert world_records([later, earlier])[("individual", 500, "overall")] == earlier


def test_a_time_breaks_the_world_record_only_when_faster_than_it_and_every_rival():
    assert record_kind(2899, world=2900, national=3000) is RecordKind.WORLD
    assert record_kind(2900, world=2900, national=3000) is RecordKind.NATIONAL
    assert record_kind(3000, world=2900, national=3000) is None
    # Another line of the same round was faster still: that one holds the record.
    assert record_kind(2899, world=2900, national=None, rivals=[2800]) is None


def test_no_record_stands_yet_so_none_is_broken():
    """The first finish of a new puzzle size sets a record but earns no badge."""
    assert record_kind(1000, world=None, national=None) is None
