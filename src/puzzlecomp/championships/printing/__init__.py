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

__all__ = ["DeskLine", "Heading", "ListLine", "check_in_list_pdf", "participant_list_pdf",
           "result_sheets_pdf", "table_cards_pdf"]
