"""Sign-in with a limit on failed attempts, per address and per username.

Counts live in Django's cache (Redis in production, so every app process shares them).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _


def _keys(request: HttpRequest) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "")
    username = str(request.POST.get("username", "")).strip().lower()
    return [f"login-fail:ip:{address}", f"login-fail:user:{username}"]


def _blocked(request: HttpRequest) -> bool:
    counts = cache.get_many(_keys(request)).values()
    return any(count >= settings.LOGIN_FAILURES_ALLOWED for count in counts)


def _count_failure(request: HttpRequest) -> None:
    for key in _keys(request):
        cache.add(key, 0, settings.LOGIN_LOCKOUT_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, settings.LOGIN_LOCKOUT_SECONDS)


class RateLimitedLoginView(LoginView):
    """After LOGIN_FAILURES_ALLOWED failures the address or username waits the lockout out."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _blocked(request):
            form = self.get_form()
            form.add_error(None, _("Too many failed sign-ins. Try again in %(minutes)d minutes.")
                           % {"minutes": settings.LOGIN_LOCKOUT_SECONDS // 60})
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        _count_failure(self.request)
        return super().form_invalid(form)
