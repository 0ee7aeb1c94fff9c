"""Every table of the app is either carried by the championship file or named, with its reason,
in the one list of tables it deliberately leaves out (services.interchange.LEFT_OUT): the demo,
which holds a row of every carried table, keeps the same rows through an export and import."""

from __future__ import annotations

import json

from django.apps import apps

from puzzlecomp.championships import models as m
from puzzlecomp.championships.demo import DEMO_SLUG, RELAY_DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, EntryMember, Seat
from puzzlecomp.championships.services.check_in import entry_check_in
from puzzlecomp.championships.services.facts import member_fact_override
from puzzlecomp.championships.services.interchange import (
    LEFT_OUT,
    championship_export,
    championship_import,
)

# Each carried table and the way from its rows to their championship.
CARRIED = {
    m.Championship: "slug",
    m.Event: "championship__slug",
    m.Round: "event__championship__slug",
    m.GroupStart: "round__event__championship__slug",
    m.Puzzle: "round__event__championship__slug",
    m.Person: "entries__entry__event__championship__slug",
    m.Entry: "event__championship__slug",
    m.EntryMember: "entry__event__championship__slug",
    m.FactOverride: "member__entry__event__championship__slug",
    m.CheckIn: "round__event__championship__slug",
    m.Seat: "round__event__championship__slug",
    m.Result: "round__event__championship__slug",
    m.Qualifier: "from_round__event__championship__slug",
    m.Dispute: "round__event__championship__slug",
    m.ModelChoice: "round__event__championship__slug",
    m.GroupDraw: "round__event__championship__slug",
    m.GroupMove: "entry__event__championship__slug",
    m.RelayDraw: "event__championship__slug",
    m.TimeCreditGrant: "round__event__championship__slug",
    m.PaymentAccount: "championship__slug",
    m.BankTransaction: "championship__slug",
    m.PayoutAccount: "entry__event__championship__slug",
}


def rows_of(model: type, slugs: tuple[str, ...]) -> int:
    return model._default_manager.filter(**{f"{CARRIED[model]}__in": slugs}).distinct().count()


def test_every_model_is_carried_or_left_out_with_a_reason():
    every = set(apps.get_app_config("championships").get_models())
    assert not set(CARRIED) & set(LEFT_OUT)
    assert every - set(CARRIED) - set(LEFT_OUT) == set(), "a table neither carried nor left out"
    assert set(CARRIED) | set(LEFT_OUT) <= every
    assert all(len(reason) > 30 for reason in LEFT_OUT.values())


def test_every_carried_table_keeps_its_rows_through_the_file(db):
    demo_load(individuals=60, pairs=20, teams=8)
    # The kinds of fact the demo does not make: a check-in at the desk, an organiser's
    # override of a fact from history and an entrant's payout account.
    seat = Seat.objects.filter(round__event__championship__slug=DEMO_SLUG,
                               round__state="planned").select_related("round", "entry").first()
    entry_check_in(round=seat.round, entry=seat.entry, status="present", by=None)
    member = EntryMember.objects.filter(entry__event__championship__slug=DEMO_SLUG).first()
    member_fact_override(member=member, fact="debutant", value=True, user=None,
                         reason="Competed at an edition the archive does not hold")
    # An entrant's account for a refund or prize money, given on their own page.
    m.PayoutAccount.objects.create(entry=member.entry, holder="Ana Novak",
                                   iban="DE89370400440532013000")
    originals = (DEMO_SLUG, RELAY_DEMO_SLUG)
    for slug in originals:
        data = json.loads(json.dumps(championship_export(Championship.objects.get(slug=slug))))
        championship_import(data, slug=f"{slug}-copy")
    copies = tuple(f"{slug}-copy" for slug in originals)
    for model in CARRIED:
        held = rows_of(model, originals)
        assert held > 0, f"the demo holds no {model.__name__}: the round trip proves nothing"
        assert rows_of(model, copies) == held, model.__name__
