"""What a Crisis lesson keeps beside the engine's record.

- ``Suggestion``: a team member's proposal for one of the team's open decisions (a space, an
  option, a production plan), shown to the team (the captain sees them all). Not a move and not
  secret: the record never holds it. The captain's own production draft is a suggestion too.
- ``HeldMove``: the captain's move that would end the round (Evaluation, the next Event and its
  interest follow it at once in the engine), kept until the teacher reaches Evaluation.

Both belong to the teacher's step during which they were made: undoing that step deletes them.
"""

from __future__ import annotations

from django.db import models

from facilitator.models import Seat, Table, TeacherStep


class Suggestion(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="crisis_suggestions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="crisis_suggestions")
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="crisis_suggestions")
    player = models.CharField(max_length=45)  # the team (engine player)
    decision = models.CharField(max_length=60)
    action = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "decision"],
                                               name="crisis_one_suggestion_per_decision")]

    def __str__(self) -> str:
        return f"{self.player} {self.decision}: {self.action.get('type')}"


class HeldMove(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="crisis_held")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    step = models.ForeignKey(TeacherStep, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="crisis_held")
    decision = models.CharField(max_length=60)
    action = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table"], name="crisis_one_held_move")]

    def __str__(self) -> str:
        return f"held {self.decision}"
