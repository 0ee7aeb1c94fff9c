"""Organiser screens for registrations: entry lists, payments, cancellations, waiting list, draw."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from puzzlecomp.championships.engine import ruleset_of, with_members
from puzzlecomp.championships.messages import message_of, violation_message
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    Event,
    FactOverride,
    HistoryFact,
    Person,
    PersonChange,
    PersonClaim,
    Qualifier,
    QualifierStatus,
    Role,
)
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.selectors.history import member_facts_derived
from puzzlecomp.championships.selectors.people import (
    PersonCandidate,
    archive_only,
    event_candidates,
    member_candidates,
    mergeable_by,
    merges_to_undo,
)
from puzzlecomp.championships.selectors.registration import (
    age_categories,
    entry_currency,
    entry_refund,
    entry_rows,
    event_currency,
    event_registration,
    event_rules,
    registration_overview,
    relay_draws,
    relay_pool,
    waiting_entries,
)
from puzzlecomp.championships.services import claims
from puzzlecomp.championships.services.facts import FactOverrideRefused, member_fact_override
from puzzlecomp.championships.services.people import (
    PeopleRefused,
    person_merge,
    person_merge_undo,
    person_split,
)
from puzzlecomp.championships.services.registration import (
    entry_cancel,
    entry_payment_record,
    waiting_list_promote,
)
from puzzlecomp.championships.services.relay import pool_label, relay_teams_draw
from puzzlecomp.control.registrations.entry_table import entry_table_rows
from puzzlecomp.control.registrations.forms import (
    DrawForm,
    EntryFilterForm,
    FactOverrideForm,
    PaymentForm,
    SamePersonForm,
)
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.history import facts_used

ENTRIES_PER_PAGE = 100


def _event(championship: Championship, event_code: str) -> Event:
    return get_object_or_404(Event, championship=championship, code=event_code)


def _entry(championship: Championship, event_code: str, number: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("event__championship"),
                             event__championship=championship, event__code=event_code,
                             number=number)


def _refused(request: HttpRequest, refused: RulesError, event: Event) -> None:
    for violation in refused.violations:
        messages.error(request, violation_message(violation, event=event.display_name))


@requires_role(Role.ORGANISER)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Registration state of every event."""
    return render(request, "control/registrations/index.html", {
        "championship": championship,
        "events": registration_overview(championship=championship, now=timezone.now()),
    })


@requires_role(Role.ORGANISER)
def event_entries(request: HttpRequest, championship: Championship,
                  event_code: str) -> HttpResponse:
    """The entries of one event with status, categories, fee due and paid: searched,
    filtered and a page at a time."""
    event = _event(championship, event_code)
    everything = entry_rows(event=event)
    ruleset, spec = event_rules(event)
    chosen = EntryFilterForm(request.GET or None,
                             categories=[c.name for c in age_categories(spec)],
                             foreign=ruleset.official_ranking is not None)
    rows = chosen.apply(everything)
    page = Paginator(rows, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "control/registrations/event.html", {
        "championship": championship, "event": event, "page": page, "filter": chosen,
        "found": len(rows), "total": len(everything), "query": query.urlencode(),
        "age_column": "category" in chosen.fields, "foreign_column": "foreign" in chosen.fields,
        "table_rows": entry_table_rows(
            page.object_list, championship=championship, event=event,
            default_currency=event_currency(event), age_column="category" in chosen.fields,
            foreign_column="foreign" in chosen.fields),
        "waiting": waiting_entries(event=event).count(),
        "overview": event_registration(event=event, now=timezone.now()),
    })


@requires_role(Role.ORGANISER)
def payment(request: HttpRequest, championship: Championship, event_code: str,
            number: int) -> HttpResponse:
    """Record a payment received for an entry."""
    entry = _entry(championship, event_code, number)
    currency = entry_currency(entry)
    form = PaymentForm(request.POST or None, currency=currency)
    if request.method == "POST" and form.is_valid():
        try:
            entry = entry_payment_record(entry=entry, by=request.user, **form.cleaned_data)
        except RulesError as refused:
            _refused(request, refused, entry.event)
        else:
            messages.success(request, _("Payment recorded for entry %(number)s.")
                             % {"number": entry.number})
            return redirect("control:registrations:event", championship.slug, event_code)
    return render(request, "control/registrations/payment.html", {
        "championship": championship, "entry": entry, "form": form, "currency": currency,
    })


@requires_role(Role.ORGANISER)
def cancel(request: HttpRequest, championship: Championship, event_code: str,
           number: int) -> HttpResponse:
    """Cancel an entry; the page shows the refund the rulebook allows today."""
    entry = _entry(championship, event_code, number)
    if request.method == "POST":
        try:
            refund = entry_cancel(entry=entry, by=request.user)
        except RulesError as refused:
            _refused(request, refused, entry.event)
        else:
            messages.success(request, _("Entry %(number)s cancelled; refund %(amount)s "
                                        "%(currency)s.") % {
                "number": entry.number, "amount": refund.amount.amount,
                "currency": refund.amount.currency})
            held = (Qualifier.objects.filter(entry=entry, status=QualifierStatus.CONFIRMED)
                    .order_by("-from_round__position").first())
            if held is not None:
                # Its place in the next round: the qualifiers page offers the replacement.
                messages.warning(request, _("Entry %(number)s held a place in the next round: "
                                            "give it to the entrant the rules name next.")
                                 % {"number": entry.number})
                return redirect("control:rounds:qualifiers", championship.slug,
                                held.from_round_id)
        return redirect("control:registrations:event", championship.slug, event_code)
    refund = entry_refund(entry=entry, on=timezone.localdate())
    return render(request, "control/registrations/cancel.html", {
        "championship": championship, "entry": entry, "refund": refund,
        "reason": refund.refusal and violation_message(refund.refusal),
    })


@requires_role(Role.ORGANISER)
def promote(request: HttpRequest, championship: Championship, event_code: str) -> HttpResponse:
    """Give a free place to the first entry on the waiting list."""
    event = _event(championship, event_code)
    if request.method == "POST":
        try:
            entry = waiting_list_promote(event=event, by=request.user)
        except RulesError as refused:
            _refused(request, refused, event)
        else:
            messages.success(request, _("Entry %(number)s moved from the waiting list to "
                                        "confirmed.") % {"number": entry.number})
        return redirect("control:registrations:event", championship.slug, event_code)
    return render(request, "control/registrations/promote.html", {
        "championship": championship, "event": event,
        "waiting": waiting_entries(event=event).prefetch_related(with_members()),
    })


@requires_role(Role.ORGANISER)
def draw(request: HttpRequest, championship: Championship, event_code: str) -> HttpResponse:
    """Draw relay teams from the people registered alone, with a recorded seed."""
    event = _event(championship, event_code)
    form = DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            result = relay_teams_draw(event=event, by=request.user, **form.cleaned_data)
        except RulesError as refused:
            _refused(request, refused, event)
        else:
            messages.success(request, _("Drew %(teams)s teams with seed %(seed)s; %(left)s "
                                        "left over.") % {
                "teams": len(result.teams), "seed": result.draw.seed,
                "left": len(result.left_over)})
            return redirect("control:registrations:draw", championship.slug, event_code)
    return render(request, "control/registrations/draw.html", {
        "championship": championship, "event": event, "form": form,
        "pool": [pool_label(entry) for entry in relay_pool(event=event)],
        "draws": relay_draws(event=event),
    })


@requires_role(Role.ORGANISER)
def history_facts(request: HttpRequest, championship: Championship, event_code: str,
                  number: int) -> HttpResponse:
    """The facts the engine takes from the members' history, and the organiser's overrides."""
    entry = _entry(championship, event_code, number)
    members = list(EntryMember.objects.filter(entry=entry).select_related("person"))
    # Only the facts some rule of the ruleset tests are worth showing.
    used = facts_used(ruleset_of(entry))
    facts = [(i, fact, label) for i, (fact, label) in enumerate(HistoryFact.choices)
             if fact in used]
    form = FactOverrideForm([(m.pk, str(m.person)) for m in members],
                            [(fact, label) for _, fact, label in facts], request.POST or None)
    if request.method == "POST" and form.is_valid():
        member = next(m for m in members if m.pk == form.cleaned_data["member"])
        try:
            member_fact_override(member=member, fact=form.cleaned_data["fact"],
                                 value=form.cleaned_data["value"],
                                 reason=form.cleaned_data["reason"], user=request.user)
        except FactOverrideRefused as refused:
            messages.error(request, message_of(refused.code, str(refused), {}))
        else:
            messages.success(request, _("Fact set for entry %(number)s.")
                             % {"number": entry.number})
            return redirect("control:registrations:history", championship.slug, event_code,
                            number)
    derived = member_facts_derived(championship=championship)
    overrides = {(o.member_id, o.fact): o for o in
                 FactOverride.objects.filter(member__entry=entry).select_related("by")}
    rows = [
        {"person": m.person, "facts": [
            {"label": label, "derived": derived.get(m.pk, (None, None))[i],
             "override": overrides.get((m.pk, fact))}
            for i, fact, label in facts]}
        for m in members
    ]
    waiting, confirmed = _links_waiting(members), _links_confirmed(members)
    matches = [{"person": m.person, "member": m,
                "candidates": _mergeable(request, member_candidates(m)),
                "waiting": waiting.get(m.pk, set()),
                "confirmed": confirmed.get(m.pk, set())} for m in members]
    elsewhere = set(EntryMember.objects.filter(person__in=[m.person_id for m in members])
                    .exclude(entry=entry).values_list("person_id", flat=True))
    return render(request, "control/registrations/history.html", {
        "championship": championship, "entry": entry, "rows": rows, "form": form,
        "facts": facts, "matches": [m for m in matches if m["candidates"]],
        "splittable": [m for m in members if m.person_id in elsewhere],
        "merges": merges_to_undo([m.person_id for m in members]),
        "claims": PersonClaim.objects.filter(member__in=members, state=PersonClaim.State.WAITING)
        .select_related("person", "member__person"),
    })


@requires_role(Role.ORGANISER)
@require_POST
def not_same_person(request: HttpRequest, championship: Championship, event_code: str,
                    number: int) -> HttpResponse:
    """This entry's member is not the person of their other entries: give them a record of
    their own."""
    entry = _entry(championship, event_code, number)
    member = get_object_or_404(EntryMember.objects.select_related("person"), entry=entry,
                               pk=request.POST.get("member") or 0)
    try:
        person_split(person=member.person, members=[member],
                     reason=request.POST.get("reason", ""), user=request.user)
    except PeopleRefused as refused:
        messages.error(request, message_of(refused.code, str(refused), {}))
    else:
        messages.success(request, _("%(name)s of this entry now has a record of their own.")
                         % {"name": member.person})
    return redirect("control:registrations:history", championship.slug, event_code, number)


@requires_role(Role.ORGANISER)
@require_POST
def merge_undo(request: HttpRequest, championship: Championship, event_code: str,
               number: int) -> HttpResponse:
    """A merge of one of this entry's members was wrong: the merged record comes back with the
    entries it brought."""
    entry = _entry(championship, event_code, number)
    change = get_object_or_404(PersonChange, pk=request.POST.get("change") or 0,
                               kind=PersonChange.Kind.MERGE,
                               person__entries__entry=entry)
    try:
        undo = person_merge_undo(change=change, reason=request.POST.get("reason", ""),
                                 user=request.user)
    except PeopleRefused as refused:
        messages.error(request, message_of(refused.code, str(refused), {}))
    else:
        messages.success(request, _("%(name)s has their own record again.")
                         % {"name": undo.other})
    return redirect("control:registrations:history", championship.slug, event_code, number)


def _offered(request: HttpRequest, member: EntryMember, person_id: int) -> Person | None:
    """The person chosen for the member when they were offered (staff: any stored person)."""
    if request.user.is_staff:
        return Person.objects.filter(pk=person_id).first()
    return next((c.person for c in _mergeable(request, member_candidates(member))
                 if c.person.pk == person_id), None)


def _mergeable(request: HttpRequest, candidates: Sequence[PersonCandidate]
               ) -> list[PersonCandidate]:
    """The candidates this user could merge or link (none of a championship they do not
    organise: the merge would be refused)."""
    allowed = mergeable_by(request.user, [c.person.pk for c in candidates])
    return [c for c in candidates if c.person.pk in allowed]


@requires_role(Role.ORGANISER)
@require_POST
def claim_approve(request: HttpRequest, championship: Championship, event_code: str,
                  number: int) -> HttpResponse:
    """A member's claim to be a known person: the organiser vouches for it with a reason, in
    place of the known person's email."""
    entry = _entry(championship, event_code, number)
    posted = request.POST.get("claim", "")
    claim = get_object_or_404(PersonClaim.objects.select_related("person"),
                              pk=int(posted) if posted.isdigit() else 0, member__entry=entry)
    try:
        claim = claims.claim_approve(claim=claim, reason=request.POST.get("reason", ""),
                                     user=request.user)
    except PeopleRefused as refused:
        messages.error(request, message_of(refused.code, str(refused), {}))
    else:
        messages.success(request, _("%(name)s is now one person across championships.")
                         % {"name": claim.person} if claim.state == PersonClaim.State.DONE
                         else _("Approved; the registrant has yet to confirm their email."))
    return redirect("control:registrations:history", championship.slug, event_code, number)


@requires_role(Role.ORGANISER)
@require_POST
def same_person(request: HttpRequest, championship: Championship, event_code: str,
                number: int) -> HttpResponse:
    """An entry's member is a person known from other championships: merge the two records.

    Only a person offered for the member may be chosen (staff may choose anyone)."""
    entry = _entry(championship, event_code, number)
    form = SamePersonForm(request.POST)
    if form.is_valid():
        member = get_object_or_404(EntryMember.objects.select_related("person"), entry=entry,
                                   pk=form.cleaned_data["member"])
        known = _offered(request, member, form.cleaned_data["person"])
        # A person of the archive alone takes the entrant's record only once the entrant
        # confirms (issue 22): an organiser's link is a claim that waits (staff: at once).
        waits = (known is not None and not request.user.is_staff
                 and bool(archive_only([known.pk])))
        try:
            if known is None:
                raise PeopleRefused("people.not_offered", "That person was not offered.")
            if waits:
                claims.claim_propose(member=member, person=known,
                                     reason=form.cleaned_data["reason"], user=request.user)
            else:
                person_merge(keep=known, other=member.person,
                             reason=form.cleaned_data["reason"], user=request.user)
        except PeopleRefused as refused:
            messages.error(request, message_of(refused.code, str(refused), {}))
        else:
            messages.success(request, _(
                "Linked: %(name)s counts as this entrant once the entrant confirms by the link "
                "we emailed them.") % {"name": known} if waits else
                _("%(name)s is now one person across championships.") % {"name": known})
    else:
        messages.error(request, message_of("people.reason_missing", "Give a reason.", {}))
    if request.POST.get("back") == "known_people":
        return redirect("control:registrations:known_people", championship.slug, event_code)
    return redirect("control:registrations:history", championship.slug, event_code, number)


@requires_role(Role.ORGANISER)
@require_safe
def known_people(request: HttpRequest, championship: Championship,
                 event_code: str) -> HttpResponse:
    """Every member of the event who may be a person known from other championships."""
    event = _event(championship, event_code)
    matches = [(match.member, candidates) for match in event_candidates(event=event)
               if (candidates := _mergeable(request, match.candidates))]
    waiting = _links_waiting([member for member, _ in matches])
    confirmed = _links_confirmed([member for member, _ in matches])
    return render(request, "control/registrations/known_people.html", {
        "championship": championship, "event": event,
        "matches": [{"member": member, "candidates": candidates,
                     "waiting": waiting.get(member.pk, set()),
                     "confirmed": confirmed.get(member.pk, set())}
                    for member, candidates in matches],
    })


def _links_waiting(members: list[EntryMember]) -> dict[int, set[int]]:
    """The known people each member is linked to by a claim still waiting for proof."""
    waiting: dict[int, set[int]] = {}
    for member_id, person_id in PersonClaim.objects.filter(
            member__in=members, state=PersonClaim.State.WAITING).values_list(
            "member_id", "person_id"):
        waiting.setdefault(member_id, set()).add(person_id)
    return waiting


def _links_confirmed(members: list[EntryMember]) -> dict[int, set[int]]:
    """Of those, the ones the entrant confirmed already (the known person's side still waits)."""
    confirmed: dict[int, set[int]] = {}
    for member_id, person_id in PersonClaim.objects.filter(
            member__in=members, state=PersonClaim.State.WAITING,
            registrant_confirmed_at__isnull=False).values_list("member_id", "person_id"):
        confirmed.setdefault(member_id, set()).add(person_id)
    return confirmed
