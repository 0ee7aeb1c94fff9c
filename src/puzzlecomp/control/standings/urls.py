"""Standings, awards and the ceremony papers: /control/<slug>/standings/ (control:standings)."""

from django.urls import path

from puzzlecomp.control.standings import views

app_name = "standings"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:event>/", views.standings, name="standings"),
    path("<slug:event>/awards/", views.awards, name="awards"),
    path("<slug:event>/publish/", views.publish, name="publish"),
    path("<slug:event>/tiebreakers/<slug:category>/", views.tiebreaker_hold,
         name="tiebreaker_hold"),
    path("<slug:event>/ceremony.pdf", views.ceremony_pdf, name="ceremony_pdf"),
    path("<slug:event>/certificates.pdf", views.certificates, name="certificates"),
    path("<slug:event>/certificates/<slug:category>/<int:entry>.pdf", views.certificates,
         name="certificate"),
]
