"""The head judge's live screens: round control with the clock, the floor map with its queues,
corrections, time credits, disputes and an entry's history.

Judges may watch every screen; the head judge (or a stronger role) acts.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import re
import unicodedata
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from puzzlecomp.championships.clock_face import clock_view
from puzzlecomp.championships.engine import round_ranking, round_rules, ruleset_of
from puzzlecomp.championships.messages import (
    STATUS_LABELS,
    form_errors_to_messages,
    messages_of,
    violation_message,
)
from puzzlecomp.championships.models import (
    Championship,
    Dispute,
    DisputeStatus,
    Entry,
    Result,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.roles import requires_role, role_of
from puzzlecomp.championships.selectors import live as selectors
from puzzlecomp.championships.selectors.planning import (
    TABLE_HEIGHT,
    TABLE_WIDTH,
    group_labels,
    group_of_label,
)
from puzzlecomp.championships.selectors.rounds import (
    dispute_window_ends,
    group_clock_get,
    group_schedule_get,
    groups_waiting_get,
    round_clock_get,
    round_readiness_get,
    round_results_missing_get,
    round_rule_problems_get,
)
from puzzlecomp.championships.services import disputes as rulings
from puzzlecomp.championships.services import rounds as round_services
from puzzlecomp.championships.services.results import ResultConflict, result_submit
from puzzlecomp.control.live.forms import (
    CorrectionForm,
    DisputeResolveForm,
    EntryFilterForm,
    GroupPlanForm,
    TimeCreditForm,
    initial_of,
)
from puzzlecomp.control.live.projector import REFUSED, projector_now, scene_form
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.guards import GUARDS
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.round_life import RoundClock, is_back, moves_from, starts_early
from puzzlecomp.rules.scoring import Score, statuses_of
from puzzlecomp.rules.times import format_time

STATE_LABELS = {
    "waiting": gettext_lazy("waiting for the start"),
    "assembling": gettext_lazy("assembling"),
    "awaiting_check": gettext_lazy("finished: puzzle to check"),
    "verified": gettext_lazy("verified"),
    "counting": gettext_lazy("counting"),
    "counted": gettext_lazy("counted"),
    "disqualified": gettext_lazy("disqualified"),
}

# The button of each move, by the state it leads to and the state it comes from.
MOVE_LABELS = {
    RoundState.RUNNING: gettext_lazy("Start the round"),
    RoundState.COUNTING: gettext_lazy("Stop assembling: count"),
    RoundState.PROVISIONAL: gettext_lazy("Provisional results"),
    RoundState.PUBLISHED: gettext_lazy("Publish the results"),
    RoundState.FINAL: gettext_lazy("Make the results final"),
}
BACK_LABELS = {
    RoundState.COUNTING: gettext_lazy("Back to counting"),
    RoundState.PROVISIONAL: gettext_lazy("Withdraw the publication"),
}
MOVE_EXPLANATIONS = {
    RoundState.RUNNING: gettext_lazy(
        "Press at the start cue: the start is the server's time of this press. The clock "
        "then runs on every screen and never stops; at the limit the round moves to counting "
        "by itself."),
    RoundState.COUNTING: gettext_lazy(
        "Assembling stops: the judges count the pieces of every unfinished puzzle."),
    RoundState.PROVISIONAL: gettext_lazy(
        "The results are shown as provisional while the head judge checks them."),
    RoundState.PUBLISHED: gettext_lazy(
        "Publishing opens the dispute window: competitors may dispute their own result."),
    RoundState.FINAL: gettext_lazy(
        "The results become final: no more disputes and no more corrections."),
}


def _round(championship: Championship, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             pk=round_id, event__championship=championship)


def _entry(rnd: Round, number: int) -> Entry:
    return get_object_or_404(Entry, event=rnd.event, number=number)


def _statuses(rnd: Round) -> tuple[Status, ...]:
    """The result statuses the round's ruleset defines, as the correction forms offer them."""
    return statuses_of(ruleset_of(rnd))


def _puzzle_count(rnd: Round) -> int:
    """How many puzzles each entry of the round does (1 while the round's rules are
    incomplete: the correction then takes a plain time)."""
    try:
        return len(round_rules(rnd).puzzle_sizes)
    except RulesError:
        return 1


def _acts(request: HttpRequest, championship: Championship) -> bool:
    """Whether the user may act here (head judge or stronger), not only watch."""
    role = role_of(request.user, championship)
    return role is not None and role <= Role.HEAD_JUDGE


def _epoch_ms(instant: dt.datetime | None) -> int | None:
    return int(instant.timestamp() * 1000) if instant else None


def _moves(rnd: Round) -> list[tuple[str, str]]:
    """(state, button label) of every move the round may make now, forward first."""
    moves = []
    for to in moves_from(rnd.state):
        state = RoundState(to)
        labels = BACK_LABELS if is_back(rnd.state, to) else MOVE_LABELS
        moves.append((str(to), str(labels[state])))
    return moves


def _missing(rnd: Round) -> list[str]:
    """What the round lacks, in the organiser's words: to start (a planned round), else to be
    ranked (a round imported without its time limit)."""
    problems = round_readiness_get(rnd) or round_rule_problems_get(rnd)
    return messages_of(RulesError(list(problems))) if problems else []


def _clock_texts(clock: RoundClock) -> dict[str, str]:
    """The clock as text for pages without JavaScript (right at the moment of the page): its
    face as every screen shows it, and the time elapsed (standing at the end once over)."""
    face = clock_view(clock.as_json(), now=clock.server_now)
    # A waiting clock (the next group) has run for no one yet.
    elapsed = 0.0 if face.shows == "waiting" else clock.elapsed_seconds or 0
    if clock.ended_at is not None and clock.started_at is not None:
        elapsed = min(elapsed, (clock.ended_at - clock.started_at).total_seconds())
    return {"elapsed": format_time(int(elapsed)), "label": face.label, "value": face.value,
            "shows": face.shows, "word": face.state_words}


@requires_role(Role.JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every round of the championship with its state and open disputes."""
    return render(request, "control/live/index.html", {
        "championship": championship, "rounds": selectors.rounds_of(championship.pk),
        "acts": _acts(request, championship),
        "scene_form": scene_form(championship, request.session.pop(REFUSED, None)),
        "projector_now": projector_now(championship),
    })


@requires_role(Role.JUDGE)
def round_control(request: HttpRequest, championship: Championship,
                  round_id: int) -> HttpResponse:
    """The round's state and big clock, its moves, time credits and the relay's rotation."""
    rnd = _round(championship, round_id)
    clock = round_clock_get(rnd)
    panels = _panels_context(rnd, clock, request)
    missing = _missing(rnd)
    groups = group_schedule_get(rnd, now=clock.server_now)
    return render(request, "control/live/round.html", {
        "missing": missing, "waits": bool(missing) and rnd.state == RoundState.PLANNED,
        "championship": championship, "round": rnd, "clock": clock,
        "clock_json": clock.as_json(), "clock_text": _clock_texts(clock),
        "moves": _moves(rnd), "acts": _acts(request, championship),
        "credit_form": (None if selectors.time_credit_refused(rnd, seconds=1)
                        else TimeCreditForm()),
        "window_ends": dispute_window_ends(rnd),
        "open_disputes": selectors.open_disputes_count(rnd),
        "awaiting": len(selectors.finishes_awaiting_check(rnd)),
        "config": _config(rnd, clock, "round", panels), **panels,
        "groups": groups, "group_playing": any(g.state == RoundState.RUNNING for g in groups),
        "group_plan": GroupPlanForm(groups=groups) if groups else None,
    })


@requires_role(Role.HEAD_JUDGE)
def round_move(request: HttpRequest, championship: Championship, round_id: int,
               to: str) -> HttpResponse:
    """Confirm a move of the round (GET), then make it (POST)."""
    rnd = _round(championship, round_id)
    try:
        target = RoundState(to)
    except ValueError:
        raise Http404 from None
    back = reverse("control:live:round", args=[championship.slug, rnd.pk])
    if request.method == "POST":
        try:
            round_services.round_move(round=rnd, to=target, user=request.user,
                                      knowingly=_knowingly(request))
        except RulesError as refused:
            for text in messages_of(refused):
                messages.error(request, text)
            if any(v.code in GUARDS for v in refused.violations):
                # The confirmation again, with what the guard found now.
                return redirect(request.path)
        else:
            messages.success(request, _("The round is now: %(state)s.")
                             % {"state": rnd.get_state_display()})
        return redirect(back)
    round_clock_get(rnd)
    if target not in moves_from(rnd.state):
        messages.error(request, _("The round cannot make this move from its present state."))
        return redirect(back)
    label = dict(_moves(rnd))[str(target)]
    return render(request, "control/live/move.html", {
        "championship": championship, "round": rnd, "target": target, "label": label,
        "explanation": MOVE_EXPLANATIONS[target], "missing": _missing(rnd),
        "early": target == RoundState.RUNNING and starts_early(rnd.starts_at, timezone.now()),
        "window_hours": ruleset_of(rnd).dispute_window_hours,
        "window_ends": dispute_window_ends(rnd),
        "open_disputes": selectors.open_disputes_count(rnd), "back": back,
        "groups_waiting": groups_waiting_get(rnd) if target == RoundState.COUNTING else [],
        "without_result": (round_results_missing_get(rnd)
                           if target in (RoundState.PROVISIONAL, RoundState.PUBLISHED)
                           and not is_back(rnd.state, str(target)) else []),
    })


def _knowingly(request: HttpRequest) -> int | None:
    """The count a guard's confirmation named (its checkbox), None when not ticked."""
    try:
        return int(request.POST["knowingly"])
    except (KeyError, ValueError):
        return None


@requires_role(Role.HEAD_JUDGE)
@require_POST
def time_credit(request: HttpRequest, championship: Championship,
                round_id: int) -> HttpResponse:
    """Grant an entry seconds of credit (wjpc-2025.txt: wrong puzzle handed out)."""
    rnd = _round(championship, round_id)
    form = TimeCreditForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
    else:
        data = form.cleaned_data
        entry = Entry.objects.filter(event=rnd.event, number=data["entry"]).first()
        if entry is None:
            messages.error(request, _("There is no entry %(entry)s in this event.")
                           % {"entry": data["entry"]})
        else:
            try:
                rulings.time_credit_grant(round=rnd, entry=entry, seconds=data["credit"],
                                          reason=data["reason"], user=request.user)
            except ResultConflict:
                messages.error(request, _("The entry's result changed meanwhile: try again."))
            except RulesError as refused:
                for text in messages_of(refused):
                    messages.error(request, text)
            else:
                messages.success(request, _("Entry %(entry)s has %(credit)s of time credit.")
                                 % {"entry": entry.number,
                                    "credit": format_time(data["credit"])})
    return redirect("control:live:round", championship.slug, rnd.pk)


def _group(request: HttpRequest, rnd: Round) -> str:
    try:
        return group_of_label(rnd, request.GET.get("group"))
    except PlanningError:
        raise Http404 from None


def _group_clock(rnd: Round, group: str) -> RoundClock:
    """The clock a floor map shows: its group's (waiting while another group is at the
    tables), the round's for a round of one group."""
    return group_clock_get(rnd, group) if len(rnd.groups) > 1 else round_clock_get(rnd)


def _queue_group(rnd: Round, group: str) -> str | None:
    """The group whose finishes a floor map's queue lists: its own, when the round has several."""
    return group if len(rnd.groups) > 1 else None


def _floor(rnd: Round, group: str, now: dt.datetime) -> selectors.LiveFloor | None:
    try:
        return selectors.live_floor_get(rnd, group, now=now)
    except PlanningError:
        return None  # no hall set up: the queues still work


@requires_role(Role.JUDGE)
def floor_map(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The hall with every seat coloured by its state, beside the queues of finishes to check
    and of open disputes."""
    rnd = _round(championship, round_id)
    group = _group(request, rnd)
    clock = _group_clock(rnd, group)
    floor = _floor(rnd, group, clock.server_now)
    counts = floor.counts if floor else {}
    panels = _panels_context(rnd, clock, request, group=_queue_group(rnd, group))
    return render(request, "control/live/map.html", {
        "missing": _missing(rnd),
        "championship": championship, "round": rnd, "group": group,
        "labels": group_labels(rnd), "hall": _drawn(floor) if floor else None,
        "states": [(state, STATE_LABELS[state], counts.get(state, 0))
                   for state in selectors.SEAT_STATES],
        "clock_json": clock.as_json(), "clock_text": _clock_texts(clock),
        "config": _config(rnd, clock, "map", panels, group), **panels,
    })


def _drawn(floor: selectors.LiveFloor) -> dict[str, Any]:
    """The hall as the SVG draws it: each table split into one block per seated entry."""
    tables = []
    for t in floor.tables:
        width = TABLE_WIDTH // max(1, len(t.seats))
        seats = [{"number": s.number, "name": s.name, "state": s.state,
                  "label": STATE_LABELS[s.state] if not s.cancelled
                  else f"{STATE_LABELS[s.state]} · {_('withdrawn')}",
                  "cancelled": s.cancelled, "x": t.x + i * width, "width": width,
                  "title": _("Table %(table)s · %(number)s %(name)s")
                  % {"table": t.table, "number": s.number, "name": s.name}}
                 for i, s in enumerate(t.seats)]
        tables.append({"table": t.table, "x": t.x, "y": t.y, "guest": t.guest,
                       "width": TABLE_WIDTH, "height": TABLE_HEIGHT, "seats": seats})
    return {"width": floor.width, "height": floor.height, "tables": tables}


def _config(rnd: Round, clock: RoundClock, page: str, panels: dict[str, Any],
            group: str = "") -> dict[str, Any]:
    """What the page's script needs: where to read the live data, and its words."""
    url = reverse("control:live:state", args=[rnd.event.championship.slug, rnd.pk])
    return {
        "page": page, "slug": rnd.event.championship.slug, "round": rnd.pk,
        "stateUrl": f"{url}?group={group}" if group else url,
        "seq": rnd.event.championship.live_seq, "clock": clock.as_json(),
        "signals": [s.at for s in panels["relay"]["rotation"].signals] if panels["relay"] else [],
        "stateLabels": {k: str(v) for k, v in STATE_LABELS.items()},
        "words": {
            "live": _("Live: updates as they happen."),
            "connecting": _("Connecting…"),
            "offline": _("Offline: the clock keeps running; updates resume when the network "
                         "is back."),
            "polling": _("Live updates are not connected: the page checks for changes every "
                         "few seconds."),
            "stale": _("New data arrived while you were typing: it is shown once you finish."),
            "soundOn": _("Sound on"), "soundOff": _("Sound off"),
            "counting": _("Counting"), "planned": _("Not started"),
            # The clock's face (clockFace of live.js), as the server drew it.
            "waiting": _("Waiting"), "timeLeft": _("Time left"), "timeLimit": _("Time limit"),
            "endedAt": _("Ended at"), "timeZone": timezone.get_current_timezone_name(),
            "states": {value: str(label) for value, label in RoundState.choices},
        },
    }


def _panels_context(rnd: Round, clock: RoundClock, request: HttpRequest,
                    forms: dict[int, DisputeResolveForm] | None = None,
                    return_to: str | None = None, group: str | None = None) -> dict[str, Any]:
    """What the live panels (queues, credits, relay) show; also their JSON's data.

    `return_to` is the page the panels' forms come back to (default: the page asked for);
    `group`: the finishes of that group only (the floor map of one of several groups).
    """
    started = clock.started_at
    credits = selectors.credit_lines_get(rnd)
    relay = selectors.relay_rotation_get(rnd)
    disputes = selectors.disputes_get(rnd, open_only=True)
    acts = _acts(request, rnd.event.championship)
    scores = _scores(rnd) if disputes else {}
    for dispute in disputes:
        given = (forms or {}).get(dispute.pk)
        dispute.form = given or DisputeResolveForm(  # type: ignore[attr-defined]
            prefix=f"dispute-{dispute.pk}", initial=initial_of(dispute.result),
            statuses=_statuses(rnd), puzzles=_puzzle_count(rnd))
        dispute.facts = _recorded(  # type: ignore[attr-defined]
            dispute.result, scores.get(dispute.entry.number))
        dispute.history_rows = _history_rows(dispute.history)  # type: ignore[attr-defined]
    return {
        "queue": [_queued(q) for q in selectors.finishes_awaiting_check(rnd, group=group)],
        "queue_group": group,
        "disputes": disputes,
        "credits": [{"line": c, "credit": format_time(c.seconds),
                     "ends_ms": _epoch_ms(started + dt.timedelta(seconds=c.limit_seconds))
                     if started else None,
                     "remaining": _remaining(clock, c.limit_seconds)} for c in credits],
        "relay": _relay_shown(relay, clock) if relay else None,
        "acts": acts,
        "return_to": return_to or request.get_full_path(),
    }


def _scores(rnd: Round) -> dict[int, Score]:
    """Entry number -> the score the round's ranking gives it (empty while the round's rules
    are incomplete)."""
    try:
        return {int(ln.entry.id): ln.score for ln in round_ranking(rnd).lines}
    except RulesError:
        return {}


def _recorded(row: Result | None, score: Score | None = None) -> list[tuple[str, str]]:
    """A stored result in words, as a dispute shows it beside the competitor's text, with
    the penalty and final time the ranking gives it."""
    if row is None:
        return [(_("Result"), _("No result recorded yet."))]
    facts = [(_("Result"), str(STATUS_LABELS.get(row.status, row.status)))]
    if row.time_seconds is not None:
        facts.append((_("Time"), format_time(row.time_seconds)))
    if row.puzzles:
        facts.append((_("Puzzles"), _shown_value("puzzles", row.puzzles)))
    if row.pieces is not None:
        facts.append((_("Pieces placed"), str(row.pieces)))
    if row.remaining is not None:
        facts.append((_("Pieces remaining"), str(row.remaining)))
    if row.missing:
        facts.append((_("Missing pieces"), str(row.missing)))
    if row.time_credit:
        facts.append((_("Time credit"), format_time(row.time_credit)))
    if score is not None and score.penalty_seconds:
        facts.append((_("Penalty"), "+" + format_time(score.penalty_seconds)))
    if score is not None and score.final_time is not None:
        facts.append((_("Final time"), format_time(score.final_time)))
    facts.append((_("Checked"), _yes_no(row.checked)))
    if row.device is not None:
        facts.append((_("Device"), row.device.label))
    return facts


def _queued(line: selectors.QueueLine) -> dict[str, Any]:
    """A queue line as the panel shows it: an unchecked finish's time, or a flagged result's
    state, with the reasons for a second look in the reader's language."""
    awaits_check = line.status == "finished" and not line.checked
    return {"line": line, "awaits_check": awaits_check,
            "time": format_time(line.time_seconds) if line.time_seconds is not None
            else str(STATUS_LABELS.get(line.status, line.status)),
            "looks": [violation_message(look) for look in line.second_looks]}


def _remaining(clock: RoundClock, limit: int) -> str:
    elapsed = clock.elapsed_seconds or 0
    return format_time(max(0, int(limit - elapsed)))


def _relay_shown(relay: selectors.RelayRotation, clock: RoundClock) -> dict[str, Any]:
    """The signal just given (within one interval) and the next two, with their moves."""
    elapsed = clock.elapsed_seconds or 0
    started = clock.started_at
    upcoming = [s for s in relay.signals if s.at > elapsed][:2]
    passed = [s for s in relay.signals if elapsed - relay.every_seconds < s.at <= elapsed]
    shown = [{"signal": s, "at": format_time(s.at), "passed": s.at <= elapsed,
              "at_ms": _epoch_ms(started + dt.timedelta(seconds=s.at)) if started else None,
              "in": format_time(max(0, int(s.at - elapsed)))}
             for s in passed[-1:] + upcoming]
    return {"rotation": relay, "shown": shown,
            "every": format_time(relay.every_seconds),
            "schedule": [{"signal": s, "at": format_time(s.at)} for s in relay.signals]}


@requires_role(Role.JUDGE)
def live_state(request: HttpRequest, championship: Championship,
               round_id: int) -> HttpResponse:
    """The screens' live data as JSON (ETag; 304 when unchanged): the clock, every seat's state,
    and the panels (queues, credits, relay) rendered as on the page."""
    rnd = _round(championship, round_id)
    group = _group(request, rnd)
    clock = _group_clock(rnd, group)
    floor = _floor(rnd, group, clock.server_now)
    map_url = reverse("control:live:map", args=[championship.slug, rnd.pk])
    context = _panels_context(rnd, clock, request,
                              return_to=f"{map_url}?group={group}" if group else map_url,
                              group=_queue_group(rnd, group) if "group" in request.GET else None)
    relay = context["relay"]
    data: dict[str, Any] = {
        "round": {"id": rnd.pk, "state": rnd.state, "state_label": rnd.get_state_display()},
        "clock": {k: v for k, v in clock.as_json().items() if k != "server_now"},
        "group": group,
        "tables": [{"table": t.table, "state": t.state,
                    "seats": [{"entry": s.number, "state": s.state,
                               **({"cancelled": True} if s.cancelled else {})}
                              for s in t.seats]}
                   for t in floor.tables] if floor else [],
        "counts": floor.counts if floor else {},
        "queue": [{"entry": q["line"].number, "version": q["line"].version,
                   "device": q["line"].device, "looks": len(q["looks"])}
                  for q in context["queue"]],
        "disputes": [{"id": d.pk, "entry": d.entry.number,
                      "version": d.result.version if d.result else 0}
                     for d in context["disputes"]],
        "credits": [{"entry": c["line"].number, "seconds": c["line"].seconds,
                     "limit_seconds": c["line"].limit_seconds} for c in context["credits"]],
        "relay": {"every_seconds": relay["rotation"].every_seconds,
                  "signals": [s.at for s in relay["rotation"].signals],
                  "shown": [s["signal"].at for s in relay["shown"]]} if relay else None,
        "acts": context["acts"],
        "language": translation.get_language(),
    }
    digest = hashlib.sha1(json.dumps(data, sort_keys=True, cls=DjangoJSONEncoder).encode(),
                          usedforsecurity=False).hexdigest()[:20]
    etag = f'"hj-{digest}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        data["clock"]["server_now"] = clock.server_now
        data["panels"] = {
            name: render_to_string(f"control/live/_{name}.html",
                                   {"championship": championship, "round": rnd, **context},
                                   request=request)
            for name in ("queue", "disputes", "credits", "relay")
        }
        response = JsonResponse(data)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response


ENTRIES_PER_PAGE = 100


def _folded(text: str) -> str:
    """Text as a search compares it: any case, without accents, commas or "&"."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))
    return re.sub(r"[,;&]", " ", bare).casefold()


def _matches(row: selectors.EntryRow, query: str) -> bool:
    """An entry asked for by its number ("14" or "#14"), or by words of its name or of one
    member's name, in any order, case and spacing ("Remy Zeman", "Zeman, Remy", "zeman  remy"
    all find the pair "Zeman & Keller" that Remy Zeman belongs to)."""
    query = query.strip()
    number = query.lstrip("#").strip()
    if number.isdigit():
        return row.line.number == int(number)
    words = _folded(query).split()
    if not words:
        return True
    for name in (row.line.name, *row.members):
        folded = _folded(name)
        if all(word in folded for word in words):
            return True
    return False


@requires_role(Role.JUDGE)
def entries(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """Every entry of the round with its group, state, result, penalty and final time, and
    links to correct it: filtered by group, number or name and "no result yet", a hundred
    to a page."""
    rnd = _round(championship, round_id)
    clock = round_clock_get(rnd)
    rows = selectors.round_entry_rows_get(rnd, now=clock.server_now)
    groups = sorted({r.line.group for r in rows if r.line.group})
    form = EntryFilterForm(request.GET or None, groups=groups)
    chosen = form.cleaned_data if form.is_valid() else {}
    if chosen.get("group"):
        rows = [r for r in rows if r.line.group == chosen["group"]]
    if chosen.get("q", "").strip():
        rows = [r for r in rows if _matches(r, chosen["q"])]
    if chosen.get("without_result"):
        rows = [r for r in rows if r.line.status is None and not r.line.cancelled]
    page = Paginator(rows, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    lines = [{"line": r.line, "state": STATE_LABELS[r.line.state],
              "status": STATUS_LABELS.get(r.line.status or "", ""),
              "time": format_time(r.time_seconds) if r.time_seconds is not None else "",
              "credit": format_time(r.line.credit) if r.line.credit else "",
              "penalty": format_time(r.penalty_seconds) if r.penalty_seconds else "",
              "final_time": r.final_time,
              "final": format_time(r.final_time) if r.final_time is not None
              else _("%(pieces)s pieces placed") % {"pieces": r.pieces}
              if r.pieces is not None else ""}
             for r in page.object_list]
    return render(request, "control/live/entries.html", {
        "championship": championship, "round": rnd, "lines": lines, "page": page,
        "filter": form, "groups": groups, "query": query.urlencode(), "shown": len(rows),
        "acts": _acts(request, championship), "missing": _missing(rnd),
    })


def _conflict_message(current: Result | None) -> str:
    if current is None:
        return _("The result was removed meanwhile. Check the values and save again.")
    who = current.recorded_by.get_username() if current.recorded_by else (
        current.device.label if current.device else "")
    return _("The result changed while you were correcting it (now version %(version)s, "
             "by %(who)s). Its current values are shown beside your correction: check them "
             "and save again to replace them.") % {"version": current.version,
                                                   "who": who or "?"}


@requires_role(Role.HEAD_JUDGE)
def correct(request: HttpRequest, championship: Championship, round_id: int,
            number: int) -> HttpResponse:
    """Correct an entry's result with a required reason; a change made meanwhile by someone
    else is shown, never overwritten silently."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    row = Result.objects.filter(round=rnd, entry=entry).first()
    current = None  # the stored result, shown beside the form after a conflict
    form = CorrectionForm(request.POST if request.method == "POST" else None,
                          initial=initial_of(row), statuses=_statuses(rnd),
                          puzzles=_puzzle_count(rnd))
    if form.is_valid():
        try:
            rulings.result_correct(
                round=rnd, entry=entry, values=form.values(puzzles=row.puzzles if row else []),
                reason=form.cleaned_data["reason"],
                base_version=form.cleaned_data["base_version"], user=request.user)
        except ResultConflict as conflict:
            messages.error(request, _conflict_message(conflict.current))
            current = conflict.current
            form = CorrectionForm(_rebased(request.POST, "base_version", current),
                                  statuses=_statuses(rnd), puzzles=_puzzle_count(rnd))
        except RulesError as refused:
            form.add_violations(refused, messages_of(refused))
        else:
            messages.success(request, _("The result of entry %(entry)s is corrected.")
                             % {"entry": entry.number})
            return redirect(_next(request) or reverse(
                "control:live:entries", args=[championship.slug, rnd.pk]))
    return render(request, "control/live/correct.html", {
        "championship": championship, "round": rnd, "entry": entry, "form": form,
        "current": current, "current_status": STATUS_LABELS.get(current.status, "")
        if current else "", "current_time": format_time(current.time_seconds)
        if current and current.time_seconds is not None else "",
        "next": _next(request),
    })


def _rebased(posted: Any, field: str, current: Result | None) -> Any:
    """The posted values on the version now stored: saving them again is a conscious choice."""
    data = posted.copy()
    data[field] = str(current.version if current else 0)
    return data


def _next(request: HttpRequest) -> str | None:
    """Where to return after a form (a page of this site only)."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


@requires_role(Role.HEAD_JUDGE)
@require_POST
def verify(request: HttpRequest, championship: Championship, round_id: int,
           number: int) -> HttpResponse:
    """Mark a finish as checked from the queue (the head judge checked the puzzle)."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    row = get_object_or_404(Result, round=rnd, entry=entry)
    try:
        version = int(request.POST.get("base_version", ""))
    except ValueError:
        version = -1
    try:
        result_submit(round=rnd, entry=entry,
                      values=dataclasses.replace(rulings.values_of(row), checked=True),
                      action="verify", base_version=version, user=request.user, looked_at=True)
    except ResultConflict as conflict:
        messages.error(request, _conflict_message(conflict.current))
    except RulesError as refused:
        for text in messages_of(refused):
            messages.error(request, text)
    else:
        messages.success(request, _("The finish of entry %(entry)s is verified.")
                         % {"entry": entry.number})
    return redirect(_next(request) or reverse("control:live:map",
                                              args=[championship.slug, rnd.pk]))


@requires_role(Role.HEAD_JUDGE)
@require_POST
def looked_at(request: HttpRequest, championship: Championship, round_id: int,
              number: int) -> HttpResponse:
    """The head judge looked again at a flagged result and keeps it (issue 15: plausibility
    warnings ask for a second look, they refuse nothing)."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    try:
        version = int(request.POST.get("base_version", ""))
    except ValueError:
        version = -1
    try:
        rulings.result_looked_at(round=rnd, entry=entry, base_version=version,
                                 user=request.user)
    except ResultConflict as conflict:
        messages.error(request, _conflict_message(conflict.current))
    else:
        messages.success(request, _("The result of entry %(entry)s is kept as it is.")
                         % {"entry": entry.number})
    return redirect(_next(request) or reverse("control:live:map",
                                              args=[championship.slug, rnd.pk]))


@requires_role(Role.HEAD_JUDGE)
def history(request: HttpRequest, championship: Championship, round_id: int,
            number: int) -> HttpResponse:
    """Every write to the entry's result: who, when, which device, old and new, and why."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    return render(request, "control/live/history.html", {
        "championship": championship, "round": rnd, "entry": entry,
        "lines": _history_rows(selectors.entry_history_get(rnd, entry)),
        "credits": [{"grant": g, "credit": format_time(g.seconds)}
                    for g in selectors.time_credit_grants(rnd, entry=entry)],
        "disputes": selectors.entry_disputes_get(rnd, entry),
    })


def _history_rows(lines: list[selectors.HistoryLine]) -> list[dict[str, Any]]:
    """The history's lines in words: what was done, and each change old -> new."""
    return [{"line": ln, "action": str(ACTION_LABELS.get(ln.action, ln.action)),
             "reason": _reason_shown(ln.reason),
             "changes": [{"name": FIELD_LABELS.get(c.name, c.name),
                          "old": _shown_value(c.name, c.old),
                          "new": _shown_value(c.name, c.new)} for c in ln.changes]}
            for ln in lines]


# What each write did, by the action its history line stores (services/recording.py's
# judge actions, and the head judge's).
ACTION_LABELS = {
    "tap": gettext_lazy("finish called"), "verify": gettext_lazy("checked"),
    "count": gettext_lazy("pieces counted"), "dsq": gettext_lazy("disqualified"),
    "authorise": gettext_lazy("next puzzle allowed"), "record": gettext_lazy("recorded"),
    "correct": gettext_lazy("corrected"), "credit": gettext_lazy("time credit"),
}

FIELD_LABELS = {
    "status": gettext_lazy("result"), "time_seconds": gettext_lazy("time"),
    "pieces": gettext_lazy("pieces placed"), "remaining": gettext_lazy("pieces remaining"),
    "missing": gettext_lazy("missing pieces"),
    "missing_contiguous": gettext_lazy("missing in contiguous clusters"),
    "missing_found": gettext_lazy("missing found elsewhere"),
    "time_credit": gettext_lazy("time credit"), "puzzles": gettext_lazy("puzzles"),
    "checked": gettext_lazy("checked"),
    "competitor_confirmed": gettext_lazy("confirmed by the competitor"),
    "note": gettext_lazy("note"),
}


# services/disputes.dispute_resolve stores a correction's reason as "dispute #n: <ruling>"
# (language-free, as the audit keeps it); screens show the marker in the reader's language.
_DISPUTE_REASON = re.compile(r"^dispute #(\d+): (.*)$", re.S)


def _reason_shown(reason: str) -> str:
    found = _DISPUTE_REASON.match(reason)
    if found is None:
        return reason
    return _("dispute #%(number)s: %(ruling)s") % {"number": found[1], "ruling": found[2]}


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _puzzle_shown(number: int, puzzle: dict[str, Any]) -> str:
    """One puzzle of a multi-puzzle result in words: its finish as a time, else its count;
    missing pieces and the check when there are any."""
    parts = []
    if puzzle.get("time") is not None:
        parts.append(format_time(int(puzzle["time"])))
    elif puzzle.get("pieces") is not None:
        parts.append(_("%(pieces)s pieces placed") % {"pieces": puzzle["pieces"]})
    elif puzzle.get("remaining") is not None:
        parts.append(_("%(pieces)s pieces remaining") % {"pieces": puzzle["remaining"]})
    else:
        parts.append(_("not started"))
    if puzzle.get("missing"):
        parts.append(_("%(missing)s missing") % {"missing": puzzle["missing"]})
    if "verified" in puzzle:
        parts.append(_("checked") if puzzle["verified"] else _("not checked"))
    return _("puzzle %(number)s: %(what)s") % {"number": number, "what": ", ".join(parts)}


def _shown_value(name: str, value: Any) -> str:
    """A stored value as the history shows it: times as times, yes/no in words."""
    if value is None:
        return "-"
    if name in ("time_seconds", "time_credit") and isinstance(value, int):
        return format_time(value)
    if name == "status":
        return str(STATUS_LABELS.get(value, value))
    if isinstance(value, bool):
        return _yes_no(value)
    if isinstance(value, list):
        return "; ".join(_puzzle_shown(i, p) for i, p in enumerate(value, start=1)
                         if isinstance(p, dict)) or "-"
    return str(value)


@requires_role(Role.JUDGE)
def disputes(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """Every dispute of the round; the open ones with their resolve forms."""
    rnd = _round(championship, round_id)
    return _disputes_page(request, rnd)


def _disputes_page(request: HttpRequest, rnd: Round,
                   forms: dict[int, DisputeResolveForm] | None = None) -> HttpResponse:
    clock = round_clock_get(rnd)
    resolved = [d for d in selectors.disputes_get(rnd) if d.status != DisputeStatus.OPEN]
    return render(request, "control/live/disputes.html", {
        "championship": rnd.event.championship, "round": rnd, "resolved": resolved,
        "window_ends": dispute_window_ends(rnd), "missing": _missing(rnd),
        **_panels_context(rnd, clock, request, forms),
    })


@requires_role(Role.HEAD_JUDGE)
@require_POST
def dispute_resolve(request: HttpRequest, championship: Championship, round_id: int,
                    dispute_id: int) -> HttpResponse:
    """Uphold or reject a dispute, correcting the result when upheld with a correction."""
    rnd = _round(championship, round_id)
    dispute = get_object_or_404(Dispute.objects.select_related("entry"), pk=dispute_id,
                                round=rnd)
    form = DisputeResolveForm(request.POST, prefix=f"dispute-{dispute.pk}",
                              statuses=_statuses(rnd), puzzles=_puzzle_count(rnd))
    if form.is_valid():
        row = Result.objects.filter(round=rnd, entry=dispute.entry).first()
        try:
            rulings.dispute_resolve(
                dispute=dispute, uphold=form.cleaned_data["decision"] != form.REJECT,
                resolution=form.cleaned_data["resolution"],
                correction=form.values(puzzles=row.puzzles if row else [])
                if form.corrects else None,
                base_version=form.cleaned_data["base_version"] if form.corrects else None,
                user=request.user)
        except ResultConflict as conflict:
            messages.error(request, _conflict_message(conflict.current))
            form = DisputeResolveForm(
                _rebased(request.POST, f"dispute-{dispute.pk}-base_version", conflict.current),
                prefix=f"dispute-{dispute.pk}", statuses=_statuses(rnd),
                puzzles=_puzzle_count(rnd))
            form.is_valid()
            return _disputes_page(request, rnd, {dispute.pk: form})
        except RulesError as refused:
            form.add_violations(refused, messages_of(refused))
        else:
            if rulings.resolution_recipients(dispute):
                messages.success(request, _("Dispute #%(number)s is resolved; the competitor "
                                            "is told by email.") % {"number": dispute.pk})
            else:
                messages.warning(request, _(
                    "Dispute #%(number)s is resolved. No email goes to entry %(entry)s (no "
                    "address on record, or emails turned off): tell them the ruling in "
                    "person.") % {"number": dispute.pk, "entry": dispute.entry.number})
            return redirect(_next(request) or reverse(
                "control:live:disputes", args=[championship.slug, rnd.pk]))
    return _disputes_page(request, rnd, {dispute.pk: form})
