"""Competitors' disputes under /c/<slug>/disputes/ (namespace public:disputes)."""

from django.urls import path

from puzzlecomp.public.disputes import views

app_name = "disputes"
urlpatterns = [
    path("<str:token>/", views.entrant, name="entrant"),
    path("<str:token>/emails/", views.emails, name="emails"),
    path("<str:token>/withdraw/", views.withdraw, name="withdraw"),
]
