"""Registration: the window, capacity and waiting list, ages, entries and nationality."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.loading import load_ruleset, ruleset_ids
from puzzlecomp.rules.registration import (
    Applicant,
    RegistrationDecision,
    RegistrationPeriod,
    check_entry,
    check_nationality_choice,
    places_needed,
    registration_capacity,
    registration_decision,
    registration_period,
)
from puzzlecomp.rules.ruleset import Event, RegistrationWindow, Ruleset

START = dt.datetime(2025, 9, 20, 9, 0, tzinfo=dt.UTC)
MARCH = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def wjpc() -> Ruleset:
    return load_ruleset("wjpc-2025")


@pytest.fixture
def czech() -> Ruleset:
    return load_ruleset("czech-championship")


@pytest.fixture
def blind_relay() -> Ruleset:
    return load_ruleset("czech-blind-relay")


@pytest.fixture
def norway() -> Ruleset:
    return load_ruleset("norway-nm-2025")


def decide(
    ruleset: Ruleset, event_id: str, *, now: dt.datetime = MARCH, confirmed: int = 0
) -> RegistrationDecision:
    return registration_decision(
        ruleset.event(event_id),
        ruleset.registration,
        now=now,
        competition_start=START,
        confirmed_count=confirmed,
    )


def codes_of(
    ruleset: Ruleset,
    event_id: str,
    *members: Applicant,
    already_entered: tuple[str, ...] = (),
) -> list[str]:
    violations = check_entry(
        ruleset.event(event_id),
        ruleset.registration,
        members=members,
        competition_start=START.date(),
        already_entered=already_entered,
    )
    return [v.code for v in violations]


def person(
    person_id: str,
    birth_year: int = 1980,
    *,
    name: str = "",
    nationalities: tuple[str, ...] = (),
    chosen_nationality: str | None = None,
    competed_as: str | None = None,
    accompanied_by_adult: bool = False,
) -> Applicant:
    return Applicant(
        person_id=person_id,
        birth_year=birth_year,
        name=name,
        nationalities=nationalities,
        chosen_nationality=chosen_nationality,
        competed_as=competed_as,
        accompanied_by_adult=accompanied_by_adult,
    )


# ------------------------------------------------------------------ window


def test_wjpc_registration_opens_on_1_january_at_midnight_gmt(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, General conditions, Registration: "begins on January 1 at 12:00 AM GMT"."""
    before = decide(wjpc, "individual", now=dt.datetime(2024, 12, 31, 23, 59, 59, tzinfo=dt.UTC))
    at_open = decide(wjpc, "individual", now=dt.datetime(2025, 1, 1, 0, 0, tzinfo=dt.UTC))

    assert before.outcome == "refused"
    assert before.refusal is not None
    assert before.refusal.code == "registration.not_open_yet"
    assert at_open.outcome == "accepted"


def test_wjpc_opening_is_an_instant_so_midnight_in_prague_is_still_the_old_year(
    wjpc: Ruleset,
) -> None:
    """wjpc-2025.txt, General conditions, Registration: the opening is given in GMT."""
    prague = dt.timezone(dt.timedelta(hours=1))
    decision = decide(wjpc, "pairs", now=dt.datetime(2025, 1, 1, 0, 30, tzinfo=prague))

    assert decision.refusal is not None
    assert decision.refusal.code == "registration.not_open_yet"


def test_wjpc_registration_closes_at_midnight_5_days_before_the_start(
    wjpc: Ruleset,
) -> None:
    """wjpc-2025.txt, General conditions, Registration: "closes 5 days before the start": a
    start on 20 September closes as 15 September begins (here in UTC, the default zone)."""
    closes = dt.datetime(2025, 9, 15, 0, 0, tzinfo=dt.UTC)
    last_second = decide(wjpc, "teams", now=closes - dt.timedelta(seconds=1))
    at_close = decide(wjpc, "teams", now=closes)

    assert last_second.outcome == "accepted"
    assert at_close.outcome == "refused"
    assert at_close.refusal is not None
    assert at_close.refusal.code == "registration.closed"
    assert at_close.refusal.params["closes"] == closes


def test_wjpc_registration_closes_at_the_hosts_local_midnight(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: the 5 days are the host's days. In Madrid (UTC+2 in
    September) 15 September begins at 22:00 UTC on the 14th; in Sydney (UTC+10) at 14:00 UTC;
    the opening stays "January 1 at 12:00 AM GMT" wherever it is held."""
    for zone, closes in (("Europe/Madrid", dt.datetime(2025, 9, 14, 22, 0, tzinfo=dt.UTC)),
                         ("Australia/Sydney", dt.datetime(2025, 9, 14, 14, 0, tzinfo=dt.UTC))):
        period = registration_period(wjpc.registration, competition_start=START,
                                     time_zone=zoneinfo.ZoneInfo(zone))
        assert period.closes == closes, zone
        assert period.opens == dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def test_a_window_without_a_zone_opens_at_the_hosts_local_midnight_as_it_closes(
    wjpc: Ruleset,
) -> None:
    """docs/rulesets.md, [registration] window: a rulebook that says "opens on 1 January"
    without a zone counts the host's days for the opening as for the closing (wjpc-2025.txt,
    Registration, read without its "GMT"). Madrid (UTC+1 in January) opens at 23:00 UTC on
    31 December; New York (UTC-5) at 05:00 UTC on 1 January; each closes at its own
    midnight."""
    local = wjpc.registration.model_copy(update={"window": RegistrationWindow(
        opens="01-01T00:00", closes_days_before=5)})
    for zone, opens, closes in (
            ("Europe/Madrid", dt.datetime(2024, 12, 31, 23, 0, tzinfo=dt.UTC),
             dt.datetime(2025, 9, 14, 22, 0, tzinfo=dt.UTC)),
            ("America/New_York", dt.datetime(2025, 1, 1, 5, 0, tzinfo=dt.UTC),
             dt.datetime(2025, 9, 15, 4, 0, tzinfo=dt.UTC))):
        period = registration_period(local, competition_start=START,
                                     time_zone=zoneinfo.ZoneInfo(zone))
        assert (period.opens, period.closes) == (opens, closes), zone
        assert period.opens.astimezone(zoneinfo.ZoneInfo(zone)).time() == dt.time(0, 0)
        assert period.closes.astimezone(zoneinfo.ZoneInfo(zone)).time() == dt.time(0, 0)


@pytest.mark.parametrize("ruleset_id", ["czech-championship", "czech-blind-relay"])
def test_a_rulebook_without_a_window_takes_registrations_until_the_start(ruleset_id: str) -> None:
    """czech-championship.txt, czech-blind-and-relay.txt: no registration period is given."""
    ruleset = load_ruleset(ruleset_id)
    early = decide(ruleset, "individual", now=dt.datetime(2024, 6, 1, tzinfo=dt.UTC))
    at_start = decide(ruleset, "individual", now=START)

    assert early.outcome == "accepted"
    assert at_start.refusal is not None
    assert at_start.refusal.code == "registration.closed"


def test_a_naive_datetime_is_refused_as_a_programming_error(wjpc: Ruleset) -> None:
    """Instants are compared in UTC; a time without a zone could be any instant."""
    with pytest.raises(ValueError, match="timezone-aware"):
        decide(wjpc, "individual", now=MARCH.replace(tzinfo=None))


# ------------------------------------------------------------------ capacity


@pytest.mark.parametrize(
    ("event_id", "capacity"), [("individual", 1200), ("pairs", 800), ("teams", 400)]
)
def test_wjpc_beyond_the_quota_goes_to_the_waiting_list(
    wjpc: Ruleset, event_id: str, capacity: int
) -> None:
    """wjpc-2025.txt: at most 1,200 individuals (6 groups of 200), 800 pairs, 400 teams."""
    assert decide(wjpc, event_id, confirmed=capacity - 1).outcome == "accepted"
    assert decide(wjpc, event_id, confirmed=capacity).outcome == "waiting_list"


@pytest.mark.parametrize(
    ("event_id", "capacity"), [("individual", 200), ("pairs", 120), ("teams", 50)]
)
def test_czech_championship_beyond_the_maximum_number_goes_to_the_waiting_list(
    czech: Ruleset, event_id: str, capacity: int
) -> None:
    """czech-championship.txt: "Maximum number: 200 individuals", 120 pairs, 50 teams."""
    assert decide(czech, event_id, confirmed=capacity - 1).outcome == "accepted"
    assert decide(czech, event_id, confirmed=capacity).outcome == "waiting_list"


def test_czech_blind_individual_holds_80_people(blind_relay: Ruleset) -> None:
    """czech-blind-and-relay.txt, 2.1: "Maximum capacity is 80 people"."""
    assert decide(blind_relay, "individual", confirmed=79).outcome == "accepted"
    assert decide(blind_relay, "individual", confirmed=80).outcome == "waiting_list"


def test_czech_relay_holds_20_teams_of_4_drawn_from_80_individual_registrations(
    blind_relay: Ruleset,
) -> None:
    """czech-blind-and-relay.txt, 3.1: "Maximum capacity is 20 teams", "teams of four"."""
    assert registration_capacity(blind_relay.event("relay")) == 80
    assert decide(blind_relay, "relay", confirmed=79).outcome == "accepted"
    assert decide(blind_relay, "relay", confirmed=80).outcome == "waiting_list"


def test_without_a_waiting_list_a_full_event_refuses(wjpc: Ruleset) -> None:
    """A ruleset may keep no waiting list; then a full event refuses with a reason."""
    policy = wjpc.registration.model_copy(update={"waiting_list": False})
    decision = registration_decision(
        wjpc.event("teams"), policy, now=MARCH, competition_start=START, confirmed_count=400
    )

    assert decision.outcome == "refused"
    assert decision.refusal is not None
    assert decision.refusal.code == "registration.full"


def test_a_rulebook_without_a_capacity_accepts_every_registration_in_the_window(
    norway: Ruleset,
) -> None:
    """norway-nm-2025.txt and australia-state-national.txt name no maximum number."""
    assert decide(norway, "teams", confirmed=10_000).outcome == "accepted"


CAPPED_EVENTS = [
    (load_ruleset(ruleset_id), event)
    for ruleset_id in ruleset_ids()
    for event in load_ruleset(ruleset_id).events
    if event.capacity is not None
]


@given(
    ruleset_and_event=st.sampled_from(CAPPED_EVENTS),
    over=st.integers(0, 5_000),
    people=st.integers(1, 4),
)
def test_a_full_event_never_accepts_another_registration(
    ruleset_and_event: tuple[Ruleset, Event], over: int, people: int
) -> None:
    """wjpc-2025.txt, Registration: closes "once the participant quota is filled"."""
    ruleset, event = ruleset_and_event
    capacity = registration_capacity(event)
    assert capacity is not None

    decision = registration_decision(
        event,
        ruleset.registration,
        now=MARCH,
        competition_start=START,
        confirmed_count=capacity + over,
        people=people,
    )

    assert decision.outcome == "waiting_list"


@given(
    ruleset_and_event=st.sampled_from(CAPPED_EVENTS),
    confirmed=st.integers(0, 2_000),
    people=st.integers(1, 4),
)
def test_an_accepted_registration_always_fits_in_the_capacity(
    ruleset_and_event: tuple[Ruleset, Event], confirmed: int, people: int
) -> None:
    """Every rulebook's maximum number holds after the registration is accepted."""
    ruleset, event = ruleset_and_event
    capacity = registration_capacity(event)
    assert capacity is not None

    decision = registration_decision(
        event,
        ruleset.registration,
        now=MARCH,
        competition_start=START,
        confirmed_count=confirmed,
        people=people,
    )

    if decision.outcome == "accepted":
        assert confirmed + places_needed(event, people=people) <= capacity


# ------------------------------------------------------------------ ages


def test_wjpc_person_aged_14_in_the_competition_year_may_enter_alone(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: "Individuals aged 14 or older (born before 2011)"."""
    assert codes_of(wjpc, "individual", person("ann", 2010)) == []


def test_wjpc_reckons_age_on_1_january_so_born_in_2011_may_not_enter_alone(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: "aged 14 or older (born before 2011)": 2011 is refused."""
    assert codes_of(wjpc, "individual", person("ann", 2011)) == ["registration.too_young_alone"]


def test_wjpc_person_under_14_may_not_enter_the_individual_event(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: under 14 only "accompanied by an adult as a pair or team"."""
    violations = check_entry(
        wjpc.event("individual"),
        wjpc.registration,
        members=[person("ann", 2012, name="Ann Novak")],
        competition_start=START.date(),
    )

    assert [v.code for v in violations] == ["registration.too_young_alone"]
    assert "Ann Novak" in violations[0].message
    assert violations[0].field == "members[0].birth_year"
    assert violations[0].params["age"] == 12  # reached on 1 January 2025


def test_wjpc_person_under_14_may_enter_a_pair_or_team_with_an_adult(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: younger "accompanied by an adult as a pair or team"."""
    assert codes_of(wjpc, "pairs", person("kid", 2015), person("mum", 1985)) == []
    assert codes_of(wjpc, "teams", person("kid", 2015), person("a", 2010), person("b", 2006)) == []


def test_wjpc_person_under_14_in_a_pair_without_an_adult_is_refused(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: the partner must be an adult (18 in the competition year)."""
    codes = codes_of(wjpc, "pairs", person("kid", 2015), person("teen", 2008))

    assert codes == ["registration.needs_adult_member"]


@pytest.mark.parametrize("ruleset_id", ["czech-championship", "norway-nm-2025"])
def test_under_16_alone_needs_an_accompanying_adult(ruleset_id: str) -> None:
    """czech-championship.txt, norway-nm-2025.txt: under 16 "only when accompanied by an adult"."""
    ruleset = load_ruleset(ruleset_id)

    assert codes_of(ruleset, "individual", person("kid", 2010)) == [
        "registration.needs_accompanying_adult"
    ]
    assert codes_of(ruleset, "individual", person("kid", 2010, accompanied_by_adult=True)) == []
    assert codes_of(ruleset, "individual", person("teen", 2009)) == []


@pytest.mark.parametrize("ruleset_id", ["czech-championship", "norway-nm-2025"])
def test_under_16_in_a_pair_with_an_adult_partner_is_accompanied(ruleset_id: str) -> None:
    """czech-championship.txt, norway-nm-2025.txt: an adult partner accompanies the child."""
    ruleset = load_ruleset(ruleset_id)

    assert codes_of(ruleset, "pairs", person("kid", 2012), person("dad", 1980)) == []
    assert codes_of(ruleset, "pairs", person("kid", 2012), person("sister", 2009)) == [
        "registration.needs_accompanying_adult"
    ]


def test_czech_relay_under_16_needs_an_accompanying_adult_since_team_mates_are_drawn(
    blind_relay: Ruleset,
) -> None:
    """czech-blind-and-relay.txt: "Persons under 16 may participate only when accompanied"."""
    assert codes_of(blind_relay, "relay", person("kid", 2012)) == [
        "registration.needs_accompanying_adult"
    ]
    assert codes_of(blind_relay, "relay", person("kid", 2012, accompanied_by_adult=True)) == []


def test_australia_names_no_age_rule_so_any_age_may_enter() -> None:
    """australia-state-national.txt: the rulebook is silent on age."""
    assert codes_of(load_ruleset("australia-national"), "individual", person("kid", 2018)) == []


# ------------------------------------------------------------------ entries


def test_wjpc_person_may_not_be_in_two_pairs_of_the_same_event(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: "cannot ... form a pair with two different people"."""
    violations = check_entry(
        wjpc.event("pairs"),
        wjpc.registration,
        members=[person("ann"), person("bob")],
        competition_start=START.date(),
        already_entered={"bob"},
    )

    assert [v.code for v in violations] == ["registration.already_entered"]
    assert violations[0].params["person_id"] == "bob"
    assert violations[0].field == "members[1].person_id"


def test_czech_person_may_not_be_in_two_teams_of_the_same_event(czech: Ruleset) -> None:
    """czech-championship.txt: one entry per person per event (ruleset one_entry_per_event)."""
    team = (person("a"), person("b"), person("c"))

    assert codes_of(czech, "teams", *team, already_entered=("c",)) == [
        "registration.already_entered"
    ]


def test_the_same_person_twice_in_one_entry_is_refused(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration: "Each person can only participate once per category"."""
    assert codes_of(wjpc, "pairs", person("ann"), person("ann")) == [
        "registration.same_person_twice"
    ]


@pytest.mark.parametrize("ruleset_id", ["wjpc-2025", "czech-championship"])
@pytest.mark.parametrize(("size", "allowed"), [(2, False), (3, True), (4, True), (5, False)])
def test_a_team_has_3_or_4_members(ruleset_id: str, size: int, allowed: bool) -> None:
    """wjpc-2025.txt, Teams: "a minimum of 3 people and a maximum of 4"; czech: "3-4"."""
    members = [person(f"p{i}") for i in range(size)]

    codes = codes_of(load_ruleset(ruleset_id), "teams", *members)

    assert codes == ([] if allowed else ["registration.team_size"])


def test_wjpc_pair_has_exactly_two_members(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Pairs: an entry of two players."""
    assert codes_of(wjpc, "pairs", person("ann")) == ["registration.team_size"]


def test_czech_relay_refuses_a_team_registration_because_teams_are_drawn(
    blind_relay: Ruleset,
) -> None:
    """czech-blind-and-relay.txt, 3.1: "Each competitor registers individually"."""
    team = [person(f"p{i}") for i in range(4)]

    assert codes_of(blind_relay, "relay", *team) == ["registration.drawn_teams_only"]
    assert codes_of(blind_relay, "relay", person("solo")) == []


def test_every_broken_rule_is_reported_at_once(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Registration and Teams: a screen shows all problems, not the first."""
    members = [
        person("kid", 2015),
        person("teen", 2009),
        person("ann", 2008),
        person("bob", 2008, nationalities=("CZE", "SVK")),
        person("eve", 2008),
    ]

    codes = codes_of(wjpc, "teams", *members, already_entered=("ann",))

    assert sorted(codes) == [
        "registration.already_entered",
        "registration.nationality_not_chosen",
        "registration.needs_adult_member",
        "registration.team_size",
    ]


# ------------------------------------------------------------------ nationality


def test_wjpc_person_with_two_nationalities_must_choose_one(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Countries and Nationalities: "must choose one to represent"."""
    dual = person("ann", nationalities=("CZE", "ESP"))

    assert codes_of(wjpc, "individual", dual) == ["registration.nationality_not_chosen"]
    chosen = person("ann", nationalities=("CZE", "ESP"), chosen_nationality="ESP")
    assert codes_of(wjpc, "individual", chosen) == []


def test_a_chosen_nationality_must_be_one_the_person_holds(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Countries and Nationalities: choose one of "two or more nationalities"."""
    problem = check_nationality_choice(
        "FRA", nationalities=("CZE", "ESP"), earlier_choice=None, policy=wjpc.registration
    )

    assert problem is not None
    assert problem.code == "registration.nationality_not_held"


def test_wjpc_nationality_chosen_at_an_earlier_edition_stays_fixed(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Countries and Nationalities: "cannot be changed in any future WJPC"."""
    problem = check_nationality_choice(
        "ESP", nationalities=("CZE", "ESP"), earlier_choice="CZE", policy=wjpc.registration
    )
    kept = check_nationality_choice(
        "CZE", nationalities=("CZE", "ESP"), earlier_choice="CZE", policy=wjpc.registration
    )

    assert problem is not None
    assert problem.code == "registration.nationality_fixed"
    assert problem.params["earlier_choice"] == "CZE"
    assert kept is None


def test_wjpc_fixed_nationality_is_checked_for_every_member_of_an_entry(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Countries and Nationalities: "must use same nationality in all tests"."""
    switcher = person(
        "ann", nationalities=("CZE", "ESP"), chosen_nationality="ESP", competed_as="CZE"
    )

    violations = check_entry(
        wjpc.event("pairs"),
        wjpc.registration,
        members=[person("bob"), switcher],
        competition_start=START.date(),
    )

    assert [v.code for v in violations] == ["registration.nationality_fixed"]
    assert violations[0].field == "members[1].chosen_nationality"
    assert violations[0].params["person_id"] == "ann"


def test_czech_rulebook_does_not_fix_a_nationality_across_editions(czech: Ruleset) -> None:
    """czech-championship.txt: no rule keeps an earlier nationality, so a new choice stands."""
    problem = check_nationality_choice(
        "SVK", nationalities=("CZE", "SVK"), earlier_choice="CZE", policy=czech.registration
    )

    assert problem is None


def test_without_a_window_in_the_rulebook_the_organisers_opening_and_closing_apply() -> None:
    """czech-championship.txt names no registration window: the organiser sets it."""
    policy = load_ruleset("czech-championship").registration
    start = dt.datetime(2027, 10, 2, 8, 0, tzinfo=dt.UTC)
    opens = dt.datetime(2027, 6, 1, 8, 0, tzinfo=dt.UTC)
    closes = dt.datetime(2027, 9, 25, 22, 0, tzinfo=dt.UTC)
    period = registration_period(policy, competition_start=start, organiser_opens=opens,
                                 organiser_closes=closes)
    assert period == RegistrationPeriod(opens=opens, closes=closes)
    late = registration_period(policy, competition_start=start,
                               organiser_closes=start + dt.timedelta(days=3))
    assert late.closes == start


def test_the_wjpc_window_wins_over_an_organisers_window() -> None:
    """wjpc-2025.txt: registration opens on 1 January and closes 5 days before the start."""
    policy = load_ruleset("wjpc-2025").registration
    start = dt.datetime(2025, 9, 20, 9, 0, tzinfo=dt.UTC)
    period = registration_period(policy, competition_start=start,
                                 organiser_opens=dt.datetime(2025, 3, 1, tzinfo=dt.UTC))
    assert period.opens == dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def test_an_events_registration_closes_when_its_first_round_starts() -> None:
    """wjpc-2025.txt, Registration: registration closes before the start; an organiser's later
    closing does not keep an event open that is already being played."""
    from puzzlecomp.rules.registration import RegistrationPeriod, registration_period_of_event

    window = RegistrationPeriod(opens=dt.datetime(2027, 1, 1, tzinfo=dt.UTC),
                                closes=dt.datetime(2027, 9, 20, tzinfo=dt.UTC))
    started = dt.datetime(2027, 6, 30, 9, tzinfo=dt.UTC)
    assert registration_period_of_event(window, first_round_started=None) == window
    assert registration_period_of_event(window, first_round_started=started).closes == started
    early = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    assert registration_period_of_event(window, first_round_started=early) == RegistrationPeriod(
        opens=early, closes=early)


def test_each_member_of_an_entry_gives_an_email_of_their_own() -> None:
    """wjpc-2025.txt, Registration: a child under 14 enters "accompanied by an adult as a pair
    or team"; the child's address cannot be the parent's (it says who the person is)."""
    from puzzlecomp.rules.registration import shared_email_violations

    assert shared_email_violations([("Ana Ruiz", "ana@x.org"), ("Pia Ruiz", "pia@x.org")]) == []
    [problem] = shared_email_violations([("Ana Ruiz", "ana@x.org"), ("Pia Ruiz", " ANA@x.org")])
    assert (problem.code, problem.field) == ("registration.email_shared", "members[1].email")
    assert problem.params == {"person": "Pia Ruiz", "other": "Ana Ruiz"}
