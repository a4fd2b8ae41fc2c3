"""What the screens say about a vote that was asked again (emptied by an Undo of its count,
or when its key was lost), in plain words, to everyone it concerns. What an Undo took back is
said by each lesson module (``Lesson.undone_notice``), in its own words."""

from __future__ import annotations

from django.utils.translation import gettext as _


def reopened_notice(reason: str, *, phone: bool) -> str:
    """Why an open vote was emptied and asked again ("" when it was not)."""
    if reason == "lost":
        if phone:
            return _("The votes were lost when the server restarted. Please vote again.")
        return _("The votes were lost when the server restarted: everyone votes again.")
    if reason == "undo":
        if phone:
            return _("Your teacher undid the count: the votes cast were discarded. Please "
                     "vote again.")
        return _("The count was undone: the votes cast were discarded. Everyone votes again.")
    return ""
