"""Judges' device writes, authorised by a device token (Authorization: Bearer).

`GET /device/me` is everything a phone shows; `POST /device/results` records one action of a
judge (tap, verify, count, dsq, authorise) once per client id. Errors: 401 unknown, revoked or
expired token; 403 an entry outside the device's tables; 404 a round of another championship;
409 the result changed since `base_version` (the body carries the current result); 422 a
broken rule, naming the field (see api/__init__.py).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from django.http import Http404, HttpRequest
from ninja import Field, Router, Schema
from ninja.security import HttpBearer
from pydantic import BeforeValidator

from puzzlecomp.championships.models import JudgeDevice
from puzzlecomp.championships.schemas import MeOut, ResultOut, me_out, result_out
from puzzlecomp.championships.selectors.recording import record_target_get
from puzzlecomp.championships.services.device_overview import device_overview
from puzzlecomp.championships.services.devices import device_for_token, device_seen
from puzzlecomp.championships.services.recording import Action, JudgeWrite, judge_result_submit
from puzzlecomp.rules.limits import (
    MAX_ENTRY_NUMBER,
    MAX_ID,
    MAX_PIECES,
    MAX_PUZZLES,
    MAX_SECONDS,
    MAX_VERSION,
    PLAIN_TEXT_PATTERN,
)


class DeviceToken(HttpBearer):
    """The token a phone received when it was paired; DeviceRefused (401) says why it fails."""

    def authenticate(self, request: HttpRequest, token: str) -> JudgeDevice:
        return device_for_token(token)


router = Router(tags=["devices"], auth=DeviceToken())


def _whole_number(value: Any) -> Any:
    """JSON `true` or "60" is no time and no count: only numbers are taken as numbers."""
    if isinstance(value, bool | str):
        raise ValueError("expected a whole number")
    return value


# The bounds before the check: pydantic then documents them as the integer's minimum and maximum.
Numbers = BeforeValidator(_whole_number)
Seconds = Annotated[int, Field(ge=0, le=MAX_SECONDS), Numbers]
Pieces = Annotated[int, Field(ge=0, le=MAX_PIECES), Numbers]
RoundId = Annotated[int, Field(ge=1, le=MAX_ID), Numbers]
EntryNumber = Annotated[int, Field(ge=1, le=MAX_ENTRY_NUMBER), Numbers]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION), Numbers]
PuzzleNumber = Annotated[int, Field(ge=1, le=MAX_PUZZLES), Numbers]


class ValuesIn(Schema):
    """What the judge saw; each action reads the fields it needs (the rest keep defaults).

    Numbers are strict (JSON `true` is no time) and bounded by the domain (rules/limits.py);
    text with control characters is refused with 422.
    """

    # tap: seconds since the round's start, from the phone's synchronised clock at the tap.
    time_seconds: Seconds | None = None
    # verify: missing pieces, those in adjacent clusters, and those found elsewhere.
    missing: Pieces = 0
    missing_contiguous: Pieces = 0
    missing_found: Pieces = 0
    # verify: the puzzle is complete and every piece in its place.
    complete_and_correct: bool | None = None
    # verify: the competitor saw and confirmed the time.
    competitor_confirmed: bool = False
    # count (and verify of an incomplete puzzle where that means not finished): placed
    # pieces, or the pieces left over (piles of 10 plus loose ones).
    pieces: Pieces | None = None
    remaining: Pieces | None = None
    # dsq: the reason (required).
    note: str = Field(default="", max_length=300, pattern=PLAIN_TEXT_PATTERN)


class ResultWriteIn(Schema):
    # Made by the phone when the judge acts; a replay with the same id writes nothing.
    client_id: UUID
    round_id: RoundId
    entry: EntryNumber = Field(description="the entry's number")
    # The result's version the judge saw: 0 when the entry had no result.
    base_version: Version
    action: Action
    # Multi-puzzle rounds: the puzzle (from 1) tapped, checked, counted or opened.
    puzzle: PuzzleNumber | None = None
    values: ValuesIn = Field(default_factory=lambda: ValuesIn())


class WriteOut(Schema):
    round_id: int
    entry: int
    # True when this client id was stored before: the answer is the stored result.
    replayed: bool
    result: ResultOut


class ViolationOut(Schema):
    code: str
    message: str
    entry: str
    field: str
    params: dict[str, Any]


class RulesErrorOut(Schema):
    detail: str
    violations: list[ViolationOut]


class ConflictOut(Schema):
    detail: str
    code: str
    base_version: int | None
    current: ResultOut | None


class DeviceErrorOut(Schema):
    detail: str
    code: str
    field: str


class NotFoundOut(Schema):
    detail: str


ERRORS: dict[int, Any] = {401: DeviceErrorOut, 403: DeviceErrorOut, 422: RulesErrorOut}


@router.get("/me", url_name="device_me", response={200: MeOut, **ERRORS})
def me(request: HttpRequest) -> MeOut:
    """The device, its section, the live rounds with their clocks, and for each of its tables
    the entries seated there with their current result and version."""
    device: JudgeDevice = request.auth  # type: ignore[attr-defined]
    device_seen(device)
    return me_out(device_overview(device))


@router.post("/results", url_name="device_result_write",
             response={200: WriteOut, 404: NotFoundOut, 409: ConflictOut, **ERRORS})
def result_write(request: HttpRequest, payload: ResultWriteIn) -> WriteOut:
    """Record a judge's action on an entry at one of the device's tables (200 for a replay)."""
    device: JudgeDevice = request.auth  # type: ignore[attr-defined]
    target = record_target_get(device, round_id=payload.round_id, entry_number=payload.entry)
    if target is None:
        raise Http404
    rnd = target.round
    values = payload.values
    outcome = judge_result_submit(
        device=device, target=target, entry_number=payload.entry,
        write=JudgeWrite(action=payload.action, puzzle=payload.puzzle,
                         **values.model_dump()),
        client_id=str(payload.client_id), base_version=payload.base_version)
    return WriteOut(round_id=rnd.pk, entry=payload.entry, replayed=outcome.replayed,
                    result=result_out(outcome.result))
