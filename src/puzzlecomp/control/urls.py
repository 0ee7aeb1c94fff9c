"""Organiser URLs. Every view below /control/<slug>/ is protected by `requires_role`."""

from django.urls import include, path

from puzzlecomp.control import views
from puzzlecomp.control.rounds import championship_file

app_name = "control"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.championship_new, name="championship_new"),
    path("import/", championship_file.championship_upload, name="championship_import"),
    path("<slug:slug>/", views.dashboard, name="dashboard"),
    path("<slug:slug>/setup/", include("puzzlecomp.control.setup.urls")),
    path("<slug:slug>/registrations/", include("puzzlecomp.control.registrations.urls")),
    path("<slug:slug>/planning/", include("puzzlecomp.control.planning.urls")),
    path("<slug:slug>/check-in/", include("puzzlecomp.control.check_in.urls")),
    path("<slug:slug>/data/", include("puzzlecomp.control.data.urls")),
    path("<slug:slug>/live/", include("puzzlecomp.control.live.urls")),
    path("<slug:slug>/judges/", include("puzzlecomp.judging.control_urls")),
    path("<slug:slug>/rounds/", include("puzzlecomp.control.rounds.urls")),
    path("<slug:slug>/standings/", include("puzzlecomp.control.standings.urls")),
    path("<slug:slug>/payments/", include("puzzlecomp.control.payments.urls")),
]
