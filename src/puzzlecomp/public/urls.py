from django.urls import path

from puzzlecomp.public import views

app_name = "public"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.championship, name="championship"),
]
