from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("championships", "0010_check_in_and_fees"),
    ]

    operations = [
        migrations.AddField(
            model_name="championship",
            name="entrant_emails",
            field=models.BooleanField(
                default=True,
                verbose_name="email entrants their published results and dispute rulings"),
        ),
        migrations.AddField(
            model_name="entry",
            name="result_emails",
            field=models.BooleanField(default=True),
        ),
    ]
