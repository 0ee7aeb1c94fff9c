# Waiting-list offers with a payment deadline, and confirmation once the fee is paid.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0024_results_packages'),
    ]

    operations = [
        migrations.AddField(
            model_name='championship',
            name='confirm_on_payment',
            field=models.BooleanField(default=False, verbose_name='confirm entries only once their fee is paid'),
        ),
        migrations.AddField(
            model_name='championship',
            name='offer_days',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='days a waiting entry offered a place has to pay'),
        ),
        migrations.AddField(
            model_name='entry',
            name='offered_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='entry',
            name='status',
            field=models.CharField(choices=[('unconfirmed', 'Awaiting email confirmation'), ('confirmed', 'Confirmed'), ('waiting', 'Waiting list'), ('cancelled', 'Cancelled'), ('unpaid', 'Awaiting payment')], default='unconfirmed', max_length=20),
        ),
    ]
