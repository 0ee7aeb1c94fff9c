"""Printable PDFs of a round: table cards, judges' result sheets, participant lists
and the check-in desk's list."""

from puzzlecomp.championships.printing.documents import (
    DeskLine,
    Heading,
    ListLine,
    check_in_list_pdf,
    participant_list_pdf,
    result_sheets_pdf,
    table_cards_pdf,
)
from puzzlecomp.championships.printing.sheet_rules import SheetRules, sheet_rules_get

__all__ = ["DeskLine", "Heading", "ListLine", "SheetRules", "check_in_list_pdf",
           "participant_list_pdf", "result_sheets_pdf", "sheet_rules_get", "table_cards_pdf"]
