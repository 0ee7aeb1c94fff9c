"""Groups, seating and printing of a championship's rounds (below /control/<slug>/planning/)."""

from django.urls import path

from puzzlecomp.control.planning import views

app_name = "planning"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:round_id>/groups/", views.groups, name="groups"),
    path("<int:round_id>/groups/assign/", views.groups_assign, name="groups_assign"),
    path("<int:round_id>/groups/undo/", views.groups_undo, name="groups_undo"),
    path("<int:round_id>/groups/move/", views.group_move, name="group_move"),
    path("<int:round_id>/groups/publish/", views.groups_publish, name="groups_publish"),
    path("<int:round_id>/seating/", views.seating, name="seating"),
    path("<int:round_id>/seating/assign/", views.seating_assign, name="seating_assign"),
    path("<int:round_id>/seating/undo/", views.seating_undo, name="seating_undo"),
    path("<int:round_id>/seating/publish/", views.seating_publish, name="seating_publish"),
    path("<int:round_id>/seating/swap/", views.seats_swap, name="seats_swap"),
    path("<int:round_id>/seating/no-show/", views.seat_no_show, name="seat_no_show"),
    path("<int:round_id>/print/table-cards.pdf", views.print_table_cards,
         name="print_table_cards"),
    path("<int:round_id>/print/result-sheets.pdf", views.print_result_sheets,
         name="print_result_sheets"),
    path("<int:round_id>/print/participants.pdf", views.print_participants,
         name="print_participants"),
]
