"""Public registration under /c/<slug>/register/ (namespace public:registration)."""

from django.urls import path

from puzzlecomp.public.registration import views

app_name = "registration"
urlpatterns = [
    path("", views.index, name="index"),
    path("sent/", views.sent, name="sent"),
    path("confirm/<str:token>/", views.confirm, name="confirm"),
    path("claim/<str:token>/", views.claim, name="claim"),
    path("link/<str:token>/", views.link, name="link"),
    path("<slug:event_code>/", views.register, name="register"),
]
