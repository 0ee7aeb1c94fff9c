"""What a championship stores: editions, events, rounds, people, entries, seats and results.

Ranks are never stored: they are computed by the rules engine on read.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from puzzlecomp.championships.ruleset_texts import ruleset_text


class Role(models.IntegerChoices):
    """Per-championship roles, ordered: a smaller number may do everything a larger one may."""

    OWNER = 100, _("Owner")
    ORGANISER = 200, _("Organiser")
    HEAD_JUDGE = 300, _("Head judge")
    JUDGE = 400, _("Judge")
    COMPETITOR = 500, _("Competitor")


class ProjectorScene(models.TextChoices):
    CLOCK = "clock", _("Clock")
    RESULTS = "results", _("Results")
    QUALIFIERS = "qualifiers", _("Qualifiers")
    PODIUM = "podium", _("Podium")
    MESSAGE = "message", _("Message")


class Championship(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(_("name"), max_length=200)
    ruleset_id = models.CharField(_("ruleset"), max_length=60)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_at = models.DateTimeField(_("starts at"))
    # False for an archived edition whose date no source gives: `starts_at` is then 1 January
    # of its year, kept only to order editions, and pages, API and files show the year alone
    # (issue 30: never an invented date).
    date_known = models.BooleanField(default=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    # Championship settings the ruleset asks for (e.g. Australia's host_region).
    settings = models.JSONField(default=dict, blank=True)
    floor_rows = models.JSONField(_("tables per row"), default=list, blank=True)
    guest_tables = models.PositiveIntegerField(_("guest tables"), default=0)
    published = models.BooleanField(_("published"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Number of the last live notice; every result change increments it in its transaction.
    live_seq = models.PositiveBigIntegerField(default=0)
    # Created from published results (`puzzlecomp archive import`): read-only.
    archived = models.BooleanField(default=False)
    # What the hall's projectors show (services/projector.py switches it and tells them).
    projector_scene = models.CharField(_("projector scene"), max_length=20,
                                       choices=ProjectorScene.choices,
                                       default=ProjectorScene.CLOCK)
    projector_round = models.ForeignKey("Round", verbose_name=_("projector round"), null=True,
                                        blank=True, on_delete=models.SET_NULL,
                                        related_name="+")
    projector_message = models.CharField(_("projector message"), max_length=200, blank=True)
    # One group of the projector round ("": every group, or the round has none).
    projector_group = models.CharField(_("projector group"), max_length=20, blank=True)
    # Registration terms the organiser sets where the ruleset names none (Czech, Norway,
    # Australia); a ruleset's own window, refund rule and currency win over these.
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True,
                                                  blank=True)
    refund_days_before = models.PositiveSmallIntegerField(
        _("full refund up to this many days before the start"), null=True, blank=True)
    fee_currency = models.CharField(_("currency of the fees"), max_length=3, blank=True)
    # Entrants may be emailed their published results and dispute rulings (each may opt out).
    entrant_emails = models.BooleanField(
        _("email entrants their published results and dispute rulings"), default=True)
    # The IANA zone where it is held: every time shown, printed, emailed or exported is in it,
    # and a rulebook's registration window closes at its midnight (championships/time_zones.py).
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # A freed place is offered to the first waiting entry with this many days to pay; unpaid,
    # it passes to the next (rules/payments/offers.py). None: the organiser promotes by hand.
    offer_days = models.PositiveSmallIntegerField(
        _("days a waiting entry offered a place has to pay"), null=True, blank=True)
    # An entry is confirmed only once its fee is paid in full (by a statement line or by hand).
    confirm_on_payment = models.BooleanField(
        _("confirm entries only once their fee is paid"), default=False)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def start_year(self) -> int:
        """The year it started (an undated edition's 1 January is UTC: read it there)."""
        return self.starts_at.year if self.date_known else self.starts_at.astimezone(
            dt.UTC).year


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="memberships")
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="memberships")
    role = models.IntegerField(_("role"), choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "championship"], name="one_role_per_user")
        ]


class Event(models.Model):
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="events")
    code = models.CharField(max_length=40)
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(max_length=20)
    members_min = models.PositiveSmallIntegerField(default=1)
    members_max = models.PositiveSmallIntegerField(default=1)
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0)
    # When the organiser published the event's standings and awards (None: not public).
    standings_published_at = models.DateTimeField(null=True, blank=True)
    # The fee the organiser sets where the ruleset names none for the event.
    fee_amount = models.DecimalField(_("fee"), max_digits=10, decimal_places=2, null=True,
                                     blank=True)
    fee_per = models.CharField(_("fee is per"), max_length=10, default="entry",
                               choices=[("entry", _("entry")), ("person", _("person"))])
    fee_early_amount = models.DecimalField(_("early fee"), max_digits=10, decimal_places=2,
                                           null=True, blank=True)
    fee_early_until = models.DateField(_("early fee until (inclusive)"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "position"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "code"], name="event_code_unique")
        ]

    def __str__(self) -> str:
        return f"{self.championship} - {self.name}"

    @property
    def display_name(self) -> str:
        """The name in the visitor's language (an organiser's own name as typed)."""
        return ruleset_text(self.name)


class RoundState(models.TextChoices):
    PLANNED = "planned", _("Planned")
    RUNNING = "running", _("Running")
    COUNTING = "counting", _("Counting")
    PROVISIONAL = "provisional", _("Provisional")
    PUBLISHED = "published", _("Published")
    FINAL = "final", _("Final")


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    code = models.CharField(max_length=40)
    name = models.CharField(_("name"), max_length=100)
    position = models.PositiveSmallIntegerField(default=0)
    # An archived round whose puzzles no rule or editions file can size (its published counts
    # pass the rules' size): no puzzles stored, times shown, no record or best by puzzle size
    # (issue 30, docs/archive.md).
    size_unknown = models.BooleanField(default=False)
    time_limit_minutes = models.PositiveIntegerField(_("time limit (minutes)"), null=True,
                                                     blank=True)
    groups = models.JSONField(default=list, blank=True)
    # Planned start until the round runs; from then on the start the head judge gave (server time).
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    # Publishing opens the ruleset's dispute window.
    published_at = models.DateTimeField(null=True, blank=True)
    # "Stop assembling: count" before the limit: when assembly ended (every clock shows it).
    assembly_stopped_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=20, choices=RoundState.choices,
                             default=RoundState.PLANNED)
    groups_published = models.BooleanField(default=False)
    seating_published = models.BooleanField(default=False)
    # Each group's puzzle difficulty as the organiser published it with the results
    # (planning/fairness.py: {"group", "entrants", "rated", "percent"}); empty: not published.
    group_difficulty = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="round_code_unique")
        ]

    def __str__(self) -> str:
        return f"{self.event} - {self.name}"

    @property
    def display_name(self) -> str:
        """The name in the visitor's language (an organiser's own name as typed)."""
        return ruleset_text(self.name)


class GroupStart(models.Model):
    """One group of a round whose groups share the tables and play one after another: its
    planned start, the start the head judge gave (server time) and its state. A round without
    these rows starts all its entrants at once."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="group_starts")
    group = models.CharField(_("group"), max_length=20)
    planned_at = models.DateTimeField(_("planned start"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    state = models.CharField(max_length=20, choices=RoundState.choices,
                             default=RoundState.PLANNED)

    class Meta:
        ordering = ["round", "planned_at", "group"]
        constraints = [
            models.UniqueConstraint(fields=["round", "group"], name="group_start_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} - {self.group}"


class Puzzle(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="puzzles")
    position = models.PositiveSmallIntegerField(default=0)
    brand = models.CharField(_("brand"), max_length=100, blank=True)
    pieces = models.PositiveIntegerField(_("pieces"), null=True, blank=True)
    # The motif stays hidden from the public until the round starts.
    motif = models.CharField(_("motif"), max_length=200, blank=True)
    picture = models.BooleanField(_("picture on the box"), default=True)
    # Teams choose from this many models before the start and may not change (WJPC teams).
    models_to_choose_from = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "position"]


class Person(models.Model):
    """A competitor; birth date and contact details are private."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    email = models.EmailField(_("email"), blank=True)
    nationality = CountryField(_("nationality"))
    other_nationalities = models.JSONField(default=list, blank=True)
    residence = CountryField(_("country of residence"), blank=True)
    region = models.CharField(_("state or region"), max_length=20, blank=True)
    years_resident = models.PositiveSmallIntegerField(_("years resident"), null=True, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    # Events (ruleset event ids) this person competed in at earlier editions.
    earlier_events = models.JSONField(default=list, blank=True)
    consent_publish = models.BooleanField(_("publish name, nationality and age category"),
                                          default=False)
    consent_photos = models.BooleanField(_("photos may be published"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The person's id in published results (their `people` column), the same in every edition.
    archive_id = models.CharField(max_length=40, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["last_name", "first_name"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"


class PersonChange(models.Model):
    """An organiser's merge of two records of one person, or split of one record in two: the
    trail of who did it, why, and what moved (enough to undo it by hand)."""

    class Kind(models.TextChoices):
        MERGE = "merge", _("Merge")
        SPLIT = "split", _("Split")
        # A registrant's "this is me" (PersonClaim), and its approval by the person's email
        # or an organiser; it takes effect as a merge.
        CLAIM = "claim", _("Claim")
        APPROVAL = "approval", _("Approval")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The record that stays (merge) or that lost entries (split).
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="changes")
    # The record created by a split; None after a merge (the merged record is gone).
    other = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="split_from")
    # The merged record's fields as they were, for a merge.
    snapshot = models.JSONField(default=dict, blank=True)
    entry_members = models.JSONField(default=list, blank=True)
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           blank=True)
    at = models.DateTimeField(auto_now_add=True)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class PersonClaim(models.Model):
    """A registrant's answer "yes, I am this known person": recorded, and made a merge only when
    the registrant's email confirms and, when the known person has an email, that address
    confirms too (or an organiser approves, with a reason). docs/people.md."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting for confirmation")
        DONE = "done", _("Taken effect")
        UNDONE = "undone", _("Undone")

    # The registrant's member of their new entry (their own record until the claim is done).
    member = models.ForeignKey("EntryMember", on_delete=models.CASCADE, related_name="claims")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="claims")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    registrant_confirmed_at = models.DateTimeField(null=True, blank=True)
    # The link emailed to the known person's own address, when they have one.
    owner_token = models.CharField(max_length=64, unique=True, default=new_token)
    owner_confirmed_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True)
    approval_reason = models.CharField(max_length=300, blank=True)
    # The merge the claim became.
    merge = models.ForeignKey(PersonChange, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="claims")
    created_at = models.DateTimeField(auto_now_add=True)
    # An organiser's "same person" link (None: the registrant's own answer). It waits for the
    # entrant's confirmation by the link mailed with `registrant_token` (issue 22).
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+")
    registrant_token = models.CharField(max_length=64, unique=True, null=True, blank=True)


class EntryStatus(models.TextChoices):
    UNCONFIRMED = "unconfirmed", _("Awaiting email confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    WAITING = "waiting", _("Waiting list")
    CANCELLED = "cancelled", _("Cancelled")
    # Email confirmed and a place held, where the organiser confirms entries only once paid.
    UNPAID = "unpaid", _("Awaiting payment")


class Entry(models.Model):
    """A person, pair or team entered in an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()
    name = models.CharField(_("name"), max_length=200, blank=True)
    country = models.CharField(_("country"), max_length=20, blank=True)
    mixed = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=EntryStatus.choices,
                              default=EntryStatus.UNCONFIRMED)
    contact_email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, default=new_token, unique=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    fee_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    fee_currency = models.CharField(max_length=3, blank=True)
    paid_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    paid_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    refund_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    group = models.CharField(max_length=20, blank=True)
    seed_rank = models.PositiveIntegerField(null=True, blank=True)
    # The entrant's choice on their own page: emails of their published results and rulings.
    result_emails = models.BooleanField(default=True)
    # The language the entry registered in: its result emails are written in it (blank: an
    # entry the organiser added or imported, written in the language of whoever publishes).
    language = models.CharField(max_length=10, blank=True)
    # When a waiting entry was offered a free place (and mailed): its deadline to pay runs from
    # here. Offers passing on are computed (rules/payments/offers.py), stored by the next write.
    offered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="entry_number_unique")
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return self.name or f"#{self.number}"


class EntryMember(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="entries")
    position = models.PositiveSmallIntegerField(default=0)
    # The nationality this person represents (fixed once they have competed, at WJPC).
    represents = CountryField(_("represents"), blank=True)
    # An adult outside the entry comes along (what the age rules ask of the young).
    accompanied_by_adult = models.BooleanField(_("accompanied by an adult"), default=False)
    # This is the first state competition of the calendar year the person enters (Australia:
    # territory residents may take a trophy there); None: not asked or not given. Earlier
    # entries of the same calendar year found in the history make it False (services/facts.py).
    first_state_competition_of_year = models.BooleanField(
        _("first state competition of the year"), null=True, blank=True)
    # Derived from the person's history (services/facts.py), or an organiser's override; None
    # until derived.
    debutant = models.BooleanField(null=True, blank=True)
    # The consent its registrant gave for this championship (docs/people.md, Consent): a merge
    # of people never changes it. Read through selectors.publishing.member_named.
    consent_publish = models.BooleanField(_("publish name, nationality and age category"),
                                          default=False)
    consent_photos = models.BooleanField(_("photos may be published"), default=False)

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "person"], name="member_once_per_entry")
        ]


class CheckInStatus(models.TextChoices):
    PRESENT = "present", _("Present")
    LATE = "late", _("Late")
    NO_SHOW = "no_show", _("No-show")
    REPLACED = "replaced", _("Replaced")


class CheckIn(models.Model):
    """What the check-in desk recorded for an entry in a round: its status, when and by whom.

    No row: not checked in yet. The ruleset's no-show rule reads these rows.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    status = models.CharField(max_length=20, choices=CheckInStatus.choices)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           blank=True, related_name="+")

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_check_in_per_round"),
        ]


class HistoryFact(models.TextChoices):
    DEBUTANT = "debutant", _("Debutant")
    FIRST_STATE_COMPETITION_OF_YEAR = ("first_state_competition_of_year",
                                       _("First state competition of the year"))


class FactOverride(models.Model):
    """An organiser's value for a fact derived from history, with the reason; derivation
    leaves it alone from then on."""

    member = models.ForeignKey(EntryMember, on_delete=models.CASCADE, related_name="overrides")
    fact = models.CharField(max_length=40, choices=HistoryFact.choices)
    value = models.BooleanField()
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           blank=True)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "fact"], name="one_override_per_fact")
        ]


class GroupMove(models.Model):
    """A hand-made change to a group assignment: who moved which entry, and why."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="group_moves")
    from_group = models.CharField(max_length=20, blank=True)
    to_group = models.CharField(max_length=20)
    moved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    reason = models.CharField(max_length=300)
    moved_at = models.DateTimeField(default=timezone.now)


class GroupDraw(models.Model):
    """A first-round group assignment: the seed that repeats it, who made it and when (the
    latest counts; hand-made changes since are GroupMoves)."""

    round = models.ForeignKey("Round", on_delete=models.CASCADE, related_name="group_draws")
    seed = models.BigIntegerField()
    entries = models.PositiveIntegerField(default=0)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="+")
    drawn_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "drawn_at", "pk"]


class PlanningKind(models.TextChoices):
    GROUPS = "groups", _("Groups")
    SEATING = "seating", _("Seating")


class PlanningBackup(models.Model):
    """What a new group draw or seating replaced, kept so that Undo restores it exactly: every
    entry's group (a group draw) and every seat of the round as they were."""

    round = models.ForeignKey("Round", on_delete=models.CASCADE, related_name="planning_backups")
    kind = models.CharField(max_length=10, choices=PlanningKind.choices)
    # Entry number -> its group, for every entry of the event (groups only).
    groups = models.JSONField(default=dict, blank=True)
    # The round's seats: {"entry": number, "group", "table", "seat", "no_show", "time_credit"}.
    seats = models.JSONField(default=list, blank=True)
    # The group draw that replaced them (removed again on undo; groups only).
    draw = models.ForeignKey(GroupDraw, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                blank=True, related_name="+")
    made_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "made_at", "pk"]


class RelayDraw(models.Model):
    """A draw of relay teams from the event's pool: the seed, the pool and the teams made, so
    anyone can repeat it (`planning.draw_teams`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="relay_draws")
    seed = models.BigIntegerField()
    team_size = models.PositiveSmallIntegerField()
    # The pool's labels ("Last First (#number)"), the teams as {"number", "members": labels}
    # and the labels left over, as the draw saw them.
    pool = models.JSONField(default=list)
    teams = models.JSONField(default=list)
    left_over = models.JSONField(default=list, blank=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="+")
    drawn_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "-drawn_at", "-pk"]


class ModelChoice(models.Model):
    """The puzzle models a team chose for a round before its start (wjpc-2025.txt, teams)."""

    round = models.ForeignKey("Round", on_delete=models.CASCADE, related_name="model_choices")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="model_choices")
    # The chosen models' numbers (from 1), ascending.
    chosen_models = models.JSONField(default=list)
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="+")
    chosen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_model_choice_per_round")
        ]


class Seat(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    group = models.CharField(max_length=20, blank=True)
    table = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(default=1)
    no_show = models.BooleanField(default=False)
    # Seconds of time credit the head judge granted (None: never); each grant is a
    # TimeCreditGrant. Held here so it counts before the entry has a result.
    time_credit = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_seat_per_entry"),
        ]


class TimeCreditGrant(models.Model):
    """A head judge's grant of time credit to an entry (0 takes it back); the latest is in
    force, on the entry's seat."""

    round = models.ForeignKey("Round", on_delete=models.CASCADE,
                              related_name="time_credit_grants")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="time_credit_grants")
    seconds = models.PositiveIntegerField()
    reason = models.CharField(max_length=300)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "granted_at", "pk"]


class Result(models.Model):
    """What the judge recorded for an entry in a round (the engine scores and ranks it)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    status = models.CharField(max_length=20)
    time_seconds = models.PositiveIntegerField(null=True, blank=True)
    pieces = models.PositiveIntegerField(null=True, blank=True)
    remaining = models.PositiveIntegerField(null=True, blank=True)
    missing = models.PositiveIntegerField(default=0)
    missing_contiguous = models.PositiveIntegerField(default=0)
    missing_found = models.PositiveIntegerField(default=0)
    time_credit = models.PositiveIntegerField(default=0)
    # Per-puzzle detail of multi-puzzle rounds: dicts of rules.results.PuzzleRecord fields.
    puzzles = models.JSONField(default=list, blank=True)
    # False while a finish awaits the judge's check of the puzzle.
    checked = models.BooleanField(default=True)
    competitor_confirmed = models.BooleanField(default=False)
    # Why a result is what it is, e.g. the reason for a disqualification.
    note = models.CharField(max_length=300, blank=True)
    recorded_at = models.DateTimeField(auto_now=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+")
    device = models.ForeignKey("JudgeDevice", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    version = models.PositiveIntegerField(default=1)
    # Archived results keep their published rank and the group they were ranked in.
    published_rank = models.PositiveIntegerField(null=True, blank=True)
    archive_group = models.CharField(max_length=20, blank=True, default="")
    # Why the head judge should look at the result again (rules/plausibility.py violations as
    # {"code", "message", "params"}), set when a judge records it, emptied once looked at.
    second_looks = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_result_per_entry"),
        ]
        # A judge's finish looks for the round's other finishes at the same second.
        indexes = [models.Index(fields=["round", "time_seconds"], name="result_round_time")]


class AuditEntry(models.Model):
    """A namespaced record of every change, e.g. `puzzlecomp.entry.confirmed`."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                      related_name="audit")
    action = models.CharField(max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True)
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]
        verbose_name_plural = "audit entries"


class JudgeDevice(models.Model):
    """A judge's phone: a token scoped to one championship and a section of tables.

    Only hashes are stored; the pairing code is shown once as a QR code, the device token lives
    on the phone.
    """

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="devices")
    label = models.CharField(_("label"), max_length=100)
    table_from = models.PositiveIntegerField(_("from table"))
    table_to = models.PositiveIntegerField(_("to table"))
    pairing_hash = models.CharField(max_length=64, unique=True)
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["championship", "table_from"]

    def __str__(self) -> str:
        return self.label


class ResultChange(models.Model):
    """One write to a result: who, when, from which device, old and new values, and why.

    `client_id` is the judge's phone's idempotency key: a replayed write finds its change here.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="result_changes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="result_changes")
    client_id = models.CharField(max_length=64, unique=True, null=True, blank=True)
    action = models.CharField(max_length=30)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    version = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+")
    device = models.ForeignKey(JudgeDevice, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="changes")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "entry", "at", "pk"]


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")


class Dispute(models.Model):
    """A competitor's dispute of their own published result, resolved by the head judge."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="disputes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="disputes")
    text = models.TextField(_("what is wrong"))
    filed_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=20, choices=DisputeStatus.choices,
                              default=DisputeStatus.OPEN)
    resolution = models.TextField(_("resolution"), blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["filed_at", "pk"]


class QualifierStatus(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Qualifier(models.Model):
    """An entry the organiser confirmed into the next round, with the engine's reason."""

    from_round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="qualifiers")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="qualifications")
    rank = models.PositiveIntegerField()
    from_group = models.CharField(max_length=20, blank=True)
    to_group = models.CharField(max_length=20)
    reason = models.CharField(max_length=20)
    status = models.CharField(max_length=20, choices=QualifierStatus.choices,
                              default=QualifierStatus.CONFIRMED)
    replaces = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
    confirmed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["from_round", "to_group", "rank", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["from_round", "entry"], name="qualify_once_per_round")
        ]


class Notice(models.Model):
    """A numbered live notice (`seq` per championship): spectators reload what `round` shows."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="notices")
    seq = models.PositiveBigIntegerField()
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")
    kind = models.CharField(max_length=30)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "seq"], name="notice_seq_unique")
        ]


class PaymentAccount(models.Model):
    """Where entrants pay by bank transfer: the organiser's account for the championship.

    An IBAN (with its BIC) for EUR and most of Europe; a Czech account number ("19-2000145399/
    0800") is turned into its IBAN; an Australian BSB and account number stay as typed.
    `instructions` is the organiser's own text for currencies without a payment QR code.
    """

    championship = models.OneToOneField(Championship, on_delete=models.CASCADE,
                                        related_name="payment_account")
    holder = models.CharField(_("account holder"), max_length=70)
    iban = models.CharField(_("IBAN"), max_length=34, blank=True)
    bic = models.CharField(_("BIC"), max_length=11, blank=True)
    local_account = models.CharField(_("Czech account number"), max_length=30, blank=True)
    bsb = models.CharField(_("BSB"), max_length=7, blank=True)
    account_number = models.CharField(_("account number"), max_length=20, blank=True)
    instructions = models.TextField(_("payment instructions"), max_length=2000, blank=True)


class BankTransaction(models.Model):
    """A line of an imported bank statement, stored once per bank transaction id.

    `status` and `reason` are what the matching rules decided (rules/payments/matching.py);
    `entry` is the entry it pays, found or assigned by the treasurer. `resolved_at` closes a
    queued line (assigned, ignored, or its partial/over payment dealt with).
    """

    class Status(models.TextChoices):
        MATCHED = "matched", _("matched")
        PARTIAL = "partial", _("part-paid")
        OVERPAID = "overpaid", _("overpaid")
        UNKNOWN = "unknown", _("unknown")
        AMBIGUOUS = "ambiguous", _("ambiguous")
        IGNORED = "ignored", _("ignored")

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="bank_transactions")
    transaction_id = models.CharField(max_length=100)
    source = models.CharField(max_length=200)
    line = models.PositiveIntegerField()
    booked_on = models.DateField(null=True, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    reference = models.CharField(max_length=140, blank=True)
    payer = models.CharField(max_length=140, blank=True)
    payer_account = models.CharField(max_length=60, blank=True)
    message = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices)
    reason = models.CharField(max_length=40)
    entry = models.ForeignKey(Entry, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="bank_transactions")
    imported_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["championship", "imported_at", "line"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "transaction_id"],
                                    name="bank_transaction_once"),
        ]


class PayoutAccount(models.Model):
    """Where an entrant wants a refund or prize money paid, given on their own page (seen only
    by them and the organiser): an IBAN (and BIC) in SEPA, or an account as their bank writes
    it elsewhere."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="payout_account")
    holder = models.CharField(_("account holder"), max_length=70)
    iban = models.CharField(_("IBAN"), max_length=34, blank=True)
    bic = models.CharField(_("BIC"), max_length=11, blank=True)
    account = models.CharField(_("account (outside SEPA)"), max_length=60, blank=True)

# The results packages' tables: a module of their own, registered with the app from here.
from puzzlecomp.championships.package_models import (  # noqa: E402, F401
    ImportedPackage,
    PackageResult,
    ResultsPackage,
    TrustedKey,
)
