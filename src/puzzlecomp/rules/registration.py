"""Who may register for an event, and when: window, capacity, ages, entries and nationality."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Collection, Sequence
from typing import Literal

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.ruleset import Event, RegistrationPolicy, month_day


@dataclasses.dataclass(frozen=True)
class Applicant:
    """One person in a registration, with the facts the registration rules look at."""

    person_id: str
    # The birth year alone (archive data) is a fallback for the birth date.
    birth_year: int | None = None
    name: str = ""
    nationalities: tuple[str, ...] = ()
    # The nationality represented at this edition; may stay None with a single nationality.
    chosen_nationality: str | None = None
    # The nationality represented at an earlier edition the person competed in.
    competed_as: str | None = None
    # An adult outside the entry (a parent, a guardian) comes along.
    accompanied_by_adult: bool = False
    birth_date: dt.date | None = None

    @property
    def label(self) -> str:
        """The name for messages, or the person id when no name is given."""
        return self.name or self.person_id


@dataclasses.dataclass(frozen=True)
class RegistrationPeriod:
    """When registration is open: from `opens` (None: always) up to but excluding `closes`."""

    opens: dt.datetime | None
    closes: dt.datetime


@dataclasses.dataclass(frozen=True)
class RegistrationDecision:
    """What happens to a registration made now; `refusal` says why when it is refused."""

    outcome: Literal["accepted", "waiting_list", "refused"]
    refusal: RuleViolation | None = None


def registration_period(
    policy: RegistrationPolicy,
    *,
    competition_start: dt.datetime,
    organiser_opens: dt.datetime | None = None,
    organiser_closes: dt.datetime | None = None,
    time_zone: dt.tzinfo = dt.UTC,
) -> RegistrationPeriod:
    """The registration period of a competition starting at `competition_start`.

    It opens at the window's MM-DDTHH:MM in the championship's time zone in the competition
    year, like the closing, or in UTC when the time ends in Z (WJPC: "12:00 AM GMT"), and
    closes at the championship's local midnight that begins the day `closes_days_before`
    days before the start's local date ("closes 5 days before the start": a start on 20
    September closes as 15 September begins where it is held). Without a window in the
    rulebook the organiser's opening and closing apply, each defaulting to "always" and "at
    the start"; a closing after the start is the start.
    """
    start = _utc(competition_start, "competition_start")
    window = policy.window
    if window is None:
        opens = None if organiser_opens is None else _utc(organiser_opens, "organiser_opens")
        closes = (start if organiser_closes is None
                  else min(_utc(organiser_closes, "organiser_closes"), start))
        return RegistrationPeriod(opens=opens, closes=closes)
    day, time = window.opens.split("T")
    opening_zone = dt.UTC if time.endswith("Z") else time_zone
    hour, minute = (int(part) for part in time.removesuffix("Z").split(":"))
    year = start.astimezone(opening_zone).year
    opens = dt.datetime.combine(month_day(day, year), dt.time(hour, minute),
                                tzinfo=opening_zone).astimezone(dt.UTC)
    last_day = start.astimezone(time_zone).date() - dt.timedelta(days=window.closes_days_before)
    midnight = dt.datetime.combine(last_day, dt.time(0, 0), tzinfo=time_zone)
    return RegistrationPeriod(opens=opens, closes=midnight.astimezone(dt.UTC))


def registration_period_of_event(period: RegistrationPeriod, *,
                                  first_round_started: dt.datetime | None) -> RegistrationPeriod:
    """The period of one event: it closes when the event's first round starts, whatever the
    organiser's closing says (wjpc-2025.txt, Registration: it closes before the start; a
    rulebook without a window is read the same way), so an event already played or being
    played takes no entry. `first_round_started`: None while the first round is planned."""
    if first_round_started is None:
        return period
    closes = min(period.closes, _utc(first_round_started, "first_round_started"))
    opens = period.opens if period.opens is None or period.opens <= closes else closes
    return RegistrationPeriod(opens=opens, closes=closes)


def registration_capacity(event: Event) -> int | None:
    """How many places the event holds: entries, or people where the event counts people.

    Drawn teams are filled from individual registrations, so their places are people: teams
    times members (20 relay teams of four: 80 people). None: no capacity in the rulebook.
    """
    if event.capacity is None:
        return None
    if event.drawn_teams and event.capacity_unit == "entries":
        return event.capacity * event.members_max
    return event.capacity


def places_needed(event: Event, *, people: int = 1) -> int:
    """The places one registration of `people` people takes: one entry, or one place a person."""
    return people if event.capacity_unit == "people" or event.drawn_teams else 1


def registration_decision(
    event: Event,
    policy: RegistrationPolicy,
    *,
    now: dt.datetime,
    competition_start: dt.datetime,
    confirmed_count: int,
    people: int = 1,
    period: RegistrationPeriod | None = None,
) -> RegistrationDecision:
    """Accept a registration of `people` people, put it on the waiting list, or refuse it.

    `confirmed_count` is the number of places already taken, counted like
    `registration_capacity`: entries, or people where the event counts people. `period` is
    `registration_period`'s answer when the organiser set the window (by default, the
    ruleset's window alone).
    """
    if confirmed_count < 0 or people < 1:
        raise ValueError(f"confirmed_count {confirmed_count} and people {people} must be counts")
    instant = _utc(now, "now")
    if period is None:
        period = registration_period(policy, competition_start=competition_start)
    if period.opens is not None and instant < period.opens:
        return _refused(
            "registration.not_open_yet",
            f"registration for {event.name} opens at {period.opens.isoformat()}",
            opens=period.opens,
        )
    if instant >= period.closes:
        return _refused(
            "registration.closed",
            f"registration for {event.name} closed at {period.closes.isoformat()}",
            closes=period.closes,
        )
    capacity = registration_capacity(event)
    if capacity is None or confirmed_count + places_needed(event, people=people) <= capacity:
        return RegistrationDecision("accepted")
    if policy.waiting_list:
        return RegistrationDecision("waiting_list")
    return _refused(
        "registration.full",
        f"{event.name} is full ({capacity} places) and keeps no waiting list",
        capacity=capacity,
    )


def check_nationality_choice(
    chosen: str | None,
    *,
    nationalities: Sequence[str],
    earlier_choice: str | None,
    policy: RegistrationPolicy,
    person: str = "the applicant",
    field: str = "chosen_nationality",
) -> RuleViolation | None:
    """Why a person may not represent `chosen`, or None when they may.

    A person with several nationalities chooses one of them; once they have competed under a
    choice, it stays fixed where the policy says so (WJPC: in all future editions).
    """
    effective = chosen
    if chosen is None:
        if len(nationalities) > 1:
            return violation(
                "registration.nationality_not_chosen",
                f"{person} holds {', '.join(nationalities)} and must choose one to represent",
                field=field,
                person=person,
                nationalities=tuple(nationalities),
            )
        effective = nationalities[0] if nationalities else None
    elif nationalities and chosen not in nationalities:
        return violation(
            "registration.nationality_not_held",
            f"{person} chose {chosen} but holds {', '.join(nationalities)}",
            field=field,
            person=person,
            chosen=chosen,
        )
    fixed = policy.nationality_fixed_after_competing and earlier_choice is not None
    if fixed and effective != earlier_choice:
        return violation(
            "registration.nationality_fixed",
            f"{person} competed for {earlier_choice} before and must keep that nationality",
            field=field,
            person=person,
            chosen=effective,
            earlier_choice=earlier_choice,
        )
    return None


def check_entry(
    event: Event,
    policy: RegistrationPolicy,
    *,
    members: Sequence[Applicant],
    competition_start: dt.date,
    already_entered: Collection[str] = (),
) -> list[RuleViolation]:
    """Every rule the proposed entry breaks; an empty list means it may be registered.

    `already_entered` holds the person ids that already have another entry in this event.
    Ages are taken by birth date on the ruleset's day (AgeRule.reckoned, rules/ages.py), by birth
    year where no date is known; a member of unknown age is held to no age rule.
    """
    problems = _size_violations(event, members)
    day = policy.age.day(competition_start)
    ages = [policy.age.age(competition_start=competition_start, birth_date=m.birth_date,
                           birth_year=m.birth_year) for m in members]
    seen: set[str] = set()
    for index, (member, age) in enumerate(zip(members, ages, strict=True)):
        adult_partner = any(
            other_age is not None and other_age >= policy.age.adult_from
            for other_index, other_age in enumerate(ages)
            if other_index != index
        )
        if age is not None:
            problems += _age_violations(event, policy, member, _Age(age, day), index,
                                        adult_partner)
        if member.person_id in seen:
            problems.append(
                _member_violation(
                    "registration.same_person_twice",
                    f"{member.label} appears twice in one entry",
                    member,
                    index,
                    "person_id",
                )
            )
        seen.add(member.person_id)
        if policy.one_entry_per_event and member.person_id in already_entered:
            problems.append(
                _member_violation(
                    "registration.already_entered",
                    f"{member.label} already has an entry in {event.name}",
                    member,
                    index,
                    "person_id",
                )
            )
        nationality = check_nationality_choice(
            member.chosen_nationality,
            nationalities=member.nationalities,
            earlier_choice=member.competed_as,
            policy=policy,
            person=member.label,
            field=f"members[{index}].chosen_nationality",
        )
        if nationality is not None:
            params = {**nationality.params, "person_id": member.person_id}
            problems.append(dataclasses.replace(nationality, params=params))
    return problems


def _size_violations(event: Event, members: Sequence[Applicant]) -> list[RuleViolation]:
    if event.drawn_teams:
        if len(members) == 1:
            return []
        return [
            violation(
                "registration.drawn_teams_only",
                f"{event.name} teams are drawn by the organiser; each person registers alone",
                field="members",
                size=len(members),
            )
        ]
    if event.members_min <= len(members) <= event.members_max:
        return []
    wanted = (
        str(event.members_min)
        if event.members_min == event.members_max
        else f"{event.members_min}-{event.members_max}"
    )
    return [
        violation(
            "registration.team_size",
            f"an entry in {event.name} has {wanted} members, not {len(members)}",
            field="members",
            size=len(members),
            members_min=event.members_min,
            members_max=event.members_max,
        )
    ]


@dataclasses.dataclass(frozen=True)
class _Age:
    years: int
    day: dt.date


def _age_violations(
    event: Event,
    policy: RegistrationPolicy,
    member: Applicant,
    age: _Age,
    index: int,
    adult_partner: bool,
) -> list[RuleViolation]:
    rule = policy.age
    problems: list[RuleViolation] = []
    years, on = age.years, age.day.isoformat()
    born = "birth_date" if member.birth_date is not None else "birth_year"
    # Drawn teams are formed after registration, so nobody enters them with a known adult.
    enters_alone = event.members_max == 1 or event.drawn_teams
    if rule.alone_from is not None and years < rule.alone_from:
        if enters_alone:
            problems.append(
                _member_violation(
                    "registration.too_young_alone",
                    f"{member.label} is {years} on {on}; alone only from {rule.alone_from}, "
                    "younger only in a pair or team with an adult",
                    member,
                    index,
                    born,
                    age=years,
                    day=age.day,
                    alone_from=rule.alone_from,
                )
            )
        elif not adult_partner:
            problems.append(
                _member_violation(
                    "registration.needs_adult_member",
                    f"{member.label} is {years} on {on} and needs a member aged "
                    f"{rule.adult_from} or over in the same entry",
                    member,
                    index,
                    born,
                    age=years,
                    day=age.day,
                    adult_from=rule.adult_from,
                )
            )
    accompanied = member.accompanied_by_adult or adult_partner
    if rule.accompanied_below is not None and years < rule.accompanied_below and not accompanied:
        problems.append(
            _member_violation(
                "registration.needs_accompanying_adult",
                f"{member.label} is {years} on {on}; under {rule.accompanied_below} only when "
                "accompanied by an adult",
                member,
                index,
                "accompanied_by_adult",
                age=years,
                day=age.day,
                accompanied_below=rule.accompanied_below,
            )
        )
    return problems


def shared_email_violations(members: Sequence[tuple[str, str]]) -> list[RuleViolation]:
    """Each member of an entry gives an address of their own: a later member (a child in a
    pair or team with a parent, wjpc-2025.txt, Registration: "accompanied by an adult as a pair
    or team") whose address is an earlier member's is refused at that field. The address says
    who a person is (emails, claims, results), so a parent's would make the child the parent.
    `members`: (name, email) of each member in the form's order."""
    problems: list[RuleViolation] = []
    owner: dict[str, str] = {}
    for index, (name, email) in enumerate(members):
        key = email.strip().casefold()
        if key and key in owner:
            problems.append(violation(
                "registration.email_shared", f"{name} gives {owner[key]}'s email",
                field=f"members[{index}].email", person=name, other=owner[key]))
        owner.setdefault(key, name)
    return problems


def _member_violation(
    code: str, message: str, member: Applicant, index: int, attribute: str, **params: object
) -> RuleViolation:
    return violation(
        code,
        message,
        field=f"members[{index}].{attribute}",
        person=member.label,
        person_id=member.person_id,
        **params,
    )


def _refused(code: str, message: str, **params: object) -> RegistrationDecision:
    return RegistrationDecision("refused", violation(code, message, field="now", **params))


def _utc(instant: dt.datetime, name: str) -> dt.datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware, not {instant!r}")
    return instant.astimezone(dt.UTC)
