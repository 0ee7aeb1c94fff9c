"""Issue 15, plausibility warnings at entry: a result that deserves a second look is flagged
with its reason, never refused (docs/judging.md, Second looks)."""

from __future__ import annotations

from puzzlecomp.rules.plausibility import (
    PlausibilityLimits,
    RecordedAt,
    count_after_finish,
    far_faster,
    faster_than_references,
    same_as_another_table,
    second_looks,
)


def finish(entry: str, seconds: int, *, table: int = 1, missing: int = 0) -> RecordedAt:
    return RecordedAt(entry, table, True, seconds, missing)


def codes(found: list) -> list[str]:
    return [v.code for v in found]


def test_far_faster_means_more_than_the_share_below_the_reference():
    assert far_faster(2999, 4000, 0.25)
    assert not far_faster(3000, 4000, 0.25)
    assert not far_faster(4500, 4000, 0.25)


def test_a_finish_far_faster_than_the_entrants_best_asks_for_a_second_look():
    """Issue 15 rule: a finish more than 25 % (the documented default) faster than the
    person's best is flagged, with the times in its reason."""
    found = faster_than_references(finish("7", 2400), best_seconds=3600, record_seconds=None)
    assert codes(found) == ["second_look.faster_than_best"]
    assert found[0].entry == "7"
    assert dict(found[0].params) == {"time": "0:40:00", "best": "1:00:00", "percent": 25}
    assert faster_than_references(finish("7", 2800), best_seconds=3600,
                                  record_seconds=None) == []


def test_a_finish_far_faster_than_the_record_asks_for_a_second_look():
    """Issue 15 rule: more than 10 % (default) under the record for the event and size."""
    found = faster_than_references(finish("7", 2600), best_seconds=None, record_seconds=3000)
    assert codes(found) == ["second_look.faster_than_record"]
    assert faster_than_references(finish("7", 2800), best_seconds=None,
                                  record_seconds=3000) == []


def test_the_shares_are_settings():
    strict = PlausibilityLimits(faster_than_best=0.05, faster_than_record=0.0)
    found = faster_than_references(finish("7", 3300), best_seconds=3600, record_seconds=3400,
                                   limits=strict)
    assert codes(found) == ["second_look.faster_than_best", "second_look.faster_than_record"]


def test_an_unfinished_entry_or_one_without_history_is_never_too_fast():
    counted = RecordedAt("7", 1, False, None)
    assert faster_than_references(counted, best_seconds=3600, record_seconds=3000) == []
    assert faster_than_references(finish("7", 60), best_seconds=None, record_seconds=None) == []


def test_the_same_time_and_missing_pieces_at_another_table_asks_for_a_second_look():
    """Issue 15 rule: two tables with the same time and the same missing pieces in one group."""
    found = same_as_another_table(finish("7", 2000, table=3, missing=2),
                                  [finish("30", 2000, table=17, missing=2)])
    assert codes(found) == ["second_look.same_as_table"]
    assert dict(found[0].params) == {"table": 17, "other": "30", "time": "0:33:20",
                                     "missing": 2}


def test_other_missing_pieces_or_another_second_is_no_reason():
    recorded = finish("7", 2000, table=3, missing=2)
    assert same_as_another_table(recorded, [finish("30", 2000, table=17, missing=1),
                                            finish("31", 2001, table=18, missing=2),
                                            RecordedAt("32", 19, False, None)]) == []


def test_without_missing_pieces_only_a_neighbouring_table_counts():
    """Two complete finishes at the same second are common in a big field; at the next table
    they look like a judge's slip."""
    recorded = finish("7", 2000, table=3)
    assert same_as_another_table(recorded, [finish("30", 2000, table=9)]) == []
    assert codes(same_as_another_table(recorded, [finish("8", 2000, table=4)])) == [
        "second_look.same_as_table"]
    assert codes(same_as_another_table(recorded, [finish("8", 2000, table=3)])) == [
        "second_look.same_as_table"]


def test_the_result_itself_is_not_another_table():
    assert same_as_another_table(finish("7", 2000), [finish("7", 2000)]) == []


def test_a_count_for_an_entry_recorded_as_finished_asks_for_a_second_look():
    """Issue 15 rule: a count recorded for someone already recorded as finished."""
    counted = RecordedAt("7", 3, False, None)
    found = count_after_finish(counted, finished_before=2500)
    assert codes(found) == ["second_look.count_after_finish"]
    assert dict(found[0].params) == {"time": "0:41:40"}
    assert count_after_finish(counted, finished_before=None) == []
    assert count_after_finish(finish("7", 2600), finished_before=2500) == []


def test_every_reason_is_given_together():
    found = second_looks(finish("7", 1000, table=3, missing=1), best_seconds=3000,
                         record_seconds=2000, finished_before=None,
                         others=[finish("9", 1000, table=40, missing=1)])
    assert codes(found) == ["second_look.faster_than_best", "second_look.faster_than_record",
                            "second_look.same_as_table"]
    assert second_looks(finish("7", 2900), best_seconds=3000, record_seconds=2000,
                        finished_before=None, others=[]) == []
