"""The championship interchange file: download (organisers) and upload into a new championship.

The upload page is not below /control/<slug>/: whoever may create a championship (like
/control/new/) may create one from a file, and becomes its owner.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Championship, Role
from puzzlecomp.championships.roles import requires_championship_creator, requires_role
from puzzlecomp.championships.services.interchange import (
    championship_export,
    championship_import,
)
from puzzlecomp.control.rounds.forms import ChampionshipImportForm
from puzzlecomp.formats.interchange import InterchangeError, load_json


@requires_role(Role.ORGANISER)
def championship_download(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The whole championship as one JSON file (with birth dates and emails: organisers only)."""
    data = championship_export(championship, by=request.user)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{championship.slug}.json"'
    return response


@requires_championship_creator
def championship_upload(request: HttpRequest) -> HttpResponse:
    """Create a championship from an interchange file; every problem is listed, nothing kept."""
    form = ChampionshipImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            championship = championship_import(load_json(form.cleaned_data["file"].read()),
                                                slug=form.cleaned_data["slug"] or None,
                                                user=request.user)
        except InterchangeError as error:
            problems = [str(p) for p in error.problems]
        else:
            messages.success(request, _("Championship %(name)s imported.")
                             % {"name": championship.name})
            return redirect("control:dashboard", slug=championship.slug)
    return render(request, "control/rounds/import.html", {"form": form, "problems": problems})
