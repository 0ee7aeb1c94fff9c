"""Role management: only owners give, change and take away roles; a championship keeps an owner."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Membership, Role


def url(name: str, championship, *args) -> str:
    return reverse(f"control:setup:{name}", args=[championship.slug, *args])


@pytest.fixture
def owner(championship, user_in_role):
    return user_in_role(championship, Role.OWNER)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def test_the_owner_adds_an_organiser_who_sets_their_own_password(
        championship, owner_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(url("members", championship), {
            "identifier": "Olga@Example.org", "role": Role.ORGANISER})
    assert response.status_code == 302
    user = get_user_model().objects.get(email__iexact="olga@example.org")
    assert not user.has_usable_password()
    assert Membership.objects.get(user=user, championship=championship).role == Role.ORGANISER
    assert AuditEntry.objects.filter(action="puzzlecomp.membership.set",
                                     data__role=Role.ORGANISER).exists()
    [message] = mail.outbox
    assert message.to == ["Olga@example.org"]
    link = next(line for line in message.body.splitlines() if "/accounts/reset/" in line)
    assert owner_client.get(link.split("8000", 1)[1]).status_code == 302  # to the set-password form
    assert "olga" in owner_client.get(url("members", championship)).content.decode()


def test_an_existing_user_is_added_by_username_without_an_email(championship, owner_client,
                                                                django_user_model):
    django_user_model.objects.create_user("jana", password="pw-12345678")
    owner_client.post(url("members", championship), {"identifier": "jana", "role": Role.JUDGE})
    assert Membership.objects.get(user__username="jana").role == Role.JUDGE
    assert mail.outbox == []


def test_an_unknown_username_is_refused_with_a_message(championship, owner_client):
    response = owner_client.post(url("members", championship),
                                 {"identifier": "nobody", "role": Role.JUDGE})
    assert "give an email address to invite someone new" in response.content.decode()


def test_the_owner_changes_a_role_and_removes_a_member(championship, owner_client,
                                                       user_in_role):
    judge = Membership.objects.get(user=user_in_role(championship, Role.JUDGE))
    owner_client.post(url("member_role", championship, judge.pk), {"role": Role.HEAD_JUDGE})
    judge.refresh_from_db()
    assert judge.role == Role.HEAD_JUDGE
    owner_client.post(url("member_remove", championship, judge.pk))
    assert not Membership.objects.filter(pk=judge.pk).exists()
    assert AuditEntry.objects.filter(action="puzzlecomp.membership.removed").exists()


@pytest.mark.parametrize("role", [Role.ORGANISER, Role.HEAD_JUDGE, Role.JUDGE])
def test_only_the_owner_manages_roles(championship, client_as, role, owner):
    client = client_as(championship, role)
    membership = Membership.objects.get(user=owner)
    assert client.get(url("members", championship)).status_code == 403
    assert client.post(url("members", championship),
                       {"identifier": "x@example.org", "role": Role.OWNER}).status_code == 403
    assert client.post(url("member_remove", championship, membership.pk)).status_code == 403
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_the_last_owner_cannot_demote_or_remove_themselves(championship, owner_client, owner):
    membership = Membership.objects.get(user=owner)
    response = owner_client.post(url("member_role", championship, membership.pk),
                                 {"role": Role.ORGANISER}, follow=True)
    assert "make someone else owner first" in response.content.decode()
    owner_client.post(url("member_remove", championship, membership.pk))
    membership.refresh_from_db()
    assert membership.role == Role.OWNER


def test_an_owner_may_step_down_once_there_is_another_owner(championship, owner_client, owner,
                                                            django_user_model):
    other = django_user_model.objects.create_user("co-owner", password="pw-12345678")
    Membership.objects.create(user=other, championship=championship, role=Role.OWNER)
    membership = Membership.objects.get(user=owner)
    owner_client.post(url("member_role", championship, membership.pk), {"role": Role.ORGANISER})
    membership.refresh_from_db()
    assert membership.role == Role.ORGANISER
