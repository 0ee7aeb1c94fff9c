"""Judges' devices under /control/<slug>/judges/ (namespace control:judges)."""

from django.urls import path

from puzzlecomp.judging import control_views as views

app_name = "judges"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("sheets.pdf", views.sheets_pdf, name="sheets_pdf"),
    path("<int:device_id>/code/", views.new_code, name="new_code"),
    path("<int:device_id>/revoke/", views.revoke, name="revoke"),
]
