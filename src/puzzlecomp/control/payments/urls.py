"""Treasurer screens under /control/<slug>/payments/."""

from django.urls import path

from puzzlecomp.control.payments import views

app_name = "payments"
urlpatterns = [
    path("", views.overview, name="overview"),
    path("account/", views.account, name="account"),
    path("statement/", views.statement, name="statement"),
    path("queue/<int:pk>/assign/", views.queue_assign, name="assign"),
    path("queue/<int:pk>/resolve/", views.queue_resolve, name="resolve"),
    path("payouts/<str:kind>.<str:fmt>", views.payouts_download, name="payouts"),
]
