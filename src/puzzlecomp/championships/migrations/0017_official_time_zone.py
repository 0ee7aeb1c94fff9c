"""Each championship's time zone; championships stored before keep the site's TIME_ZONE, so
their times read as they did."""

import zoneinfo

from django.conf import settings
from django.db import migrations, models


def site_zone(apps, schema_editor):
    try:
        zoneinfo.ZoneInfo(settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return
    apps.get_model("championships", "Championship").objects.update(time_zone=settings.TIME_ZONE)


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0016_guards_round_assembly_stopped_at'),
    ]

    operations = [
        migrations.AddField(
            model_name='championship',
            name='time_zone',
            field=models.CharField(default='UTC', max_length=64, verbose_name='time zone'),
        ),
        migrations.RunPython(site_zone, migrations.RunPython.noop),
    ]
