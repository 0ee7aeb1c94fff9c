"""Public live results under /c/<slug>/results/ (namespace public:live)."""

from django.urls import path

from puzzlecomp.public.live import views

app_name = "live"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:round_id>/", views.round_results, name="round"),
    path("<int:round_id>/projector/", views.projector, name="projector"),
    path("entries/<slug:event_code>/<int:number>/", views.entrant, name="entrant"),
]
