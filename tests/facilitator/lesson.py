"""Helpers that drive a whole lesson through the services, as the sockets would."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model

from facilitator import services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.pacing import tie_shown
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state, load_view_state
from facilitator.models import ClassSession, Seat, Table
from facilitator.services import settle

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou",
         "Max", "Ned", "Oli", "Pam", "Quy", "Rex", "Sam", "Tia", "Uma", "Val", "Wes", "Xia",
         "Yan", "Zoe", "Abe", "Bea", "Cal", "Dot", "Eve", "Fox"]


def make_teacher(username: str = "teacher") -> Any:
    return get_user_model().objects.create_user(username=username, password="x-" + username)


def make_session(teacher: Any = None, **kwargs: Any) -> ClassSession:
    return services.session_create(owner=teacher or make_teacher(), **kwargs)


def join(session: ClassSession, count: int) -> dict[str, str]:
    """``count`` students join; returns nickname -> seat token."""
    tokens = {}
    for name in NAMES[:count]:
        _seat, token = services.seat_join(code=session.join_code, nickname=name)
        tokens[name] = token
    return tokens


def fresh(session: ClassSession) -> ClassSession:
    return ClassSession.objects.get(pk=session.pk)


def humans(table: Table) -> list[Seat]:
    return list(table.seats.filter(is_bot=False, removed=False, shares__isnull=True)
                .order_by("position"))


def vote_all(session: ClassSession, kind: str, rng: random.Random,
             options: list[str]) -> None:
    session = fresh(session)
    for table in session.tables.all():
        if load_state(table).phase == "over":  # the State failed at this table
            continue
        for seat in humans(table):
            services.ballot_cast(seat_id=seat.pk, kind=kind, option=rng.choice(options),
                                 expected=session.stage_id)


def break_ties(session: ClassSession, rng: random.Random) -> None:
    """Each tie's decider decides, once the class sees the count (``pacing.tie_shown``)."""
    if not tie_shown(fresh(session).stage):
        return
    for table in fresh(session).tables.all():
        for _ in range(10):
            table.refresh_from_db()
            state = load_state(table)
            if state.phase != "tie_break":
                break
            decider = table.seats.get(player_name=state.tie.deciders[0])
            choices = [*state.tie.options, *([None] if state.tie.kind == "tax" else [])]
            sic_services.tie_break_submit(seat_id=decider.pk, choice=rng.choice(choices))


def play_lesson(session: ClassSession, rng: random.Random, *, tax_options: list[str] | None = None,
                fill: str | None = None) -> ClassSession:
    """From the lobby to the final count, every student acting through the services."""
    services.session_start(session=session, fill=fill)
    session = fresh(session)
    for table in session.tables.all():
        for seat in humans(table):
            sic_services.pact_submit(seat_id=seat.pk, coins=rng.randrange(4),
                                 expected=session.stage_id)
    while fresh(session).stage != Stage.FINAL:
        session = fresh(session)
        if session.stage == Stage.TAX_VOTE:
            vote_all(session, "tax", rng, tax_options or ["A", "B", "C", "D"])
        elif session.stage == Stage.BUDGET_VOTE:
            vote_all(session, "budget", rng, ["health", "education", "shield"])
        break_ties(session, rng)
        services.session_advance(confirm=True, session=session, expected=fresh(session).stage_id)
    return fresh(session)


# --------------------------------------------------------------------------- test helpers


def deterministic(monkeypatch: Any, seed: int = 1) -> None:
    """Seat shuffles, table seeds and bots' votes from ``random.Random(seed)`` instead of
    SystemRandom, and bots vote exactly as their policy says (no random votes)."""
    rng = random.Random(seed)
    monkeypatch.setattr(settle.random, "SystemRandom", lambda: rng)
    monkeypatch.setattr(settle, "BOT_VOTE_NOISE", 0.0)


def started(count: int, *, fill: str | None = None, teacher: Any = None,
            **kwargs: Any) -> tuple[ClassSession, dict[str, str]]:
    """A session with ``count`` students, started (the pact is open)."""
    session = make_session(teacher, **kwargs)
    tokens = join(session, count)
    services.session_start(session=session, fill=fill)
    return fresh(session), tokens


def advance(session: ClassSession) -> ClassSession:
    session = fresh(session)
    return services.session_advance(confirm=True, session=session, expected=session.stage_id)


def seat(session: ClassSession, nickname: str) -> Seat:
    return Seat.objects.get(session=session, nickname=nickname)


def state_of(table: Table) -> Any:
    """The table's state as the screens see it (with an open bag's receipts)."""
    table.refresh_from_db()
    return load_view_state(table)


def open_tally(table: Table) -> dict[str, int]:
    """What the open bag of ``table`` holds, option by option (every option listed): opened
    with its key, which this process holds (the tests serve the lesson)."""
    from facilitator import bags, sealing

    bag = bags.open_bag(table)
    assert bag is not None, "no open bag"
    key = bags.bag_key(bag)
    assert key is not None, "this process does not hold the bag's key"
    tally = dict.fromkeys(bag.options, 0)
    for sealed in bag.sealed.values_list("sealed", flat=True):
        tally[bag.options[sealing.unseal(key, bag.key_ref, bytes(sealed))[0]]] += 1
    return tally


def receipts(**filters: Any) -> Any:
    """Ballot receipts (who voted in which bag), filtered like a queryset."""
    from facilitator.models import BallotReceipt

    return BallotReceipt.objects.filter(**filters)


def all_pacts(session: ClassSession, coins: int = 1) -> None:
    session = fresh(session)
    for table in session.tables.all():
        for s in humans(table):
            sic_services.pact_submit(seat_id=s.pk, coins=coins, expected=session.stage_id)


def at_debate(**options: Any) -> ClassSession:
    """A started lesson of 8 at its first debate (the pacts made), with lesson ``options``."""
    session, _tokens = started(8, options=options)
    all_pacts(session)
    return advance(advance(session))


def drive_to(session: ClassSession, stage: str, round_: int, *,
             rng: random.Random | None = None) -> ClassSession:
    """Advance (everyone making every decision at random) until ``(round_, stage)``."""
    rng = rng or random.Random(0)
    session = fresh(session)
    if session.stage == Stage.PACT:
        all_pacts(session)
    while (fresh(session).round, fresh(session).stage) != (round_, stage):
        assert fresh(session).stage != Stage.FINAL, "went past the target"
        _decide_and_advance(session, rng)
    return fresh(session)


def _decide_and_advance(session: ClassSession, rng: random.Random) -> None:
    """Everyone makes the decisions of this moment at random; the teacher moves on."""
    session = fresh(session)
    if session.stage == Stage.TAX_VOTE:
        vote_all(session, "tax", rng, ["A", "B", "C", "D"])
    elif session.stage == Stage.BUDGET_VOTE:
        vote_all(session, "budget", rng, ["health", "education", "shield"])
    break_ties(session, rng)
    advance(session)


def drive_to_the_end(session: ClassSession, *, rng: random.Random | None = None
                     ) -> ClassSession:
    """Advance, everyone deciding at random, until the final count (in round 8, or earlier
    if the State fails at every table)."""
    rng = rng or random.Random(0)
    session = fresh(session)
    if session.stage == Stage.PACT:
        all_pacts(session)
    while fresh(session).stage != Stage.FINAL:
        _decide_and_advance(session, rng)
    return fresh(session)


def dump_facilitator() -> dict[str, list[dict[str, Any]]]:
    """Every row of every facilitator model (and the sessions), to compare before/after."""
    from django.apps import apps

    # ``undone`` (the notice of the last Undo) and ``timer`` (the debate's countdown) are the
    # screens' state, not the lesson's.
    return {model._meta.label: [{k: v for k, v in row.items() if k not in ("undone", "timer")}
                                for row in model.objects.order_by("pk").values()]
            for model in apps.get_app_config("facilitator").get_models()}


def vote_as(session: ClassSession, kind: str, policy: str = "civic", seed: int = 0) -> None:
    """Every student votes as a bot of ``policy`` would in their place (sensible play)."""
    from games.state_in_class.bots import get_policy

    session = fresh(session)
    for table in session.tables.all():
        if state_of(table).phase == "over":
            continue
        for s in humans(table):
            state = state_of(table)
            option = get_policy(policy).vote(state, state.player(s.player_name), kind,
                                             random.Random(f"{seed}:{s.pk}"))
            services.ballot_cast(seat_id=s.pk, kind=kind, option=option,
                                 expected=session.stage_id)
