"""A class session holds tables; a table is one game, stored as its config, seed and log.

Secrecy by construction (DESIGN §2): a vote is stored as a *receipt* (who put a token in the
bag, with no time and a random key, so not even the order of casting is kept) and a
per-option *counter*. No row anywhere pairs a seat with a vote option.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class ClassSession(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for students")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ARCHIVED = "archived", _("Archived")

    class Stage(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        PACT = "pact", _("Opening pact")
        EVENT = "event", _("Event")
        DEBATE = "debate", _("Debate")
        TAX_VOTE = "tax_vote", _("Tax vote")
        PAY = "pay", _("Pay")
        BUDGET_VOTE = "budget_vote", _("Budget vote")
        MIDLIFE = "midlife", _("Midlife Crossroads")
        END_OF_ROUND = "end_of_round", _("End of round")
        FINAL = "final", _("Final count")

    class Game(models.TextChoices):
        STATE_IN_CLASS = "state-in-class", _("A State in Class · Who Pays for Us All?")

    OPEN_STATUSES = (Status.LOBBY, Status.RUNNING)

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="class_sessions")
    title = models.CharField(_("title"), max_length=120, blank=True)
    game = models.CharField(max_length=40, choices=Game.choices, default=Game.STATE_IN_CLASS)
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, default="en")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.LOBBY)
    round = models.PositiveSmallIntegerField(default=0)
    paused = models.BooleanField(default=False)
    join_code = models.CharField(max_length=6)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["join_code"], condition=models.Q(status__in=["lobby", "running"]),
                name="unique_join_code_among_open_sessions",
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.get_game_display()} · {self.join_code}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    @property
    def phase_id(self) -> str:
        """Names the moment of the lesson; a phone's action for another moment is stale.

        In the Midlife stage each card read is a moment of its own (a second press of the
        teacher's button for the same card is stale, not a second card)."""
        if self.stage == self.Stage.MIDLIFE:
            return f"{self.round}:{self.stage}:{self.cards_read}"
        return f"{self.round}:{self.stage}"

    @property
    def cards_read(self) -> int:
        """Midlife cards the class has seen: the press that opened the Crossroads shows the
        first, each teacher step of kind "card" one more (so undo hides the last again)."""
        if self.stage != self.Stage.MIDLIFE:
            return 0
        return 1 + self.steps.filter(kind="card", round_before=self.round,
                                     stage_before=self.stage).count()


class Table(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    config = models.JSONField()
    # The engine state after the whole log and the open vote's receipts (a cache: always
    # verifiable against a full replay, see services.table_verify).
    snapshot = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"{self.session} · table {self.number}"


class Seat(models.Model):
    """A student (or a bot) in a session; at a table once the teacher starts."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="seats")
    nickname = models.CharField(max_length=20)
    player_name = models.CharField(max_length=45, blank=True)  # the engine's name for the seat
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    # SHA-256 of the seat token; the token itself lives only in the phone's HttpOnly cookie.
    token_hash = models.CharField(max_length=64, null=True, blank=True, unique=True)
    is_bot = models.BooleanField(default=False)
    bot_policy = models.CharField(max_length=20, blank=True)
    # A student who plays on a classmate's seat and phone (no seat of their own this game).
    shares = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="partners")
    removed = models.BooleanField(default=False)
    connected = models.BooleanField(default=False)
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "table__number", "position", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                Lower("nickname"), "session", condition=models.Q(removed=False),
                name="unique_nickname_per_session",
            ),
        ]

    def __str__(self) -> str:
        return self.nickname


class TeacherStep(models.Model):
    """One teacher action that moved the lesson on (start, next, close a vote). Undo pops it."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="steps")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    stage_before = models.CharField(max_length=20)
    round_before = models.PositiveSmallIntegerField()
    stage_after = models.CharField(max_length=20)
    round_after = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="unique_step_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.seq}: {self.stage_before} → {self.stage_after}"


class TableAction(models.Model):
    """The append-only log of a table's decisions (ballots excepted: see BallotReceipt)."""

    class Actor(models.TextChoices):
        TEACHER = "teacher", _("Teacher")
        SEAT = "seat", _("Student")
        BOT = "bot", _("Bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="actions")
    actor = models.CharField(max_length=10, choices=Actor.choices)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    round = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="unique_action_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.seq}: {self.payload.get('type')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the action log is append-only")
        super().save(*args, **kwargs)


class BallotReceipt(models.Model):
    """Seat X has put a token in the bag of (round, kind). Never which option.

    The key is random and there is no time, so receipts do not even keep the casting order.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="receipts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="receipts")
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10)
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="receipts")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "round", "kind"], name="one_ballot_per_vote"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} {self.kind}: a token in the bag"


class VoteCounter(models.Model):
    """How many tokens for one option are in one bag. Shown to nobody until the count."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="counters")
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10)
    option = models.CharField(max_length=20)
    votes = models.PositiveIntegerField(default=0)
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="counters")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "round", "kind", "option"],
                                    name="one_counter_per_option"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} {self.kind} {self.option}"


class LedgerEntry(models.Model):
    """One coin transfer reported by the engine: double entry (from one account to another).

    Accounts: ``bank``, ``player:<name>``, ``table`` (the tax pot), ``fund:<service>``,
    ``pact``. Rows are never changed; undo removes the undone action with its rows.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="ledger")
    action = models.ForeignKey(TableAction, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="ledger")
    seq = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=60)
    destination = models.CharField(max_length=60)
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=60)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="unique_ledger_seq"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="ledger_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.source} → {self.destination}: {self.amount} ({self.reason})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("ledger entries are immutable")
        super().save(*args, **kwargs)
