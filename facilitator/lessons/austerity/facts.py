"""What Austerity's screens read from the database beyond the engine's view (the lesson's
selectors): each table's Finance Minister, the budget items counted this year and what each
decided, the open ballot's progress, and each phone's own facts.

**Pacing.** A bag that fills with its last token is counted at once (``services.settle``),
while the class is still at that item's stage; its result is shown when the teacher moves on.
Until then the item is ``pending`` and the screens show the board as it was before the count
(``before``: the public view rebuilt without the count's actions), so no screen gives the
result away early.

Only counts and outcomes are read: who voted (a receipt) at most, never an option.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max

from facilitator import kit
from facilitator.kit import bags as platform_bags
from facilitator.kit import engine_of, load_state, parties, record_actions, table_seats
from facilitator.lessons.austerity import modes, script
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction
from games.austerity import data
from games.austerity.rules import before_year_end
from games.austerity.state import GameState
from games.core import PUBLIC

Actor = TableAction.Actor
BEFORE_SECONDS = 15 * 60  # a budget item's stage rarely lasts longer


def action_item(payload: dict[str, Any]) -> str | None:
    """The budget item an engine action of a count belongs to (None: no item's)."""
    if payload.get("type") == "policy":
        return script.POLICY_ITEM
    if payload.get("type") != "action":
        return None
    choice = str(payload.get("choice", ""))
    if choice == data.RAISE_TAXES:
        return script.TAXES
    if choice == data.BORROW:
        return script.BORROW
    if choice == data.PAY_LOAN:
        return script.LOAN
    if choice.startswith(f"{data.OPEN}:"):
        return script.INSTITUTION
    return None


def item_choice(item: str, payloads: list[dict[str, Any]]) -> str:
    """The option a count carried, read back from the engine actions it stands for."""
    if item in (script.TAXES, script.BORROW):
        return str(len(payloads))
    if item == script.LOAN:
        return script.YES if payloads else script.NO
    if not payloads:
        return script.NO_CHANGE[item]
    return str(payloads[0].get("choice", script.NO_CHANGE[item]))


def _stage_index(stage: str) -> int:
    """Where a stage lies in the year: the budget items in order, then the year."""
    item = script.STAGE_ITEMS.get(stage)
    return script.BUDGET_ITEMS.index(item) if item else len(script.BUDGET_ITEMS)


def _before(table: Table, hidden: int) -> dict[str, Any]:
    """The public view of the table without its last ``hidden`` actions (a count's, which
    are the last of the log while the class is at that item). Every phone of the table asks
    for it after a count: it is kept, keyed by the log it replays, named by its last action's
    id, the latest time an action was logged and its length. They name one log: actions are
    never changed, only appended (with ids never used before: AUTOINCREMENT on SQLite, a
    sequence on PostgreSQL; an id a rolled-back transaction gave back comes with a later
    time) or taken off its end by an undo; and a counted bag's receipts, which the replay puts
    back before its count, never change. So a hit reads one aggregate, not the whole log."""
    log = TableAction.objects.filter(table=table).aggregate(
        last=Max("id"), at=Max("created_at"), n=Count("id"))
    at = log["at"].isoformat() if log["at"] is not None else ""
    key = f"austerity:before:{table.pk}:{log['last']}:{at}:{log['n']}:{hidden}"
    found = cache.get(key)
    if found is not None:
        return dict(found)
    view = engine_of(table).view(_state_before(table, hidden), PUBLIC)
    cache.set(key, view, BEFORE_SECONDS)
    return view


def _state_before(table: Table, hidden: int) -> GameState:
    """The table's game without the last ``hidden`` actions of its log."""
    actions = record_actions(table, open_bags=False)
    engine = engine_of(table)
    state, _e = engine.replay_actions(engine.new_game(table.config, table.seed),
                                      actions[:len(actions) - hidden])
    return state


def _before_year_end(table: Table, year: int) -> dict[str, Any] | None:
    """The public view of the table as ``year``'s last draw left it, before its Year End
    (``rules.before_year_end``); None if the record does not reach that Year End (a game
    lost during a draw). Kept like :func:`_before`, keyed by the log it replays."""
    log = TableAction.objects.filter(table=table).aggregate(
        last=Max("id"), at=Max("created_at"), n=Count("id"))
    at = log["at"].isoformat() if log["at"] is not None else ""
    key = f"austerity:before-year-end:{table.pk}:{log['last']}:{at}:{log['n']}:{year}"
    found = cache.get(key)
    if found is not None:
        return dict(found) if found else None
    held = _state_before_year_end(table, year)
    view = engine_of(table).view(held, PUBLIC) if held is not None else None
    cache.set(key, view or {}, BEFORE_SECONDS)
    return view


def _state_before_year_end(table: Table, year: int) -> GameState | None:
    """The table's game as ``year``'s last draw left it, before its Year End; None if the
    record does not reach that Year End."""
    engine = engine_of(table)
    state = engine.new_game(table.config, table.seed)
    for action in record_actions(table, open_bags=False):
        if state.year == year and not engine.is_over(state):
            held = before_year_end(state, action)
            if held is not None:
                return held
        state, _e = engine.replay_actions(state, [action])
        if state.year > year:
            break
    return None


def held_back(table: Table, state: GameState) -> GameState | None:
    """The game as the table's screens show it while an outcome waits for the teacher's
    step (``Lesson.held_back``): at a budget item whose bag its last token counted, the game
    without the count's actions (itself when the count changed nothing: its result is still
    held); in the year, once the table is done with it, the board as the year's last draw
    left it, before Year End. None otherwise (a game lost in a draw shows at once)."""
    session = table.session
    if session.status != ClassSession.Status.RUNNING:
        return None
    year = script.year_of(session)
    item = script.STAGE_ITEMS.get(session.stage)
    if item is not None:
        bag = table.bags.filter(decision=script.decision_id(year, item),
                                status=Bag.Status.COUNTED).first()
        if bag is None:
            return None
        hidden = sum(1 for payload in TableAction.objects.filter(
            table=table, step_id=bag.counted_by_id, actor=Actor.TEACHER
        ).values_list("payload", flat=True) if action_item(payload) == item)
        return _state_before(table, hidden) if hidden else state
    if session.stage == script.YEAR and script.year_done(state, year):
        return _state_before_year_end(table, year)
    return None


def session_options(session: ClassSession) -> dict[str, Any]:
    """The lesson's options the screens name (the year's steps, the lobby's seating)."""
    return {"options": dict(session.options),
            "policies": bool(session.options.get("policies")),
            "extra_institutions": bool(session.options.get("extra_institutions"))}


def table_facts(table: Table) -> dict[str, Any]:
    """One table's budget session this year: each item counted (what it decided, how many
    voted), the open item's progress, and an item held back (``pending``, with the board
    ``before`` its count)."""
    session = table.session
    facts: dict[str, Any] = {"items": [], "pending": None, "before": None, "vote": None,
                             "open": None, "motion": None}
    if session.status == ClassSession.Status.LOBBY:
        return facts
    year = script.year_of(session)
    voters = len(parties.voters(table_seats(table)))
    # Every bag of the year: the budget session's, and a motion's or a decision's ballot.
    bags = list(table.bags.filter(decision__startswith=f"y{year}.")
                .annotate(voted=Count("receipts")).order_by("id"))
    steps = {b.counted_by_id for b in bags if b.counted_by_id is not None}
    counted: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for step_id, payload in (TableAction.objects.filter(
            table=table, step_id__in=steps, actor=Actor.TEACHER)
            .order_by("seq").values_list("step_id", "payload")):
        item = action_item(payload)
        if item is not None:
            counted.setdefault((step_id, item), []).append(payload)
    play = modes.read_play(table)
    # Each count as the lesson kept it: whether the tie rule decided it, and the tally the
    # platform published (neither under 3 ballots); a decision's last count is its own.
    kept = {c["decision"]: c for c in (play.counts if play is not None else [])}
    now = _stage_index(session.stage)
    for bag in bags:
        item = script.item_of(bag.decision)
        if bag.status == Bag.Status.OPEN:  # any ballot's progress (a budget item's, a motion's...)
            facts["open"] = {"decision": bag.decision, "voted": bag.voted, "of": voters}
        if item not in script.BUDGET_ITEMS:
            if (bag.status == Bag.Status.COUNTED and modes.ballot_kind(bag.decision)
                    == modes.MOTION and bag.decision in kept):
                # the year's last motion counted: what it decided, as the count kept it
                count = kept[bag.decision]
                facts["motion"] = {"decision": bag.decision, "choice": count["choice"],
                                   "voted": bag.voted, "of": voters,
                                   "tally": count.get("tally"), "tie": bool(count.get("tie"))}
            continue  # a motion's or a decision's ballot, not the session's
        if bag.status == Bag.Status.OPEN:
            facts["vote"] = {"item": item, "decision": bag.decision,
                             "options": list(bag.options), "voted": bag.voted, "of": voters}
            continue
        payloads = counted.get((bag.counted_by_id or 0, item), [])
        index = script.BUDGET_ITEMS.index(item)
        if index < now or session.stage == script.FINAL:
            facts["items"].append({"item": item, "choice": item_choice(item, payloads),
                                   "voted": bag.voted, "of": voters,
                                   "tie": bool(kept.get(bag.decision, {}).get("tie")),
                                   "tally": kept.get(bag.decision, {}).get("tally")})
        elif index == now:
            facts["pending"] = {"item": item, "voted": bag.voted, "of": voters}
            if payloads:
                facts["before"] = _before(table, len(payloads))
    facts["items"].sort(key=lambda c: script.BUDGET_ITEMS.index(c["item"]))
    if session.stage == script.YEAR:
        # A table done with its year waits for the teacher's Year End: until then its
        # screens show the board as the year's last draw left it, and say Year End is next.
        state = kit.remembered(("austerity.state", table.pk), lambda: load_state(table))
        if script.year_done(state, year):
            held = _before_year_end(table, year)
            if held is not None:
                facts["before"], facts["year_end_held"] = held, True
    return facts


def seat_facts(session: ClassSession, seat: Seat, table: Table) -> dict[str, Any]:
    """One phone: its table's facts, and whether its token is in the open bag (so a
    reloaded phone shows that, not the ballot again)."""
    open_bag = platform_bags.open_bag(table)  # read once per screen (table_reads)
    voted = open_bag is not None and seat.pk in platform_bags.voter_ids(open_bag)
    # The table's part, read once for the phones rendered together (``phone_screens``). It
    # holds codes and the engine's English sources, never translated words: one read serves
    # every language.
    screens = kit.remembered(("austerity.facts", table.pk), lambda: table_facts(table))
    return {"screens": screens,
            "can": {"voted": voted,
                    "vote": open_bag.decision if open_bag is not None and not voted else None}}
