"""Published standings and awards under /c/<slug>/standings/ (namespace public:standings)."""

from django.urls import path

from puzzlecomp.public.standings import views

app_name = "standings"
urlpatterns = [
    path("", views.standings, name="index"),
    path("<slug:event_code>/", views.standings, name="event"),
]
