"""URLs of this area (included by its parent urls.py)."""

from django.urls import path

from puzzlecomp.control.data import views

app_name = "data"
urlpatterns = [
    path("", views.index, name="index"),
    path("import/", views.import_upload, name="import"),
    path("import/confirm/", views.import_confirm, name="import_confirm"),
    path("people.<slug:fmt>", views.people_export, name="people"),
    path("people-private.<slug:fmt>", views.people_private_export, name="people_private"),
    path("events/<slug:event>/entries.<slug:fmt>", views.entries_export, name="entries"),
    path("events/<slug:event>/rounds/<slug:round>/results.<slug:fmt>", views.results_export,
         name="results"),
]
