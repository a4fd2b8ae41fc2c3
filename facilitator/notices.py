"""What the screens say about a vote that was asked again (emptied by an Undo of its count,
or when its key was lost), in plain words, to everyone it concerns. What an Undo took back is
said by each lesson module (``Lesson.undone_notice``), in its own words."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


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


def set_aside_notice(set_aside: dict[str, int], *, table: int | None = None) -> str:
    """What the screens say of bags closed unopened since the teacher's last step (fewer
    than three tokens: our privacy rule): every such table on the console; a phone's own
    table (``table``) only. "" when there is none."""
    if table is not None:
        if str(table) not in set_aside:
            return ""
        return _("Fewer than 3 tokens were in your table's bag, so none was opened: the vote "
                 "counts as if nobody had voted.")
    tables = sorted(int(n) for n in set_aside)
    if not tables:
        return ""
    return ngettext(
        "Table %(tables)s: fewer than 3 tokens, so the bag was closed unopened, as if nobody "
        "had voted.",
        "Tables %(tables)s: fewer than 3 tokens each, so the bags were closed unopened, as if "
        "nobody had voted.", len(tables)) % {
            "tables": ", ".join(map(str, tables))}
