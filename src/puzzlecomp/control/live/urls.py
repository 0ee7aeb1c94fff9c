"""Head judge's live round screens under /control/<slug>/live/ (namespace control:live)."""

from django.urls import path

from puzzlecomp.control.live import groups, projector, views

app_name = "live"
urlpatterns = [
    path("", views.index, name="index"),
    path("projector/", projector.projector_scene, name="projector_scene"),
    path("<int:round_id>/", views.round_control, name="round"),
    path("<int:round_id>/state.json", views.live_state, name="state"),
    path("<int:round_id>/move/<str:to>/", views.round_move, name="move"),
    path("<int:round_id>/groups/plan/", groups.groups_plan, name="groups_plan"),
    path("<int:round_id>/groups/<str:group>/start/", groups.group_start, name="group_start"),
    path("<int:round_id>/credit/", views.time_credit, name="credit"),
    path("<int:round_id>/map/", views.floor_map, name="map"),
    path("<int:round_id>/entries/", views.entries, name="entries"),
    path("<int:round_id>/entries/<int:number>/correct/", views.correct, name="correct"),
    path("<int:round_id>/entries/<int:number>/verify/", views.verify, name="verify"),
    path("<int:round_id>/entries/<int:number>/looked-at/", views.looked_at, name="looked_at"),
    path("<int:round_id>/entries/<int:number>/history/", views.history, name="history"),
    path("<int:round_id>/disputes/", views.disputes, name="disputes"),
    path("<int:round_id>/disputes/<int:dispute_id>/resolve/", views.dispute_resolve,
         name="dispute_resolve"),
]
