"""What State in Class's screens say after an Undo: what the teacher took back and whether
votes were discarded."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from facilitator.lessons.state_in_class.pacing import VOTE_STAGES
from facilitator.lessons.state_in_class.stages import Stage


def _vote_name(kind: str, round_: int) -> str:
    if kind == "tax":
        return _("the tax vote of round %(round)d") % {"round": round_}
    return _("the budget vote of round %(round)d") % {"round": round_}


def discarded(undone: dict[str, Any], table: int | None) -> tuple[bool, list[int]]:
    """Whether the votes cast were discarded where this screen is (a phone's ``table``, or
    the whole class), and the tables where they were, when only some were. Older notices
    (without ``discarded_at``) speak for every table."""
    if "discarded_at" not in undone:
        return bool(undone.get("discarded")), []
    at = list(undone["discarded_at"])
    if table is not None:
        return table in at, []
    return bool(at), at if 0 < len(at) < undone.get("tables", len(at)) else []


def undone_notice(session: dict[str, Any], *, table: int | None = None) -> str:
    """One sentence: what the last Undo took back ("" if nothing), for the projector, or for
    a phone at ``table`` (each table is told what happened to its own bag)."""
    undone = session.get("undone")
    if not undone:
        return ""
    if undone["kind"] == "start":
        return _("Undone: the start of the lesson. Everyone is back in the lobby.")
    were_discarded, some = discarded(undone, table)
    left, entered = undone.get("from"), undone["stage"]
    if left in VOTE_STAGES:
        vote = _vote_name(VOTE_STAGES[left], undone["round"])
        if not were_discarded:  # the bag had filled and counted itself: it stays counted
            return _("Undone: showing the result of %(vote)s.") % {"vote": vote}
        if some:
            return (_("Undone: the count of %(vote)s.") % {"vote": vote} + " " + ngettext(
                "At table %(tables)s the votes cast were discarded: it votes again. The other "
                "tables' bags had counted themselves: their results stand.",
                "At tables %(tables)s the votes cast were discarded: they vote again. The other "
                "tables' bags had counted themselves: their results stand.", len(some)) % {
                    "tables": ", ".join(map(str, some))})
        return (_("Undone: the count of %(vote)s.") % {"vote": vote} + " "
                + _("The votes cast were discarded: everyone votes again."))
    if entered in VOTE_STAGES:
        text = _("Undone: the opening of %(vote)s.") % {
            "vote": _vote_name(VOTE_STAGES[entered], undone["round"])}
        if were_discarded:
            text += " " + _("The votes cast were discarded.")
        return text
    stage = dict(Stage.choices).get(entered, entered)
    return pgettext("undo", "Undone: %(stage)s, round %(round)d.") % {
        "stage": stage, "round": undone["round"]}


