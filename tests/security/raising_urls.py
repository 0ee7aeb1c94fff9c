"""A URLconf whose one view fails, for tests of what a 500 leaves behind."""

from django.http import HttpRequest, HttpResponse
from django.urls import path


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("issue-22 error that must leave a trace")


urlpatterns = [path("fails/", fails)]
# As the site's own URLconf (web/urls.py): its 500 page.
handler500 = "puzzlecomp.web.error_pages.server_error"
