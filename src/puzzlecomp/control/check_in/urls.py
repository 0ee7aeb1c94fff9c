"""The check-in desk under /control/<slug>/check-in/ (namespace control:check_in)."""

from django.urls import path

from puzzlecomp.control.check_in import views

app_name = "check_in"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:round_id>/", views.desk, name="desk"),
    path("<int:round_id>/list.pdf", views.desk_list, name="list"),
    path("<int:round_id>/<int:number>/", views.check_in, name="check_in"),
    path("<int:round_id>/<int:number>/replace/", views.replace, name="replace"),
]
