"""What each team did, round by round, from a table's record replayed through the engine: the
public events only (no Influence card in a hand is ever named), so a handout tells nothing a
screen did not show. Nothing is stored: the record is the one source.

``team_rounds`` gives one ``TeamRound`` per team and round played (the shorter game stops at
its last round: the next round's Event, which the engine runs in the same move, is left out);
``sentences`` says a ``TeamRound`` in words of the active language.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.kit import engine_of, record_actions
from facilitator.lessons.crisis import words
from facilitator.models import Table
from games import crisis as engine
from games.core import PUBLIC, Event
from games.crisis import cards
from games.crisis.state import GameState


@dataclass
class TeamRound:
    """One team's round: what it bought, hired, made and sold, its loans and its Evaluation."""

    round: int
    bought: list[tuple[str, int]] = field(default_factory=list)  # (Company id, credits paid)
    hired: list[str] = field(default_factory=list)  # Employee tiles
    produced: Counter[str] = field(default_factory=Counter)  # resource, "credits", "vp"
    exported: Counter[str] = field(default_factory=Counter)  # resource: tokens
    export_vp: int = 0
    export_credits: int = 0
    smuggled: Counter[str] = field(default_factory=Counter)  # resource: tokens
    smuggle_credits: int = 0
    premium: int = 0  # the only seller's extra takings
    loans: int = 0
    repaid: int = 0
    loan_refused: int = 0
    interest: int = 0
    idle: bool = False  # it had Companies and produced with none of them
    penalty: int = 0  # VP of Penalty tiles taken this round
    vp: int | None = None  # at Evaluation
    goal: int | None = None
    difference: int | None = None  # VP − goal: this team's share of the track's step

    @property
    def met(self) -> bool:
        return self.difference is not None and self.difference >= 0


def public_events(table: Table) -> list[tuple[Event, GameState]]:
    """Every public event of the table's record, in order, with the game after its move."""
    state = engine.new_game(table.config, table.seed)
    out: list[tuple[Event, GameState]] = []
    for action in record_actions(table):
        state, events = engine_of(table).apply(state, action)
        out.extend((e, state) for e in events if e.get("audience") == PUBLIC)
    return out


def _player(account: str) -> str | None:
    return account.removeprefix("player:") if account.startswith("player:") else None


def _credits_for(event: Event, name: str) -> int:
    """What a transfer did to ``name``'s credits (+ paid to the team, − paid by it)."""
    if _player(event["to"]) == name:
        return event["amount"]
    if _player(event["from"]) == name:
        return -event["amount"]
    return 0


def team_rounds(table: Table, names: list[str], history: list[dict[str, Any]]
                ) -> dict[str, list[TeamRound]]:
    """Each team's rounds (one per entry of ``history``, the rounds the lesson played)."""
    played = {h["round"]: h for h in history}
    out = {n: {r: TeamRound(round=r) for r in played} for n in names}
    for event, after in public_events(table):
        r = event.get("round")
        kind = event["type"]
        if r not in played:
            continue
        if kind == "transfer":
            for name in names:
                got = _credits_for(event, name)
                if not got:
                    continue
                t, reason = out[name][r], event.get("reason")
                if reason == "company":
                    t.bought.append((event["company"], -got))
                elif reason == "export":
                    t.export_credits += got
                elif reason == "black-market" and event.get("premium"):
                    t.premium += got
                elif reason == "black-market":
                    t.smuggle_credits += got
                elif reason == "loan":
                    t.loans += 1
                elif reason == "repay":
                    t.repaid += 1
                elif reason == "interest":
                    t.interest -= got
                elif reason == "production":
                    t.produced["credits"] += got
            continue
        name = event.get("player")
        if name not in out:
            continue
        t = out[name][r]
        if kind == "produced" and not event["companies"] and after.player(name).companies:
            t.idle = True
        elif kind == "hired":
            t.hired.append(event["tile"])
        elif kind == "resources" and event.get("reason") == "production" and event["delta"] > 0:
            t.produced[event["resource"]] += event["delta"]
        elif kind == "vp" and event.get("reason") == "production":
            t.produced["vp"] += event["delta"]
        elif kind == "vp" and event.get("reason") == "export":
            t.export_vp += event["delta"]
        elif kind == "exported" and event.get("contract"):
            t.exported[cards.contract_parts(event["contract"])[0]] += event["amount"]
        elif kind == "black_market":
            t.smuggled[event["resource"]] += event["amount"]
        elif kind == "loan_refused":
            t.loan_refused += 1
        elif kind == "penalty":
            t.penalty += event["vp"]
    for r, h in played.items():
        ev = h.get("evaluation") or {}
        for name in names:
            if name in ev.get("vp", {}):
                t = out[name][r]
                t.vp, t.goal = ev["vp"][name], ev["goal"]
                t.difference = ev["differences"][name]
    return {n: [rounds[r] for r in sorted(rounds)] for n, rounds in out.items()}


# ------------------------------------------------------------------ in words


def goods(counts: Counter[str]) -> str:
    """"3 Food, 2 Energy, 4 credits" (largest first; nothing: "")."""
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(words.amount_of(n, what) for what, n in order if n > 0)


def sentences(t: TeamRound) -> list[str]:
    """What the team did in round ``t.round``, one short sentence per kind of move."""
    out = []
    if t.bought:
        out.append(_("Bought %(names)s for %(credits)s.") % {
            "names": ", ".join(words.company_name(c) for c, _paid in t.bought),
            "credits": words.amount_of(sum(paid for _c, paid in t.bought), "credits")})
    if t.hired:
        out.append(_("Hired %(names)s.") % {
            "names": ", ".join(words.employee(tile) for tile in t.hired)})
    if t.loans:
        out.append(ngettext("Took a loan.", "Took %(n)d loans.", t.loans) % {"n": t.loans})
    if t.loan_refused:
        out.append(_("Was refused a loan (too few VP or already 4 loans)."))
    if +t.produced:
        out.append(_("Produced %(goods)s.") % {"goods": goods(t.produced)})
    elif t.idle:
        out.append(_("Its Companies produced nothing."))
    if +t.exported:
        out.append(_("Exported %(goods)s on contracts: %(vp)s and %(credits)s.") % {
            "goods": goods(t.exported), "vp": words.amount_of(t.export_vp, "vp"),
            "credits": words.amount_of(t.export_credits, "credits")})
    if +t.smuggled:
        out.append(_("Sold %(goods)s on the black market for %(credits)s.") % {
            "goods": goods(t.smuggled),
            "credits": words.amount_of(t.smuggle_credits, "credits")})
    if t.premium:
        out.append(_("As the only seller it got %(credits)s more.") % {
            "credits": words.amount_of(t.premium, "credits")})
    if t.repaid:
        out.append(ngettext("Repaid a loan.", "Repaid %(n)d loans.", t.repaid) % {"n": t.repaid})
    if t.interest:
        out.append(_("Paid %(credits)s of loan interest.") % {
            "credits": words.amount_of(t.interest, "credits")})
    if t.penalty > 0:
        out.append(_("Took Penalty tiles worth %(vp)s.") % {
            "vp": words.amount_of(t.penalty, "vp")})
    if not out:
        out.append(_("Made no purchase and no sale."))
    return out


def evaluation(t: TeamRound) -> str:
    """The team at Evaluation: "14 VP, goal 12: met (+2)" / "9 VP, goal 12: 3 short (−3)"."""
    if t.vp is None or t.goal is None or t.difference is None:
        return "—"
    if t.met:
        return _("%(vp)d VP, goal %(goal)d: met (+%(d)d)") % {
            "vp": t.vp, "goal": t.goal, "d": t.difference}
    return _("%(vp)d VP, goal %(goal)d: %(n)d short (−%(n)d)") % {
        "vp": t.vp, "goal": t.goal, "n": -t.difference}
