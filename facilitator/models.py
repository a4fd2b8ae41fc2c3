"""A class session holds tables; a table is one game, stored as its config, seed and log.

Secrecy by construction (docs/secrecy.md): while a bag is open, a vote is stored as a
*receipt* (who put a token in) and, in another table, a *sealed ballot* (the option encrypted
under the bag's key, which is never written to disk). Neither has a time, and no counter moves
per ballot. Counting the bag opens the sealed ballots into the tally (the count in the action
log), deletes them and destroys the key. No row pairs a seat with an option, and once the key is
gone the storage's own order (SQLite's rowids, PostgreSQL's tuple positions) pairs a receipt
with nothing that can be opened; records and exports list receipts by seat.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from facilitator import lessons
from facilitator.lessons.base import Lesson

# The stage of a lesson that has not started (every lesson module's script starts there).
LOBBY = "lobby"

# A lesson's class size: the most students (phones) who may join. 6 is one table, the least a
# ceiling can usefully be (a smaller group joins under it; bots or shared phones fill its
# table); 40 is five tables of 8, the largest class a classroom holds (and the join limit per
# address in settings is built on it).
CLASS_SIZE_MIN = 6
CLASS_SIZE_DEFAULT = 32
CLASS_SIZE_MAX = 40


class ClassSession(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for students")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ARCHIVED = "archived", _("Archived")

    OPEN_STATUSES = (Status.LOBBY, Status.RUNNING)

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="class_sessions")
    title = models.CharField(_("title"), max_length=120, blank=True)
    # The lesson module's game id (``facilitator.lessons``); its lesson script names the stages.
    game = models.CharField(max_length=40)
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, default="en")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    stage = models.CharField(max_length=40, default=LOBBY)
    round = models.PositiveSmallIntegerField(default=0)
    paused = models.BooleanField(default=False)
    # What the teacher's last Undo took back, for the screens, until the lesson moves on:
    # {"kind", "stage", "round", "discarded"} (see facilitator.notices).
    undone = models.JSONField(null=True, blank=True)
    # The bags closed unopened since the teacher's last step (fewer than three tokens in
    # them: our privacy rule), as {table number: tokens set aside}, for the screens.
    set_aside = models.JSONField(default=dict, blank=True)
    # The debate timer, kept by the server so every screen shows the same countdown:
    # {"ends_at": epoch seconds while it runs, "left": seconds while it is paused}.
    timer = models.JSONField(null=True, blank=True)
    # Every pause of the lesson, [start, end] in epoch seconds (end None while it lasts), so
    # that a lesson module's timers stand still while the lesson is paused
    # (``facilitator.countdown``).
    pauses = models.JSONField(default=list, blank=True)
    join_code = models.CharField(max_length=6)
    class_size = models.PositiveSmallIntegerField(
        _("class size"), default=CLASS_SIZE_DEFAULT,
        validators=[MinValueValidator(CLASS_SIZE_MIN), MaxValueValidator(CLASS_SIZE_MAX)])
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
        return self.title or f"{self.game_name} · {self.join_code}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    @property
    def lesson(self) -> Lesson:
        """The lesson module that runs this session's game."""
        return lessons.lesson_for(self.game)

    @property
    def stage_id(self) -> str:
        """Names the moment of the lesson a screen shows; an action for another is stale."""
        return self.lesson.stage_id(self)

    @property
    def game_name(self) -> str:
        """The game's name, in the active language (the game's id if no module plays it)."""
        try:
            return str(self.lesson.name)
        except KeyError:
            return self.game


class Table(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    config = models.JSONField()
    # The engine state after the whole log, open bags excepted (a cache: always
    # verifiable against a full replay, see services.table_verify).
    snapshot = models.JSONField(null=True, blank=True)
    # The decisions whose counted bag an Undo deleted (with the step that opened it), kept
    # through every Undo: a bag opened again for one of them publishes its outcome only
    # (``Bag.counted_before``; docs/secrecy.md, "Counting again after an Undo").
    counted = models.JSONField(default=list, blank=True)

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
    # SHA-256 of the one-time "New phone" link's token while it is unused. The link is not a
    # seat token: using it gives the new phone a fresh token and clears this.
    claim_hash = models.CharField(max_length=64, null=True, blank=True, unique=True)
    is_bot = models.BooleanField(default=False)
    bot_policy = models.CharField(max_length=20, blank=True)
    # A student who plays on a classmate's seat and phone (no seat of their own this game).
    shares = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="partners")
    removed = models.BooleanField(default=False)
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


class Presence(models.Model):
    """A server process has ``sockets`` open for a seat (see ``facilitator.presence``)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presence")
    process = models.CharField(max_length=16)
    sockets = models.IntegerField(default=0)
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "process"], name="one_presence_per_process"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} · {self.sockets} socket(s)"


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

    class How(models.TextChoices):
        """How the decision was taken, for whom it was (``on_behalf``): the record's "who
        acted, and how" (docs/record.md)."""

        CHOSE = "chose", _("chose")
        TIMER = "timer", _("a timer's default")
        TEACHER = "teacher", _("the teacher stood in")
        STAND_IN = "stand_in", _("a team-mate stood in")
        BOT = "bot", _("a bot")
        VOTE = "vote", _("the table's secret vote")
        RULES = "rules", _("the rules")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="actions")
    actor = models.CharField(max_length=10, choices=Actor.choices)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    # Whose decision it was (the captain a stand-in or a timer acted for; the
    # acting seat itself when it chose), and how it was taken ("" in rows written before
    # the record said how: read as the actor's plain way, ``log.acted``).
    on_behalf = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    how = models.CharField(max_length=10, choices=How.choices, blank=True)
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


class Bag(models.Model):
    """The ballot box of one secret decision at one table (e.g. round 3's second vote).

    ``key_ref`` is random (a new one each time the bag is reopened) and names its key in the key
    store (``facilitator.ballot_keys``); ``store`` is the store that holds the key and
    ``fingerprint`` a one-way hash of it. Opened by a teacher's step (undoing that step removes
    the bag with its receipts and sealed ballots); ``counted_by`` is the step whose count
    emptied it. ``reopened`` says why an open bag was emptied and asked again (``undo``: its
    count was undone; ``lost``: its key was lost), for the screens.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        COUNTED = "counted", _("Counted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="bags")
    decision = models.CharField(max_length=40)
    options = models.JSONField()
    # A weighted ballot: each voter's weight by player name (empty: one vote each).
    weights = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    key_ref = models.CharField(max_length=32)
    store = models.CharField(max_length=40, blank=True)
    fingerprint = models.CharField(max_length=32, blank=True)
    reopened = models.CharField(max_length=10, blank=True)
    # Tokens set aside unopened when the bag was closed with fewer than three in it (and not
    # every voter's): the vote counted as if nobody had voted (docs/secrecy.md).
    set_aside = models.PositiveSmallIntegerField(default=0)
    # This decision was counted before at this table (an Undo took the count back): its next
    # count publishes the outcome only. Set when an Undo reopens the bag, and when a bag is
    # opened for a decision the table lists in ``Table.counted``.
    counted_before = models.BooleanField(default=False)
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="bags")
    counted_by = models.ForeignKey(TeacherStep, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="counted_bags")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "decision"], name="one_bag_per_decision"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.decision} ({self.status})"


class BallotReceipt(models.Model):
    """Seat X has put a token in this bag. Never which option; no time."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    bag = models.ForeignKey(Bag, on_delete=models.CASCADE, related_name="receipts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="receipts")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bag", "seat"], name="one_ballot_per_bag"),
        ]

    def __str__(self) -> str:
        return "a token in the bag"


class SealedBallot(models.Model):
    """One token in an open bag: its option sealed under the bag's key (no seat, no time).

    Deleted when the bag is counted; without the key (gone by then) the bytes that may linger
    in free pages or a write-ahead log cannot be opened.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    bag = models.ForeignKey(Bag, on_delete=models.CASCADE, related_name="sealed")
    sealed = models.BinaryField(max_length=64)

    def __str__(self) -> str:
        return "a sealed ballot"


class LedgerEntry(models.Model):
    """One coin transfer reported by the engine: double entry (from one account to another).

    Accounts are the engine's (each engine's page lists them; ``player:<name>`` is a
    player's). Rows are never changed; undo removes the undone action with its rows.
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


class Handout(models.Model):
    """A finished lesson's debrief PDF, built once and served from then on.

    ``key`` names the handout (what, paper, language, and the student for one student's
    handout); ``fingerprint`` is a hash of everything the handout is made from that could
    still change once the lesson is over (the application's version, the lesson's title and
    the students' nicknames): a handout whose fingerprint no longer matches is built again.
    A handout holds only what the debrief shows (no ballot's option, no seat's vote).
    """

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE,
                                related_name="handouts")
    key = models.CharField(max_length=80)
    fingerprint = models.CharField(max_length=64)
    content = models.BinaryField()
    built_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "key"], name="one_handout_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.session} · {self.key}"
