"""A championship file's problems in one run, whichever rows hold them (issue 23, item 9: every
error names its place; docs/formats.md, Errors): rows of the wrong shape are set aside and the
other checks still run, each problem named by the file's own path."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.formats.interchange import load_json, read_championship_file
from puzzlecomp.samples import SAMPLE_RESULTS

SAMPLE_FILE = SAMPLE_RESULTS.parent / "czech-2027-championship.json"
SAMPLE = json.loads(SAMPLE_FILE.read_text(encoding="utf-8"))


def test_the_sample_championship_file_reads_without_a_problem():
    read = read_championship_file(copy.deepcopy(SAMPLE))
    assert read.problems == []


# Each example validates a whole championship file: no per-example deadline on a loaded machine.
@settings(deadline=None)
@given(st.lists(st.sampled_from(["ok", "shape", "dangling"]),
                min_size=len(SAMPLE["results"]), max_size=len(SAMPLE["results"])),
       st.sets(st.integers(0, len(SAMPLE["entries"]) - 1)))
def test_every_bad_row_is_named_by_its_own_path_in_one_run(results, entries):
    """Any mix of results of the wrong shape, results of no entry and entries of the wrong
    shape: each is told once, by its own index in the file, and nothing else is told."""
    data = copy.deepcopy(SAMPLE)
    expected = set()
    for index, kind in enumerate(results):
        if kind == "shape":
            data["results"][index]["status"] = "maybe"
            expected.add(f"results[{index}].status")
        elif kind == "dangling":
            data["results"][index]["entry"] = 99000 + index
            expected.add(f"results[{index}].entry")
    for index in entries:
        data["entries"][index]["registered_at"] = "yesterday"
        expected.add(f"entries[{index}].registered_at")
    read = read_championship_file(load_json(json.dumps(data)))
    assert sorted(p.path for p in read.problems) == sorted(expected)
    assert read.document is not None
