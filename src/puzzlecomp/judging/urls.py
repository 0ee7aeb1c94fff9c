"""Judges' phones under /judge/<slug>/ (namespace judging)."""

from django.urls import path  # noqa: F401

app_name = "judging"
urlpatterns: list = []
