"""Treasurer screens: totals, the account, statement import with preview, the queue."""

from __future__ import annotations

import base64
import binascii

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import violation_message
from puzzlecomp.championships.models import BankTransaction, Championship, Entry, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.selectors.payments import (
    championship_currency,
    payment_account,
    payouts,
    statement_preview,
    treasurer_overview,
    treasurer_queue,
)
from puzzlecomp.championships.services.payments import (
    AccountDetails,
    bank_line_assign,
    bank_line_resolve,
    payment_account_set,
    payouts_export,
    statement_import,
)
from puzzlecomp.control.payments.forms import AccountForm, AssignForm, ResolveForm, StatementForm
from puzzlecomp.formats.bank.reading import MAX_STATEMENT_BYTES, read_statement
from puzzlecomp.formats.bank.statements import check_currency
from puzzlecomp.formats.results_csv import InputError
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.payments.references import entry_key_of

STATE_LABELS = (("paid", gettext_lazy("paid")), ("partial", gettext_lazy("part-paid")),
                ("unpaid", gettext_lazy("unpaid")), ("refund_due", gettext_lazy("refund due")),
                ("waiting", gettext_lazy("waiting")), ("free", gettext_lazy("no fee")),
                ("cancelled", gettext_lazy("cancelled")))
STATES = tuple(code for code, _label in STATE_LABELS)
STATUS_LABELS = (("matched", gettext_lazy("matched")), ("partial", gettext_lazy("part-paid")),
                 ("overpaid", gettext_lazy("overpaid")), ("unknown", gettext_lazy("unknown")),
                 ("ambiguous", gettext_lazy("ambiguous")),
                 ("already_imported", gettext_lazy("imported before")),
                 ("ignored", gettext_lazy("ignored")))
REASON_LABELS = (
    ("reference", gettext_lazy("by its reference")),
    ("amount_and_name", gettext_lazy("by amount and payer's name (no readable reference)")),
    ("no_reference", gettext_lazy("no reference, and no entry fits amount and name")),
    ("reference_of_no_entry", gettext_lazy("the reference names no open entry")),
    ("several_entries", gettext_lazy("amount and name fit several entries")),
    ("seen_before", gettext_lazy("this bank transaction was imported before")),
    ("outgoing", gettext_lazy("money going out")),
)
LABELS = {"state_labels": STATE_LABELS, "status_labels": STATUS_LABELS,
          "reason_labels": REASON_LABELS}


def _refused(request: HttpRequest, refused: RulesError) -> None:
    for violation in refused.violations:
        messages.error(request, violation_message(violation))


@requires_role(Role.ORGANISER)
def overview(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Money per event and currency, every entry's state (filtered), and the queue."""
    events, rows = treasurer_overview(championship)
    state = request.GET.get("state", "")
    shown = [row for row in rows if row.state == state] if state in STATES else rows
    return render(request, "control/payments/overview.html", {
        "championship": championship, "events": events, "rows": shown, "state": state,
        "states": STATES, "queue": treasurer_queue(championship),
        "account": payment_account(championship), "statement_form": StatementForm(),
        "payouts": payouts(championship, "refund") + payouts(championship, "prize"),
        **LABELS,
    })


@requires_role(Role.ORGANISER)
def account(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The organiser's bank account, validated."""
    current = payment_account(championship)
    initial = {name: getattr(current, name) for name in AccountForm.base_fields} if current \
        else {}
    form = AccountForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            payment_account_set(championship=championship, by=request.user,
                                details=AccountDetails(**form.cleaned_data))
        except RulesError as refused:
            _refused(request, refused)
        else:
            messages.success(request, _("Bank account saved."))
            return redirect("control:payments:overview", championship.slug)
    return render(request, "control/payments/account.html", {
        "championship": championship, "form": form})


@requires_role(Role.ORGANISER)
@require_POST
def statement(request: HttpRequest, championship: Championship) -> HttpResponse:
    """A statement uploaded: its preview (nothing stored); confirmed: imported."""
    if "content" in request.POST:
        try:
            content = base64.b64decode(request.POST["content"], validate=True)
        except (binascii.Error, ValueError):
            messages.error(request, _("The statement could not be read: upload it again."))
            return redirect("control:payments:overview", championship.slug)
        name = request.POST.get("name", "statement")[:200]
    else:
        form = StatementForm(request.POST, request.FILES)
        if not form.is_valid():
            messages.error(request, _("Choose a statement file."))
            return redirect("control:payments:overview", championship.slug)
        upload = form.cleaned_data["statement"]
        if upload.size > MAX_STATEMENT_BYTES:
            messages.error(request, _("The file is too large for a statement."))
            return redirect("control:payments:overview", championship.slug)
        content, name = upload.read(), upload.name
    try:
        lines = read_statement(content, source=name)
        check_currency(lines, championship_currency(championship), source=name)
    except InputError as error:
        for problem in error.problems:
            messages.error(request, str(problem))
        return redirect("control:payments:overview", championship.slug)
    if request.POST.get("confirm") == "1":
        previews = statement_import(championship=championship, lines=lines, source=name,
                                    by=request.user)
        paying = sum(1 for p in previews if p.match.pays)
        messages.success(request, _("Statement imported: %(paying)s of %(lines)s lines pay "
                                    "entries.") % {"paying": paying, "lines": len(previews)})
        return redirect("control:payments:overview", championship.slug)
    return render(request, "control/payments/preview.html", {
        "championship": championship, "previews": statement_preview(championship, lines),
        "content": base64.b64encode(content).decode(), "name": name, **LABELS})


def _entry_named(championship: Championship, text: str) -> Entry | None:
    """The entry named "event/number" or by its payment reference."""
    event_code, _slash, number = text.strip().partition("/")
    if number.isdigit():
        return Entry.objects.filter(event__championship=championship, event__code=event_code,
                                    number=int(number)).first()
    key = entry_key_of(text)
    if key is None:
        return None
    return Entry.objects.filter(event__championship=championship,
                                event__position=key.event_position, number=key.number).first()


@requires_role(Role.ORGANISER)
@require_POST
def queue_assign(request: HttpRequest, championship: Championship, pk: int) -> HttpResponse:
    """Assign a queued line to an entry, with the reason."""
    line = get_object_or_404(BankTransaction, pk=pk, championship=championship)
    form = AssignForm(request.POST)
    entry = _entry_named(championship, request.POST.get("entry", ""))
    if not form.is_valid() or entry is None:
        messages.error(request, _("Name the entry as event code/number (e.g. individual/12) "
                                  "or by its reference, and give a reason."))
    else:
        try:
            bank_line_assign(transaction=line, entry=entry, reason=form.cleaned_data["reason"],
                             by=request.user)
        except RulesError as refused:
            _refused(request, refused)
        else:
            messages.success(request, _("Assigned to entry %(number)s.")
                             % {"number": entry.number})
    return redirect("control:payments:overview", championship.slug)


@requires_role(Role.ORGANISER)
@require_POST
def queue_resolve(request: HttpRequest, championship: Championship, pk: int) -> HttpResponse:
    """Take a line off the queue without assigning it, with the reason."""
    line = get_object_or_404(BankTransaction, pk=pk, championship=championship)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason."))
    else:
        try:
            bank_line_resolve(transaction=line, reason=form.cleaned_data["reason"],
                              by=request.user)
        except RulesError as refused:
            _refused(request, refused)
        else:
            messages.success(request, _("Taken off the queue."))
    return redirect("control:payments:overview", championship.slug)


@requires_role(Role.ORGANISER)
def payouts_download(request: HttpRequest, championship: Championship, kind: str,
                     fmt: str) -> HttpResponse:
    """Refunds or prize money to pay: a pain.001 file (EUR) or CSV."""
    if kind not in ("refund", "prize") or fmt not in ("xml", "csv"):
        raise Http404
    try:
        content = payouts_export(championship=championship, kind=kind,
                                 fmt="pain001" if fmt == "xml" else "csv", by=request.user)
    except RulesError as refused:
        _refused(request, refused)
        return redirect("control:payments:overview", championship.slug)
    response = HttpResponse(content, content_type="application/xml" if fmt == "xml"
                            else "text/csv; charset=utf-8")
    name = f"{championship.slug}-{kind}s.{'xml' if fmt == 'xml' else 'csv'}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
