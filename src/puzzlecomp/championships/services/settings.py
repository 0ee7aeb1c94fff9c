"""Setting a championship up: its details, floor plan, events, rounds, puzzles, team models and
who helps run it. Every change is atomic and audited; refusals carry a code for the web layer."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import models, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from puzzlecomp.championships.actions import (
    CHAMPIONSHIP_CHANGED,
    EVENT_CHANGED,
    FLOOR_PLAN_CHANGED,
    MEMBERSHIP_REMOVED,
    MODELS_CHOSEN,
    PUZZLE_CHANGED,
    REGISTRATION_TERMS_CHANGED,
    ROUND_CHANGED,
    SETTINGS_CHANGED,
    Action,
)
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    Event,
    GroupStart,
    Membership,
    ModelChoice,
    Puzzle,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.lists import round_started
from puzzlecomp.championships.services.registration import (
    places_settle,
    waiting_offers_settle,
)
from puzzlecomp.championships.services.setup import membership_set
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.championships.time_zones import is_time_zone
from puzzlecomp.planning import FloorPlan
from puzzlecomp.planning.errors import PlanningError
from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.settings import championship_settings, settings_overridden


class SetupError(Exception):
    """A refused setup change: a stable code and parameters (translated by the web layer)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message % params if params else message
        self.params = params
        super().__init__(self.message)


def _one_line(name: str) -> None:
    """A name heads pages and an email's subject: one line (rules/limits.py)."""
    if limits.has_line_break(name):
        raise SetupError("name.line_break", "A name is one line: remove the line break.")
    if limits.has_line_control_characters(name):
        raise SetupError("name.control_character",
                         "A name is one line of plain text: remove the tab or control character.")


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _apply(instance: models.Model, values: Mapping[str, Any], action: Action, *,
           championship: Championship, by: Any, round: Round | None = None,
           also: Callable[[dict[str, list[Any]]], dict[str, Any]] | None = None,
           **data: Any) -> dict[str, list[Any]]:
    """Set the changed fields and save them in a unit of work auditing `action` (nothing is
    audited or announced when nothing changed); returns {field: [old, new]} of what changed.

    `also`: a write that follows from the changes, in the same unit of work; what it returns
    is recorded in the audit beside them."""
    with unit_of_work(action, championship=championship, user=by, round=round,
                      **data) as work:
        changes = {
            name: [_json_value(getattr(instance, name)), _json_value(value)]
            for name, value in values.items()
            if getattr(instance, name) != value
        }
        for name in changes:
            setattr(instance, name, values[name])
        if changes:
            instance.save(update_fields=list(changes))
            work.record(changes=changes, **(also(changes) if also else {}))
        else:
            work.nothing_changed()
    return changes


def championship_update(
    *,
    championship: Championship,
    by: Any,
    name: str,
    starts_at: dt.datetime,
    ends_on: dt.date | None,
    venue: str,
    published: bool,
    time_zone: str | None = None,
) -> Championship:
    """Change the championship's name, dates, venue, time zone (None: as it is) and whether
    the public sees it."""
    if ends_on is not None and ends_on < starts_at.date():
        raise SetupError("championship.ends_before_start",
                         "The championship cannot end before it starts.")
    _one_line(name)
    changes: dict[str, Any] = {"name": name, "starts_at": starts_at, "ends_on": ends_on,
                               "venue": venue, "published": published}
    if time_zone is not None:
        if not is_time_zone(time_zone):
            raise SetupError("championship.time_zone_unknown",
                             "%(zone)s is not a time zone.", zone=time_zone)
        changes["time_zone"] = time_zone
    before = championship.time_zone

    def planned_starts_follow(changed: dict[str, list[Any]]) -> dict[str, Any]:
        if "time_zone" not in changed:
            return {}
        return {"planned_starts_moved": _planned_starts_rezone(
            championship=championship, old=before, new=championship.time_zone)}

    _apply(championship, changes, CHAMPIONSHIP_CHANGED, championship=championship, by=by,
           also=planned_starts_follow)
    return championship


def _planned_starts_rezone(*, championship: Championship, old: str, new: str) -> list[str]:
    """Keep the planned starts of rounds and groups not started yet at the same local clock
    time when the championship moves to another time zone, as its own start typed in the
    setup form is read in the new zone: a round planned for 10:00 stays at 10:00 where the
    championship is held. Starts already given are facts and stay. Returns what moved."""
    if old == new or not is_time_zone(old):
        return []
    was, now = zoneinfo.ZoneInfo(old), zoneinfo.ZoneInfo(new)

    def moved(at: dt.datetime) -> dt.datetime:
        return at.astimezone(was).replace(tzinfo=now)

    shifted = []
    for rnd in Round.objects.filter(event__championship=championship, state=RoundState.PLANNED,
                                    starts_at__isnull=False).select_related("event"):
        assert rnd.starts_at is not None
        rnd.starts_at = moved(rnd.starts_at)
        rnd.save(update_fields=["starts_at"])
        shifted.append(f"{rnd.event.code}/{rnd.code}")
    for start in GroupStart.objects.filter(round__event__championship=championship,
                                           started_at__isnull=True,
                                           planned_at__isnull=False).select_related(
                                               "round__event"):
        assert start.planned_at is not None
        start.planned_at = moved(start.planned_at)
        start.save(update_fields=["planned_at"])
        shifted.append(f"{start.round.event.code}/{start.round.code}/{start.group}")
    return shifted


def championship_settings_set(
    *, championship: Championship, by: Any, values: Mapping[str, str]
) -> Championship:
    """Set the championship settings its ruleset asks for (e.g. Australia's host_region).

    The engine checks them (`championship_settings`): an unknown name or value, or a required
    setting left blank, is refused with its code; defaults are stored as given by the ruleset.
    """
    ruleset = load_ruleset(championship.ruleset_id)
    try:
        merged = championship_settings(ruleset,
                                       settings_overridden(championship.settings, values))
    except RulesError as error:
        first = error.violations[0]
        raise SetupError(first.code, first.message, **first.params) from error
    _apply(championship, {"settings": merged}, SETTINGS_CHANGED, championship=championship,
           by=by)
    return championship


def floor_plan_set(
    *, championship: Championship, by: Any, rows: Sequence[int], guest_tables: int
) -> FloorPlan:
    """Set the hall: tables per row, front to back, and how many at the back are for guests."""
    try:
        plan = FloorPlan(tuple(rows), guest_tables)
    except PlanningError as error:
        raise SetupError(error.code, error.message, **error.params) from error
    _apply(championship, {"floor_rows": list(plan.rows), "guest_tables": plan.guest_tables},
           FLOOR_PLAN_CHANGED, championship=championship, by=by)
    return plan


def event_update(*, event: Event, by: Any, capacity: int | None,
                 fee_amount: Decimal | None = None, fee_per: str = "entry",
                 fee_early_amount: Decimal | None = None,
                 fee_early_until: dt.date | None = None, name: str | None = None) -> Event:
    """Change the event's name (None: keep it), how many entries it takes (None: no limit) and
    the fee the organiser sets where the rulebook names none: a regular price, and an early
    price up to a day.

    A name other than the ruleset's is shown as typed, in every language; the ruleset's own
    name is shown translated (championships/ruleset_texts.py)."""
    name = event.name if name is None else name.strip()
    if not name:
        raise SetupError("event.blank_name", "An event needs a name.")
    _one_line(name)
    if any(fee is not None and fee > limits.MAX_MONEY for fee in (fee_amount, fee_early_amount)):
        raise SetupError("fee.too_large", "A fee is at most %(max)s.", max=limits.MAX_MONEY)
    if (fee_early_amount is None) != (fee_early_until is None):
        raise SetupError("fee.early_incomplete",
                         "An early price needs both its amount and its last day.")
    if fee_early_amount is not None and fee_amount is None:
        raise SetupError("fee.regular_missing", "An early price needs a regular price too.")
    if fee_early_amount is not None and fee_amount is not None and fee_early_amount > fee_amount:
        raise SetupError("fee.early_above_regular",
                         "The early price is above the regular price.")
    _apply(event, {"name": name, "capacity": capacity, "fee_amount": fee_amount,
                   "fee_per": fee_per,
                   "fee_early_amount": fee_early_amount, "fee_early_until": fee_early_until},
           EVENT_CHANGED, championship=event.championship, by=by, event=event.code,
           # A place added is offered to the waiting list at once.
           also=lambda changes: {"places": places_settle(event)})
    return event


def registration_terms_set(*, championship: Championship, by: Any,
                           opens_at: dt.datetime | None, closes_at: dt.datetime | None,
                           refund_days_before: int | None, fee_currency: str,
                           offer_days: int | None = None,
                           confirm_on_payment: bool = False) -> Championship:
    """Set the registration window, refund rule and fee currency the rulebook leaves open, the
    days a waiting entry offered a place has to pay (None: the organiser promotes by hand), and
    whether entries are confirmed only once paid.

    A rulebook's own window and refund rule win; these apply where it names none.
    """
    if opens_at is not None and closes_at is not None and closes_at <= opens_at:
        raise SetupError("registration.window_backwards",
                         "Registration must close after it opens.")
    currency = fee_currency.strip().upper()
    if currency and not (len(currency) == 3 and currency.isascii() and currency.isalpha()):
        raise SetupError("fee.currency_invalid", "A currency is a three-letter code such as "
                         "EUR or CZK, not %(currency)s.", currency=fee_currency)
    _apply(championship, {
        "registration_opens_at": opens_at, "registration_closes_at": closes_at,
        "refund_days_before": refund_days_before, "fee_currency": currency,
        "offer_days": offer_days, "confirm_on_payment": confirm_on_payment},
        REGISTRATION_TERMS_CHANGED, championship=championship, by=by)
    waiting_offers_settle(championship=championship, by=by)
    return championship


def round_update(
    *,
    rnd: Round,
    by: Any,
    name: str,
    time_limit_minutes: int | None,
    starts_at: dt.datetime | None,
    groups: Sequence[str],
) -> Round:
    """Change a round's name, time limit, start time and group labels."""
    _one_line(name)
    labels = [label.strip() for label in groups]
    if any(not label for label in labels):
        raise SetupError("round.blank_group", "A group label cannot be blank.")
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise SetupError("round.repeated_group", "Each group may appear once; repeated: "
                         "%(repeated)s.", repeated=", ".join(repeated))
    _apply(rnd, {"name": name, "time_limit_minutes": time_limit_minutes,
                 "starts_at": starts_at, "groups": labels}, ROUND_CHANGED,
           championship=rnd.event.championship, by=by, round=rnd, event=rnd.event.code,
           code=rnd.code)
    return rnd


def puzzle_update(
    *, puzzle: Puzzle, by: Any, brand: str, pieces: int | None, motif: str, picture: bool
) -> Puzzle:
    """Change a puzzle's brand, size, motif (hidden until the round starts) and box picture."""
    rnd = puzzle.round
    _apply(puzzle, {"brand": brand, "pieces": pieces, "motif": motif, "picture": picture},
           PUZZLE_CHANGED, championship=rnd.event.championship, by=by, round=rnd,
           event=rnd.event.code, code=rnd.code, puzzle=puzzle.position)
    return puzzle


def round_model_choice(rnd: Round) -> tuple[int, int]:
    """(models offered, models to choose) of a round where teams choose models; (0, 0) if none.

    wjpc-2025.txt, qualifying round teams: two puzzles chosen from 4 models before the start.
    """
    puzzles = list(rnd.puzzles.all())
    offered = max((p.models_to_choose_from or 0 for p in puzzles), default=0)
    return (offered, len(puzzles)) if offered else (0, 0)


def entry_models_choose(
    *, entry: Entry, rnd: Round, models: Sequence[int], by: Any, now: dt.datetime | None = None
) -> tuple[int, ...]:
    """Record a team's choice of models for a round; refused once the round has started.

    wjpc-2025.txt: "The team will have a few minutes before the start to chose 2 models ...
    During the test, it is not possible to modify the 2 chosen puzzles." The choice in force
    is a ModelChoice; the audit log keeps every change.
    """
    offered, to_choose = round_model_choice(rnd)
    if not offered:
        raise SetupError("models.not_offered", "Teams choose no models in this round.")
    if entry.event_id != rnd.event_id:
        raise SetupError("models.wrong_event", "Entry %(entry)s is not in this event.",
                         entry=entry.number)
    if round_started(rnd, now or timezone.now()):
        raise SetupError("models.round_started",
                         "The round has started: the chosen models cannot change.")
    chosen = tuple(sorted(set(models)))
    if len(chosen) != to_choose or len(models) != to_choose or not all(
        1 <= model <= offered for model in chosen
    ):
        raise SetupError("models.bad_choice",
                         "Choose %(count)s different models from 1 to %(offered)s.",
                         count=to_choose, offered=offered)
    with unit_of_work(MODELS_CHOSEN, championship=rnd.event.championship, user=by, round=rnd,
                      entry=entry.number, models=list(chosen)) as work:
        ModelChoice.objects.update_or_create(
            round=rnd, entry=entry,
            defaults={"chosen_models": list(chosen), "chosen_by": work.user,
                      "chosen_at": timezone.now()})
    return chosen


def _last_owner(membership: Membership) -> bool:
    return membership.role == Role.OWNER and not Membership.objects.filter(
        championship=membership.championship, role=Role.OWNER
    ).exclude(pk=membership.pk).exists()


@transaction.atomic
def membership_add(
    *, championship: Championship, by: Any, identifier: str, role: Role
) -> Membership:
    """Give the user with this username or email a role; an unknown email gets a new account.

    The new account has no usable password: an email (sent after commit) links to the page
    where its owner sets one.
    """
    identifier = identifier.strip()
    users = get_user_model().objects
    lookup = {"email__iexact": identifier} if "@" in identifier else {
        "username__iexact": identifier}
    found = list(users.filter(**lookup)[:2])
    if len(found) > 1:
        raise SetupError("membership.ambiguous",
                         "Several accounts use %(identifier)s: give the username.",
                         identifier=identifier)
    if found:
        user = found[0]
    elif "@" in identifier:
        user = users.create_user(username=_free_username(identifier), email=identifier)
        user.set_unusable_password()
        user.save(update_fields=["password"])
        transaction.on_commit(lambda: _send_invitation(user, championship, role))
    else:
        raise SetupError("membership.unknown_user",
                         "No account is called %(identifier)s: give an email address to invite "
                         "someone new.", identifier=identifier)
    if Membership.objects.filter(user=user, championship=championship).exists():
        raise SetupError("membership.exists", "%(identifier)s already has a role here.",
                         identifier=identifier)
    return membership_set(championship=championship, user=user, role=role, by=by)


@transaction.atomic
def membership_change(*, membership: Membership, by: Any, role: Role) -> Membership:
    """Change someone's role; the last owner stays owner."""
    if role != Role.OWNER and _last_owner(membership):
        raise SetupError("membership.last_owner",
                         "The championship needs an owner: make someone else owner first.")
    return membership_set(championship=membership.championship, user=membership.user,
                          role=role, by=by)


def membership_remove(*, membership: Membership, by: Any) -> None:
    """Take someone's role away; the last owner cannot be removed."""
    with unit_of_work(MEMBERSHIP_REMOVED, championship=membership.championship, user=by,
                      username=membership.user.get_username(), role=membership.role):
        if _last_owner(membership):
            raise SetupError("membership.last_owner",
                             "The championship needs an owner: make someone else owner first.")
        membership.delete()


def _free_username(email: str) -> str:
    users = get_user_model().objects
    base = email.split("@")[0].lower()[:140] or "user"
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


def _send_invitation(user: Any, championship: Championship, role: Role) -> None:
    link = django_settings.SITE_URL.rstrip("/") + reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    })
    context = {"user": user, "championship": championship, "role": role, "link": link}
    send_mail(
        subject=render_to_string("control/setup/invitation_subject.txt", context).strip(),
        message=render_to_string("control/setup/invitation_email.txt", context),
        from_email=None,
        recipient_list=[user.email],
    )
