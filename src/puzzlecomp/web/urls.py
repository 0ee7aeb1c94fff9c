from django.contrib import admin
from django.urls import include, path

from puzzlecomp.api import api
from puzzlecomp.web.login import ThrottledPasswordResetView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/password_reset/", ThrottledPasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("control/", include("puzzlecomp.control.urls")),
    path("api/v1/", api.urls),
    path("judge/<slug:slug>/", include("puzzlecomp.judging.urls")),
    path("", include("puzzlecomp.public.urls")),
]
