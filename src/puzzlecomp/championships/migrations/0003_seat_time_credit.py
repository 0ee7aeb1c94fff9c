"""Time credits move from the audit log to the entry's seat (the log keeps their history)."""

from django.db import migrations, models

TIME_CREDIT = "puzzlecomp.result.time_credit"


def credits_to_seats(apps, schema_editor):
    AuditEntry = apps.get_model("championships", "AuditEntry")
    Seat = apps.get_model("championships", "Seat")
    latest: dict[tuple[int, int], int] = {}
    for grant in AuditEntry.objects.filter(action=TIME_CREDIT).order_by("at", "pk"):
        latest[(grant.data["round"], grant.data["entry"])] = grant.data["seconds"]
    for (round_id, number), seconds in latest.items():
        Seat.objects.filter(round_id=round_id, entry__number=number).update(time_credit=seconds)


class Migration(migrations.Migration):
    dependencies = [("championships", "0002_live_rounds")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="time_credit",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(credits_to_seats, migrations.RunPython.noop),
    ]
