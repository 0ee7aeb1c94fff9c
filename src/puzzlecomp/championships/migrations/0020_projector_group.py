from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0019_fixpeople_member_consent'),
    ]

    operations = [
        migrations.AddField(
            model_name='championship',
            name='projector_group',
            field=models.CharField(blank=True, max_length=20, verbose_name='projector group'),
        ),
    ]
