"""Sign-in lockout (django-axes) and password reset, as the site shows them.

django-axes counts failed sign-ins per username and address pair on every page that signs in
(`/accounts/login/`, `/admin/login/`); these functions only shape what it says.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from puzzlecomp.championships.throttle import client_address, throttle_hit


def username_of(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The username a sign-in is for, as counted: "Olga" and "olga " are the same account."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return str(username).strip().lower()


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """The sign-in page again (429), saying how long this username waits from this address."""
    # Unbound: validating the posted form would try the password once more.
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    refusal = _("Too many failed sign-ins. Try again in %(minutes)d minutes.") % {
        "minutes": settings.LOGIN_LOCKOUT_SECONDS // 60}
    return render(request, "registration/login.html",
                  {"form": form, "refusal": refusal, "next": request.POST.get("next", "")},
                  status=429)


class SiteUrlPasswordResetForm(PasswordResetForm):
    """Reset links point at SITE_URL, never at the Host header a request claimed."""

    def save(self, **options: Any) -> None:  # type: ignore[override]
        site = urlsplit(settings.SITE_URL)
        options.update(domain_override=site.netloc, use_https=site.scheme == "https")
        super().save(**options)


class ThrottledPasswordResetView(PasswordResetView):
    """At most PASSWORD_RESETS_PER_HOUR requests per address and per email address."""

    form_class = SiteUrlPasswordResetForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        values = [f"ip:{client_address(request)}", f"email:{request.POST.get('email', '')}"]
        if throttle_hit("password-reset", values, settings.PASSWORD_RESETS_PER_HOUR):
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _("Too many password resets asked for. Try again in an hour."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)
