"""Round results, qualifiers, exports: /control/<slug>/rounds/ (namespace control:rounds)."""

from django.urls import path  # noqa: F401

app_name = "rounds"
urlpatterns: list = []
