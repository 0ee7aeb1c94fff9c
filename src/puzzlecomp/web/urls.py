from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from puzzlecomp.api import api
from puzzlecomp.judging.offline_app import service_worker
from puzzlecomp.web.login import ThrottledPasswordResetView


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever a page's <link rel="icon"> says."""
    # Resolved per request: the manifest storage of production knows the hashed name only then.
    return HttpResponsePermanentRedirect(static("puzzlecomp/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/password_reset/", ThrottledPasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("control/", include("puzzlecomp.control.urls")),
    path("api/v1/", api.urls),
    # Served from /judge/ so that its scope may be every judge's screen (judging/offline_app.py).
    path("judge/service-worker.js", service_worker, name="judge_service_worker"),
    path("judge/<slug:slug>/", include("puzzlecomp.judging.urls")),
    path("", include("puzzlecomp.public.urls")),
]

handler500 = "puzzlecomp.web.error_pages.server_error"
