"""The hall's projectors: which scene they show, switched by the head judge."""

from __future__ import annotations

from typing import Any

from puzzlecomp.championships.actions import PROJECTOR_SCENE_SET
from puzzlecomp.championships.models import Championship, ProjectorScene, Round
from puzzlecomp.championships.services.work import unit_of_work


def projector_scene_set(*, championship: Championship, scene: ProjectorScene,
                        round: Round | None, group: str = "", message: str = "",
                        user: Any = None) -> Championship:
    """Show `scene` of `round` (of its `group` alone, or of every group) on every projector,
    with `message` beneath it (or `message` alone); they follow the notice.

    The message goes with the scene it was sent with: a switch without one clears it.
    """
    if round is not None and round.event.championship_id != championship.pk:
        raise ValueError("the round belongs to another championship")
    if group and (round is None or group not in (round.groups or [])):
        raise ValueError(f"the round has no group {group!r}")
    # The notice names no round: it is the projectors' business, not a round's spectators'.
    with unit_of_work(PROJECTOR_SCENE_SET, championship=championship, user=user,
                      scene=str(scene), projector_round=round.pk if round else None,
                      group=group, message=message):
        championship.projector_scene = scene
        championship.projector_round = round
        championship.projector_group = group
        championship.projector_message = message
        championship.save(update_fields=["projector_scene", "projector_round",
                                         "projector_group", "projector_message"])
    return championship
