"""Import of people and entries (organisers) and downloads of every list (judges and up)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzlecomp.championships.messages import messages_of
from puzzlecomp.championships.models import Championship, Event, Role, Round
from puzzlecomp.championships.printing.round_results import round_results_table
from puzzlecomp.championships.roles import requires_role, role_of
from puzzlecomp.championships.selectors.lists import Table, entries_table, people_table
from puzzlecomp.championships.services.exporting import FORMATS, table_export
from puzzlecomp.championships.services.importing import (
    ImportRejected,
    entries_import,
    import_check,
    import_file_read,
)
from puzzlecomp.control.data.forms import ImportForm, problem_message
from puzzlecomp.rules.errors import RulesError


def _session_key(championship: Championship) -> str:
    return f"puzzlecomp.import.{championship.pk}"


@requires_role(Role.JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every list to download, and the import for organisers."""
    return render(request, "control/data/index.html", {
        "championship": championship,
        "events": championship.events.prefetch_related("rounds"),
        "formats": list(FORMATS),
        "organiser": role_of(request.user, championship) <= Role.ORGANISER,
    })


def _download(request: HttpRequest, championship: Championship, fmt: str,
              table: Callable[[], Table]) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404
    file = table_export(championship=championship, table=table(), fmt=fmt, by=request.user)
    response = HttpResponse(file.content, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    return response


@requires_role(Role.JUDGE)
def entries_export(request: HttpRequest, championship: Championship, event: str,
                   fmt: str) -> HttpResponse:
    row = get_object_or_404(Event, championship=championship, code=event)
    return _download(request, championship, fmt, lambda: entries_table(event=row))


@requires_role(Role.JUDGE)
def people_export(request: HttpRequest, championship: Championship, fmt: str) -> HttpResponse:
    return _download(request, championship, fmt,
                     lambda: people_table(championship=championship, private=False))


@requires_role(Role.ORGANISER)
def people_private_export(request: HttpRequest, championship: Championship,
                          fmt: str) -> HttpResponse:
    return _download(request, championship, fmt,
                     lambda: people_table(championship=championship, private=True))


@requires_role(Role.JUDGE)
def results_export(request: HttpRequest, championship: Championship, event: str, round: str,
                   fmt: str) -> HttpResponse:
    rnd = get_object_or_404(Round.objects.select_related("event__championship"),
                            event__championship=championship, event__code=event, code=round)
    try:
        return _download(request, championship, fmt, lambda: round_results_table(rnd))
    except RulesError as error:
        messages.error(request, _("The results of %(round)s cannot be ranked yet: %(problems)s")
                       % {"round": rnd, "problems": " ".join(messages_of(error, name_entry=True))})
        return redirect("control:data:index", slug=championship.slug)


@requires_role(Role.ORGANISER)
def import_upload(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Upload a file for one event: a dry run that lists every problem and imports nothing."""
    form = ImportForm(request.POST or None, request.FILES or None, championship=championship)
    context: dict[str, object] = {"championship": championship, "form": form,
                                  "guide": import_guide()}
    if request.method == "POST" and form.is_valid():
        event, upload = form.cleaned_data["event"], form.cleaned_data["file"]
        try:
            sheet = import_file_read(filename=upload.name, content=upload.read())
        except ImportRejected as rejected:
            context["problems"] = [problem_message(p) for p in rejected.problems]
        else:
            plan = import_check(event=event, rows=sheet.rows)
            context.update(event=event, sheet=sheet, plan=plan, people=_people(plan.people),
                           encoding=_encoding_name(sheet.encoding),
                           problems=[problem_message(p) for p in plan.problems])
            if not plan.problems:
                # The checked rows wait in the session until the organiser confirms them.
                request.session[_session_key(championship)] = {
                    "event": event.pk, "filename": sheet.filename,
                    "rows": [[number, dict(values)] for number, values in sheet.rows],
                }
    return render(request, "control/data/import.html", context)


def _people(count: int) -> str:
    return ngettext("%(count)s person", "%(count)s people", count) % {"count": count}


def import_guide() -> list[tuple[str, str]]:
    """Each column of an import and what it holds (docs/import-export.md says more)."""
    yes_no = _("yes or no (also ano/ne, ja/nei, sí/no, true/false)")
    return [
        ("entry", _("Entry key: rows with the same key are the members of one pair or team "
                    "(for example T3). May stay blank for individuals.")),
        ("entry_name", _("Name of the pair or team (optional).")),
        ("position", _("Member's place in the entry: 1, 2, 3… (optional).")),
        ("first_name", _("First name (required).")),
        ("last_name", _("Last name (required).")),
        ("email", _("Email address; one entry per person and event (optional).")),
        ("nationality", _("Country: IOC code (GER), ISO code (DE) or English name (required).")),
        ("residence", _("Country of residence, written the same way (optional).")),
        ("region", _("State or region code, such as NSW (optional).")),
        ("birth_date", _("Date of birth as YYYY-MM-DD (optional).")),
        ("years_resident", _("Whole years of residence in the country (optional).")),
        ("consent_publish", _("Name, nationality and age category may be published: %(yes_no)s.")
         % {"yes_no": yes_no}),
        ("consent_photos", _("Photos may be published: %(yes_no)s.") % {"yes_no": yes_no}),
        ("first_state_competition_of_year",
         _("The person's first state competition of the calendar year (Australian territory "
           "residents' trophies): %(yes_no)s; blank when not given.") % {"yes_no": yes_no}),
        ("accompanied_by_adult",
         _("An adult outside the entry comes along (ages as on the registration form): "
           "%(yes_no)s.") % {"yes_no": yes_no}),
    ]


def _encoding_name(codec: str) -> str:
    """A Python codec's name as people know it: cp1250 is Windows-1250, utf_8 is UTF-8."""
    if codec.startswith("cp125"):
        return f"Windows-{codec[2:]}"
    return codec.upper().replace("_", "-")


@requires_role(Role.ORGANISER)
def import_confirm(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Import the rows checked in the dry run, all in one transaction."""
    pending = request.session.get(_session_key(championship))
    if request.method != "POST" or not pending:
        return redirect("control:data:import", slug=championship.slug)
    event = get_object_or_404(Event, championship=championship, pk=pending["event"])
    try:
        summary = entries_import(event=event, rows=[(n, v) for n, v in pending["rows"]],
                                 by=request.user, filename=pending["filename"])
    except ImportRejected as rejected:
        return render(request, "control/data/import.html", {
            "championship": championship, "guide": import_guide(),
            "form": ImportForm(championship=championship),
            "problems": [problem_message(p) for p in rejected.problems],
        })
    finally:
        del request.session[_session_key(championship)]
    messages.success(request, ngettext("Imported %(count)s entry (%(people)s) into %(event)s.",
                                       "Imported %(count)s entries (%(people)s) into %(event)s.",
                                       summary.entries)
                     % {"count": summary.entries, "people": _people(summary.people),
                        "event": event.display_name})
    return redirect("control:data:index", slug=championship.slug)
