"""A URL whose path holds a control character (NUL among them) names nothing: 404.

Path parameters reach database lookups (a dispute's token, a country's code, an API slug), and
PostgreSQL refuses a NUL in a query with an error, so such a URL answered 500 there and 404 on
SQLite. No name, code or token of ours holds a control character, so the answer is 404 on both,
before any view runs: the API's JSON 404 (as django-ninja answers a missing object), else the
site's 404 page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

API_PATH = "/api/"
# C0 controls (tab and line breaks included: none belongs in a path) and DEL.
PATH_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


class ControlCharactersNotFoundMiddleware:
    """Answers 404 for a path (as decoded) that holds a control character."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if PATH_CONTROL_CHARACTERS.search(request.path_info):
            if request.path_info.startswith(API_PATH):
                return JsonResponse({"detail": "Not Found"}, status=404)
            raise Http404
        return self.get_response(request)
