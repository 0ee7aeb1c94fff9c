from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0012_planning_backup'),
    ]

    operations = [
        migrations.AddField(
            model_name='result',
            name='second_looks',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='round',
            name='group_difficulty',
            field=models.JSONField(blank=True, default=list),
        ),
    ]
