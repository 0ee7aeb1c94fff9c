"""An event's standings and awards are public once the organiser publishes them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("championships", "0006_facts_in_tables")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="standings_published_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
