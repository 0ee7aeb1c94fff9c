"""Dates as an international championship writes them, and the site's icon."""

from __future__ import annotations

import datetime as dt

from django.utils import translation

from puzzlecomp.championships.messages import message_of


def test_english_dates_are_day_first_on_a_24_hour_clock_and_end_no_sentence_twice():
    ends = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)
    with translation.override("en"):
        text = message_of("dispute.window_closed", "", {"ends": ends})
    assert text == "Disputes of this round closed at 7 March 2026, 09:00."


def test_czech_dates_keep_their_own_format():
    ends = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)
    with translation.override("cs"):
        text = message_of("dispute.window_closed", "", {"ends": ends})
    assert "7. března 2026 9:00" in text


def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("puzzlecomp/favicon.svg")
