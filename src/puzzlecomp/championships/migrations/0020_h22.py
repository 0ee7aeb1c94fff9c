"""An organiser's "same person" link to an archived person waits for the entrant's own
confirmation (issue 22): a claim records who proposed it and the link mailed to the entrant."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("championships", "0019_fixpeople_member_consent"),
    ]

    operations = [
        migrations.AddField(
            model_name="personclaim",
            name="proposed_by",
            field=models.ForeignKey(blank=True, null=True,
                                    on_delete=models.deletion.SET_NULL,
                                    related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name="personclaim",
            name="registrant_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
    ]
