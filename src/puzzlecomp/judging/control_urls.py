"""Judges' devices under /control/<slug>/judges/ (namespace control:judges)."""

from django.urls import path  # noqa: F401

app_name = "judges"
urlpatterns: list = []
