"""Creating a championship from a ruleset, and adjusting it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.text import slugify

from puzzlecomp.championships.actions import CHAMPIONSHIP_CREATED, MEMBERSHIP_SET
from puzzlecomp.championships.models import (
    Championship,
    Event,
    Membership,
    Puzzle,
    Role,
    Round,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.championships.time_zones import default_time_zone, is_time_zone
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ruleset import Ruleset


def championship_create(
    *,
    ruleset_id: str,
    name: str,
    starts_at: dt.datetime,
    venue: str = "",
    owner: Any = None,
    slug: str = "",
    time_zone: str = "",
    country: str = "",
) -> Championship:
    """A championship with the events, rounds, puzzles and floor plan of its ruleset.

    Its time zone is `time_zone`, else the host `country`'s (ISO alpha-2), else the site's
    TIME_ZONE (championships/time_zones.py).
    """
    ruleset = load_ruleset(ruleset_id)
    zone = time_zone or default_time_zone(country)
    if not is_time_zone(zone):
        raise ValueError(f"{zone!r} is not an IANA time zone")
    championship = Championship(
        slug=unique_slug(slug or name),
        name=name,
        ruleset_id=ruleset.id,
        venue=venue,
        starts_at=starts_at,
        time_zone=zone,
        floor_rows=list(ruleset.floor_plan.rows) if ruleset.floor_plan else [],
        guest_tables=ruleset.floor_plan.guest_tables if ruleset.floor_plan else 0,
    )
    with unit_of_work(CHAMPIONSHIP_CREATED, championship=championship, user=owner,
                      ruleset=ruleset_id):
        championship.save()
        _events_create(championship, ruleset)
        if owner is not None:
            Membership.objects.create(user=owner, championship=championship, role=Role.OWNER)
    return championship


def _events_create(championship: Championship, ruleset: Ruleset) -> None:
    for event_position, spec in enumerate(ruleset.events):
        event = Event.objects.create(
            championship=championship, code=spec.id, name=spec.name, kind=spec.kind,
            members_min=spec.members_min, members_max=spec.members_max,
            capacity=spec.capacity, position=event_position,
        )
        for round_position, round_spec in enumerate(spec.rounds):
            rnd = Round.objects.create(
                event=event, code=round_spec.id, name=round_spec.name, position=round_position,
                time_limit_minutes=round_spec.time_limit_minutes, groups=list(round_spec.groups),
            )
            Puzzle.objects.bulk_create(
                Puzzle(round=rnd, position=i, pieces=size,
                       brand=(round_spec.puzzles[i].brand if round_spec.puzzles else ""),
                       picture=(round_spec.puzzles[i].picture if round_spec.puzzles else True),
                       models_to_choose_from=(round_spec.puzzles[i].models
                                              if round_spec.puzzles else None))
                for i, size in enumerate(round_spec.puzzle_sizes)
            )


def unique_slug(text: str) -> str:
    """A slug from the text, numbered when already taken."""
    base = slugify(text)[:40] or "championship"
    slug, n = base, 1
    while Championship.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def membership_set(*, championship: Championship, user: Any, role: Role, by: Any) -> Membership:
    """Give a user a role in the championship (replacing any role they had)."""
    with unit_of_work(MEMBERSHIP_SET, championship=championship, user=by,
                      username=user.get_username(), role=int(role)):
        membership, _ = Membership.objects.update_or_create(
            user=user, championship=championship, defaults={"role": role}
        )
    return membership
