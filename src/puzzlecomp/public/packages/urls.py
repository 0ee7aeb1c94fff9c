"""Verifying a results package or a certificate's code (namespace public:packages)."""

from django.urls import path

from puzzlecomp.public.packages import views

app_name = "packages"
urlpatterns = [
    path("verify/", views.verify, name="verify"),
]
