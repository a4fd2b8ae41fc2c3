"""The lesson's own rows: what a round gathers before the game master closes it.

None of them is secret from the game master (the engine's ``"master"`` audience sees orders as
they arrive), and none is ever on the projector before the round is adjudicated. Each row
belongs to the teacher's step during which it was written: undoing that step removes it with
everything else the step led to. No row ever names a consent vote: Parliament's ballot is the
platform's sealed bag (``docs/secrecy.md``).
"""

from __future__ import annotations

from django.db import models

from facilitator.models import Seat, Table, TeacherStep


class PendingOrders(models.Model):
    """One player's sealed orders for one round as written during one teacher's step: an edit
    in the same step replaces the row, an edit in a later step (the game master's correction
    is a step of its own) adds one, so that undoing a step brings the orders before it back.
    The player's orders are the row of their latest step; at the close the lesson applies them
    as that player's one engine ``orders`` action. ``withdrawn``: no orders (the NMR rule
    unless they send again); ``orders`` null: the player asks for the NMR rule."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="pol_orders")
    round = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=45)
    orders = models.JSONField(null=True, blank=True)
    # Who wrote them: a seat (the player, a team's captain, a bot), or nobody: the teacher.
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    by_master = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "round", "player", "step"],
                                               name="pol_one_pending_order_a_step")]

    def __str__(self) -> str:
        return f"{self.table} · r{self.round} · {self.player}"


class Suggestion(models.Model):
    """A team member's suggested orders for their captain (replaced on every edit)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="pol_suggestions")
    round = models.PositiveSmallIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    orders = models.JSONField()
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "round", "seat"],
                                               name="pol_one_suggestion")]

    def __str__(self) -> str:
        return f"{self.table} · r{self.round} · seat {self.seat_id}"


class Proposal(models.Model):
    """The Prime Minister's proposal to Parliament for one round (public once the orders
    open): ``items`` holds ``salaries``, ``tax`` and ``payments`` as the order grammar has them.
    ``press_release`` is shown on the projector only once the teacher has approved it
    (``approved_by``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="pol_proposals")
    round = models.PositiveSmallIntegerField()
    pm = models.CharField(max_length=45)
    items = models.JSONField(default=dict)
    press_release = models.CharField(max_length=280, blank=True)
    # The teacher's step that approved the press release (undoing it withdraws the approval).
    approved_by = models.ForeignKey(TeacherStep, on_delete=models.SET_NULL, null=True,
                                    blank=True, related_name="+")
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "round"],
                                               name="pol_one_proposal")]

    def __str__(self) -> str:
        return f"{self.table} · r{self.round} · {self.pm}"


class PoliticsRequest(models.Model):
    """A phone's request to the game master: to form a party (``kind`` "party") or a coalition
    Government (``kind`` "coalition"), with ``members`` and, for a coalition, its ``pm``. The
    game master confirms it (an engine action) or leaves it."""

    class Kind(models.TextChoices):
        PARTY = "party"
        COALITION = "coalition"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="pol_requests")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=40, blank=True)
    members = models.JSONField()
    pm = models.CharField(max_length=45, blank=True)
    by = models.CharField(max_length=45)  # the player who asked
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"{self.table} · {self.kind} · {self.by}"


class RoundBoard(models.Model):
    """The public board of a table as it stood just before a round was adjudicated: the
    projector's replay starts from it and shows the round's events one turn at a time."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="pol_boards")
    round = models.PositiveSmallIntegerField()
    board = models.JSONField()
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "round"],
                                               name="pol_one_round_board")]

    def __str__(self) -> str:
        return f"{self.table} · r{self.round}"
