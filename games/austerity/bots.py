"""Bot governments: policies that choose the next decision from the legal ones.

A policy is a function ``(state, rng) -> action``: it returns one of
``legal_actions(state, "government")`` (the main decision or an optional action). The bag is
public, so a bot may read the whole board; it never reads the seed or the pinned draws, and it
draws its own chance from the ``random.Random`` it is given.

- ``random``: any legal option of the pending decision, uniformly; before it, with
  probability 1/10, one of the optional actions instead.
- ``sensible``: first a strategy (``_plan``: Pay Loan at once, a Debt cube due for Cuts goes
  back into the bag, Raise Taxes until the Income can pay the Debt off, the scenario's own
  action), then one decision of lookahead: it tries each option (and each action) on a copy
  of the game and keeps the one whose board scores best: tracks kept away from 0 (a low track
  weighs much more than a high one), fewer Debt cubes in play (the win), Income saved, Cuts
  markers far from their final step, and the scenario's own goal. A lookahead action is taken
  only when it scores better than not acting; it never turns a policy card (turning costs
  Popularity).
- ``cautious``: ``sensible`` that never takes optional actions (a baseline for the balance
  report: how much the actions are worth).

``sensible`` plays every scenario with its own weights (``SCENARIO_WEIGHTS`` over
``WEIGHTS``); ``weighted(**changes)`` is ``sensible`` with changes on top of those (the balance
page's measurements, e.g. ``weighted(taxes_per_year=2)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.austerity import data, effects
from games.austerity.rules import held_back, step
from games.austerity.state import CUTS, DRAW, OVER, POLICY, GameState
from games.austerity.views import PLAYER, legal_actions
from games.core import Action

Policy = Callable[[GameState, random.Random], Action]
MAX_ACTIONS = 3  # a sensible bot takes at most this many actions before one decision


def random_policy(state: GameState, rng: random.Random) -> Action:
    legal = legal_actions(state, PLAYER)
    main = [a for a in legal if a["type"] != "action"]
    if len(main) < len(legal) and rng.random() < 0.1:
        return rng.choice([a for a in legal if a["type"] == "action"])
    return rng.choice(main)


WEIGHTS: dict[str, float] = {
    "low": 12.0,  # a track's value is -low/level + high*level: a low track weighs most
    "high": 0.3,
    "debt": 4.5,  # each Debt cube in play (bag, Current, Used)
    "crime": 0.8,  # each Crime cube in play, and crime2 per Crime cube squared
    "crime2": 0.0,
    "treasury": 1.6,  # each Income cube saved
    "income": 1.0,  # each Income cube in play (bag, Current, Used)
    "helpers": 0.4,  # each Security and Welfare cube in the bag
    "cuts": 0.6,  # per institution, times its Cuts step squared
    "pending_cuts": 1.5,  # a Cuts decision waiting
    "kick": 1.0,  # 1: Borrow + Pay Loan to send a Debt cube due for Cuts back to the bag
    "mid_tax": 1,  # 1: with the debt plan, Raise Taxes mid-year while Income is short
    "mid_tax_short": 0,  # short = 2 x Debt in play - Income in play and in the Treasury
    "mid_tax_cap": 12,  # and while fewer Crime cubes than this are in play
    "floor": 3,  # an action's track cost never takes a track below this (policy faces)
    "margin": 0.5,  # an action must score at least this much better than not acting
    "crime_cap": 7,  # Raise Taxes at the start of a year while fewer Crime cubes are in play
    "pay": 1,  # Pay Loan whenever possible: 1 with the debt plan, 2 in every scenario
    "to_used": 1,  # 1: with the debt plan, drawn Income cubes go to Used (back in the bag)
    "tax_safety": 3,  # Raise Taxes (start of a year, mid-year) only while Public Safety >= this
    "olympics_from": 5,  # Olympics: from this year on, Income goes to the box even with Debt
    "funded": 0.0,  # each Income cube on an institution (it goes back into the bag)
    "lookahead": 1,  # 1: also take an action the one-step lookahead likes; 0: only _plan's
    "last_tax": 1,  # 1: with the debt strategy, Raise Taxes before the last pair (see _plan)
    "borrow_start": 0,  # Borrow this many times at the start of every year (Income next year)
    "tax_from": 1,  # no Raise Taxes before this year (a measurement: see the balance page)
    "taxes_per_year": 99,  # at most this many Raise Taxes a year
    "ec": 0,  # 1: the debt plan (pay, taxes) in any scenario; it is always on in Economic Crash
}


# Each scenario's changes to WEIGHTS (its goal asks for another strategy: see _plan).
SCENARIO_WEIGHTS: dict[str, dict[str, float]] = {
    data.ECONOMIC_CRASH: {},
    data.OLYMPICS: {"crime_cap": 0},
    data.ORGANISED_CRIME: {"crime_cap": 0, "debt": 1.5},
    # War Footing (tuned by simulation, see the balance page): the tracks weigh more than the
    # cubes; Borrow once at the start of every year (its Income is in the bag next year); Cuts
    # are taken, not sent back into the bag; only _plan's actions are taken.
    data.WAR_FOOTING: {"low": 20.0, "high": 1.0, "debt": 1.5, "helpers": 0.0, "funded": 1.0,
                       "crime_cap": 4, "lookahead": 0, "borrow_start": 1, "kick": 0},
}


# The lesson length rule (``min_years``): each scenario's changes while the rule is on
# (``LENGTH_WEIGHTS``), and further changes in the years whose win it holds back
# (``HELD_WEIGHTS``: a win there would not count, so the year is played to keep the country
# standing and ready). Found by simulation: see the balance page.
LENGTH_WEIGHTS: dict[str, dict[str, float]] = {
    data.ECONOMIC_CRASH: {},
    data.OLYMPICS: {},
    data.ORGANISED_CRIME: {"pay": 2, "kick": 0},
    data.WAR_FOOTING: {},
}
HELD_WEIGHTS: dict[str, dict[str, float]] = {
    data.ECONOMIC_CRASH: {"mid_tax": 0, "last_tax": 0, "crime_cap": 0, "kick": 0, "crime": 2.0},
    data.OLYMPICS: {},
    data.ORGANISED_CRIME: {},
    data.WAR_FOOTING: {},
}
HELD = "held_"  # a change named held_<weight> applies only in the years the rule holds back


def weights_for(state: GameState, changes: dict[str, float] | None = None) -> dict[str, float]:
    """The weights of ``sensible`` in this game's scenario, under the lesson length rule if it
    is on, with ``changes`` on top (``held_<weight>``: only in the years the rule holds a win
    back). Without the rule the weights are the rulebook game's, as before the rule existed."""
    changes = changes or {}
    w = {**WEIGHTS, **SCENARIO_WEIGHTS.get(state.scenario, {})}
    if state.min_years is not None:
        w.update(LENGTH_WEIGHTS.get(state.scenario, {}))
    w.update({k: v for k, v in changes.items() if not k.startswith(HELD)})
    if held_back(state):
        w.update(HELD_WEIGHTS.get(state.scenario, {}))
        w.update({k[len(HELD):]: v for k, v in changes.items() if k.startswith(HELD)})
    return w


def _track_value(level: int, w: dict[str, float]) -> float:
    return -1000.0 if level <= 0 else -w["low"] / level + w["high"] * level


def score(state: GameState, w: dict[str, float] = WEIGHTS) -> float:
    """How good the board looks to a careful Finance Minister (higher is better)."""
    if state.stage == OVER:
        return 10_000.0 if state.result == "won" else -10_000.0 + state.year
    value = sum(_track_value(v, w) for v in state.tracks.values())
    debt = state.bag[data.DEBT] + state.used[data.DEBT] + state.current.count(data.DEBT)
    crime = state.bag[data.CRIME] + state.used[data.CRIME] + state.current.count(data.CRIME)
    income = state.bag[data.INCOME] + state.used[data.INCOME] + state.current.count(data.INCOME)
    value += (-w["debt"] * debt - w["crime"] * crime - w["crime2"] * crime * crime
              + w["treasury"] * state.treasury + w["income"] * income)
    value += w["helpers"] * (state.bag[data.SECURITY] + state.bag[data.WELFARE])
    value += w["funded"] * sum(m.funded for m in state.institutions.values())
    value -= sum(w["cuts"] * m.cuts ** 2 for m in state.institutions.values())
    value += 1.5 * (len(state.institutions) - len(data.BOARD_INSTITUTIONS))
    if state.stage == CUTS:
        value -= w["pending_cuts"]
    if state.scenario == data.ORGANISED_CRIME:
        value -= 3.0 * crime
    elif state.scenario == data.OLYMPICS:
        value += 1.5 * min(state.tracks[data.SAFETY], 7)
    elif state.scenario == data.WAR_FOOTING and state.war is not None:
        value += 6.0 * state.war + (5.0 if state.war_fed else 0.0)
    return value


def _after(state: GameState, action: Action, w: dict[str, float]) -> float:
    trial = state.clone()
    step(trial, action)
    return score(trial, w)


def _best(state: GameState, actions: list[Action], rng: random.Random,
          w: dict[str, float]) -> tuple[Action, float]:
    scored = [(_after(state, a, w), rng.random(), a) for a in actions]
    best = max(scored, key=lambda t: (t[0], t[1]))
    return best[2], best[0]


def sensible_policy(state: GameState, rng: random.Random, act: bool = True,
                    w: dict[str, float] | None = None) -> Action:
    if w is None:
        w = weights_for(state)
    legal = legal_actions(state, PLAYER)
    taxed = sum(1 for line in state.this_year["log"] if line.get("choice") == data.RAISE_TAXES)
    if state.year < w["tax_from"] or taxed >= w["taxes_per_year"]:
        legal = [a for a in legal if a != _action(data.RAISE_TAXES)]
    main = [a for a in legal if a["type"] != "action"]
    if state.stage == POLICY:
        return {"type": POLICY, "choice": "keep"}
    if act:
        plan = _plan(state, legal, w)
        if plan is not None:
            return plan
    if act and w["lookahead"] and _actions_in_a_row(state) < MAX_ACTIONS:
        extras = [a for a in legal if a["type"] == "action"]
        if extras:
            choice, value = _best(state, extras, rng, w)
            if value > score(state, w) + w["margin"]:
                return choice
    if state.stage == "income" and w["to_used"]:
        to_used = {"type": "income", "choice": "used"}
        if to_used in main and _debt_game(state, w):
            return to_used
    if len(main) == 1:
        return main[0]
    return _best(state, main, rng, w)[0]


def _plan(state: GameState, legal: list[Action], w: dict[str, float]) -> Action | None:
    """The strategy, before the one-step lookahead:

    - War Footing: Feed the War as soon as it can, every year;
    - Pay Loan whenever a Debt cube lies in Current or Used and two Income cubes can be
      removed: every Debt cube gone is one fewer Cuts for ever, and the only way to the win;
    - a Debt cube that would cause Cuts while the bag is not empty goes back into the bag
      (Borrow, then Pay Loan: rule decision 17), so Cuts come only from the year's last pair
      and from Economic Downturn (with a policy face that makes this cost a track, only when
      it scores better than the best Cuts);
    - Economic Crash: Raise Taxes before a draw while the Income in play and in the Treasury
      is less than twice the Debt in play (what paying it all off costs), Public Safety is not
      low and fewer than 12 Crime cubes are in play;
    - Economic Crash: before the last pair, with a Debt cube still in the bag, Raise Taxes
      to put two more cubes in the bag (the Debt cube may then come out while Pay Loan is
      still possible; a won year ends the game, so its Crime never matters);
    - Raise Taxes at the start of a year while few Crime cubes are in play and Public Safety
      is not low (more Income in the bag means more Pay Loans and Early Repayments), only in
      Economic Crash and War Footing (Organised Crime's win is no Crime; the Olympics start
      with low Public Safety);
    - Olympics: once the Debt is paid off (or from year 5), Income goes to the Olympics box
      (a drawn cube, or Finance the Olympics from the Treasury) until it holds enough;
    - Borrow ``borrow_start`` times at the start of every year (War Footing: its Income is in
      the bag the next year).

    ``sensible_policy`` never offers Raise Taxes to the plan or the lookahead before year
    ``tax_from`` nor after ``taxes_per_year`` of them in a year (both off by default).
    """
    actions = {a["choice"] for a in legal if a["type"] == "action"}
    feed = sorted(c for c in actions if c.startswith(data.FEED_WAR))
    if feed:
        return _action(feed[0])
    log = state.this_year["log"]
    kicking = state.stage == CUTS and log and log[-1].get("choice") == data.BORROW
    debt_out = state.used[data.DEBT] + state.current.count(data.DEBT)
    if data.PAY_LOAN in actions and kicking:
        return _action(data.PAY_LOAN)
    bag_left = sum(state.bag.values())
    cuts_pending = state.stage == CUTS and any(a["type"] == CUTS for a in legal)
    can_kick = (w["kick"] and cuts_pending and bag_left and data.BORROW in actions
                and (_free_kick(state) or _kick_pays(state, legal, w)))
    ec = _debt_game(state, w)
    paying = w["pay"] >= (1 if ec else 2)
    if data.PAY_LOAN in actions and paying and debt_out and _affordable(state, data.PAY_LOAN, w):
        return _action(data.PAY_LOAN)
    if data.RAISE_TAXES in actions and not _affordable(state, data.RAISE_TAXES, w):
        actions.discard(data.RAISE_TAXES)
    short = 2 * _in_play(state, data.DEBT) - _in_play(state, data.INCOME) - state.treasury
    loan_costs = _costs_a_track(state, data.PAY_LOAN)
    if (w["mid_tax"] and ec and state.stage == DRAW
            and not loan_costs
            and short > w["mid_tax_short"] and data.RAISE_TAXES in actions
            and state.tracks[data.SAFETY] >= w["tax_safety"]
            and _in_play(state, data.CRIME) < w["mid_tax_cap"]):
        return _action(data.RAISE_TAXES)
    safe = state.tracks[data.SAFETY] >= w["tax_safety"]
    if (ec and w["last_tax"] and state.stage == DRAW and bag_left <= 2
            and state.bag[data.DEBT] and data.RAISE_TAXES in actions
            and state.tracks[data.SAFETY] > 2):
        return _action(data.RAISE_TAXES)
    cap = w["crime_cap"]
    if (state.stage == DRAW and state.draw == 0 and _in_play(state, data.CRIME) < cap
            and data.RAISE_TAXES in actions and safe):
        return _action(data.RAISE_TAXES)
    if can_kick:
        return _action(data.BORROW)
    borrowed = sum(1 for line in log if line.get("choice") == data.BORROW)
    if (state.stage == DRAW and state.draw == 0 and borrowed < w["borrow_start"]
            and data.BORROW in actions):
        return _action(data.BORROW)
    if (state.scenario == data.OLYMPICS and state.olympics < _goal_level(state)
            and (_in_play(state, data.DEBT) == 0 or state.year >= w["olympics_from"])):
        box = {"type": "income", "choice": "olympics"}
        if box in legal:
            return box
        if data.FINANCE_OLYMPICS in actions:
            return _action(data.FINANCE_OLYMPICS)
    return None


def _debt_game(state: GameState, w: dict[str, float]) -> bool:
    return state.scenario == data.ECONOMIC_CRASH or bool(w["ec"])


def _costs_a_track(state: GameState, name: str) -> bool:
    return any(op[0] == "track" and op[2] < 0 for op in effects.action_effects(state, name))


def _affordable(state: GameState, name: str, w: dict[str, float]) -> bool:
    """An action whose policy face costs a track is taken only while no track falls below
    ``w["floor"]`` (the rulebook's actions cost no track)."""
    if not _costs_a_track(state, name):
        return True
    trial = state.clone()
    step(trial, _action(name))
    return trial.stage != OVER and all(
        trial.tracks[t] >= min(state.tracks[t], w["floor"]) for t in data.TRACKS)


def _kick_pays(state: GameState, legal: list[Action], w: dict[str, float]) -> bool:
    """Borrow then Pay Loan (with a policy face's cost) scores better than the best Cuts."""
    trial = state.clone()
    step(trial, _action(data.BORROW))
    pay = _action(data.PAY_LOAN)
    if trial.stage == OVER or pay not in legal_actions(trial, PLAYER):
        return False
    step(trial, pay)
    return score(trial, w) > max(_after(state, a, w) for a in legal if a["type"] == CUTS)


def _free_kick(state: GameState) -> bool:
    """Borrow then Pay Loan costs nothing but the cubes (no policy face adds a track cost)."""
    return all(effects.action_effects(state, name) == data.ACTIONS[name]
               for name in (data.BORROW, data.PAY_LOAN))


def _action(name: str) -> Action:
    return {"type": "action", "choice": name}


def _in_play(state: GameState, colour: str) -> int:
    """Cubes of ``colour`` in the bag, Current and Used (the Treasury excluded)."""
    return state.bag[colour] + state.used[colour] + state.current.count(colour)


def _goal_level(state: GameState) -> int:
    level = "easy" if state.difficulty == data.EASIER else state.difficulty
    return data.SCENARIOS[state.scenario].levels[data.DIFFICULTIES.index(level)]


def _actions_in_a_row(state: GameState) -> int:
    count = 0
    for line in reversed(state.this_year["log"]):
        if line["kind"] != "action":
            break
        count += 1
    return count


def cautious_policy(state: GameState, rng: random.Random) -> Action:
    return sensible_policy(state, rng, act=False)


POLICIES: dict[str, Policy] = {"random": random_policy, "sensible": sensible_policy,
                               "cautious": cautious_policy}


def weighted(**changes: float) -> Policy:
    """``sensible`` with other weights (used to tune it: see the balance page)."""
    def policy(state: GameState, rng: random.Random) -> Action:
        return sensible_policy(state, rng, w=weights_for(state, changes))

    policy.__name__ = "sensible(" + ", ".join(f"{k}={v}" for k, v in changes.items()) + ")"

    return policy


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}") from None
