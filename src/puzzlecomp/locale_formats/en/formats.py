"""English dates for an international championship: day first, 24-hour clock, no seconds.

Django's American defaults write "Dec. 1, 2026, 9 a.m.", whose closing full stop doubles at
the end of a sentence, and "12/01/2026", which half the entrants read as the 12th of January.
"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
