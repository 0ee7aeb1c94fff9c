"""Consent per championship (issue 22, finding 1): each entry member carries the consent its
registrant gave for that championship, starting from the person's consent of today."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def member_consent_copy(apps, schema_editor):
    EntryMember = apps.get_model("championships", "EntryMember")
    Person = apps.get_model("championships", "Person")
    person = Person.objects.filter(pk=OuterRef("person_id"))
    EntryMember.objects.update(
        consent_publish=Subquery(person.values("consent_publish")[:1]),
        consent_photos=Subquery(person.values("consent_photos")[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0018_archive_sizes_debutants"),
    ]

    operations = [
        migrations.AddField(
            model_name="entrymember",
            name="consent_publish",
            field=models.BooleanField(default=False,
                                      verbose_name="publish name, nationality and age category"),
        ),
        migrations.AddField(
            model_name="entrymember",
            name="consent_photos",
            field=models.BooleanField(default=False, verbose_name="photos may be published"),
        ),
        migrations.RunPython(member_consent_copy, migrations.RunPython.noop),
    ]
