"""What `serve` says on a fresh install: who can sign in yet."""

from __future__ import annotations

from pathlib import Path


def organiser_missing() -> bool:
    """No account may create a championship yet: nobody can start using a fresh install."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from puzzlecomp.championships.models import Role

    creators = get_user_model().objects.filter(
        Q(is_staff=True) | Q(is_superuser=True)
        | Q(user_permissions__codename="add_championship")
        | Q(memberships__role__lte=Role.ORGANISER))
    return not creators.exists()


def first_organiser_hint(data_dir: Path) -> str:
    """What the console says while nobody may create a championship."""
    return ("No one can sign in yet. Create the first organiser in another terminal:\n"
            f"  PUZZLECOMP_DATA_DIR={data_dir} puzzlecomp organiser add YOUR-NAME")
