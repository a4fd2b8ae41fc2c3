"""What every ballot says in advance about how secret it is (docs/secrecy.md).

Our privacy rule, a deliberate deviation from the rulebooks: a bag with fewer than
``FEWEST_TO_OPEN`` tokens is never opened unless every party at the table has voted
(``services.ballots.vote_close`` enforces it whatever the request). Where the electorate is so
small, or one party's weight so large, that the result itself shows how someone voted, the
ballot says so before anyone votes.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import parties
from facilitator.models import Bag, Seat

FEWEST_TO_OPEN = 3


def ballot_secrecy(bag: Bag | None, seats: Iterable[Seat], seat: Seat) -> str:
    """The line a ballot shows ``seat`` about its secrecy ("" with no bag open)."""
    if bag is None:
        return ""
    groups = parties.parties(seats)
    if bag.weights:
        weight = {name: int(bag.weights.get(name, 1)) for name in groups}
        total = sum(weight.values())
        heavy = sorted(name for name, w in weight.items() if 2 * w >= total)
        if seat.player_name in heavy:
            return _("Your votes are %(mine)s of the %(total)s in this ballot, half or more: "
                     "the result will show how you voted.") % {
                         "mine": weight[seat.player_name], "total": total}
        if heavy:
            return ngettext(
                "%(who)s holds half or more of the votes: the result will show how it voted.",
                "%(who)s each hold half of the votes: the result will show how they voted.",
                len(heavy)) % {"who": get_text_list(heavy, _("and"))}
    if len(groups) < FEWEST_TO_OPEN:
        return ngettext(
            "Only %(n)s vote is cast at your table: the result will show how it was cast.",
            "Only %(n)s votes are cast at your table: the result will show how the other "
            "voted.", len(groups)) % {"n": len(groups)}
    return _("Secret ballot: nobody sees your choice, and a bag with fewer than %(n)s tokens "
             "is never opened.") % {"n": FEWEST_TO_OPEN}
