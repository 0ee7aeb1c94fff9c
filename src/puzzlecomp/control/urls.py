"""Organiser URLs. Every view below /control/<slug>/ is protected by `requires_role`."""

from django.urls import path

from puzzlecomp.control import views

app_name = "control"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.championship_new, name="championship_new"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
]
