"""Printable PDFs of a round: table cards, judges' result sheets and participant lists."""

from puzzlecomp.championships.printing.documents import (
    Heading,
    ListLine,
    participant_list_pdf,
    result_sheets_pdf,
    table_cards_pdf,
)

__all__ = ["Heading", "ListLine", "participant_list_pdf", "result_sheets_pdf", "table_cards_pdf"]
