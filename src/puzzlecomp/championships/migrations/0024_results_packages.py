# Signed results packages, the results they carry, and the keys trusted to sign them.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0023_claims_proposed_dates_sizes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ResultsPackage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event_code', models.CharField(blank=True, max_length=40)),
                ('hash', models.CharField(max_length=71, unique=True)),
                ('replaces', models.CharField(blank=True, max_length=71, null=True)),
                ('list_status', models.CharField(max_length=12)),
                ('issued_at', models.DateTimeField()),
                ('content', models.TextField()),
                ('championship', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results_packages', to='championships.championship')),
            ],
            options={
                'ordering': ['championship', 'event_code', 'issued_at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='PackageResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(db_index=True, max_length=64)),
                ('event_code', models.CharField(max_length=40)),
                ('round_code', models.CharField(max_length=40)),
                ('entry_number', models.PositiveIntegerField()),
                ('package', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='championships.resultspackage')),
            ],
        ),
        migrations.CreateModel(
            name='TrustedKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('public_key', models.CharField(max_length=44, unique=True, verbose_name='public key')),
                ('fingerprint', models.CharField(max_length=39)),
                ('name', models.CharField(max_length=200, verbose_name='name')),
                ('added_at', models.DateTimeField(auto_now_add=True)),
                ('added_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
    ]
