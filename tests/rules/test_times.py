from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.times import format_time, parse_time


@pytest.mark.parametrize(("text", "seconds"), [
    ("1:02:03", 3723), ("62:03", 3723), ("3723", 3723), ("2184.0", 2184), (" 0:05 ", 5),
])
def test_judges_write_times_as_h_mm_ss_mm_ss_or_seconds(text, seconds):
    assert parse_time(text) == seconds


@pytest.mark.parametrize("text", ["", "1:60", "1:61:00", "abc", "-5", "1.5", "1:2:3:4"])
def test_anything_else_is_not_a_time(text):
    with pytest.raises(ValueError, match="is not a time"):
        parse_time(text)


@given(st.integers(0, 10 * 3600))
def test_formatted_times_read_back(seconds):
    assert parse_time(format_time(seconds)) == seconds
