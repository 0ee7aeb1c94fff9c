# A start and a clock per group (issue 13).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0008_projector_scene'),
    ]

    operations = [
        migrations.CreateModel(
            name='GroupStart',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('group', models.CharField(max_length=20, verbose_name='group')),
                ('planned_at', models.DateTimeField(blank=True, null=True, verbose_name='planned start')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('state', models.CharField(choices=[('planned', 'Planned'), ('running', 'Running'), ('counting', 'Counting'), ('provisional', 'Provisional'), ('published', 'Published'), ('final', 'Final')], default='planned', max_length=20)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='group_starts', to='championships.round')),
            ],
            options={
                'ordering': ['round', 'planned_at', 'group'],
                'constraints': [models.UniqueConstraint(fields=('round', 'group'), name='group_start_unique')],
            },
        ),
    ]
