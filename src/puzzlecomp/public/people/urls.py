"""Public pages across championships: people, countries, ranking lists, records
(namespace public:people; docs/archive.md)."""

from django.urls import path

from puzzlecomp.public.people import views

app_name = "people"
urlpatterns = [
    path("people/<int:person_id>/", views.person, name="person"),
    path("countries/<str:code>/", views.country, name="country"),
    path("rankings/", views.rankings, name="rankings"),
    path("rankings/<slug:series>/<slug:event_code>/", views.ranking, name="ranking"),
    path("records/", views.records, name="records"),
]
