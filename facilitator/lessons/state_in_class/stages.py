"""State in Class's stages: the values ``ClassSession.stage`` holds in its lessons (stored in
sessions and teacher steps: a value never changes)."""

from django.db import models
from django.utils.translation import gettext_lazy

from facilitator.models import LOBBY


class Stage(models.TextChoices):
    LOBBY = LOBBY, gettext_lazy("Lobby")
    PACT = "pact", gettext_lazy("Opening pact")
    EVENT = "event", gettext_lazy("Event")
    DEBATE = "debate", gettext_lazy("Debate")
    TAX_VOTE = "tax_vote", gettext_lazy("Tax vote")
    PAY = "pay", gettext_lazy("Pay")
    BUDGET_VOTE = "budget_vote", gettext_lazy("Budget vote")
    MIDLIFE = "midlife", gettext_lazy("Midlife Crossroads")
    END_OF_ROUND = "end_of_round", gettext_lazy("End of round")
    FINAL = "final", gettext_lazy("Final count")
