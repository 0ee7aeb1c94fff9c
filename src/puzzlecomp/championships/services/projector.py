"""The hall's projectors: which scene they show, switched by the head judge."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from puzzlecomp.championships.audit import log_action
from puzzlecomp.championships.models import Championship, ProjectorScene, Round
from puzzlecomp.championships.notices import announce


@transaction.atomic
def projector_scene_set(*, championship: Championship, scene: ProjectorScene,
                        round: Round | None, message: str = "", user: Any = None) -> Championship:
    """Show `scene` of `round` (or `message`) on every projector; they follow the notice."""
    if round is not None and round.event.championship_id != championship.pk:
        raise ValueError("the round belongs to another championship")
    championship.projector_scene = scene
    championship.projector_round = round
    championship.projector_message = message
    championship.save(update_fields=["projector_scene", "projector_round", "projector_message"])
    announce(championship=championship, round=None, kind="scene")
    log_action(championship, "puzzlecomp.projector.scene_set", user=user, scene=str(scene),
               round=round.pk if round else None, message=message)
    return championship
