"""Head judge's live round screens under /control/<slug>/live/ (namespace control:live)."""

from django.urls import path  # noqa: F401

app_name = "live"
urlpatterns: list = []
