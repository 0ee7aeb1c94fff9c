# Bank transfers: the organiser's account, the statements' transactions, entrants' payout accounts.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0021_entry_language'),
    ]

    operations = [
        migrations.CreateModel(
            name='PaymentAccount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('holder', models.CharField(max_length=70, verbose_name='account holder')),
                ('iban', models.CharField(blank=True, max_length=34, verbose_name='IBAN')),
                ('bic', models.CharField(blank=True, max_length=11, verbose_name='BIC')),
                ('local_account', models.CharField(blank=True, max_length=30, verbose_name='Czech account number')),
                ('bsb', models.CharField(blank=True, max_length=7, verbose_name='BSB')),
                ('account_number', models.CharField(blank=True, max_length=20, verbose_name='account number')),
                ('instructions', models.TextField(blank=True, max_length=2000, verbose_name='payment instructions')),
                ('championship', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='payment_account', to='championships.championship')),
            ],
        ),
        migrations.CreateModel(
            name='PayoutAccount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('holder', models.CharField(max_length=70, verbose_name='account holder')),
                ('iban', models.CharField(blank=True, max_length=34, verbose_name='IBAN')),
                ('bic', models.CharField(blank=True, max_length=11, verbose_name='BIC')),
                ('account', models.CharField(blank=True, max_length=60, verbose_name='account (outside SEPA)')),
                ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='payout_account', to='championships.entry')),
            ],
        ),
        migrations.CreateModel(
            name='BankTransaction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('transaction_id', models.CharField(max_length=100)),
                ('source', models.CharField(max_length=200)),
                ('line', models.PositiveIntegerField()),
                ('booked_on', models.DateField(blank=True, null=True)),
                ('amount', models.DecimalField(decimal_places=2, max_digits=12)),
                ('currency', models.CharField(max_length=3)),
                ('reference', models.CharField(blank=True, max_length=140)),
                ('payer', models.CharField(blank=True, max_length=140)),
                ('payer_account', models.CharField(blank=True, max_length=60)),
                ('message', models.CharField(blank=True, max_length=500)),
                ('status', models.CharField(choices=[('matched', 'matched'), ('partial', 'part-paid'), ('overpaid', 'overpaid'), ('unknown', 'unknown'), ('ambiguous', 'ambiguous'), ('ignored', 'ignored')], max_length=20)),
                ('reason', models.CharField(max_length=40)),
                ('imported_at', models.DateTimeField(auto_now_add=True)),
                ('resolved_at', models.DateTimeField(blank=True, null=True)),
                ('resolution', models.CharField(blank=True, max_length=200)),
                ('championship', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bank_transactions', to='championships.championship')),
                ('entry', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='bank_transactions', to='championships.entry')),
            ],
            options={
                'ordering': ['championship', 'imported_at', 'line'],
                'constraints': [models.UniqueConstraint(fields=('championship', 'transaction_id'), name='bank_transaction_once')],
            },
        ),
    ]
