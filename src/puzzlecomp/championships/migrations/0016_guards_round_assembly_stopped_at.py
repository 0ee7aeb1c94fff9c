from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0015_people_claims'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='assembly_stopped_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
