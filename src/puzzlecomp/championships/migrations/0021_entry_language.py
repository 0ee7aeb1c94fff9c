# Each entry keeps the language it registered in, for its result emails.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0020_projector_group'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='language',
            field=models.CharField(blank=True, max_length=10),
        ),
    ]
