"""The `puzzlecomp standings` and `awards` contract: folder and JSON input, columns, problems."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main

FIXTURES = Path(__file__).parent / "fixtures" / "championship"
WJPC_FOLDER = FIXTURES / "wjpc-2025"
WJPC_JSON = FIXTURES / "wjpc-2025.json"
WJPC = ["--ruleset", "wjpc-2025", "--event", "individual"]

STANDINGS = [
    "place,overall_place,entry,name,country,round,group,round_rank,status,final_time,pieces",
    "1,1,B1,Bea Novak,CZE,final,,1,finished,0:44:00,",
    "2,2,A1,Alba Ruiz,ESP,final,,2,finished,0:45:00,",
    "3,3,A2,Ana Costa,POR,final,,3,finished,0:50:00,",
    "4,4,B2,Ben Clark,USA,final,,4,unfinished,,400",
    "5,5,A3,Aiko Sato,JPN,second,S1,5,finished,0:40:00,",
    "6,6,B3,Bruna Lima,BRA,second,S1,6,finished,0:42:00,",
    "7,7,B4,Boris Ivanov,BUL,second,S1,7,unfinished,,450",
    ",,A4,Arne Dahl,NOR,second,S1,,dsq,,",
    "8,8,A5,Aino Virta,FIN,first,A,5,finished,1:05:00,",
    "8,8,B5,Bo Jensen,DEN,first,B,5,finished,1:05:00,",
    "10,10,B6,Bianca Rossi,ITA,first,B,6,unfinished,,300",
    ",,A6,Anton Berg,SWE,first,A,,dns,,",
]


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def results_document(ruleset: str, event: str, rounds: dict, settings: dict | None = None) -> dict:
    return {
        "format": "puzzlecomp-results",
        "version": 1,
        "ruleset": ruleset,
        "settings": settings or {},
        "events": {event: {"rounds": rounds}},
    }


@pytest.mark.parametrize("source", [WJPC_FOLDER, WJPC_JSON], ids=["folder", "json"])
def test_standings_list_finalists_then_each_earlier_rounds_eliminated(capsys, source):
    """wjpc-2025.txt, Individual Category: first round, second round and final; parallel groups
    interleave by group rank, then time (docs/standings-and-awards.md)."""
    code, out, err = run(capsys, "standings", source, *WJPC)

    assert (code, err) == (0, "")
    assert out.splitlines() == STANDINGS


def test_folder_and_json_give_the_same_awards(capsys):
    """wjpc-2025.txt, Prizes: the same championship read either way gives the same prizes."""
    from_folder = run(capsys, "awards", WJPC_FOLDER, *WJPC)
    from_json = run(capsys, "awards", WJPC_JSON, "--event", "individual")

    assert from_folder == from_json
    assert from_folder[0] == 0


def test_awards_list_every_prize_with_the_documented_columns(capsys):
    """wjpc-2025.txt, Prizes: trophy and money for 1-3, trophies and puzzles for 4-10, and the
    subcategories' top 3 (birth years and debutants come from the first round's rows). The
    places a subcategory tiebreaker decides wait for it (Subcategories (*)): only the finalists'
    subcategory prizes are named, and stderr says which tiebreakers are pending."""
    code, out, err = run(capsys, "awards", WJPC_FOLDER, *WJPC)

    assert code == 0
    assert [line.split(" round")[0] for line in err.splitlines()] == [
        "pending: the tiebreaker-debutant", "pending: the tiebreaker-junior-18",
        "pending: the tiebreaker-senior-b"]
    lines = out.splitlines()
    assert lines[0] == (
        "category,place,entry,name,country,overall_place,round,trophy,money,currency,items"
    )
    assert lines[1:4] == [
        "overall,1,B1,Bea Novak,CZE,1,final,yes,2000,EUR,",
        "overall,2,A1,Alba Ruiz,ESP,2,final,yes,1500,EUR,",
        "overall,3,A2,Ana Costa,POR,3,final,yes,1000,EUR,",
    ]
    assert "overall,8,B5,Bo Jensen,DEN,8,first,yes,,,puzzles" in lines
    assert lines[-3:] == [
        "debutant,1,A2,Ana Costa,POR,3,final,yes,500,EUR,",
        "junior-18,1,B2,Ben Clark,USA,4,final,yes,,,puzzles",
        "senior-a,1,A1,Alba Ruiz,ESP,2,final,yes,,,puzzles",
    ]


def test_standings_of_a_subcategory_renumber_its_entrants_and_keep_the_overall_place(capsys):
    """wjpc-2025.txt, Subcategories: Individual Debutant, ranked among themselves."""
    code, out, _ = run(
        capsys,
        "standings",
        WJPC_JSON,
        "--event",
        "individual",
        "--category",
        "debutant",
        "--format",
        "json",
    )

    document = json.loads(out)
    assert code == 0
    assert document["category"] == "debutant"
    assert document["rounds"] == ["first", "second", "final"]
    assert [(r["place"], r["overall_place"], r["entry"]) for r in document["standings"]] == [
        (1, 3, "A2"),
        (2, 6, "B3"),
        (3, 8, "A5"),
        (4, 10, "B6"),
    ]
    assert document["standings"][0]["final_time_seconds"] == 3000


def test_awards_of_one_category_as_json(capsys, tmp_path):
    """wjpc-2025.txt, Prizes: Senior B: "Trophy and puzzles for 3 top classified"; no senior
    reached the final, so its tiebreaker (Subcategories (*)), once given, decides."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    (folder / "individual" / "tiebreaker-senior-b.csv").write_text("entry,time\nB4,40:00\n",
                                                                 encoding="utf-8")
    code, out, _ = run(
        capsys, "awards", folder, *WJPC, "--category", "senior-b", "--format", "json"
    )

    document = json.loads(out)
    assert code == 0
    assert document["currency"] == "EUR"
    assert document["awards"] == [
        {
            "category": "senior-b",
            "place": 1,
            "entry": "B4",
            "name": "Boris Ivanov",
            "country": "BUL",
            "overall_place": 7,
            "round": "second",
            "trophy": True,
            "money": None,
            "currency": None,
            "items": "puzzles",
        }
    ]


def test_australian_state_settings_come_from_the_json_and_the_command_line_overrides_them(
    tmp_path, capsys
):
    """australia-state-national.txt, Eligibility: trophies only for residents of the host state;
    the host state is a championship setting."""
    rows = [
        {"entry": "v", "region": "VIC", "time": "40:00"},
        {"entry": "n", "region": "NSW", "time": "41:00"},
    ]
    source = write_json(
        tmp_path / "state.json",
        results_document("australia-state", "individual", {"final": rows}, {"host_region": "NSW"}),
    )
    options = ["--event", "individual", "--time-limit", "60", "--pieces", "500"]

    _, from_file, _ = run(capsys, "awards", source, *options)
    _, overridden, _ = run(capsys, "awards", source, *options, "--setting", "host_region=VIC")

    assert from_file.splitlines()[1:] == ["overall,1,n,,,2,final,yes,,,"]
    assert overridden.splitlines()[1:] == ["overall,1,v,,,1,final,yes,,,"]


def test_a_round_the_ruleset_does_not_name_is_reported_with_its_file(tmp_path, capsys):
    """wjpc-2025.txt, Individual Category: the rounds are first round, second round and final."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    (folder / "individual" / "semifinal.csv").write_text("entry,time\nX,1:00\n", encoding="utf-8")
    (folder / "individuals").mkdir()
    (folder / "individuals" / "first.csv").write_text("entry,time\nX,1:00\n", encoding="utf-8")

    code, out, err = run(capsys, "standings", folder, *WJPC)

    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{folder / 'individual' / 'semifinal.csv'}, field round: event individual of wjpc-2025 "
        "has no round 'semifinal'; known: first, second, final, tiebreaker-debutant, "
        "tiebreaker-junior-18, tiebreaker-senior-a, tiebreaker-senior-b",
        f"{folder / 'individuals' / 'first.csv'}, field event: ruleset wjpc-2025 has no event "
        "'individuals'; known: individual, pairs, teams",
    ]


def test_a_bad_row_in_a_round_csv_is_reported_with_file_row_entry_and_field(tmp_path, capsys):
    """Input problems name where to fix them, as `puzzlecomp rank` does."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    final = folder / "individual" / "final.csv"
    final.write_text(final.read_text().replace("50:00", "5o:00"), encoding="utf-8")

    code, _, err = run(capsys, "awards", folder, *WJPC)

    assert code == 2
    assert err.startswith(f"{final}, row 4, entry A2, field time: ")


def test_a_bad_json_row_is_reported_with_its_path_row_entry_and_field(tmp_path, capsys):
    """Rows of the JSON document are numbered from 1 within their round's list."""
    rows = [
        {"entry": "a", "time": "40:00", "group": "A"},
        {"entry": "b", "time": "95:00", "group": "A"},
        {"entry": "c", "birth_year": "old", "time": "41:00", "group": "A"},
    ]
    source = write_json(
        tmp_path / "c.json", results_document("wjpc-2025", "individual", {"first": rows})
    )

    code, _, err = run(capsys, "standings", source, "--event", "individual")

    assert code == 2
    # Both rows' problems in one run (issue 23, item 9): the one that does not read and the
    # other's finish past the limit.
    assert err.splitlines() == [
        f"{source} events.individual.rounds.first, row 3, entry c, field birth_year: "
        "'old' is not a whole number",
        f"{source} events.individual.rounds.first, row 2, entry b, field time: finish 1:35:00 "
        "is past the limit of 1:30:00",
    ]
    rows[2]["birth_year"] = 1990
    write_json(source, results_document("wjpc-2025", "individual", {"first": rows}))

    code, _, err = run(capsys, "standings", source, "--event", "individual")

    assert code == 2
    assert err.startswith(
        f"{source} events.individual.rounds.first, row 2, entry b, field time: finish 1:35:00 "
        "is past the limit"
    )


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"format": "other", "version": 1, "events": {}}, 'field format: expected "format"'),
        ({"format": "puzzlecomp-results", "version": 2, "events": {}}, "field version"),
        (
            {"format": "puzzlecomp-results", "version": 1, "events": {"individual": []}},
            "field events.individual: an event must be an object with rounds",
        ),
    ],
)
def test_a_json_document_of_another_format_is_refused(tmp_path, capsys, document, message):
    """docs/standings-and-awards.md: "format": "puzzlecomp-results", "version": 1."""
    source = write_json(tmp_path / "c.json", document)

    code, _, err = run(capsys, "standings", source, *WJPC)

    assert code == 2
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["standings", WJPC_FOLDER, "--event", "individual"], "give --ruleset ID"),
        (
            ["standings", WJPC_JSON, "--ruleset", "czech-championship", "--event", "individual"],
            "differs from the ruleset wjpc-2025",
        ),
        (["awards", WJPC_FOLDER, *WJPC, "--category", "veteran"], "has no category 'veteran'"),
        (
            ["standings", WJPC_FOLDER, "--ruleset", "wjpc-2025", "--event", "pairs"],
            "no results for event pairs",
        ),
    ],
)
def test_missing_or_conflicting_options_are_explained(capsys, args, message):
    """The command says what to give instead of failing with a traceback."""
    code, out, err = run(capsys, *args)

    assert (code, out) == (2, "")
    assert message in err


def test_a_round_with_no_time_limit_in_the_ruleset_asks_for_one(tmp_path, capsys):
    """australia-state-national.txt names no time limit: the organiser gives it."""
    source = write_json(
        tmp_path / "c.json",
        results_document("australia-state", "individual", {"final": [{"entry": "a", "pieces": 4}]},
                         {"host_region": "NSW"}),
    )

    code, _, err = run(capsys, "standings", source, "--event", "individual")

    assert code == 2
    assert "--time-limit MINUTES" in err


AUSTRALIA_OPTIONS = ("--event", "individual", "--time-limit", "60", "--pieces", "500")


@pytest.mark.parametrize("command", ["rank", "standings", "awards"])
@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ((), "australia-state needs setting host_region"),
        (("--setting", "host_region=XYZ"), "setting host_region takes ACT, NSW, NT"),
        (("--setting", "host_regoin=NSW"), "australia-state has no setting 'host_regoin'"),
    ],
)
def test_every_command_refuses_a_missing_unknown_or_misspelt_setting(
    tmp_path, capsys, command, setting, message
):
    """australia-state-national.txt, Eligibility: the trophies depend on the host state, so an
    Australian state event without a valid host_region is refused (exit 2), never ranked with
    the trophies given to the wrong people."""
    results = tmp_path / "final.csv"
    results.write_text("entry,region,time\nv,VIC,40:00\n", encoding="utf-8")
    folder = tmp_path / "championship" / "individual"
    folder.mkdir(parents=True)
    shutil.copy(results, folder / "final.csv")
    source = results if command == "rank" else folder.parent
    code, out, err = run(capsys, command, source, "--ruleset", "australia-state",
                         *AUSTRALIA_OPTIONS, *setting)
    assert (code, out) == (2, "")
    assert message in err


def test_advance_refuses_a_setting_the_ruleset_does_not_declare(capsys):
    """wjpc-2025 declares no settings: a host_region given to it is a mistake, not ignored."""
    first = Path(WJPC_FOLDER) / "individual" / "first.csv"
    code, out, err = run(capsys, "advance", first, *WJPC, "--round", "first",
                         "--setting", "host_region=NSW")
    assert (code, out) == (2, "")
    assert "wjpc-2025 has no setting 'host_region'; known: none" in err


def test_setting_names_and_values_are_taken_in_any_letter_case(tmp_path, capsys):
    """docs/rulesets.md, Settings: HOST_REGION=nsw is host_region=NSW."""
    folder = tmp_path / "championship" / "individual"
    folder.mkdir(parents=True)
    (folder / "final.csv").write_text("entry,region,time\nv,VIC,40:00\nn,NSW,41:00\n",
                                      encoding="utf-8")
    code, out, err = run(capsys, "awards", folder.parent, "--ruleset", "australia-state",
                         *AUSTRALIA_OPTIONS, "--setting", "HOST_Region=nsw")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == ["overall,1,n,,,2,final,yes,,,"]


def test_standings_and_awards_honour_the_time_limit_as_rank_does(capsys):
    """One round file is accepted or refused alike by rank, standings and awards: a limit given
    on the command line overrides the ruleset's for every round (wjpc-2025 final: 75 minutes)."""
    final = Path(WJPC_FOLDER) / "individual" / "final.csv"
    shortest = ["--ruleset", "wjpc-2025", "--event", "individual", "--time-limit", "1"]
    refused = [run(capsys, "rank", final, *shortest, "--round", "final")[0],
               run(capsys, "standings", WJPC_FOLDER, *shortest)[0],
               run(capsys, "awards", WJPC_FOLDER, *shortest)[0]]
    assert refused == [2, 2, 2]


def test_entrant_facts_come_from_the_latest_round_that_gives_them(tmp_path, capsys):
    """wjpc-2025.txt, Subcategories: a birth year corrected in a later round is the one used."""
    rounds = {
        "first": [
            {"entry": "a", "group": "A", "time": "40:00", "birth_year": 1990},
            {"entry": "b", "group": "A", "time": "41:00", "birth_year": 2008},
        ],
        "second": [{"entry": "a", "group": "S1", "time": "40:00", "birth_year": 2008}],
    }
    source = write_json(tmp_path / "c.json", results_document("wjpc-2025", "individual", rounds))

    code, out, _ = run(
        capsys, "standings", source, "--event", "individual", "--category", "junior-18"
    )

    assert code == 0
    assert [line.split(",")[:3] for line in out.splitlines()[1:]] == [
        ["1", "1", "a"],
        ["2", "2", "b"],
    ]


def test_awards_lists_the_subcategory_tiebreakers_the_results_call_for(capsys):
    """wjpc-2025.txt, Subcategories (*): Junior 18 has one finalist for three prizes, so the
    best juniors eliminated earlier (up to 5) hold a tiebreaker for the two open places."""
    code, out, err = run(capsys, "awards", WJPC_FOLDER, *WJPC, "--tiebreakers",
                         "--category", "junior-18")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "category,open_places,entry,name,country,overall_place,round",
        "junior-18,2,B5,Bo Jensen,DEN,8,first",
    ]


def test_awards_use_a_subcategory_tiebreaker_held_as_a_round_of_its_own(tmp_path, capsys):
    """wjpc-2025.txt, Subcategories (*): the tiebreaker's results (EVENT/tiebreaker-CATEGORY.csv,
    a round of its own) decide the places after the finalists."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    (folder / "individual" / "tiebreaker-senior-b.csv").write_text(
        "entry,time\nB4,50:00\n", encoding="utf-8")
    code, out, err = run(capsys, "awards", folder, *WJPC, "--category", "senior-b")
    assert (code, err) == (0, "")
    assert [line.split(",")[:3] for line in out.splitlines()[1:]] == [["senior-b", "1", "B4"]]
    (folder / "individual" / "tiebreaker-senior-b.csv").write_text(
        "entry,time\nA1,50:00\n", encoding="utf-8")
    code, out, err = run(capsys, "awards", folder, *WJPC, "--category", "senior-b")
    assert (code, out) == (2, "")
    assert "A1 is not one of the entrants called to the senior-b tiebreaker" in err


def test_standings_carry_the_official_place_where_the_ruleset_has_an_official_ranking(
        tmp_path, capsys):
    """norway-nm-2025.txt: the Norwegian title goes to citizens or to 5 years' residence; the
    standings give each entrant's official place beside the overall place (issue 24, item 3),
    blank for those outside the official ranking."""
    rounds = {"final": [
        {"entry": "se", "name": "Sven Svensson", "country": "SWE", "time": "40:00"},
        {"entry": "oslo", "name": "Siv Lund", "country": "SWE", "time": "41:00",
         "years_resident": 10},
        {"entry": "no", "name": "Ola Nordmann", "country": "NOR", "time": "42:00"},
    ]}
    source = write_json(tmp_path / "n.json",
                        results_document("norway-nm-2025", "individual", rounds))

    given = ("--event", "individual", "--time-limit", "120", "--pieces", "1000")
    code, out, _ = run(capsys, "standings", source, *given)

    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("place,overall_place,official_place,entry,")
    assert [line.split(",")[:4] for line in lines[1:]] == [
        ["1", "1", "", "se"], ["2", "2", "1", "oslo"], ["3", "3", "2", "no"]]

    code, out, _ = run(capsys, "standings", source, *given, "--format", "json")
    places = [(s["entry"], s["official_place"]) for s in json.loads(out)["standings"]]
    assert places == [("se", None), ("oslo", 1), ("no", 2)]


def test_standings_without_an_official_ranking_have_no_official_column(capsys):
    code, out, _ = run(capsys, "standings", WJPC_JSON, *WJPC[2:])
    assert code == 0
    assert out.splitlines()[0] == STANDINGS[0]
