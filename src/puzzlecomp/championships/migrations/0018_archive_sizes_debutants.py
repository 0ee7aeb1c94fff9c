"""The stored archive made true (issue 30, docs/archive.md): each imported round's puzzles from
its ruleset (the sample's editions file for the WJPC series), and every archived entry member's
debutant fact from the editions before it. Namesakes already merged need a fresh import."""

from collections import defaultdict

from django.db import migrations

from puzzlecomp.formats.archive_sizes import edition_sizes_file, rule_puzzles
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.history import Participation, is_debutant, ruleset_series
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.samples import SAMPLE_EDITIONS


def archive_sizes_fix(apps, schema_editor):
    Championship = apps.get_model("championships", "Championship")
    Round = apps.get_model("championships", "Round")
    Puzzle = apps.get_model("championships", "Puzzle")
    # Imported from published results: they keep the published places.
    imported = Championship.objects.filter(
        archived=True, events__rounds__results__published_rank__isnull=False).distinct()
    for championship in imported:
        try:
            ruleset = load_ruleset(championship.ruleset_id)
        except RulesError:
            continue
        editions = (edition_sizes_file(SAMPLE_EDITIONS)
                    if ruleset_series(championship.ruleset_id) == "wjpc" else {})
        for rnd in Round.objects.filter(event__championship=championship).select_related("event"):
            sizes = rule_puzzles(ruleset, editions, year=championship.starts_at.year,
                                 event=rnd.event.code, round_code=rnd.code)
            stored = list(Puzzle.objects.filter(round=rnd).order_by("position")
                          .values_list("pieces", flat=True))
            if sizes is None or stored == list(sizes):
                continue
            Puzzle.objects.filter(round=rnd).delete()
            Puzzle.objects.bulk_create(Puzzle(round=rnd, position=i, pieces=pieces)
                                       for i, pieces in enumerate(sizes))


def archive_debutants_derive(apps, schema_editor):
    EntryMember = apps.get_model("championships", "EntryMember")
    FactOverride = apps.get_model("championships", "FactOverride")
    past = defaultdict(list)
    for person, ruleset_id, event, starts_at in EntryMember.objects.filter(
            entry__status="confirmed").values_list(
            "person_id", "entry__event__championship__ruleset_id", "entry__event__code",
            "entry__event__championship__starts_at"):
        past[person].append(Participation(ruleset_id, event, starts_at.date()))
    overridden = set(FactOverride.objects.filter(fact="debutant")
                     .values_list("member_id", flat=True))
    changed = []
    for pk, person, ruleset_id, event, starts_at, debutant in EntryMember.objects.filter(
            entry__event__championship__archived=True, entry__status="confirmed").values_list(
            "pk", "person_id", "entry__event__championship__ruleset_id", "entry__event__code",
            "entry__event__championship__starts_at", "debutant"):
        derived = is_debutant(past[person], ruleset_id=ruleset_id, event=event,
                              starts_on=starts_at.date())
        if pk not in overridden and derived != debutant:
            changed.append(EntryMember(pk=pk, debutant=derived))
    EntryMember.objects.bulk_update(changed, ["debutant"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0017_official_time_zone"),
    ]

    operations = [
        migrations.RunPython(archive_sizes_fix, migrations.RunPython.noop),
        migrations.RunPython(archive_debutants_derive, migrations.RunPython.noop),
    ]
