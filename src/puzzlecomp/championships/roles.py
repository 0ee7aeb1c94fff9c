"""Who may do what in a championship: roles are ordered, smaller numbers may do more."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from puzzlecomp.championships.models import Championship, Membership, Role


def role_of(user: Any, championship: Championship) -> Any:
    """The user's Role in the championship; staff count as owners; None for everyone else."""
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_staff:
        return Role.OWNER
    membership = Membership.objects.filter(user=user, championship=championship).first()
    return Role(membership.role) if membership else None


def has_role(user: Any, championship: Championship, needed: int) -> bool:
    """True when the user's role is `needed` or a stronger one."""
    role = role_of(user, championship)
    return role is not None and role <= needed


View = Callable[..., HttpResponse]


def may_create_championship(user: Any) -> bool:
    """Staff, holders of the `championships.add_championship` permission (given in the admin)
    and the organisers and owners of a championship may create one (or import a file)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.has_perm("championships.add_championship")
                or Membership.objects.filter(user=user, role__lte=Role.ORGANISER).exists())


def requires_championship_creator(view: View) -> View:
    """Protect a view that creates a championship: sign-in first, then 403 for anyone else."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_create_championship(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


def requires_role(needed: Any) -> Callable[[View], View]:
    """Protect a view taking `slug`: sign-in first, then at least the `needed` role (else 403)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            championship = get_object_or_404(Championship, slug=slug)
            if not has_role(request.user, championship, needed):
                raise PermissionDenied
            request.championship = championship  # type: ignore[attr-defined]
            return view(request, championship, *args, **kwargs)

        wrapper.required_role = needed  # type: ignore[attr-defined]
        return wrapper

    return decorate
