"""The unit of work: one transaction, its audit entry, its notices numbered inside and sent once
after commit."""

from __future__ import annotations

import pytest
from django.db import transaction

from puzzlecomp.championships.actions import (
    PAYMENT_RECORDED,
    RESULT_RECORDED,
    ROUND_CHANGED,
    SEATING,
)
from puzzlecomp.championships.models import AuditEntry, Notice, Round
from puzzlecomp.championships.notices import notice_numbered
from puzzlecomp.championships.services.work import unit_of_work


@pytest.fixture
def sent():
    """The notices sent after commit."""
    payloads: list[dict] = []

    def receive(sender, *, payload, **kwargs):
        payloads.append(payload)

    notice_numbered.connect(receive)
    yield payloads
    notice_numbered.disconnect(receive)


def rounds_of(championship) -> list[Round]:
    return list(Round.objects.filter(event__championship=championship).order_by("pk")[:2])


@pytest.mark.django_db(transaction=True)
def test_a_unit_audits_its_action_and_sends_its_notice_after_commit(championship, sent):
    first, _ = rounds_of(championship)
    with unit_of_work(ROUND_CHANGED, championship=championship, round=first,
                      code=first.code) as work:
        work.record(changes={"name": ["First", "Qualifying"]})
        assert sent == []
    audit = AuditEntry.objects.get(action=ROUND_CHANGED.code)
    assert audit.data == {"round": first.pk, "code": first.code,
                          "changes": {"name": ["First", "Qualifying"]}}
    assert [(n["round"], n["kind"]) for n in sent] == [(first.pk, "round")]
    assert Notice.objects.get().seq == sent[0]["seq"]


@pytest.mark.django_db(transaction=True)
def test_nested_units_audit_each_action_and_send_each_notice_once(championship, sent):
    first, second = rounds_of(championship)
    with unit_of_work(ROUND_CHANGED, championship=championship, round=first) as outer:
        for _ in range(2):
            with unit_of_work(RESULT_RECORDED, championship=championship, round=first):
                pass
        outer.announce(second, SEATING)
        assert sent == []
    assert AuditEntry.objects.filter(action=RESULT_RECORDED.code).count() == 2
    assert sorted((n["round"], n["kind"]) for n in sent) == [
        (first.pk, "result"), (first.pk, "round"), (second.pk, "seating")]


@pytest.mark.django_db(transaction=True)
def test_a_failed_or_empty_write_audits_and_announces_nothing(championship, sent):
    first, _ = rounds_of(championship)
    with pytest.raises(ValueError, match="refused"), unit_of_work(
            ROUND_CHANGED, championship=championship, round=first):
        raise ValueError("refused")
    with unit_of_work(ROUND_CHANGED, championship=championship, round=first) as work:
        work.nothing_changed()
    with transaction.atomic(), unit_of_work(PAYMENT_RECORDED, championship=championship,
                                             amount="10"):
        pass
    assert list(AuditEntry.objects.values_list("action", flat=True).exclude(
        action="puzzlecomp.championship.created")) == [PAYMENT_RECORDED.code]
    assert sent == []
    assert not Notice.objects.exists()
