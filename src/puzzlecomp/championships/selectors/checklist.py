"""The first-run checklist on the championship's overview: what a new organiser must set
before the first round can run, each with where it is set. A read: nothing here changes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzlecomp.championships.messages import violation_message
from puzzlecomp.championships.models import (
    Championship,
    EntryStatus,
    Event,
    JudgeDevice,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.rounds import round_rule_problems_get
from puzzlecomp.rules.loading import load_ruleset


@dataclass(frozen=True)
class ChecklistItem:
    """One thing to set: done or not, what is missing in words, and where it is set (a URL
    name of the organiser's screens and its arguments after the championship's slug)."""

    key: str
    label: str
    done: bool
    detail: str
    url_name: str
    url_args: tuple[str | int, ...] = ()


def first_run_checklist(championship: Championship) -> list[ChecklistItem]:
    """Published, fees and window, floor plan, each round's limit and puzzle size, seating
    published, judges' phones paired: in the order a championship is set up."""
    events = list(championship.events.annotate(
        confirmed=Count("entries", filter=Q(entries__status=EntryStatus.CONFIRMED)),
        entered=Count("entries", filter=~Q(entries__status=EntryStatus.CANCELLED)),
    ))
    # Once the championship is under way, an event nobody entered (the Norwegian ruleset's
    # pairs at an individuals-only NM) asks for nothing: its rounds will not run.
    if Round.objects.filter(event__championship=championship).exclude(
            state=RoundState.PLANNED).exists():
        events = [event for event in events if getattr(event, "entered", 0)]
    rounds = list(Round.objects.filter(event__in=events)
                  .select_related("event__championship").order_by("event__position",
                                                                   "position"))
    # Each event's first round: later rounds are seated from the qualifiers.
    first: dict[int, Round] = {}
    for rnd in rounds:
        first.setdefault(rnd.event_id, rnd)
    return [
        ChecklistItem("published", _("Published"), championship.published,
                      "" if championship.published
                      else _("The public pages and registration are not shown yet."),
                      "control:setup:championship"),
        _fees_and_window(championship, events),
        ChecklistItem("floor_plan", _("Floor plan"), bool(championship.floor_rows),
                      ngettext("%(count)s table", "%(count)s tables",
                               sum(championship.floor_rows)) % {
                          "count": sum(championship.floor_rows)}
                      if championship.floor_rows else _("No tables yet."),
                      "control:setup:floor_plan"),
        *(_round_rules(rnd) for rnd in rounds),
        *(_seating(first[event.pk], event) for event in events if event.pk in first),
        _phones(championship),
    ]


def _fees_and_window(championship: Championship, events: list[Event]) -> ChecklistItem:
    ruleset = load_ruleset(championship.ruleset_id)
    without_fee = [event.display_name for event in events
                   if ruleset.event(event.code).fee is None and event.fee_amount is None]
    window = (ruleset.registration.window is not None
              or championship.registration_closes_at is not None)
    missing = []
    if without_fee:
        missing.append(_("No fee for %(events)s.") % {"events": ", ".join(without_fee)})
    if not window:
        missing.append(_("No closing of registration: it stays open until the start."))
    return ChecklistItem("fees_window", _("Fees and registration window"), not missing,
                         " ".join(missing), "control:setup:index")


def _round_rules(rnd: Round) -> ChecklistItem:
    problems = round_rule_problems_get(rnd)
    label = _("%(event)s, %(round)s: time limit and puzzle size") % {
        "event": rnd.event.display_name, "round": rnd.display_name}
    # A missing puzzle size is set on the puzzle's own page, a time limit on the round's.
    sizes_only = bool(problems) and all(p.code.startswith("round.pieces") for p in problems)
    where = (("control:setup:puzzle", (rnd.event.code, rnd.code, 0)) if sizes_only
             else ("control:setup:round", (rnd.event.code, rnd.code)))
    return ChecklistItem(f"round_rules_{rnd.pk}", label, not problems,
                         " ".join(violation_message(p) for p in problems), *where)


def _seating(rnd: Round, event: Event) -> ChecklistItem:
    label = _("%(event)s, %(round)s: seating published") % {
        "event": event.display_name, "round": rnd.display_name}
    confirmed = getattr(event, "confirmed", 0)
    # A round under way (or over) was seated, whether or not the seating was ever published.
    done = rnd.seating_published or rnd.state != RoundState.PLANNED
    if done:
        detail = ""
    elif not confirmed:
        detail = _("No confirmed entrants yet.")
    else:
        detail = _("Entrants do not see their table yet.")
    return ChecklistItem(f"seating_{rnd.pk}", label, done, detail,
                         "control:planning:seating", (rnd.pk,))


def _phones(championship: Championship) -> ChecklistItem:
    devices = JudgeDevice.objects.filter(championship=championship, revoked_at__isnull=True)
    total = devices.count()
    paired = devices.filter(paired_at__isnull=False).count()
    detail = (_("No judge's phone yet.") if not total
              else _("%(paired)s of %(total)s phones paired.") % {"paired": paired,
                                                                  "total": total})
    return ChecklistItem("phones", _("Judges' phones paired"), total > 0 and paired == total,
                         detail, "control:judges:index")
