"""Public live results under /c/<slug>/results/ (namespace public:live)."""

from django.urls import path

from puzzlecomp.public.live import screens, views

app_name = "live"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:round_id>/", views.round_results, name="round"),
    path("<int:round_id>/projector/", views.projector, name="projector"),
    path("<int:round_id>/charts/", views.charts, name="charts"),
    path("<int:round_id>/overlay/<slug:kind>/", screens.overlay, name="overlay"),
    path("hall/", screens.hall, name="hall"),
    path("entries/<slug:event_code>/<int:number>/", views.entrant, name="entrant"),
    path("entries/<slug:event_code>/<int:number>/charts/", views.entrant_charts,
         name="entrant_charts"),
]
