"""The demo holds one of every kind of fact, and the championship file carries them all: the
demo exported, imported as a copy and the copy exported give the same document (docs/
interchange.md), the export time and slug aside."""

from __future__ import annotations

import copy
import json
from typing import Any

from puzzlecomp.championships.demo import DEMO_SLUG, RELAY_DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship
from puzzlecomp.championships.services.interchange import championship_export, championship_import


def without_instance_details(data: dict[str, Any]) -> dict[str, Any]:
    """The document minus what differs between two exports by design."""
    data = copy.deepcopy(data)
    del data["exported_at"]
    del data["championship"]["slug"]
    return data


def test_the_demo_holds_every_kind_of_fact_and_its_file_round_trips(db):
    # The demo is big: built once, small, for every check of this module.
    demo_load(individuals=60, pairs=20, teams=8)
    wjpc = championship_export(Championship.objects.get(slug=DEMO_SLUG))
    relay = championship_export(Championship.objects.get(slug=RELAY_DEMO_SLUG))

    teams_first = next(r for e in wjpc["events"] if e["code"] == "teams" for r in e["rounds"]
                       if r["code"] == "first")
    assert teams_first["state"] == "published"
    assert any(q["event"] == "teams" and q["status"] == "confirmed" for q in wjpc["qualifiers"])
    assert any(s["event"] == "teams" and s["round"] == "final" for s in wjpc["seats"])
    assert [d["status"] for d in wjpc["disputes"]] == ["rejected"]
    assert len(wjpc["model_choices"]) == 8
    assert {len(c["models"]) for c in wjpc["model_choices"]} == {2}
    assert {d["event"] for d in wjpc["group_draws"]} == {"individual", "pairs", "teams"}
    [move] = wjpc["group_moves"]
    assert move["reason"]
    assert move["from_group"] != move["to_group"]
    [credit] = wjpc["time_credits"]
    assert credit["seconds"] == 90
    assert [s["time_credit"] for s in wjpc["seats"] if s["time_credit"]] == [90]
    [draw] = relay["relay_draws"]
    assert (draw["seed"], draw["team_size"], len(draw["teams"]), len(draw["left_over"])) == (
        2027, 4, 5, 2)

    for slug, exported in ((DEMO_SLUG, wjpc), (RELAY_DEMO_SLUG, relay)):
        text = json.dumps(exported)
        copy_of = championship_import(json.loads(text), slug=f"{slug}-copy")
        again = championship_export(copy_of)
        assert again["championship"]["slug"] == f"{slug}-copy"
        # Issue 22: a file's people are new records; their archive ids stay behind.
        assert not any(p["archive_id"] for p in again["people"])
        expected = without_instance_details(exported)
        for person in expected["people"]:
            person["archive_id"] = None
        assert without_instance_details(again) == expected, slug
