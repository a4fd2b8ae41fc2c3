"""What an event and each choice do, as the scenario and the policy cards in force make them,
in the rulebook's vocabulary (for screens, a 14-year-old's reading level).

Everything is derived from the engine's own rules (``effects.event_rule``, ``effects.rule``
and the operations of ``data.py``), so the explanation cannot drift from what ``apply`` does.
Texts are msgids (``games.i18n._``) with ``{named}`` placeholders filled after translation;
a placeholder holding a name (a track, a colour, an institution, a card) holds that name's
msgid, translated like every other text param.

- ``lines(ops)``: one short sentence per operation, each with its codes;
- ``event_effect(state, key)``: the event of a pair as it stands now, what changed it;
- ``choice_effect(state, kind, choice, times=1)``: what one option of a decision does
  (an event option, a Cuts institution, an Income use, an Action, a budget-session turn);
- ``decision_effects(state)``: every option of every pending decision, explained.
"""

from __future__ import annotations

from typing import Any

from games.austerity import data, effects
from games.austerity.state import GameState
from games.austerity.views import decisions
from games.i18n import _

Line = dict[str, Any]  # {"op": kind, codes..., "text": msgid, "params": {...}}

VARIANTS = {"current": _("Spend the Income just drawn first, before the Treasury."),
            "treasury": _("Take the Income from the Treasury before Used.")}


def _line(op: str, text: str, codes: dict[str, Any], params: dict[str, Any]) -> Line:
    return {"op": op, **codes, "text": text, "params": params}


def lines(ops: tuple[data.Op, ...], times: int = 1) -> list[Line]:
    """One sentence per operation (counts multiplied by ``times``)."""
    out: list[Line] = []
    for op in ops:
        kind = op[0]
        if kind == "track":
            delta = op[2] * times
            text = _("Gain {n} {track}.") if delta > 0 else _("Lose {n} {track}.")
            out.append(_line(kind, text, {"track": op[1], "delta": delta},
                             {"n": abs(delta), "track": data.TRACK_NAMES[op[1]]}))
        elif kind in ("add", "add_bag", "remove"):
            n = op[2] * times
            one, many = {
                "add": (_("Add 1 {colour} cube to Used."), _("Add {n} {colour} cubes to Used.")),
                "add_bag": (_("Add 1 {colour} cube to the bag."),
                            _("Add {n} {colour} cubes to the bag.")),
                "remove": (_("Remove 1 {colour} cube."), _("Remove {n} {colour} cubes.")),
            }[kind]
            out.append(_line(kind, one if n == 1 else many, {"colour": op[1], "count": n},
                             {"n": n, "colour": data.COLOUR_NAMES[op[1]]}))
        elif kind == "spend":
            n = op[1] * times
            out.append(_line(kind, _("Spend an Income cube.") if n == 1
                             else _("Spend {n} Income cubes."), {"count": n}, {"n": n}))
        elif kind == "cuts_all":
            out.append(_line(kind, _("Every institution suffers Cuts."), {}, {}))
        else:  # pragma: no cover - data.py only uses the kinds above
            raise ValueError(kind)
    return out


def _source(source: effects.Source | None) -> dict[str, Any] | None:
    """What changed a rule, with the name to show: a policy face or the scenario."""
    if source is None:
        return None
    if source[0] == "policy":
        _card, face = data.FACES[source[2]]
        return {"kind": "policy", "card": source[1], "face": source[2], "name": face.name,
                "text": face.text}
    return {"kind": "scenario", "scenario": source[1],
            "name": data.SCENARIOS[source[1]].name}


def event_effect(state: GameState, key: str) -> dict[str, Any]:
    """The event of the pair ``key`` (e.g. ``"security+crime"``) as the cards in force make it.

    ``printed`` is the board's text; ``text`` the text in force (the changing face's or the
    scenario's, else the printed one); ``changed_by`` what replaced the whole event (a policy
    face or the scenario; None: as printed); ``choice`` whether the table picks an option;
    ``always`` what happens whatever is chosen; ``options`` each option with its own lines and
    the face that changed it. A Budget Surplus may also fund an institution again
    (``fund_again``)."""
    event = data.EVENTS[key]
    always, options, source, changed = effects.event_rule(state, key)
    by = _source(source or next(iter(changed.values()), None))
    text = event.text
    if by is not None:
        text = by["text"] if by["kind"] == "policy" else data.SCENARIOS[
            state.scenario].event_texts[key]
    return {
        "event": key, "name": event.name, "printed": event.text, "text": text,
        "changed_by": by, "choice": len(options) >= 2, "fund_again": event.fund_again,
        "always": lines(always),
        "options": [{"id": o.id, "text": o.text, "lines": lines(o.ops),
                     "changed_by": _source(changed.get(o.id))} for o in options],
    }


def _effect(kind: str, choice: str, out: list[Line],
            sources: list[effects.Source | None] | None = None) -> dict[str, Any]:
    changed = [s for s in (_source(x) for x in sources or []) if s is not None]
    if not out:
        out = [_line("none", _("Nothing changes."), {}, {})]
    return {"kind": kind, "choice": choice, "lines": out, "changed_by": changed}


def _split(choice: str) -> tuple[str, str | None]:
    """``"repay:current"`` -> ("repay", "current"); ``"fund:investment"`` stays whole."""
    for variant in VARIANTS:
        if choice.endswith(":" + variant):
            return choice[: -len(variant) - 1], variant
    return choice, None


def choice_effect(state: GameState, kind: str, choice: str, times: int = 1) -> dict[str, Any]:
    """What the option ``choice`` of a decision of ``kind`` (``draw``, ``event``, ``cuts``,
    ``income``, ``action``, ``policy``) does now, as the cards in force make it: its lines
    and the faces (or scenario) that changed the rule. ``times``: an Action taken that many
    times in a row (a budget item's "raise taxes twice"; 0: nothing changes). An event
    option is the current pair's. A ``…:current`` / ``…:treasury`` twin adds where the cubes
    come from."""
    name, variant = _split(choice)
    where = [_line("variant", VARIANTS[variant], {"variant": variant}, {})] if variant else []
    if kind == "draw":
        return _effect(kind, choice, [_line("draw", _("Draw the next two cubes."), {}, {})])
    if kind == "event":
        return _event_choice(state, choice, name, where)
    if kind == "cuts":
        return _cuts_choice(state, choice)
    if kind == "income":
        return _income_choice(state, choice)
    if kind == "action":
        return _action_choice(state, choice, name, where, times)
    if kind == "policy":
        return _policy_choice(state, choice)
    raise ValueError(f"unknown decision kind {kind!r}")


def _event_choice(state: GameState, choice: str, name: str, where: list[Line]
                  ) -> dict[str, Any]:
    key = data.pair_key(state.pair)
    if name.startswith("fund-again:"):
        inst = name.split(":", 1)[1]
        ops, source = effects.rule(state, "fund", inst, data.INSTITUTIONS[inst].fund)
        again = _line("fund-again", _("Spend both Income cubes to fund {institution} again."),
                      {"institution": inst}, {"institution": data.INSTITUTIONS[inst].name})
        return _effect("event", choice, [again, *lines(ops)], [source])
    if name == "decline" and data.EVENTS[key].fund_again:
        return _effect("event", choice, [])
    _always, options, source, changed = effects.event_rule(state, key)
    option = next((o for o in options if o.id == name), None)
    if option is None:
        raise ValueError(f"{choice!r} is not an option of {key!r}")
    return _effect("event", choice, [*lines(option.ops), *where],
                   [source, changed.get(option.id)])


def _cuts_choice(state: GameState, inst: str) -> dict[str, Any]:
    step = state.institutions[inst].cuts + 1 if inst in state.institutions else 1
    name = data.INSTITUTIONS[inst].name
    out = [_line("cuts", _("{institution} suffers Cuts: step {step} of {steps}."),
                 {"institution": inst, "step": step},
                 {"institution": name, "step": step, "steps": data.CUTS_STEPS})]
    source = None
    if step >= data.CUTS_STEPS:
        ops, source = effects.rule(state, "cuts", inst, data.INSTITUTIONS[inst].cuts)
        out.append(_line("cuts-final", _("The last step: its penalty, then its marker goes "
                                         "back to the start."), {"institution": inst}, {}))
        out += lines(ops)
    return _effect("cuts", inst, out, [source])


def _income_choice(state: GameState, choice: str) -> dict[str, Any]:
    if choice.startswith("fund:"):
        inst = choice.split(":", 1)[1]
        ops, source = effects.rule(state, "fund", inst, data.INSTITUTIONS[inst].fund)
        placed = state.institutions[inst].funded if inst in state.institutions else 0
        per_year = effects.fund_limit(inst)
        out = [_line("fund", _("Place the Income cube on {institution}."),
                     {"institution": inst}, {"institution": data.INSTITUTIONS[inst].name})]
        if placed + 1 < per_year:
            out.append(_line("fund-wait", _("The reward comes with cube {needed} this year."),
                             {"needed": per_year}, {"needed": per_year}))
        else:
            out += lines(ops)
        return _effect("income", choice, out, [source])
    text = {"treasury": _("Bank the Income cube in the Treasury: it can be Spent later, "
                          "but never goes back into the bag."),
            "used": _("Put the Income cube in Used: it goes back into the bag next year."),
            "olympics": _("Put the Income cube in the Olympics box for good.")}[choice]
    return _effect("income", choice, [_line(choice, text, {}, {})])


def _action_choice(state: GameState, choice: str, name: str, where: list[Line],
                   times: int) -> dict[str, Any]:
    if name.startswith(data.OPEN + ":"):
        inst = name.split(":", 1)[1]
        cost = lines((("spend", data.EXTRA_INSTITUTION_COST),), times)
        ops, source = effects.rule(state, "fund", inst, data.INSTITUTIONS[inst].fund)
        opened = _line("open", _("{institution} comes into play: funding it gives what "
                                 "follows."), {"institution": inst},
                       {"institution": data.INSTITUTIONS[inst].name})
        out = [*cost, *where, opened, *lines(ops)] if times else []
        return _effect("action", choice, out, [source])
    if name == data.FINANCE_OLYMPICS:
        box = _line("olympics", _("It goes into the Olympics box for good."), {}, {})
        out = [*lines(data.ACTIONS[name], times), *where, box] if times else []
        return _effect("action", choice, out)
    ops, source = effects.rule(state, "action", name, data.ACTIONS[name])
    out = [*lines(ops, times), *where] if times else []
    if name == data.FEED_WAR and times:
        out.append(_line("war", _("The war is fed: its marker goes up 1 at Year End "
                                  "instead of down 1."), {}, {}))
    return _effect("action", choice, out, [source])


def _policy_choice(state: GameState, choice: str) -> dict[str, Any]:
    if choice == "keep":
        return _effect("policy", choice, [_line("keep", _("Keep every policy card as it is."),
                                                {}, {})])
    card = data.POLICY_CARDS[choice.split(":", 1)[1]]
    face = card.faces[1] if state.policies.get(card.id) == card.faces[0].id else card.faces[0]
    turn = _line("turn", _("Turn {card} to its other face, {face}: {rule}"),
                 {"card": card.id, "face": face.id},
                 {"card": card.name, "face": face.name, "rule": face.text})
    return _effect("policy", choice, [turn, *lines(data.POLICY_TURN_COST)])


def decision_effects(state: GameState) -> dict[str, dict[str, dict[str, Any]]]:
    """Every option of every pending decision, explained: ``{decision id: {option: effect}}``."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for decision in decisions(state):
        out[decision.id] = {option: choice_effect(state, str(decision.action), option)
                            for option in decision.options}
    return out
