from django.urls import include, path

from puzzlecomp.public import views

app_name = "public"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.championship, name="championship"),
    path("c/<slug:slug>/schedule/", views.schedule, name="schedule"),
    path("c/<slug:slug>/register/", include("puzzlecomp.public.registration.urls")),
    path("c/<slug:slug>/results/", include("puzzlecomp.public.live.urls")),
    path("c/<slug:slug>/disputes/", include("puzzlecomp.public.disputes.urls")),
    path("c/<slug:slug>/standings/", include("puzzlecomp.public.standings.urls")),
    path("", include("puzzlecomp.public.people.urls")),
]
