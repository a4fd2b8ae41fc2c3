"""Services write: every change to a lesson goes through one of these atomic functions.

Each takes keyword arguments only, checks everything first, raises ``ServiceError`` with a
specific code and message (and then nothing has changed), and tells the sockets what changed
only after the transaction commits. Actions on one table are serialised by the table's row
lock (PostgreSQL) or SQLite's immediate transactions; teacher actions lock the session first.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import secrets
import unicodedata
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import bags, broadcast, seating
from facilitator.clock import now
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class.pacing import ROUND_STAGES, failure_moment, moment
from facilitator.log import (
    apply_action,
    engine_error,
    load_state,
    opening_transfers,
    record_transfers,
    replay_table,
    save_state,
)
from facilitator.models import (
    CLASS_SIZE_DEFAULT,
    CLASS_SIZE_MAX,
    CLASS_SIZE_MIN,
    Bag,
    BallotReceipt,
    ClassSession,
    Seat,
    Table,
    TableAction,
    TeacherStep,
)
from games.core import InvalidAction, get_engine
from games.state_in_class import bots as sic_bots
from games.state_in_class import data as sic_data

Stage = ClassSession.Stage
Status = ClassSession.Status
Actor = TableAction.Actor

# No look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B.
JOIN_CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
JOIN_CODE_LENGTH = 6
NICKNAME_MAX = 20
DEFAULT_OPTIONS: dict[str, Any] = {"bots_allowed": True, "debate_seconds": 120,
                                   "bot_policy": "civic"}
VOTE_STAGES = {Stage.TAX_VOTE: "tax", Stage.BUDGET_VOTE: "budget"}
VOTE_OPTIONS = {"tax": sic_data.TAX_OPTIONS, "budget": sic_data.SERVICES}


# --------------------------------------------------------------------------- tokens


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seat_token() -> tuple[str, str]:
    """A fresh seat token (256 random bits) and the hash we store."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def normalise_code(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").upper()


# --------------------------------------------------------------------------- sessions


def session_create(*, owner: AbstractBaseUser, title: str = "",
                   game: str = ClassSession.Game.STATE_IN_CLASS, language: str = "en",
                   options: dict[str, Any] | None = None,
                   class_size: int = CLASS_SIZE_DEFAULT) -> ClassSession:
    if game not in ClassSession.Game.values:
        raise ServiceError("unknown_game", _("That game is not available."))
    if language not in dict(ClassSession._meta.get_field("language").choices):
        raise ServiceError("unknown_language", _("That language is not available."))
    # Fix: options that are not an object (e.g. a list) raised TypeError instead of an error.
    if options is not None and not isinstance(options, dict):
        raise ServiceError("bad_options", _("Lesson options must be named settings."))
    merged = {**DEFAULT_OPTIONS, **(options or {})}
    _check_options(merged)
    if (not isinstance(class_size, int) or isinstance(class_size, bool)
            or not CLASS_SIZE_MIN <= class_size <= CLASS_SIZE_MAX):
        raise ServiceError("bad_class_size", _("The class size must be between %(min)d and "
                                               "%(max)d students.")
                           % {"min": CLASS_SIZE_MIN, "max": CLASS_SIZE_MAX})
    for _attempt in range(20):
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        try:
            with transaction.atomic():
                return ClassSession.objects.create(
                    owner=owner, title=title.strip()[:120], game=game, language=language,
                    options=merged, class_size=class_size, join_code=code,
                    created_at=now())
        except IntegrityError:
            continue  # the code is taken by another open session: draw again
    raise ServiceError("no_join_code", _("Could not find a free join code; try again."),
                       status=503)


def _check_options(options: dict[str, Any]) -> None:
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise ServiceError("bad_options", _("Unknown lesson options: %(names)s.")
                           % {"names": ", ".join(sorted(unknown))})
    if not isinstance(options["bots_allowed"], bool):
        raise ServiceError("bad_options", _("'Bots allowed' must be yes or no."))
    seconds = options["debate_seconds"]
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 30 <= seconds <= 900:
        raise ServiceError("bad_options",
                           _("The debate timer must be between 30 and 900 seconds."))
    if options["bot_policy"] not in sic_bots.POLICIES:
        raise ServiceError("bad_options", _("Unknown bot behaviour."))


def _locked_session(session: ClassSession) -> ClassSession:
    return ClassSession.objects.select_for_update().get(pk=session.pk)


def _last_step(session: ClassSession) -> TeacherStep | None:
    return session.steps.order_by("-seq").first()


def _record_step(session: ClassSession, kind: str, stage_before: str, round_before: int
                 ) -> TeacherStep:
    last = session.steps.aggregate(m=Max("seq"))["m"] or 0
    return TeacherStep.objects.create(
        session=session, seq=last + 1, kind=kind, stage_before=stage_before,
        round_before=round_before, stage_after=session.stage, round_after=session.round,
        created_at=now())


# --------------------------------------------------------------------------- joining


# Characters that draw nothing although Unicode files them as letters or symbols (the Hangul
# fillers, the blank Braille cell): a name made of them looks empty, and one hidden in "Ana"
# makes a second "Ana" on the projector. No real nickname needs them.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# A name must show at least one of these: letters, numbers, punctuation, symbols. Marks
# (accents, variation selectors, joiners) draw only on a character before them.
VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def clean_nickname(raw: str) -> str:
    """Trimmed, inner spaces collapsed; 1–20 characters with at least one visible one; no
    control, format or blank-looking characters."""
    name = unicodedata.normalize("NFC", " ".join((raw or "").split()))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn") for ch in name):
        raise ServiceError("bad_nickname", _("Use letters, numbers and spaces in your nickname."))
    if not name:
        raise ServiceError("bad_nickname", _("Please type a nickname."))
    if not any(unicodedata.category(ch)[0] in VISIBLE_CATEGORIES and ch not in BLANK_LOOKING
               for ch in name):
        # Fix: a name of Hangul fillers (U+3164) or of marks alone was accepted: a blank.
        raise ServiceError("bad_nickname", _("Your nickname needs at least one letter, number "
                                             "or symbol that people can see."))
    if any(ch in BLANK_LOOKING for ch in name):
        raise ServiceError("bad_nickname", _("Use letters, numbers and spaces in your nickname."))
    if len(name) > NICKNAME_MAX:
        raise ServiceError("bad_nickname", _("Your nickname can have at most %(n)d characters.")
                           % {"n": NICKNAME_MAX})
    return name


def session_by_code(code: str) -> ClassSession:
    code = normalise_code(code)
    # Fix: prefer the open session holding the code. A finished session may share it (codes
    # are reused) and, created in the same instant, "newest first" could pick the closed one.
    session = (ClassSession.objects.filter(join_code=code, status__in=ClassSession.OPEN_STATUSES)
               .first()
               or ClassSession.objects.filter(join_code=code).order_by("-created_at").first())
    if session is None or len(code) != JOIN_CODE_LENGTH:
        raise ServiceError("wrong_code", _("There is no lesson with that code. Check the code "
                                           "on the board and try again."), status=404)
    if not session.is_open:
        raise ServiceError("closed_code", _("That lesson has ended."), status=410)
    return session


@transaction.atomic
def seat_join(*, code: str, nickname: str) -> tuple[Seat, str]:
    """A student joins the lobby; returns the seat and its token (for the phone's cookie)."""
    session = session_by_code(code)
    name = clean_nickname(nickname)
    # Fix: lock the session so a join cannot slip in while the teacher starts the lesson
    # (it would leave a seat with no table in a running lesson).
    session = _locked_session(session)
    if session.status != Status.LOBBY:
        raise ServiceError("already_started", _("This lesson has already started. Ask your "
                                                "teacher to give you a seat."), status=409)
    # Fix: compare case-insensitively in Python too: SQLite's iexact/LOWER() fold ASCII only,
    # so "ÉMILE" and "émile" both got in.
    taken = {n.casefold() for n in session.seats.filter(removed=False)
             .values_list("nickname", flat=True)}
    # Fix: there was no cap: 300 joins made 300 seats (38 tables at Start). The lobby holds
    # students only (bots come at Start, removed students are deleted), under the session lock.
    if len(taken) >= session.class_size:
        raise ServiceError("lesson_full", _("This lesson is full: all %(n)d places are taken. "
                                            "Ask your teacher.") % {"n": session.class_size},
                           status=409)
    if name.casefold() in taken:
        raise ServiceError("nickname_taken", _("Someone is already called %(name)s. Please "
                                               "choose another nickname.") % {"name": name},
                           status=409)
    token, token_hash = new_seat_token()
    try:
        with transaction.atomic():
            seat = Seat.objects.create(session=session, nickname=name, token_hash=token_hash,
                                       joined_at=now())
    except IntegrityError:
        raise ServiceError("nickname_taken", _("Someone is already called %(name)s. Please "
                                               "choose another nickname.") % {"name": name},
                           status=409) from None
    broadcast.refresh(session.pk)
    return seat, token


@transaction.atomic
def seat_remove(*, session: ClassSession, seat: Seat) -> None:
    """The teacher removes a student: gone from the lobby, or abstaining from now on."""
    session = _locked_session(session)
    _check_owned(session, seat)
    if seat.is_bot:
        raise ServiceError("is_bot", _("Bots cannot be removed."))
    if session.status not in ClassSession.OPEN_STATUSES:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    seat_id = seat.pk
    if session.status == Status.LOBBY:
        seat.delete()
    else:
        Seat.objects.filter(pk=seat_id).update(removed=True, token_hash=None, claim_hash=None)
        # Fix: the seat now abstains; if everyone else is already in the bag, count it now
        # (before, the vote stayed open until the teacher moved on).
        table = Table.objects.select_for_update().filter(pk=seat.table_id).first()
        if table is not None:
            _settle(table, session, _last_step(session))
    broadcast.seat_removed(seat_id)
    broadcast.refresh(session.pk)


@transaction.atomic
def seat_reseat(*, session: ClassSession, seat: Seat) -> str:
    """The token of a one-time "New phone" link for a seat (any earlier link stops working).

    The seat's phone keeps the seat until the link is used (``seat_claim``): a link made by
    mistake changes nothing.
    """
    session = _locked_session(session)
    _check_owned(session, seat)
    if seat.is_bot or seat.removed:
        raise ServiceError("cannot_reseat", _("That seat cannot be given to a phone."))
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    token, claim_hash = new_seat_token()
    Seat.objects.filter(pk=seat.pk).update(claim_hash=claim_hash)
    return token


@transaction.atomic
def seat_claim(*, token: str) -> tuple[Seat, str]:
    """A new phone uses a "New phone" link: it gets the seat with a fresh seat token (for its
    cookie), the link stops working, and the seat's earlier phone is signed out.

    Fix: the link was the seat token itself, so every phone that opened it became the seat
    (both saw its coins; the second voted as it).
    """
    used = ServiceError("claim_used", _("This link has already been used, or it has "
                                        "expired. Each link works once: ask your teacher for "
                                        "a new one."), status=410)
    if not token or len(token) > 200:
        raise used
    claim_hash = hash_token(token)
    seat = Seat.objects.select_related("session").filter(claim_hash=claim_hash,
                                                         removed=False).first()
    if seat is None or not seat.session.is_open:
        raise used
    new_token, token_hash = new_seat_token()
    # The claim is the update itself: of two phones using the link at once, one matches.
    if not Seat.objects.filter(pk=seat.pk, claim_hash=claim_hash, removed=False).update(
            token_hash=token_hash, claim_hash=None):
        raise used
    seat.token_hash, seat.claim_hash = token_hash, None
    broadcast.seat_removed(seat.pk)  # the earlier phone's socket is told and closed
    return seat, new_token


def _check_owned(session: ClassSession, seat: Seat) -> None:
    if seat.session_id != session.pk:
        raise ServiceError("not_found", _("That student is not in this lesson."), status=404)


# --------------------------------------------------------------------------- starting


@transaction.atomic
def session_start(*, session: ClassSession, fill: str | None = None,
                  seed: int | None = None) -> list[Table]:
    """Seat the class at tables of 6–8 and open the pact. ``fill``: "bots" or "pairs".

    Seating and each table's seed come from ``random.SystemRandom`` unless a ``seed`` is
    injected (tests, demos), which makes the whole lesson reproducible.
    """
    session = _locked_session(session)
    if session.status != Status.LOBBY:
        raise ServiceError("already_started", _("This lesson has already started."))
    if fill not in (None, "bots", "pairs"):
        raise ServiceError("bad_fill", _("Choose bots or pairs."))
    if fill == "bots" and not session.options.get("bots_allowed", True):
        raise ServiceError("bots_not_allowed", _("Bots are switched off for this lesson."))
    students = list(session.seats.filter(removed=False, is_bot=False))
    if not students:
        raise ServiceError("empty", _("Nobody has joined yet."))
    plan = seating.plan(len(students), fill)
    if plan is None:
        if fill is None:
            raise ServiceError("needs_fill", ngettext(
                "%(n)d student cannot be split into tables of 6 to 8. Fill the gaps with "
                "bots, or let some students share a seat.",
                "%(n)d students cannot be split into tables of 6 to 8. Fill the gaps with "
                "bots, or let some students share a seat.", len(students)) % {"n": len(students)})
        raise ServiceError("cannot_seat", ngettext(
            "%(n)d student cannot be seated that way.",
            "%(n)d students cannot be seated that way.", len(students)) % {"n": len(students)})
    rng = random.SystemRandom() if seed is None else random.Random(seed)
    students.sort(key=lambda s: s.pk)
    rng.shuffle(students)
    partners = [students.pop() for _ in range(plan.pairs)]
    taken = {s.nickname.casefold() for s in students + partners}
    seats: list[Seat] = list(students)
    for i in range(plan.bots):
        seats.append(_new_bot(session, taken, i + 1))
    rng.shuffle(seats)
    tables: list[Table] = []
    start = 0
    shared = iter(partners)
    for number, size in enumerate(plan.tables, start=1):
        members = seats[start:start + size]
        start += size
        table = Table.objects.create(session=session, number=number, seed=rng.randrange(2**62),
                                     config={})
        names = []
        for position, seat in enumerate(members):
            seat.table, seat.position = table, position
            seat.player_name = seat.nickname
            if not seat.is_bot and (partner := next(shared, None)) is not None:
                seat.player_name = _unique(f"{seat.nickname} & {partner.nickname}", taken)
                partner.table, partner.shares, partner.player_name = table, seat, ""
                partner.save(update_fields=["table", "shares", "player_name"])
            seat.save(update_fields=["table", "position", "player_name"])
            names.append(seat.player_name)
        table.config = {"players": names}
        table.save(update_fields=["config"])
        state = get_engine(session.game).new_game(table.config, table.seed)
        record_transfers(table, opening_transfers(state), None)
        save_state(table, state)
        tables.append(table)
    before = (session.stage, session.round)
    session.status, session.stage, session.started_at = Status.RUNNING, Stage.PACT, now()
    session.save(update_fields=["status", "stage", "started_at"])
    step = _record_step(session, "start", *before)
    for table in tables:
        _settle(table, session, step)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return tables


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name (2)``, ``(3)``… if a classmate is already called that."""
    candidate, n = name, 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate.casefold())
    return candidate


def _new_bot(session: ClassSession, taken: set[str], n: int) -> Seat:
    name = _("Bot %(n)d") % {"n": n}
    while name.casefold() in taken:
        n += 1
        name = _("Bot %(n)d") % {"n": n}
    taken.add(name.casefold())
    return Seat.objects.create(session=session, nickname=name, is_bot=True,
                               bot_policy=session.options.get("bot_policy", "civic"),
                               joined_at=now())


# --------------------------------------------------------------------------- the teacher


def session_advance(*, session: ClassSession, expected: str | None = None) -> ClassSession:
    """The teacher's one "next": every table moves on together (lock-step).

    A vote whose ballot key was lost (the server restarted mid-vote) cannot be counted: its
    bag is emptied and asked again first (committed), and the teacher is told why.
    """
    lost = bags_recover(session=session)
    if lost:
        raise ServiceError("votes_lost", ngettext(
            "The votes at table %(tables)s were lost when the server restarted: its students "
            "are asked to vote again.",
            "The votes at tables %(tables)s were lost when the server restarted: their "
            "students are asked to vote again.", len(lost)) % {
                "tables": ", ".join(map(str, lost))}, status=409)
    return _advance(session=session, expected=expected)


@transaction.atomic
def bags_recover(*, session: ClassSession) -> list[int]:
    """Reopen, empty, every open bag of the lesson whose key is lost; the table numbers.

    Run when the teacher's console connects and before a count, so that after a restart the
    phones are asked again at once. A process that cannot tell a lost key from a key held by
    another process (a shell, with the in-memory key store) changes nothing.
    """
    lost = []
    for bag in Bag.objects.filter(table__session=session, status=Bag.Status.OPEN
                                  ).select_related("table").order_by("table__number"):
        if bags.key_lost(bag):
            table = Table.objects.select_for_update().get(pk=bag.table_id)
            bags.bag_reopen(bag=bag, reason=bags.LOST)
            _settle(table, session, _last_step(session))  # the bots vote again
            lost.append(table.number)
    if lost:
        broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return lost


@transaction.atomic
def _advance(*, session: ClassSession, expected: str | None = None) -> ClassSession:
    session = _locked_session(session)
    _check_can_drive(session, expected)
    if session.stage == Stage.LOBBY:
        raise ServiceError("not_started", _("Start the lesson first."))
    if session.stage == Stage.FINAL:
        raise ServiceError("read_only", _("The lesson is over."))
    tables = list(session.tables.select_for_update().order_by("number"))
    states = {t.pk: load_state(t) for t in tables}
    before = (session.stage, session.round)
    stage, rnd = session.stage, session.round
    live = [t for t in tables if states[t.pk].phase != "over"]
    waiting = [t.number for t in live if states[t.pk].phase == "tie_break"]
    if waiting and stage in (Stage.PAY, Stage.END_OF_ROUND):
        raise ServiceError("tie_break_pending", ngettext(
            "Waiting for a tie-break at table %(tables)s.",
            "Waiting for tie-breaks at tables %(tables)s.", len(waiting)) % {
                "tables": ", ".join(map(str, waiting))})
    if stage == Stage.MIDLIFE and session.cards_read < _cards_to_read(tables, states, rnd):
        _record_step(session, "card", *before)  # the next card at every table: no action
        broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
        return session
    # Fix: leave the normal sequence only when the State failed at every table. A last budget
    # vote that closes itself (everyone voted) also ends a game, and "next" then skipped
    # round 8's end of round (the last split) straight to the final count.
    nxt, nrnd = _next_stage(stage, rnd)
    if not live and all(states[t.pk].failed for t in tables):
        nxt, nrnd = _after_failure(session, tables, states, (nxt, nrnd))
    session.stage, session.round, session.undone = nxt, nrnd, None
    if nxt == Stage.DEBATE:
        session.timer = {"ends_at": now().timestamp() + session.options.get(
            "debate_seconds", DEFAULT_OPTIONS["debate_seconds"]), "left": None}
    if nxt == Stage.FINAL:
        session.status, session.finished_at = Status.FINISHED, now()
    session.save(update_fields=["stage", "round", "status", "finished_at", "undone", "timer"])
    step = _record_step(session, "next", *before)
    for table in live:
        state = states[table.pk]
        if stage == Stage.PACT:
            state = _close_pact(table, state, step)
        elif stage in VOTE_STAGES:
            state = _close_vote(table, state, VOTE_STAGES[stage], step, Actor.TEACHER)
        if nxt in VOTE_STAGES:
            _open_vote(table, state, VOTE_STAGES[nxt], step)
        state = _settle(table, session, step, state)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


def _next_stage(stage: str, rnd: int) -> tuple[str, int]:
    """The lesson's stage sequence (round 4 is the Midlife Crossroads: no debate, no votes)."""
    if stage == Stage.PACT:
        return Stage.EVENT, 1
    if stage == Stage.EVENT:
        return (Stage.MIDLIFE if rnd == sic_data.MIDLIFE_ROUND else Stage.DEBATE), rnd
    if stage in (Stage.BUDGET_VOTE, Stage.MIDLIFE):
        return Stage.END_OF_ROUND, rnd
    if stage == Stage.END_OF_ROUND:
        return (Stage.FINAL, rnd) if rnd >= sic_data.ROUNDS else (Stage.EVENT, rnd + 1)
    following = {Stage.DEBATE: Stage.TAX_VOTE, Stage.TAX_VOTE: Stage.PAY,
                 Stage.PAY: Stage.BUDGET_VOTE}
    return following[stage], rnd


def _cards_to_read(tables: list[Table], states: dict[int, Any], rnd: int) -> int:
    """The most Midlife cards drawn at any table in round ``rnd`` (a table whose State
    failed at a card drew no more)."""
    drawn = [len(states[t.pk].history[rnd - 1].get("midlife") or [])
             for t in tables if len(states[t.pk].history) >= rnd]
    return max(drawn, default=0)


def _after_failure(session: ClassSession, tables: list[Table], states: dict[int, Any],
                   normal: tuple[str, int]) -> tuple[str, int]:
    """The State failed at every table: walk on to the moment of the (last) failure, so the
    class sees it happen, then go to the final count."""
    moments = [failure_moment(True, states[t.pk].round, states[t.pk].history)
               for t in tables if states[t.pk].failed]
    target = max((m for m in moments if m), default=None)
    if target and moment(session.round, session.stage, session.cards_read) < target:
        nxt, nrnd = normal
        if moment(nrnd, nxt) > target:
            return ROUND_STAGES[target[1]], target[0]
        return normal
    return Stage.FINAL, session.round


def _check_can_drive(session: ClassSession, expected: str | None) -> None:
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    if session.paused:
        raise ServiceError("paused", _("The lesson is paused. Resume it first."))
    if expected is not None and expected != session.phase_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)


def _close_pact(table: Table, state: Any, step: TeacherStep) -> Any:
    """Whoever has not contributed when the teacher moves on contributes nothing."""
    for p in state.players:
        if state.phase == "pact" and p.pact is None:
            state, _e = apply_action(table, state, {"type": "pact", "player": p.name,
                                                    "coins": 0}, actor=Actor.TEACHER, step=step)
    return state


def decision_id(round_: int, kind: str) -> str:
    """The secret decision a bag settles: round 3's tax vote is ``"3:tax"``."""
    return f"{round_}:{kind}"


def _open_vote(table: Table, state: Any, kind: str, step: TeacherStep) -> None:
    bags.bag_open(table=table, decision=decision_id(state.round, kind),
                  options=list(VOTE_OPTIONS[kind]), step=step)


def _close_vote(table: Table, state: Any, kind: str, step: TeacherStep | None,
                actor: str) -> Any:
    """Empty the bag: the engine meets its receipts (by seat) and its tally (absentees
    abstain). The sealed ballots and the key are gone afterwards."""
    if state.phase != f"{kind}_vote":
        return state
    bag = bags.open_bag(table)
    if bag is None or bag.decision != decision_id(state.round, kind):
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    key = bags.bag_key(bag)
    if key is None:
        raise bags.key_unreachable()
    engine = get_engine(table.session.game)
    names = bags.voter_names(bag)
    try:
        state, _e = engine.replay_actions(
            state, [{"type": "ballot", "kind": kind, "player": n} for n in names])
    except InvalidAction as exc:
        raise engine_error(exc) from None
    tally = bags.bag_count(bag=bag, key=key, step=step)
    state, _e = apply_action(table, state, {"type": "count", "kind": kind, "tally": tally},
                             actor=actor, step=step)
    return state


def _table_seats(table: Table) -> list[Seat]:
    """The table's seats, read once per service call (they do not change within one)."""
    return sorted(table.seats.all(), key=lambda s: s.position or 0)


def _settle(table: Table, session: ClassSession, step: TeacherStep | None,
            state: Any = None, seats: list[Seat] | None = None) -> Any:
    """Let bots make every decision now due, close a full bag, and save the snapshot."""
    state = load_state(table) if state is None else state
    seats = _table_seats(table) if seats is None else seats
    bots = [s for s in seats if s.is_bot]
    for _round in range(64):  # bounded: each pass makes at least one decision
        acted = False
        kind = VOTE_STAGES.get(session.stage)
        bag = bags.open_bag(table) if kind and state.phase == f"{kind}_vote" else None
        voted = bags.voter_ids(bag) if bag is not None else set()
        for seat in bots:
            if bag is not None and kind is not None:
                if seat.pk not in voted:
                    _bot_ballot(bag, state, seat, kind)
                    voted.add(seat.pk)
                    acted = True
                continue
            decision = _bot_decision(table, session, state, seat)
            if decision is None:
                continue
            acted = True
            state, _e = apply_action(table, state, decision, actor=Actor.BOT, seat=seat,
                                     step=step)
        if bag is not None and kind is not None and _everyone_voted(seats, voted):
            state = _close_vote(table, state, kind, step, Actor.TEACHER)
            acted = True
        if _removed_decider_passes(seats, state):
            # A removed student cannot say whether their vote was among the tied options:
            # they pass, and the next lowest Income decides (a budget tie, where nobody may
            # pass, waits for the teacher to decide for them).
            state, _e = apply_action(table, state, {"type": "tie_break",
                                                    "player": state.tie.deciders[0],
                                                    "choice": None},
                                     actor=Actor.TEACHER, step=step)
            acted = True
        if not acted:
            break
    save_state(table, state)
    return state


def _deciders(state: Any, seats: list[Seat]) -> list[int]:
    """The phones whose screen a count changes: a tie's decider, who is asked to choose.

    Performance (docs/performance.md): every other phone shows the same screen before and
    after its table's bag is counted (phones are paced to the teacher's stage: the result and
    the payments appear when the teacher reveals the count), so they are not re-rendered;
    re-rendering a whole table at every count was a third of a ballot's server time.
    ``tests/facilitator/test_pacing_at_count.py`` holds the services to that.
    """
    if state.phase != "tie_break" or state.tie is None:
        return []
    return [s.pk for s in seats if s.player_name == state.tie.deciders[0]]


def _removed_decider_passes(seats: list[Seat], state: Any) -> bool:
    if state.phase != "tie_break" or state.tie is None or state.tie.kind != "tax":
        return False
    return any(s.player_name == state.tie.deciders[0] and s.removed for s in seats)


def _bot_decision(table: Table, session: ClassSession, state: Any, seat: Seat
                  ) -> dict[str, Any] | None:
    engine = get_engine(session.game)
    legal = engine.legal_actions(state, seat.player_name)
    if not legal:
        return None
    policy = sic_bots.get_policy(seat.bot_policy or "civic")
    me = state.player(seat.player_name)
    rng = random.Random(f"{table.seed}:{seat.position}:{state.round}:{state.phase}")
    kind = legal[0]["type"]
    if kind == "pact" and session.stage == Stage.PACT:
        return {"type": "pact", "player": me.name, "coins": policy.pact(state, me, rng)}
    if kind == "tie_break":
        return {"type": "tie_break", "player": me.name,
                "choice": policy.tie_break(state, me, state.tie.kind, list(state.tie.options),
                                           rng)}
    return None


# One bot vote in four is drawn at random among the options, whatever the bot's policy:
# a policy that always votes the same way could otherwise be subtracted from the tally.
BOT_VOTE_NOISE = 0.25


def _bot_ballot(bag: Bag, state: Any, seat: Seat, kind: str) -> None:
    """A bot's token, drawn from randomness that is never stored (the operating system's),
    so nobody can recompute it from the database and subtract it from the tally."""
    rng = random.SystemRandom()
    options = bag.options
    if rng.random() < BOT_VOTE_NOISE:
        option = rng.choice(options)
    else:
        policy = sic_bots.get_policy(seat.bot_policy or "civic")
        option = policy.vote(state, state.player(seat.player_name), kind, rng)
    key = bags.bag_key(bag)
    if key is None:
        raise bags.key_unreachable()
    bags.bag_cast(bag=bag, seat=seat, index=options.index(option), key=key)


def _active(seats: list[Seat]) -> list[Seat]:
    """Who votes at the table: not removed, not sharing another student's phone."""
    return [s for s in seats if not s.removed and s.shares_id is None]


def _voters(seats: list[Seat]) -> int:
    return len(_active(seats))


def _everyone_voted(seats: list[Seat], voted: set[int]) -> bool:
    return {s.pk for s in _active(seats)} <= voted


@transaction.atomic
def session_undo(*, session: ClassSession, expected: str | None = None) -> ClassSession:
    """Undo the teacher's last step and every student decision made after it."""
    session = _locked_session(session)
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    if expected is not None and expected != session.phase_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)
    step = _last_step(session)
    if step is None:
        raise ServiceError("nothing_to_undo", _("There is nothing to undo."))
    tables = list(session.tables.select_for_update().order_by("number"))
    seat_ids = list(session.seats.values_list("pk", flat=True))
    # A bag this step counted is reopened empty: its ballots were published in a tally and
    # must never be counted again (count, undo, one more ballot, count would reveal it).
    counted = [b.pk for b in Bag.objects.filter(counted_by=step)]
    had_votes = BallotReceipt.objects.filter(bag__step=step, seat__is_bot=False).exists()
    bags.bags_destroyed(list(Bag.objects.filter(step=step, status=Bag.Status.OPEN)))
    if step.kind == "start":
        session.tables.all().delete()
        session.seats.filter(is_bot=True).delete()
        session.seats.update(table=None, position=None, shares=None, player_name="")
        session.status, session.started_at = Status.LOBBY, None
    step.delete()  # cascades to the actions, ledger rows and bags it led to
    session.stage, session.round = step.stage_before, step.round_before
    session.save(update_fields=["stage", "round", "status", "started_at"])
    for bag in Bag.objects.filter(pk__in=counted):
        bags.bag_reopen(bag=bag, reason=bags.UNDONE)
    opened = step.stage_after in VOTE_STAGES and step.stage_before != step.stage_after
    session.undone = {"kind": step.kind, "stage": step.stage_after, "round": step.round_after,
                      "from": step.stage_before,
                      "discarded": bool(counted) or (opened and had_votes)}
    session.save(update_fields=["undone"])
    if step.kind != "start":
        for table in tables:
            save_state(table, replay_table(table, open_bags=False))
        reopened = {b.table_id for b in Bag.objects.filter(pk__in=counted)}
        for table in tables:
            if table.pk in reopened:
                _settle(table, session, _last_step(session))  # the bots vote again
    broadcast.refresh(session.pk, seat_ids)
    return session


TIMER_STEP = 30  # seconds the teacher's "+30 s" adds


def timer_left(timer: dict[str, Any] | None) -> tuple[int, bool]:
    """The debate timer's seconds left (rounded up) and whether it is running."""
    if not timer:
        return 0, False
    if timer.get("left") is not None:
        return max(0, math.ceil(timer["left"])), False
    return max(0, math.ceil(timer["ends_at"] - now().timestamp())), True


@transaction.atomic
def timer_change(*, session: ClassSession, action: str,
                 expected: str | None = None) -> ClassSession:
    """The teacher pauses or resumes the debate timer ("toggle"), or adds 30 s ("add")."""
    session = _locked_session(session)
    _check_can_drive(session, expected)
    if session.stage != Stage.DEBATE or not session.timer:
        raise ServiceError("no_timer", _("The timer runs during the debate only."), status=409)
    timer, moment_ = dict(session.timer), now().timestamp()
    if action == "toggle":
        if timer.get("left") is None:
            timer = {"ends_at": None, "left": max(0.0, timer["ends_at"] - moment_)}
        else:
            timer = {"ends_at": moment_ + timer["left"], "left": None}
    elif action == "add":
        if timer.get("left") is None:
            timer["ends_at"] += TIMER_STEP
        else:
            timer["left"] += TIMER_STEP
    else:
        raise ServiceError("bad_message", _("Unknown timer action."))
    session.timer = timer
    session.save(update_fields=["timer"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


@transaction.atomic
def session_pause(*, session: ClassSession, paused: bool) -> ClassSession:
    session = _locked_session(session)
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    session.paused = paused
    session.save(update_fields=["paused"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


@transaction.atomic
def session_archive(*, session: ClassSession) -> ClassSession:
    session = _locked_session(session)
    if session.status != Status.FINISHED:
        raise ServiceError("not_finished", _("Only a finished lesson can be archived."))
    session.status = Status.ARCHIVED
    session.save(update_fields=["status"])
    return session


# --------------------------------------------------------------------------- students


def _seat_turn(seat_id: int, expected: str | None, token_hash: str | None = None
               ) -> tuple[Seat, Table, ClassSession, list[Seat]]:
    """Lock the seat's table; read the session, and the table's seats as they are now.

    Two statements (performance, docs/performance.md): the table is locked together with its
    session (``FOR UPDATE OF`` the table only), then its seats are read under that lock (the
    acting seat among them). A ``token_hash`` (a socket's) must still be the seat's: a seat
    removed or given to another phone no longer answers to the old one.
    """
    table = (Table.objects.select_for_update(of=("self",)).select_related("session")
             .filter(seats__pk=seat_id, seats__shares__isnull=True).first())
    seats = _table_seats(table) if table is not None else []
    seat = next((s for s in seats if s.pk == seat_id), None)
    if seat is None:  # not at that table (any more): read it only to say why
        seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None or seat.removed or (token_hash is not None
                                        and seat.token_hash != token_hash):
        raise ServiceError("removed", _("You are no longer in this lesson."), status=403)
    if table is None or seat.table_id != table.pk or seat.shares_id is not None:
        raise ServiceError("no_table", _("You do not have a seat at a table yet."), status=409)
    session = table.session
    if session.status != Status.RUNNING:
        raise ServiceError("read_only", _("This lesson is over."), status=409)
    if session.paused:
        raise ServiceError("paused", _("Your teacher has paused the game. Wait a moment."),
                           status=409)
    if expected is not None and expected != session.phase_id:
        raise ServiceError("stale", _("That moment of the game is over; your screen has been "
                                      "updated."), status=409)
    return seat, table, session, seats


@transaction.atomic
def pact_submit(*, seat_id: int, coins: Any, expected: str | None = None,
                token_hash: str | None = None) -> None:
    seat, table, session, seats = _seat_turn(seat_id, expected, token_hash)
    if session.stage != Stage.PACT:
        raise ServiceError("wrong_phase", _("The opening pact is over."), status=409)
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= 3:
        raise ServiceError("bad_coins", _("Choose 0, 1, 2 or 3 coins."))
    state = load_state(table)
    if state.player(seat.player_name).pact is not None:
        raise ServiceError("already_contributed", _("You have already made your pact "
                                                    "contribution."), status=409)
    step = _last_step(session)
    state, _e = apply_action(table, state, {"type": "pact", "player": seat.player_name,
                                            "coins": coins},
                             actor=Actor.SEAT, seat=seat, step=step)
    state = _settle(table, session, step, state, seats)
    broadcast.progress(session.pk, table.number, {"what": "pact"}, seat.pk)
    if state.phase != "pact":  # everyone has contributed: roles are dealt
        broadcast.refresh(session.pk, [s.pk for s in seats])


def ballot_cast(*, seat_id: int, kind: Any, option: Any, expected: str | None = None,
                token_hash: str | None = None) -> dict[str, Any] | None:
    """Put a token in the bag: the seat's receipt and its option, sealed. Nothing else moves.

    ``option`` is the option's index among the vote's options (what phones send: a frame of
    the same length for every option) or its name. Returns the bag's progress (``{"voted":
    n, "of": m}``) while it is still open, ``None`` once this ballot filled it and it was
    counted. The voter's phone is not re-rendered for its own ballot: its ``ack`` carries the
    progress and the phone shows "your token is in the bag" (rendered with the ballot, hidden
    until then). If the bag's key was lost (the server restarted mid-vote), the bag is
    reopened empty (committed) and the phone is told to vote again.
    """
    with transaction.atomic():
        progress, asked_again = _ballot(seat_id, kind, option, expected, token_hash)
    if asked_again:  # raised after the commit: the bag's reopening stays
        raise ServiceError("vote_restarted", _(
            "The votes at your table were lost when the server restarted. Please vote "
            "again."), status=409)
    return progress


def _option_index(kind: str, option: Any) -> int:
    options = VOTE_OPTIONS[kind]
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(options):
        return option
    if isinstance(option, str) and option in options:
        return options.index(option)
    raise ServiceError("bad_option", _("That is not one of the options."))


def _ballot(seat_id: int, kind: Any, option: Any, expected: str | None,
            token_hash: str | None) -> tuple[dict[str, Any] | None, bool]:
    """The ballot's progress (None: it filled the bag), and whether the bag had lost its key
    and was reopened, so that the phone must vote again."""
    seat, table, session, seats = _seat_turn(seat_id, expected, token_hash)
    # Fix: an unhashable kind (a list from a JSON frame) raised TypeError here.
    if not isinstance(kind, str) or kind not in VOTE_OPTIONS:
        raise ServiceError("bad_kind", _("Unknown vote."))
    if VOTE_STAGES.get(session.stage) != kind:
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    index = _option_index(kind, option)
    decision = decision_id(session.round, kind)
    bag = bags.open_bag(table)
    if bag is None or bag.decision != decision:
        # Counted already (everyone voted, or the game at this table is over).
        counted = Bag.objects.filter(table=table, decision=decision,
                                     receipts__seat=seat).exists()
        if counted:
            raise ServiceError("already_voted", _("Your token is already in the bag."),
                               status=409)
        if get_engine(session.game).is_over(load_state(table)):
            raise ServiceError("game_over", _("The game at your table is over."), status=409)
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    key = bags.bag_key(bag)
    if key is None:
        if not bags.key_lost(bag):
            raise bags.key_unreachable()
        bags.bag_reopen(bag=bag, reason=bags.LOST)
        _settle(table, session, _last_step(session), load_state(table), seats)
        broadcast.refresh(session.pk, [s.pk for s in seats])
        return None, True
    bags.bag_cast(bag=bag, seat=seat, index=index, key=key)
    voted = bags.voter_ids(bag)
    if not _everyone_voted(seats, voted):
        progress = {"voted": len(voted), "of": _voters(seats)}
        broadcast.progress(session.pk, table.number, {"what": "vote", "kind": kind,
                                                      "bag": bags.generation(bag),
                                                      **progress})
        return progress, False
    state = _settle(table, session, _last_step(session), load_state(table), seats)
    broadcast.refresh(session.pk, _deciders(state, seats))
    return None, False


@transaction.atomic
def tie_break_submit(*, choice: Any, seat_id: int | None = None,
                     session: ClassSession | None = None, table_number: int | None = None,
                     expected: str | None = None, token_hash: str | None = None) -> None:
    """The decider settles a tie (or passes); the teacher may decide for an absent decider."""
    if seat_id is not None:
        # Fix: the phone's phase id was ignored here (a stale tie-break went through).
        seat, table, session, _seats = _seat_turn(seat_id, expected, token_hash)
        actor, name = Actor.SEAT, seat.player_name
    else:
        assert session is not None
        session = _locked_session(session)
        _check_can_drive(session, expected)
        table = Table.objects.select_for_update().filter(session=session,
                                                         number=table_number).first()
        if table is None:
            raise ServiceError("not_found", _("There is no such table."), status=404)
        seat, actor, name = None, Actor.TEACHER, ""
    state = load_state(table)
    if state.phase != "tie_break" or state.tie is None:
        raise ServiceError("no_tie", _("There is no tie to break."), status=409)
    decider = state.tie.deciders[0]
    if seat is not None and name != decider:
        raise ServiceError("not_your_turn", _("It is not your turn to break the tie."),
                           status=403)
    if choice is not None and choice not in state.tie.options:
        raise ServiceError("bad_option", _("Choose one of the tied options."))
    step = _last_step(session)
    state, _e = apply_action(table, state, {"type": "tie_break", "player": decider,
                                            "choice": choice},
                             actor=actor, seat=seat, step=step)
    _settle(table, session, step, state)
    broadcast.refresh(session.pk, table.seats.values_list("pk", flat=True))



