"""The published JSON Schema validates every package the project writes (issue 29): a
hypothesis property over generated championships (entrants of several countries, every result
status, members who did or did not consent, rounds provisional, published or final)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import EntryMember, Round, RoundState
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.results_package import results_package_issue
from puzzlecomp.formats.results_package.document import package_verify, schema_problems
from puzzlecomp.rules.results import Status
from tests.conftest import examples
from tests.web.test_groups import add_entries

ENTRANT = st.tuples(
    st.sampled_from(["CZ", "SK", "NO", "ES"]),
    st.sampled_from([Status.FINISHED, Status.UNFINISHED, Status.DNF, Status.DSQ, Status.DNS]),
    st.integers(min_value=60, max_value=3 * 3600),
    st.floats(min_value=0, max_value=1),
    st.booleans())


@settings(max_examples=examples(8), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(entrants=st.lists(ENTRANT, min_size=1, max_size=12),
       state=st.sampled_from([RoundState.PROVISIONAL, RoundState.PUBLISHED, RoundState.FINAL]))
def test_every_package_written_is_valid_against_the_schema(make_championship, settings,
                                                           tmp_path, entrants, state):
    settings.RESULTS_KEY_FILE = tmp_path / "results-signing-key"
    championship = make_championship("czech-championship")
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="final")
    rules = round_rules(rnd)
    for country, status, seconds, share, consent in entrants:
        [entry] = add_entries(rnd.event, {country: 1})
        EntryMember.objects.filter(entry=entry).update(consent_publish=consent)
        values = {"time_seconds": min(seconds, rules.time_limit_seconds - 1)} \
            if status is Status.FINISHED else \
            {"pieces": int(share * (rules.total_pieces - 1))} \
            if status is Status.UNFINISHED else {}
        result_record(round=rnd, entry=entry, status=status, rules=rules, **values)
    Round.objects.filter(pk=rnd.pk).update(state=state)
    document = json.loads(results_package_issue(championship=championship).content)
    assert schema_problems(document) == []
    assert package_verify(document) == document
    results = [r for e in document["events"] for r in e["rounds"] for r in r["results"]]
    assert len(results) == len(entrants)
