"""What `archive import` and `seed` refuse in a published results row because the engine would
refuse it in the archived round (docs/archive.md): so an archived championship always ranks, and
a seeding never rests on a row the archive would refuse. Members are checked by the history
reader (blank ones) and warned about here (their number).

- a division the ruleset has no event for;
- an entrant twice in one round, or with other people in another round of its event;

- a finish past the row's own published time limit (`result.finish_past_limit`);
- more pieces placed than the puzzle has, in a round the ruleset plays with one puzzle
  (`result.pieces_above_size`). A multi-puzzle round's published count spans puzzles whose
  number the file does not give, so it is left to the round's puzzle sizes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from puzzlecomp.formats.archive_sizes import round_of
from puzzlecomp.formats.history_csv import PublishedResult, history_rows
from puzzlecomp.formats.member_checks import count_problem
from puzzlecomp.formats.results_csv import InputError, InputProblem
from puzzlecomp.rules.ruleset import Event, Round, Ruleset
from puzzlecomp.rules.times import format_time


def read_archive_rows(text: str, *, source: str, ruleset: Ruleset) -> list[PublishedResult]:
    """A published results file's rows, checked as the archive checks them; InputError lists
    every problem of the file in one run: each row's parse problems and the archive's."""
    rows, problems = history_rows(text, source=source)
    problems += archive_rows_problems(rows, source=source, ruleset=ruleset)
    if problems:
        raise InputError(sorted(problems, key=lambda problem: problem.row or 0))
    return rows


def archive_rows_problems(rows: Sequence[PublishedResult], *, source: str,
                          ruleset: Ruleset) -> list[InputProblem]:
    """Every row the archive refuses, naming file, row, entrant and field: a division the ruleset
    has no event for, a row the engine would refuse (archive_row_problems), an entrant twice in
    one round or with other people in another round."""
    problems: list[InputProblem] = []
    events = {spec.id: spec for spec in ruleset.events}
    seen: dict[tuple[int, str, str, str], PublishedResult] = {}
    members: dict[tuple[int, str, str], tuple[str, ...]] = {}
    for row in rows:
        def problem(field: str, message: str, row: PublishedResult = row) -> None:
            problems.append(InputProblem(source, row.row, row.entrant, field, message))

        spec = events.get(row.event)
        if spec is None:
            problem("division", f"ruleset {ruleset.id} has no event {row.event}")
            continue
        code = round_of(spec, row.round).code
        key = (row.year, row.event, code, row.entrant)
        rnd = next((candidate for candidate in spec.rounds if candidate.id == code), None)
        for field, message in archive_row_problems(row, spec, rnd):
            problem(field, message)
        if key in seen:
            problem("round", f"entrant {row.entrant} is already in this round "
                             f"({seen[key].round}, row {seen[key].row})")
        seen.setdefault(key, row)
        known = members.setdefault((row.year, row.event, row.entrant), row.people)
        if known != row.people:
            problem("people", f"entrant {row.entrant} has other people in another round")
    return problems


def archive_row_problems(row: PublishedResult, event: Event,
                         rnd: Round | None) -> list[tuple[str, str]]:
    """(field, message) of everything the engine would refuse in this row; `rnd` is the
    ruleset round the row's round label is (None: a round the ruleset does not name)."""
    problems: list[tuple[str, str]] = []
    if row.completed and row.time_seconds is not None \
            and row.time_seconds > row.time_limit_seconds:
        problems.append(("time_seconds", f"finish {format_time(int(row.time_seconds))} is past "
                         f"the published limit of {format_time(row.time_limit_seconds)}"))
    single = rnd is None or (len(rnd.puzzle_sizes) <= 1 and not rnd.relay_parts)
    if not row.completed and single and row.pieces_placed is not None \
            and row.pieces_placed > row.puzzle_pieces:
        problems.append(("pieces", f"{row.pieces_placed:g} pieces placed is more than the "
                         f"puzzle's {row.puzzle_pieces} pieces"))
    return problems


def member_count_warnings(rows: Iterable[PublishedResult], ruleset: Ruleset,
                          source: str) -> list[str]:
    """One line per row whose pair or team lists fewer or more members than the ruleset's event
    takes. Warned, not refused: a published record lists the members whose names were
    published (the shipped WJPC 2025 sample has teams of 2 and of 5), and an archived round
    ranks without them. A repeated id counts each time (two people of one name share one)."""
    events = {event.id: event for event in ruleset.events}
    warnings = []
    for row in rows:
        event = events.get(row.event)
        listed = row.members_listed if row.members_listed is not None else len(row.people)
        wrong = count_problem(listed, event) if event and row.people else None
        if wrong:
            warnings.append(f"warning: {source}, row {row.row}, entry {row.entrant}, field "
                            f"people: {wrong}")
    return warnings
