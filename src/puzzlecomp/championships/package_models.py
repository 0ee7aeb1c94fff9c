"""The results packages this installation issued and the keys it trusts
(docs/results-package.md). Imported by models.py, so Django knows them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ResultsPackage(models.Model):
    """A signed results package as issued: its exact text, its hash and the hash of the one
    it replaces (a correction), so the chain of versions is visible and a certificate's code
    can be looked up."""

    championship = models.ForeignKey("championships.Championship", on_delete=models.CASCADE,
                                     related_name="results_packages")
    # The event the package holds ("": every event).
    event_code = models.CharField(max_length=40, blank=True)
    hash = models.CharField(max_length=71, unique=True)
    replaces = models.CharField(max_length=71, null=True, blank=True)
    list_status = models.CharField(max_length=12)
    issued_at = models.DateTimeField()
    # The package exactly as signed and handed out (JSON text).
    content = models.TextField()

    class Meta:
        ordering = ["championship", "event_code", "issued_at", "pk"]

    def __str__(self) -> str:
        return self.hash


class PackageResult(models.Model):
    """One result of an issued package, by its code (the code a certificate prints)."""

    package = models.ForeignKey(ResultsPackage, on_delete=models.CASCADE,
                                related_name="results")
    code = models.CharField(max_length=64, db_index=True)
    event_code = models.CharField(max_length=40)
    round_code = models.CharField(max_length=40)
    entry_number = models.PositiveIntegerField()


class TrustedKey(models.Model):
    """Another installation's public key whose packages the archive imports (the operator
    adds it, after comparing its fingerprint with the issuer's)."""

    public_key = models.CharField(_("public key"), max_length=44, unique=True)
    fingerprint = models.CharField(max_length=39)
    name = models.CharField(_("name"), max_length=200)
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                 null=True, blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint})"


class ImportedPackage(models.Model):
    """A package of another installation the archive imported (`archive import PACKAGE.json`),
    exactly as received: a correction whose `replaces` names the latest one replaces the
    archived results, and the chain stays readable here."""

    championship = models.ForeignKey("championships.Championship", on_delete=models.CASCADE,
                                     related_name="imported_packages")
    hash = models.CharField(max_length=71, db_index=True)
    replaces = models.CharField(max_length=71, null=True, blank=True, db_index=True)
    list_status = models.CharField(max_length=12)
    issued_at = models.DateTimeField()
    imported_at = models.DateTimeField(auto_now_add=True)
    content = models.TextField()

    class Meta:
        ordering = ["championship", "issued_at", "pk"]

    def __str__(self) -> str:
        return self.hash
