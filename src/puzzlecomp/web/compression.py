"""Gzip for what anyone may read: the public results pages and the static files.

A hall's Wi-Fi is slow and a results page of 200 lines shrinks about tenfold. Compressing a page
that holds a secret and reflects what a visitor sent would open it to BREACH, so only anonymous
requests to the public pages (namespaces below) and static files are compressed: never a
signed-in screen, a registration form or an entrant's private dispute link. Django's middleware
also pads each response with random bytes, and CSRF tokens are masked per response.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# Pages that show only what is published to everyone: results, standings, rankings, records and
# person pages (never registration or a dispute's private link).
PUBLIC_NAMESPACES = ("public", "public:live", "public:standings", "public:people")


class PublicGZipMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if not public_response(request):
            return response
        return super().process_response(request, response)  # type: ignore[no-any-return]


def public_response(request: HttpRequest) -> bool:
    """True for an anonymous request of a public page or of a static file."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    match = request.resolver_match
    if match is None:
        return request.path.startswith(settings.STATIC_URL or "/static/")
    return match.namespace in PUBLIC_NAMESPACES
