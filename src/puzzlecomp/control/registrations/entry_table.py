"""The rows of the organiser's entry list as HTML, built in Python.

The list runs to 1,200 lines; Django's template engine spends about half a millisecond on each
line of the equivalent template, plain string formatting with html.escape a few microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.urls import reverse
from django.utils import dateformat, formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from puzzlecomp.championships.models import Championship, EntryStatus, Event
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.registration import EntryRow

# The date and time of registration may go on two lines and the actions stack, one a line,
# each wrapping between its words: with the official ranking's column the list still fits
# 1280 px in every language ("Opplysninger fra historikken" is long).
_ROW = ('<tr><td class="num">{}</td><td>{}{}<br><span class="muted">{}</span></td><td>{}{}</td>'
        '{}<td>{}</td>{}<td>{}</td><td>{}</td><td class="num nowrap">{}</td>'
        '<td class="num nowrap">{}</td><td class="num nowrap">{}</td>'
        '<td class="entry-actions">{}</td></tr>')
_PLACEHOLDER = "999999999"


def entry_table_rows(rows: Sequence[EntryRow], *, championship: Championship,
                     event: Event, default_currency: str, age_column: bool,
                     foreign_column: bool) -> SafeString:
    """The rows of the entry list, escaped, with their payment, cancel and history links."""
    links = {name: reverse(f"control:registrations:{name}",
                           args=[championship.slug, event.code, int(_PLACEHOLDER)])
             for name in ("payment", "cancel", "history")}
    mixed = f' <span class="badge mixed">{escape(_("mixed"))}</span>'
    # "Cancel" here withdraws a registration, unlike the Cancel of a form.
    cancel = pgettext("registration", "Cancel")
    # One link a line keeps the list within 1280 px; "History" elsewhere is a result's
    # history, so this page is named for what it holds.
    actions = (f'<a href="{escape(links["payment"])}">{escape(_("Payment"))}</a><br>'
               f'<a href="{escape(links["cancel"])}">{escape(cancel)}</a><br>'
               f'<a href="{escape(links["history"])}">{escape(_("Facts from history"))}</a>')
    # Citizenship and residence decide the official ranking: the organiser corrects them
    # from the official ranking's column (the actions column is wide enough already).
    facts_url = reverse("control:registrations:person_facts",
                        args=[championship.slug, event.code, int(_PLACEHOLDER)])
    facts = (f'<a href="{escape(facts_url)}">{escape(_("Person facts"))}</a>'
             if foreign_column else "")
    statuses = {value: escape(str(label)) for value, label in EntryStatus.choices}
    decimal_separator = formats.get_format("DECIMAL_SEPARATOR")
    date_format = formats.get_format("SHORT_DATETIME_FORMAT")
    yes, foreign = escape(_("yes")), escape(_("foreign"))

    def money(amount: object, currency: str) -> str:
        return escape(f"{f'{amount:.2f}'.replace('.', decimal_separator)} {currency}".strip())

    html = []
    for row in rows:
        entry = row.entry
        currency = entry.fee_currency or default_currency
        members = (
            '<br><span class="muted">'
            + escape(", ".join(f"{m.first_name} {m.last_name}" for m in row.members))
            + "</span>" if len(row.members) > 1 else "")
        status = (escape(_("drawn into team #%(team)s") % {"team": row.drawn_into})
                  if row.drawn_into else statuses[entry.status])
        html.append(_ROW.format(
            entry.number, escape(entry.name), members, escape(entry.contact_email),
            escape(entry.country), mixed if entry.mixed else "",
            f"<td>{escape(', '.join(map(ruleset_text, row.age_categories)))}</td>"
            if age_column else "",
            yes if row.accompanied_by_adult else "",
            f"<td>{foreign + '<br>' if row.foreign else ''}"
            f"{facts.replace(_PLACEHOLDER, str(entry.number))}</td>"
            if foreign_column else "", status,
            escape(dateformat.format(timezone.localtime(entry.registered_at), date_format)),
            money(entry.fee_amount, currency) if entry.fee_amount is not None
            else "\N{EN DASH}",
            money(entry.paid_amount, currency) + (" ✓" if row.outstanding == 0 else ""),
            money(entry.refund_amount, currency) if entry.refund_amount is not None else "",
            "" if entry.status == EntryStatus.CANCELLED
            else actions.replace(_PLACEHOLDER, str(entry.number)),
        ))
    # Every value above went through escape(): the joined rows are safe HTML.
    return mark_safe("\n".join(html))
