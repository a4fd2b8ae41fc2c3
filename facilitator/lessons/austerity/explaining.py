"""What an event and each choice do, as the scenario and the policy cards in force make them,
in the active language (the engine's ``games.austerity.explain`` said for the screens).

The screens hold the engine's public view, not its state; ``board_state`` reads the view back
into the state the explanations need (the board: nothing hidden, nothing the view lacks)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from facilitator.lessons.austerity import script
from games.austerity import data, explain
from games.austerity.state import GameState, Institution


def board_state(game: dict[str, Any]) -> GameState:
    """The engine's public view as a state for ``explain`` (no seed, pins or history)."""
    options = game.get("options") or {}
    return GameState(
        seed=0, scenario=game["scenario"], difficulty=game["difficulty"],
        country=game.get("country"), tracks=dict(game["tracks"]), bag=dict(game["bag"]),
        used=dict(game["used"]), current=list(game["current"]), treasury=game["treasury"],
        institutions={k: Institution(**v) for k, v in game["institutions"].items()},
        policies=dict(game["policies"]), fixed_policies=list(game["fixed_policies"]),
        extra_institutions=bool(options.get("extra_institutions")),
        lone_debt_cuts=bool(options.get("lone_debt_cuts")), year=game["year"],
        draw=game["draw"], stage=game["stage"], pair=list(game["pair"]),
        olympics=game.get("olympics") or 0, war=game.get("war"),
        war_fed=bool(game.get("war_fed")))


def line_text(line: dict[str, Any]) -> str:
    """One of ``explain``'s sentences, translated, its names translated too."""
    params = {k: _(v) if isinstance(v, str) else v for k, v in line["params"].items()}
    return _(line["text"]).format(**params)


def changed_label(changed_by: dict[str, Any] | None) -> str:
    """"changed by Police State" (a policy face or the scenario), "" as printed."""
    if not changed_by:
        return ""
    if changed_by["kind"] == "policy":
        return _("changed by the policy card %(name)s") % {"name": _(changed_by["name"])}
    return _("changed by the scenario %(name)s") % {"name": _(changed_by["name"])}


def event_in_force(state: GameState, key: str) -> dict[str, str]:
    """The event of the pair ``key``: its name, its text as the cards in force make it, and
    which card (or the scenario) changed it."""
    effect = explain.event_effect(state, key)
    return {"name": _(effect["name"]), "text": _(effect["text"]),
            "changed": changed_label(effect["changed_by"])}


def source_label(changed_by: list[dict[str, Any]]) -> str:
    """"(with High Taxes)": the cards (or the scenario) that changed an option; "" if none."""
    names = list(dict.fromkeys(_(c["name"]) for c in changed_by))
    return _("(with %(name)s)") % {"name": ", ".join(names)} if names else ""


def effect_text(state: GameState, kind: str, choice: str, times: int = 1) -> str:
    """What one option does now, in one line: ``explain.choice_effect``'s sentences in the
    active language, then the cards in force that changed it ("" for an option that changes
    nothing, and for drawing, which its label already says)."""
    if kind == "draw" or times == 0:
        return ""
    effect = explain.choice_effect(state, kind, choice, times)
    # a policy turn's label names the card and the face: its line says the face's rule
    text = " ".join(_(line["params"]["rule"]) if line["op"] == "turn" else line_text(line)
                    for line in effect["lines"])
    label = source_label(effect["changed_by"])
    return f"{text} {label}" if label else text


def item_effect(state: GameState, item: str, option: str) -> str:
    """One option of a budget item's ballot, said as what it does ("" for no change)."""
    if option == script.NO_CHANGE[item]:
        return ""
    if item in (script.TAXES, script.BORROW):
        action = data.RAISE_TAXES if item == script.TAXES else data.BORROW
        return effect_text(state, "action", action, int(option))
    if item == script.LOAN:
        return effect_text(state, "action", data.PAY_LOAN)
    if item == script.INSTITUTION:
        return effect_text(state, "action", option)
    return effect_text(state, "policy", option)
