"""URLs of this area (included by its parent urls.py)."""

from django.urls import path

from puzzlecomp.control.setup import views

app_name = "setup"
urlpatterns = [
    path("", views.index, name="index"),
    path("championship/", views.championship_edit, name="championship"),
    path("settings/", views.ruleset_settings, name="settings"),
    path("emails/", views.entrant_emails, name="emails"),
    path("floor-plan/", views.floor_plan, name="floor_plan"),
    path("registration/", views.registration_terms, name="registration"),
    path("events/<slug:event>/", views.event_edit, name="event"),
    path("events/<slug:event>/rounds/<slug:round>/", views.round_edit, name="round"),
    path("events/<slug:event>/rounds/<slug:round>/puzzles/<int:position>/", views.puzzle_edit,
         name="puzzle"),
    path("events/<slug:event>/rounds/<slug:round>/models/", views.team_models,
         name="team_models"),
    path("members/", views.members, name="members"),
    path("members/<int:membership_id>/", views.member_role, name="member_role"),
    path("members/<int:membership_id>/remove/", views.member_remove, name="member_remove"),
]
