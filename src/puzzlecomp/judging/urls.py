"""Judges' phones under /judge/<slug>/ (namespace judging)."""

from django.urls import path

from puzzlecomp.judging import views

app_name = "judging"
urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    # Printed on pairing sheets and table cards: no trailing slash, as printed.
    path("pair/<str:code>", views.pair, name="pair"),
    path("table/<int:round_id>/<int:table>", views.table, name="table"),
]
