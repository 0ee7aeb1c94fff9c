"""The largest championship puzzlecomp is meant for: a bound on every number a person types
or a file carries, so no input can make a page or an import grow without limit.

Each bound is far above any real championship (WJPC 2025: about 1,200 individuals, 108
tables in twelve rows, three-hour rounds) and far below what would strain the server.
The rulebooks ask for at most teams of four (WJPC 2025 teams, Czech relay), puzzles of
1,000 pieces (4,500 pieces a relay team places, Czech relay) and five hours (Czech relay):
20 members, 100,000 pieces and a day are absurd beyond doubt. Every path that takes a value
(forms, the device API, the championship file, the archive's results) bounds it from here.
"""

from __future__ import annotations

import re
from decimal import Decimal

# The hall: rows of tables, front to back.
MAX_ROWS = 200
MAX_TABLES_PER_ROW = 500
MAX_TABLES = 5_000
# Entries, people and their numbers in one championship.
MAX_ENTRIES = 20_000
MAX_ENTRY_NUMBER = 999_999
MAX_PEOPLE = 50_000
MAX_MEMBERS = 20
# Events, rounds, groups and puzzles.
MAX_EVENTS = 50
MAX_ROUNDS = 20
MAX_GROUPS = 100
MAX_PUZZLES = 20
MAX_MODELS = 20
MAX_PIECES = 100_000
# Time: a round lasts at most a day; times and credits are seconds within it.
MAX_MINUTES = 24 * 60
MAX_SECONDS = 24 * 60 * 60
MAX_YEARS = 150
# Years of a championship (the archive's results): puzzle championships began in the 20th century.
MIN_YEAR = 1900
MAX_YEAR = 2200
# Money in the fee's currency: a fee, a payment, what one entry paid in all. A million is far
# above any entry fee (WJPC 2025: 60 EUR an individual); a team's fee sums at most MAX_MEMBERS fees,
# which still fits the database's columns (10 digits, 2 after the point: 99,999,999.99).
MAX_MONEY = Decimal("1000000.00")
# Rows of a championship file's results, seats, qualifiers: every entry in every round.
MAX_ROUND_ROWS = 200_000
MAX_VERSION = 1_000_000
# A random seed typed by an organiser, and a database id in a form.
MAX_SEED = 2**32 - 1
MAX_ID = 2**63 - 1
# Nesting of a JSON value (settings, a multi-puzzle result) and the file's size.
MAX_JSON_DEPTH = 32
MAX_CHAMPIONSHIP_FILE_BYTES = 50 * 1024 * 1024

# Control characters (NUL among them) in text a person types: PostgreSQL stores no NUL, and
# none belongs in a name or a note. Tab, line feed and carriage return are text.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same as a JSON Schema pattern, for the API's document.
PLAIN_TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"


def has_line_break(text: str) -> bool:
    """True when the text spans more than one line: a name is one line (it heads a page and
    an email's subject)."""
    return "".join(text.splitlines()) != text


# A one-line text (a name, a cell of an import): no tab either, and no C1 control (U+0080-U+009F).
LINE_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def has_line_control_characters(text: str) -> bool:
    """True when one-line text holds a tab or another control character (C0, DEL or C1)."""
    return LINE_CONTROL_CHARACTERS.search(text) is not None


def is_plain_line(text: str) -> bool:
    """True when the text is one line without a tab or another control character."""
    return not has_line_break(text) and not has_line_control_characters(text)


def has_control_characters(text: str) -> bool:
    """True when the text holds a control character other than tab and line breaks."""
    return CONTROL_CHARACTERS.search(text) is not None
