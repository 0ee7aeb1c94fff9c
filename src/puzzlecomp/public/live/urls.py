"""Public live results under /c/<slug>/results/ (namespace public:live)."""

from django.urls import path  # noqa: F401

app_name = "live"
urlpatterns: list = []
