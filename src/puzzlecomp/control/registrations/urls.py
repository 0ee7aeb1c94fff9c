"""Organiser registration screens under /control/<slug>/registrations/."""

from django.urls import path

from puzzlecomp.control.registrations import person_facts, views

app_name = "registrations"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:event_code>/", views.event_entries, name="event"),
    path("<slug:event_code>/promote/", views.promote, name="promote"),
    path("<slug:event_code>/draw/", views.draw, name="draw"),
    path("<slug:event_code>/known-people/", views.known_people, name="known_people"),
    path("<slug:event_code>/<int:number>/payment/", views.payment, name="payment"),
    path("<slug:event_code>/<int:number>/cancel/", views.cancel, name="cancel"),
    path("<slug:event_code>/<int:number>/history/", views.history_facts, name="history"),
    path("<slug:event_code>/<int:number>/same-person/", views.same_person, name="same_person"),
    path("<slug:event_code>/<int:number>/not-same-person/", views.not_same_person,
         name="not_same_person"),
    path("<slug:event_code>/<int:number>/merge-undo/", views.merge_undo, name="merge_undo"),
    path("<slug:event_code>/<int:number>/claim-approve/", views.claim_approve,
         name="claim_approve"),
    path("<slug:event_code>/<int:number>/facts/", person_facts.person_facts,
         name="person_facts"),
]
