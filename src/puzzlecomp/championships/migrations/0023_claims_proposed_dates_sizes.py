"""An organiser's "same person" link to an archived person waits for the entrant's own
confirmation (issue 22): a claim records who proposed it and the link mailed to the entrant.
An archived edition whose date no source gives shows its year alone (issue 30): every
archived championship stored on 1 January at midnight UTC was an invented date."""

import datetime as dt

from django.conf import settings
from django.db import migrations, models


def undated_editions_mark(apps, schema_editor):
    Championship = apps.get_model("championships", "Championship")
    Round = apps.get_model("championships", "Round")
    for championship in Championship.objects.filter(archived=True):
        starts = championship.starts_at.astimezone(dt.UTC)
        if (starts.month, starts.day, starts.hour, starts.minute) == (1, 1, 0, 0):
            championship.date_known = False
            championship.save(update_fields=["date_known"])
            Round.objects.filter(event__championship=championship,
                                 published_at=championship.starts_at).update(published_at=None)


def unsized_rounds_mark(apps, schema_editor):
    """An archived round some of whose published counts pass its stored puzzles is unsized:
    its size was the rules' guess (the 2019 teams final)."""
    Round = apps.get_model("championships", "Round")
    Result = apps.get_model("championships", "Result")
    for rnd in Round.objects.filter(event__championship__archived=True):
        size = sum(p.pieces or 0 for p in rnd.puzzles.all())
        if size and Result.objects.filter(round=rnd, pieces__gt=size).exists():
            rnd.puzzles.all().delete()
            rnd.size_unknown = True
            rnd.save(update_fields=["size_unknown"])


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("championships", "0022_bank_transfers"),
    ]

    operations = [
        migrations.AddField(
            model_name="personclaim",
            name="proposed_by",
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=models.deletion.SET_NULL,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name="personclaim",
            name="registrant_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="championship",
            name="date_known",
            field=models.BooleanField(default=True),
        ),
        migrations.RunPython(undated_editions_mark, migrations.RunPython.noop),
        migrations.AddField(
            model_name="round",
            name="size_unknown",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(unsized_rounds_mark, migrations.RunPython.noop),
    ]
