"""The entrants of a championship as the public may read them: the countries taking part,
each country's entrants, and a search by name or entry number.

The flag is the one the entrant competes under on the results pages (the engine's, from the
members' nationalities); a name is shown only with its members' consent (selectors.publishing),
and a search never finds an entrant by a name it may not show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_countries import countries
from django_countries.ioc_data import IOC_TO_ISO

from puzzlecomp.championships.engine import flag_of
from puzzlecomp.championships.models import Championship, EntryMember, Event
from puzzlecomp.championships.selectors.publishing import (
    Withheld,
    member_named,
    public_entries,
    public_name,
)
from puzzlecomp.public.live.display import flag_emoji, withheld_words
from puzzlecomp.rules.collation import collation_key
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.spectating import entrant_matches

# The most entrants a search lists: a spectator narrows a longer list by typing more.
FOUND_MOST = 100


@dataclass(frozen=True)
class ListedEntrant:
    event: Event
    number: int
    # "Name not published" when it names a member who did not consent.
    name: str
    flag: str
    flag_emoji: str
    # The names a search may find the entrant by: its own and its consenting members'.
    names: tuple[str, ...]
    url: str


@dataclass(frozen=True)
class Country:
    """A flag entrants compete under, with how many do."""

    flag: str
    name: str
    flag_emoji: str
    entrants: int


@dataclass(frozen=True)
class _Member:
    # The ISO code of the country the member represents (else their nationality).
    country: str
    first: str
    last: str
    consent: bool


def entrants_listed(championship: Championship) -> list[ListedEntrant]:
    """Every entrant the public may look up (confirmed, or who has competed), event by event
    in entry number order."""
    ruleset = load_ruleset(championship.ruleset_id)
    events = {event.pk: event for event in championship.events.all()}
    # Each event's entrant pages without the number (one reverse per event, not per entrant).
    pages = {pk: reverse("public:live:entrant", args=[championship.slug, event.code, 0])
             .removesuffix("0/") for pk, event in events.items()}
    members: dict[int, list[_Member]] = {}
    for member in (EntryMember.objects.filter(entry__event__championship=championship)
                   .select_related("person").order_by("entry_id", "position")
                   .only("entry_id", "represents", "consent_publish", "person__nationality",
                         "person__first_name", "person__last_name")):
        person = member.person
        members.setdefault(member.entry_id, []).append(
            _Member(str(member.represents or person.nationality or ""), person.first_name,
                    person.last_name, member_named(member)))
    not_published = withheld_words()
    listed = []
    for pk, event_id, number, name, country in (
            public_entries(championship.slug).order_by("event__position", "number")
            .values_list("pk", "event_id", "number", "name", "country")):
        event = events[event_id]
        people = members.get(pk, [])
        flag = flag_of(ruleset.event(event.code), [p.country for p in people if p.country],
                       country=country)[0]
        withheld: list[Withheld] = [(p.first, p.last) for p in people if not p.consent]
        shown = public_name(name, withheld)
        listed.append(ListedEntrant(
            event=event, number=number, name=shown or not_published, flag=flag,
            flag_emoji=flag_emoji(flag),
            names=(shown, *(f"{p.first} {p.last}" for p in people if p.consent)),
            url=f"{pages[event_id]}{number}/"))
    return listed


def countries_taking_part(listed: list[ListedEntrant]) -> list[Country]:
    """Each flag the entrants compete under with its number of entrants, by country name."""
    counts = Counter(entrant.flag for entrant in listed if entrant.flag)
    found = [Country(flag, country_name(flag), flag_emoji(flag), count)
             for flag, count in counts.items()]
    language = translation.get_language() or "en"
    return sorted(found, key=lambda country: (collation_key(country.name, language),
                                              country.flag))


def country_name(flag: str) -> str:
    """The country of an IOC code in the page's language; a flag of no country (the mixed
    flag) reads as entrants of several countries."""
    iso = IOC_TO_ISO.get(flag.upper(), "")
    if not iso:
        return _("Several countries (%(flag)s)") % {"flag": flag}
    return str(countries.name(iso)) or flag


def entrants_found(listed: list[ListedEntrant], *, query: str = "",
                   country: str = "") -> list[ListedEntrant]:
    """The entrants a search finds (by name or entry number), or those of one flag."""
    if query.strip():
        return [e for e in listed if entrant_matches(query, number=e.number, names=e.names)]
    if country:
        return [e for e in listed if e.flag == country.upper()]
    return []
