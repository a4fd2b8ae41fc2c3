"""Starting a lesson: the class is seated at tables as the module's seating says."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator import broadcast, clock
from facilitator.errors import ServiceError
from facilitator.lessons.base import Lesson
from facilitator.log import load_state, opening_transfers, record_transfers, save_state
from facilitator.models import ClassSession, Seat, Table
from facilitator.seating import SeatingPlan
from facilitator.services.sessions import locked_session, record_step
from facilitator.services.settle import table_settle
from games.registry import get_engine

Status = ClassSession.Status


@transaction.atomic
def session_start(*, session: ClassSession, fill: str | None = None,
                  seed: int | None = None) -> list[Table]:
    """Seat the class at tables (the module's sizes) and open its first stage. ``fill``:
    "bots" (bots take the empty places) or "pairs" (some students share a classmate's phone).

    Seating and each table's seed come from ``random.SystemRandom`` unless a ``seed`` is
    injected (tests, demos), which makes the whole lesson reproducible.
    """
    session = locked_session(session)
    lesson = session.lesson
    if session.status != Status.LOBBY:
        raise ServiceError("already_started", _("This lesson has already started."))
    if fill not in (None, "bots", "pairs"):
        raise ServiceError("bad_fill", _("Choose bots or pairs."))
    if fill == "bots" and not session.options.get("bots_allowed", True):
        raise ServiceError("bots_not_allowed", _("Bots are switched off for this lesson."))
    students = list(session.seats.filter(removed=False, is_bot=False))
    if not students:
        raise ServiceError("empty", _("Nobody has joined yet."))
    plan = lesson.seating(len(students), fill, session.options)
    if plan is None:
        raise ServiceError("needs_fill" if fill is None else "cannot_seat",
                           lesson.seating_error(len(students), fill, session.options))
    rng = random.SystemRandom() if seed is None else random.Random(seed)
    students.sort(key=lambda s: s.pk)
    rng.shuffle(students)
    partners = [students.pop() for _ in range(plan.pairs)]
    taken = {s.nickname.casefold() for s in students + partners}
    seats: list[Seat] = list(students)
    policy = lesson.bot_policy(session.options)
    for i in range(plan.bots):
        seats.append(_new_bot(session, taken, i + 1, policy))
    rng.shuffle(seats)
    if plan.parties:  # each table: its students, then its own bots in its last places
        seats = _by_table(seats, plan)
    elif plan.party_size > 1:  # bots take the last places: whole bot teams, or the last gap
        seats.sort(key=lambda s: s.is_bot)
    tables: list[Table] = []
    start = 0
    shared = iter(partners)
    engine = get_engine(session.game)
    seeds = lesson.table_seeds(session.options, [rng.randrange(2**62) for _ in plan.tables])
    for number, size in enumerate(plan.tables, start=1):
        members = seats[start:start + size]
        start += size
        table = Table.objects.create(session=session, number=number, seed=seeds[number - 1],
                                     config={})
        names: list[str] = []
        if plan.parties:
            names = _seat_parties(lesson, table, members, plan.parties[number - 1])
        for position, seat in enumerate(members if not plan.parties else []):
            seat.table, seat.position = table, position
            seat.player_name = seat.nickname
            if plan.party_size > 1:  # a team: consecutive seats play one engine player
                seat.player_name = lesson.party_name(position // plan.party_size)
                seat.save(update_fields=["table", "position", "player_name"])
                if seat.player_name not in names:
                    names.append(seat.player_name)
                continue
            if not seat.is_bot and (partner := next(shared, None)) is not None:
                seat.player_name = _unique(f"{seat.nickname} & {partner.nickname}", taken)
                partner.table, partner.shares, partner.player_name = table, seat, ""
                partner.save(update_fields=["table", "shares", "player_name"])
            seat.save(update_fields=["table", "position", "player_name"])
            names.append(seat.player_name)
        table.config = lesson.table_config(names, session.options)
        table.save(update_fields=["config"])
        state = engine.new_game(table.config, table.seed)
        record_transfers(table, opening_transfers(table, state), None)
        save_state(table, state)
        tables.append(table)
    before = (session.stage, session.round)
    session.status, session.stage, session.started_at = (Status.RUNNING, lesson.first_stage,
                                                         clock.now())
    session.save(update_fields=["status", "stage", "started_at"])
    step = record_step(session, "start", *before)
    for table in tables:
        state = lesson.on_start(table, load_state(table), step)
        table_settle(table, session, step, state)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return tables


def _by_table(seats: list[Seat], plan: SeatingPlan) -> list[Seat]:
    """``seats`` in table order: each table's share of the students, then its bots."""
    students = iter([s for s in seats if not s.is_bot])
    bots = iter([s for s in seats if s.is_bot])
    out: list[Seat] = []
    for size, n_bots in zip(plan.tables, plan.table_bots, strict=True):
        out += [next(students) for _ in range(size - n_bots)] + [next(bots) for _ in range(n_bots)]
    return out


def _seat_parties(lesson: Lesson, table: Table, members: list[Seat],
                  sizes: tuple[int, ...]) -> list[str]:
    """Seat ``members`` at ``table`` as parties of ``sizes`` in seat order: a party of one
    plays under its nickname, a team under the module's ``party_name`` (teams counted at the
    table). The table's bots are its last parties, each of one seat. Returns the engine
    players' names in seat order."""
    names: list[str] = []
    position, teams = 0, 0
    for size in sizes:
        group = members[position:position + size]
        name = group[0].nickname
        if size > 1:
            name, teams = lesson.party_name(teams), teams + 1
        for seat in group:
            seat.table, seat.position, seat.player_name = table, position, name
            seat.save(update_fields=["table", "position", "player_name"])
            position += 1
        names.append(name)
    return names


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name (2)``, ``(3)``… if a classmate is already called that."""
    candidate, n = name, 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate.casefold())
    return candidate


def _new_bot(session: ClassSession, taken: set[str], n: int, policy: str) -> Seat:
    name = _("Bot %(n)d") % {"n": n}
    while name.casefold() in taken:
        n += 1
        name = _("Bot %(n)d") % {"n": n}
    taken.add(name.casefold())
    return Seat.objects.create(session=session, nickname=name, is_bot=True, bot_policy=policy,
                               joined_at=clock.now())
