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


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("championships", "0019_fixpeople_member_consent"),
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
    ]
