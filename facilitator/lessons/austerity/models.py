"""What an Austerity lesson keeps beside the platform's tables: the students' motions (raised
and supported in public from the phones), and each table's lesson-side play: which kinds of
decision the minister does not take this year, the outcome of each table ballot, and what the
table has been waiting for since when (its timer).

Nothing here is secret: supporting a motion is public (it is not a vote); a motion's ballot is
an ordinary sealed bag of the platform, of which only its outcome is kept here.
"""

from __future__ import annotations

from django.db import models

from facilitator.models import Seat, Table


class Motion(models.Model):
    """A motion at one table in one year: ``kind`` says what it asks (an Action, an
    institution, a policy card, or a kind of decision taken from the minister to a table
    ballot) and ``target`` names it (the engine's option, or the decision kind). Its ballot is
    the bag ``y<year>.motion<number>``."""

    class Status(models.TextChoices):
        OPEN = "open"  # raised; gathering support, ready, or being voted on (its bag)
        CARRIED = "carried"
        REJECTED = "rejected"
        DROPPED = "dropped"  # became impossible; ``reason`` says why

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="motions")
    year = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12)
    target = models.CharField(max_length=40)
    raised_by = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True,
                                  related_name="motions_raised")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    reason = models.CharField(max_length=20, blank=True)
    tie = models.BooleanField(default=False)  # the tie rule decided its ballot
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "year", "number"],
                                               name="one_motion_number")]

    def __str__(self) -> str:
        return f"{self.table} · y{self.year}.motion{self.number} ({self.status})"


class Support(models.Model):
    """Seat X supports this motion (public: the screens name the supporters)."""

    motion = models.ForeignKey(Motion, on_delete=models.CASCADE, related_name="supports")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="supports")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["motion", "seat"],
                                               name="one_support_per_seat")]

    def __str__(self) -> str:
        return f"a supporter of {self.motion}"


class TablePlay(models.Model):
    """One table's lesson-side play.

    ``modes``: a decision kind ("event", "cuts", "income", "actions") not taken by the
    minister: ``{kind: {"mode": "ballot" | "teacher", "year": Y | None}}`` (a year: for that
    year only, a carried motion's; None: until the teacher switches it back). ``counts``: each
    table ballot's outcome ``{"decision", "choice", "tie"}`` (never a tally). ``wait``: what
    the table waits for (an open bag or the minister's decision) and since when
    ``{"key", "since"}`` (a POSIX time), for its timer.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="austerity")
    modes = models.JSONField(default=dict, blank=True)
    counts = models.JSONField(default=list, blank=True)
    wait = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.table} · play"
