"""Competitors' disputes under /c/<slug>/disputes/ (namespace public:disputes)."""

from django.urls import path  # noqa: F401

app_name = "disputes"
urlpatterns: list = []
