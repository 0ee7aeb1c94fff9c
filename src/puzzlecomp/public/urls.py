from django.urls import include, path

from puzzlecomp.public import views
from puzzlecomp.public.championship import views as championship
from puzzlecomp.public.payments import views as payout_views

app_name = "public"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", championship.championship, name="championship"),
    path("c/<slug:slug>/live-now/", championship.live_part, name="live_now"),
    path("c/<slug:slug>/entrants/", championship.entrants, name="entrants"),
    path("c/<slug:slug>/stream/", championship.stream, name="stream"),
    path("c/<slug:slug>/schedule/", views.schedule, name="schedule"),
    path("c/<slug:slug>/register/", include("puzzlecomp.public.registration.urls")),
    path("c/<slug:slug>/results/", include("puzzlecomp.public.live.urls")),
    path("c/<slug:slug>/disputes/<str:token>/payout-account/", payout_views.payout_account,
         name="payout_account"),
    path("c/<slug:slug>/disputes/", include("puzzlecomp.public.disputes.urls")),
    path("c/<slug:slug>/standings/", include("puzzlecomp.public.standings.urls")),
    path("", include("puzzlecomp.public.people.urls")),
    path("", include("puzzlecomp.public.packages.urls")),
]
