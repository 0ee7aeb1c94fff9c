"""A projector scene switch travels as a numbered live notice: every projector follows it."""

from __future__ import annotations

import json

from puzzlecomp.championships.models import ProjectorScene
from puzzlecomp.championships.services.projector import projector_scene_set
from tests.live.entries import live_seq


def test_a_scene_switch_reaches_every_open_stream_as_a_scene_notice(live_app, live_round):
    championship = live_round.event.championship
    streams = [live_app.stream(f"/live/{championship.slug}/events") for _ in range(2)]
    for stream in streams:
        stream.next_event()
    seq = live_seq(championship)

    projector_scene_set(championship=championship, scene=ProjectorScene.PODIUM,
                        round=live_round)

    for stream in streams:
        notice = stream.next_event()
        assert (notice["event"], notice["id"]) == ("notice", str(seq + 1))
        assert json.loads(notice["data"]) == {
            "championship": championship.slug, "seq": seq + 1, "round": None, "kind": "scene"}
