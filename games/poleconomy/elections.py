"""Elections and forming a Government (set-up step 3, and the Election spaces).

Our decisions where the rulebook is silent: a majority is **more than half** of all votes
(exactly half is not enough); a double earns **one** extra roll (a second double adds no
more); Independents may join coalitions (a coalition is any set of whole parties and
Independents); a party member tied for most votes loses to the earlier seat; after
``MAX_FAILED_ELECTIONS`` elections in a row with no Government the bloc with the most votes
governs alone (a minority Government), so a run of failed elections always ends.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, InvalidAction
from games.i18n import _
from games.poleconomy import data
from games.poleconomy.money import emit, roll
from games.poleconomy.state import GOVERNMENT, ORDERS, GameState


def blocs(state: GameState) -> list[dict[str, Any]]:
    """Each party and each Independent with their votes, in seat order of first member."""
    out: list[dict[str, Any]] = []
    for p in state.players:
        key = p.party or p.name
        if any(b["name"] == key for b in out):
            continue
        members = [q.name for q in state.players if (q.party or q.name) == key]
        out.append({"name": key, "party": p.party is not None, "members": members,
                    "votes": sum(state.player(m).votes for m in members)})
    return out


def majority_bloc(state: GameState) -> dict[str, Any] | None:
    return next((b for b in blocs(state) if 2 * b["votes"] > state.total_votes), None)


def top_voter(state: GameState, members: list[str]) -> str:
    return max(members, key=lambda n: (state.player(n).votes, -state.player(n).seat))


def hold_election(state: GameState, events: list[Event]) -> None:
    state.elections += 1
    rolls: dict[str, list[list[int]]] = {}
    for p in state.players:
        a, b = roll(state, events, p.name, "election")
        rolls[p.name] = [[a, b]]
        if a == b:
            c, d = roll(state, events, p.name, "election-double")
            rolls[p.name].append([c, d])
        p.votes = sum(x + y for x, y in rolls[p.name])
    bloc_list = blocs(state)
    win = majority_bloc(state)
    state.election = {"number": state.elections, "rolls": rolls,
                      "votes": {p.name: p.votes for p in state.players},
                      "blocs": bloc_list, "total": state.total_votes,
                      "majority": win["name"] if win else None}
    emit(state, events, {"type": "election", **state.election})
    state.phase = GOVERNMENT
    if win is not None and len(win["members"]) == 1:
        government(state, events, win["members"], win["members"][0])


def check_government(state: GameState, members: Any, pm: Any) -> tuple[list[str], str]:
    if not isinstance(members, list) or not members or len(set(members)) != len(members) or \
            any(m not in state.names for m in members):
        raise InvalidAction(_("'members' must list the players in the Government."))
    for b in blocs(state):
        inside = [m for m in b["members"] if m in members]
        if inside and len(inside) != len(b["members"]):
            raise InvalidAction(_("A party joins a Government whole: {party} cannot be split."),
                                party=b["name"])
    win = majority_bloc(state)
    if win is not None and sorted(members) != sorted(win["members"]):
        raise InvalidAction(_("{party} has a majority and forms the Government alone."),
                            party=win["name"])
    votes = sum(state.player(m).votes for m in members)
    if 2 * votes <= state.total_votes:
        raise InvalidAction(_("A Government needs more than half of the votes: {votes} of "
                              "{total} is not enough."), votes=votes, total=state.total_votes)
    if pm is not None and pm not in members:
        raise InvalidAction(_("The Prime Minister must be a member of the Government."))
    return list(members), pm if pm is not None else top_voter(state, list(members))


def check_no_government(state: GameState) -> None:
    win = majority_bloc(state)
    if win is not None:
        raise InvalidAction(_("{party} has a majority: it must choose its Prime Minister."),
                            party=win["name"])


def no_government(state: GameState, events: list[Event]) -> None:
    state.failed_elections += 1
    emit(state, events, {"type": "no_government", "failed": state.failed_elections})
    if state.failed_elections >= data.MAX_FAILED_ELECTIONS:
        largest = max(blocs(state), key=lambda b: b["votes"])  # first such bloc in seat order
        government(state, events, largest["members"], top_voter(state, largest["members"]),
                   minority=True)
        return
    hold_election(state, events)


def government(state: GameState, events: list[Event], members: list[str], pm: str,
               minority: bool = False) -> None:
    """The new Government takes over the role as it stands; previous Ministers lose their jobs
    (their salaries end with them); the new PM moves first in the following round."""
    state.government = sorted(members, key=lambda n: state.player(n).seat)
    state.pm = pm
    state.cabinet = []
    state.minister_salaries = {}
    state.failed_elections = 0
    state.first = state.player(pm).seat
    emit(state, events, {"type": "government", "members": list(state.government), "pm": pm,
                         "minority": minority})
    if state.election_due:
        state.election_due = False
        state.round += 1
    state.phase = ORDERS
