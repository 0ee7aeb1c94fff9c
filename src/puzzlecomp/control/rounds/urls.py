"""Round results, qualifiers, exports: /control/<slug>/rounds/ (namespace control:rounds)."""

from django.urls import path

from puzzlecomp.control.rounds import championship_file, views

app_name = "rounds"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:round_id>/qualifiers/", views.qualifiers, name="qualifiers"),
    path("<int:round_id>/qualifiers/confirm/", views.qualifiers_confirm,
         name="qualifiers_confirm"),
    path("<int:round_id>/qualifiers/withdraw/", views.qualifier_withdraw,
         name="qualifier_withdraw"),
    path("<int:round_id>/group-difficulty/", views.group_difficulty_publish,
         name="group_difficulty"),
    path("<int:round_id>/next-round/", views.next_round_create, name="next_round_create"),
    path("<int:round_id>/export.<slug:fmt>", views.export, name="export"),
    path("championship.json", championship_file.championship_download,
         name="championship_download"),
]
