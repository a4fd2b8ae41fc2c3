"""What State in Class's screens say after an Undo: what the teacher took back and whether
votes were discarded."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from facilitator.lessons.state_in_class.pacing import VOTE_STAGES
from facilitator.lessons.state_in_class.stages import Stage


def _vote_name(kind: str, round_: int) -> str:
    if kind == "tax":
        return _("the tax vote of round %(round)d") % {"round": round_}
    return _("the budget vote of round %(round)d") % {"round": round_}


def undone_notice(session: dict[str, Any]) -> str:
    """One sentence for the projector: what the last Undo took back ("" if nothing)."""
    undone = session.get("undone")
    if not undone:
        return ""
    if undone["kind"] == "start":
        return _("Undone: the start of the lesson. Everyone is back in the lobby.")
    discarded = undone.get("discarded")
    left, entered = undone.get("from"), undone["stage"]
    if left in VOTE_STAGES:
        vote = _vote_name(VOTE_STAGES[left], undone["round"])
        if not discarded:  # the bag had filled and counted itself: it stays counted
            return _("Undone: showing the result of %(vote)s.") % {"vote": vote}
        return (_("Undone: the count of %(vote)s.") % {"vote": vote} + " "
                + _("The votes cast were discarded: everyone votes again."))
    if entered in VOTE_STAGES:
        text = _("Undone: the opening of %(vote)s.") % {
            "vote": _vote_name(VOTE_STAGES[entered], undone["round"])}
        if discarded:
            text += " " + _("The votes cast were discarded.")
        return text
    stage = dict(Stage.choices).get(entered, entered)
    return pgettext("undo", "Undone: %(stage)s, round %(round)d.") % {
        "stage": stage, "round": undone["round"]}


