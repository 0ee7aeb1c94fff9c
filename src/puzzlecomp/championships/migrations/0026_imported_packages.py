import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0025_waiting_offers"),
    ]

    operations = [
        migrations.CreateModel(
            name="ImportedPackage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("hash", models.CharField(db_index=True, max_length=71)),
                ("replaces", models.CharField(blank=True, db_index=True, max_length=71,
                                              null=True)),
                ("list_status", models.CharField(max_length=12)),
                ("issued_at", models.DateTimeField()),
                ("imported_at", models.DateTimeField(auto_now_add=True)),
                ("content", models.TextField()),
                ("championship", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="imported_packages", to="championships.championship")),
            ],
            options={"ordering": ["championship", "issued_at", "pk"]},
        ),
    ]
