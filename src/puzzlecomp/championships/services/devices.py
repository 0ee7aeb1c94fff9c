"""Judges' phones: creating a device for a section of tables, pairing a phone, revoking it.

Only hashes of the pairing code and of the device token are stored: the code is shown once (as
a QR code on the head judge's screen or a printed sheet) and the token lives on the phone. A
pairing code works once; the token expires the day after the championship.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.actions import (
    DEVICE_CODE_ISSUED,
    DEVICE_CREATED,
    DEVICE_PAIRED,
    DEVICE_REVOKED,
)
from puzzlecomp.championships.models import Championship, JudgeDevice
from puzzlecomp.championships.plain_sql import columns, fetch, table
from puzzlecomp.championships.selectors.planning import floor_plan_of
from puzzlecomp.championships.services.sqlite_writer import one_sqlite_writer
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.planning import PlanningError

# A week covers a championship without a last day (starts_at + 7 days).
DAYS_WITHOUT_END = 7
# Writing last_seen_at on every request would make each poll a database write.
SEEN_EVERY = dt.timedelta(seconds=30)


class DeviceError(Exception):
    """A refused device operation: a machine code, an English message and the field at fault."""

    def __init__(self, code: str, message: str, *, field: str = "",
                 **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params


class DeviceRefused(DeviceError):
    """A device token that is unknown, revoked or expired (HTTP 401)."""


class DeviceForbidden(DeviceError):
    """A valid device asking for something outside its section of tables (HTTP 403)."""


@dataclass(frozen=True)
class Section:
    """The tables a device looks after."""

    table_from: int
    table_to: int

    def __contains__(self, table: object) -> bool:
        return isinstance(table, int) and self.table_from <= table <= self.table_to


def secret_hash(secret: str) -> str:
    """The stored form of a pairing code or device token."""
    return hashlib.sha256(secret.encode()).hexdigest()


def section_of(device: JudgeDevice) -> Section:
    return Section(device.table_from, device.table_to)


def device_expiry(championship: Championship) -> dt.datetime:
    """When devices of the championship stop working: the end of the day after its last day,
    or a week after its start when no last day is set."""
    if championship.ends_on is None:
        return championship.starts_at + dt.timedelta(days=DAYS_WITHOUT_END)
    day_after_next = championship.ends_on + dt.timedelta(days=2)
    return dt.datetime.combine(day_after_next, dt.time.min,
                               tzinfo=timezone.get_current_timezone())


def device_is_expired(device: JudgeDevice, *, now: dt.datetime | None = None) -> bool:
    return (now or timezone.now()) >= device.expires_at


def row_section(championship: Championship, table: int) -> Section:
    """The tables of the floor-plan row holding `table`; DeviceError when the hall has none."""
    try:
        plan = floor_plan_of(championship)
        position = plan.position_of(table)
    except PlanningError as error:
        raise DeviceError("device.no_row", error.message, field="table", table=table) from None
    first = sum(plan.rows[:position.row]) + 1
    return Section(first, first + plan.rows[position.row] - 1)


def _check_section(championship: Championship, section: Section) -> None:
    if section.table_from < 1 or section.table_to < section.table_from:
        raise DeviceError("device.tables_invalid",
                          "the tables run from a table number up to a larger or equal one",
                          field="table_to")
    if championship.floor_rows:
        count = floor_plan_of(championship).table_count
        if section.table_to > count:
            raise DeviceError("device.tables_outside_hall",
                              f"the hall has tables 1 to {count}", field="table_to",
                              table_count=count)


def _new_pairing(device: JudgeDevice) -> str:
    code = secrets.token_urlsafe(16)
    device.pairing_hash = secret_hash(code)
    return code


def device_create(*, championship: Championship, label: str, table_from: int, table_to: int,
                  user: Any) -> tuple[JudgeDevice, str]:
    """A device for a section of tables and its pairing code (shown once, never stored)."""
    section = Section(table_from, table_to)
    _check_section(championship, section)
    expires_at = device_expiry(championship)
    if expires_at <= timezone.now():
        raise DeviceError("device.championship_over",
                          "the championship is over: a device would expire at once")
    device = JudgeDevice(championship=championship, label=label.strip(), table_from=table_from,
                         table_to=table_to, expires_at=expires_at,
                         created_by=user if getattr(user, "is_authenticated", False) else None)
    with unit_of_work(DEVICE_CREATED, championship=championship, user=user,
                      label=device.label, table_from=table_from, table_to=table_to) as work:
        code = _new_pairing(device)
        device.save()
        work.record(device=device.pk)
    return device, code


def pairing_code_issue(*, device: JudgeDevice, user: Any) -> str:
    """A new pairing code for the device (the previous one stops working); pairing a phone with
    it later replaces the phone paired before."""
    if device.revoked_at is not None:
        raise DeviceError("device.revoked", "the device is revoked")
    with unit_of_work(DEVICE_CODE_ISSUED, championship=device.championship, user=user,
                      device=device.pk):
        code = _new_pairing(device)
        device.save(update_fields=["pairing_hash"])
    return code


def device_for_pairing(championship: Championship, code: str) -> JudgeDevice | None:
    """The device a pairing code belongs to, when it still works."""
    device = JudgeDevice.objects.filter(championship=championship,
                                        pairing_hash=secret_hash(code)).first()
    if device is None or device.revoked_at is not None or device_is_expired(device):
        return None
    return device


def device_pair(*, championship: Championship, code: str) -> tuple[JudgeDevice, str]:
    """Pair the phone holding `code`: returns the device and its new token. The code is used up
    (a second scan of the same code fails); a phone paired before with this device stops
    working."""
    device = device_for_pairing(championship, code)
    if device is None:
        raise DeviceRefused("device.pairing_invalid",
                            "this pairing code is unknown, used already, revoked or expired",
                            field="code")
    with unit_of_work(DEVICE_PAIRED, championship=championship, device=device.pk,
                      label=device.label):
        device = JudgeDevice.objects.select_for_update().get(pk=device.pk)
        if device.pairing_hash != secret_hash(code):
            raise DeviceRefused("device.pairing_invalid", "this pairing code was used already",
                                field="code")
        token = _pair(device)
    return device, token


def _pair(device: JudgeDevice) -> str:
    token = secrets.token_urlsafe(32)
    device.token_hash = secret_hash(token)
    # A used code must never match again; the field is unique, so it takes a random value.
    _new_pairing(device)
    device.paired_at = timezone.now()
    device.save(update_fields=["token_hash", "pairing_hash", "paired_at"])
    return token


@transaction.atomic
def device_pair_for_row(*, championship: Championship, table: int,
                        user: Any) -> tuple[JudgeDevice, str]:
    """A signed-in judge pairs this phone for the floor-plan row of `table` (scanned from a
    table card): creates the device and pairs it at once."""
    section = row_section(championship, table)
    row = floor_plan_of(championship).row_of(table) + 1
    device, _code = device_create(
        championship=championship,
        label=_("Row %(row)s · %(judge)s") % {"row": row, "judge": user.get_username()},
        table_from=section.table_from, table_to=section.table_to, user=user)
    with unit_of_work(DEVICE_PAIRED, championship=championship, user=user, device=device.pk,
                      label=device.label):
        token = _pair(device)
    return device, token


def device_revoke(*, device: JudgeDevice, user: Any) -> JudgeDevice:
    """Stop the device's token (and its pairing code) from working."""
    if device.revoked_at is None:
        with unit_of_work(DEVICE_REVOKED, championship=device.championship, user=user,
                          device=device.pk, label=device.label):
            device.revoked_at = timezone.now()
            device.save(update_fields=["revoked_at"])
    return device


def device_for_token(token: str, *, now: dt.datetime | None = None) -> JudgeDevice:
    """The device holding `token`; DeviceRefused saying why when it does not work."""
    device = _device_of(secret_hash(token)) if token else None
    if device is None:
        raise DeviceRefused("device.unknown",
                            "this phone is not paired (or was paired again elsewhere)")
    if device.revoked_at is not None:
        raise DeviceRefused("device.revoked", "the head judge revoked this phone's pairing")
    if device_is_expired(device, now=now):
        raise DeviceRefused("device.expired", "this phone's pairing expired after the "
                                              "championship")
    return device


def _device_of(token_hash: str) -> JudgeDevice | None:
    """The device with its championship, in plain SQL: every judge's record asks first."""
    found = fetch(f"SELECT {columns(JudgeDevice, 'd')}, {columns(Championship, 'c')} "
                  f"FROM {table(JudgeDevice)} d JOIN {table(Championship)} c "
                  "ON c.id = d.championship_id WHERE d.token_hash = %s",
                  [token_hash], JudgeDevice, Championship)
    if not found:
        return None
    device, championship = found[0]
    device.championship = championship
    return device  # type: ignore[no-any-return]


def device_seen(device: JudgeDevice, *, now: dt.datetime | None = None) -> None:
    """Note that the device was just used (at most every SEEN_EVERY)."""
    now = now or timezone.now()
    if device.last_seen_at is None or now - device.last_seen_at >= SEEN_EVERY:
        # In the judges' queue: outside it, SQLite's busy handler sleeps in steps of up to
        # 100 ms while the queued records pass by.
        with one_sqlite_writer():
            JudgeDevice.objects.filter(pk=device.pk).update(last_seen_at=now)
        device.last_seen_at = now
