"""`puzzlecomp standings` and `puzzlecomp awards` read the file of `puzzlecomp championship
export`, take the ruleset and settings from it, and give the places the web app gives."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from django.test import Client

from puzzlecomp.championships.models import Championship
from puzzlecomp.cli.main import main
from tests.standings_support import played_championship

pytestmark = pytest.mark.django_db
CATEGORIES = ("overall", "debutant", "junior-18", "senior-a", "senior-b")


@pytest.fixture
def played() -> Championship:
    return played_championship()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def exported(capsys, played, tmp_path) -> str:
    code, out, err = run(capsys, "championship", "export", played.slug)
    assert (code, err) == (0, "")
    path = tmp_path / "demo.json"
    path.write_text(out, encoding="utf-8")
    return str(path)


def api(played: Championship, what: str, category: str) -> list[dict]:
    response = Client().get(f"/api/v1/championships/{played.slug}/events/individual/{what}",
                            {"category": category})
    assert response.status_code == 200
    return response.json()["lines"]


def test_standings_of_the_exported_file_match_the_web_in_every_category(capsys, played,
                                                                       exported):
    for category in CATEGORIES:
        code, out, err = run(capsys, "standings", exported, "--event", "individual",
                             "--category", category, "--format", "json")
        assert (code, err) == (0, "")
        document = json.loads(out)
        assert (document["ruleset"], document["rounds"]) == ("wjpc-2025",
                                                             ["first", "second", "final"])
        cli = [(int(row["entry"]), row["place"], row["overall_place"])
               for row in document["standings"]]
        web = [(line["entry"], line["place"], line["overall_place"])
               for line in api(played, "standings", category)]
        assert cli == web
        assert len(cli) == (60 if category == "overall" else len(cli))


def test_awards_of_the_exported_file_match_the_web(capsys, played, exported):
    code, out, err = run(capsys, "awards", exported, "--event", "individual", "--format", "json")
    assert (code, err) == (0, "")
    cli = [(row["category"], row["place"], int(row["entry"]), row["money"])
           for row in json.loads(out)["awards"]]
    web = [(line["category"], line["place"], line["entry"], line["money"])
           for category in CATEGORIES for line in api(played, "awards", category)]
    assert cli == web
    # Ten overall prizes; each subcategory gives up to three (the demo's draw of ages decides).
    per_category = Counter(category for category, *_ in cli)
    assert per_category["overall"] == 10
    assert all(1 <= per_category[c] <= 3 for c in CATEGORIES[1:]), per_category


def test_a_ruleset_other_than_the_files_is_refused(capsys, exported):
    code, out, err = run(capsys, "standings", exported, "--event", "individual",
                         "--ruleset", "czech-championship")
    assert (code, out) == (2, "")
    assert "differs from the ruleset wjpc-2025" in err


def test_an_event_without_results_in_the_file_is_named(capsys, exported, tmp_path):
    data = json.loads(Path(exported).read_text(encoding="utf-8"))
    data["results"] = [r for r in data["results"] if r["event"] != "teams"]
    without = tmp_path / "without-teams.json"
    without.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "standings", str(without), "--event", "teams")
    assert (code, out) == (2, "")
    assert "no results for event teams" in err


def test_a_broken_championship_file_names_the_place_of_each_problem(capsys, exported,
                                                                   tmp_path):
    data = json.loads(Path(exported).read_text(encoding="utf-8"))
    data["results"][0]["time_seconds"] = -5
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "awards", str(broken), "--event", "individual")
    assert (code, out) == (2, "")
    assert "results[0].time_seconds" in err
