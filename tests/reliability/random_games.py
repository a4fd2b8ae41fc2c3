"""A class that plays at random through the services, and the invariants every game keeps.

Used by ``test_random_play.py`` in-process (a few games on the suite's database) and as a worker
process (``python -m tests.reliability.random_games --games N --seed S``, with
``tests.reliability.fast_settings``) for the 1,000-game run.

Every decision goes through the service functions the sockets call: pacts, ballots and
tie-breaks from students, and the teacher's next / undo / pause / remove / tie-break. Students
act at random: random coins and options, some abstain (asleep), some tap twice; tie-break
deciders pick a random legal choice (or pass), or the teacher decides for them. Each table
keeps a few students; the other seats are handed to bots, each with a random policy (the
services decide for them, as for any bot), which keeps 1,000 games within CI's budget.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from typing import Any

# Services may refuse a random student or teacher with these codes, and no other.
EXPECTED_REFUSALS = {"already_voted", "already_contributed", "vote_closed", "game_over",
                     "paused", "stale", "wrong_phase", "no_tie", "confirm_count"}
CLASS_SIZES = [(32, None)] * 10 + [(28, None), (24, None), (20, None), (17, "bots"),
                                   (13, "bots"), (3, "bots"), (19, "pairs"), (8, None)]


class RandomClass:
    """One lesson: a random class, seated, then played by random students and teacher."""

    def __init__(self, rng: random.Random, teacher: Any, students: int, fill: str | None,
                 keep_students: int) -> None:
        from facilitator import services
        from facilitator.lessons.state_in_class import services as sic_services
        from facilitator.lessons.state_in_class.stages import Stage
        from games.state_in_class.bots import POLICIES
        from tests.facilitator.lesson import NAMES

        self.rng = rng
        self.services = services
        self.sic = sic_services
        self.stage = Stage
        self.policies = sorted(POLICIES)
        self.session = services.session_create(
            owner=teacher, options={"bot_policy": rng.choice(self.policies)})
        for name in NAMES[:students]:
            services.seat_join(code=self.session.join_code, nickname=name)
        services.session_start(session=self.session, fill=fill, seed=rng.randrange(2**32))
        self.refresh()
        self.hand_seats_to_bots(keep_students)
        self.undos = 0
        self.removals = 0
        self.counts: Counter[str] = Counter()

    # ---- reading (cheaply: the phase straight from the snapshot)

    def refresh(self) -> Any:
        from facilitator.models import ClassSession

        self.session = ClassSession.objects.get(pk=self.session.pk)
        return self.session

    def tables(self) -> list[Any]:
        return list(self.session.tables.order_by("number").defer("snapshot"))

    def phases(self) -> dict[int, tuple[str, Any]]:
        """Each table's engine phase and tie, read in the database (not decoded here)."""
        return {pk: (phase, tie) for pk, phase, tie in self.session.tables.values_list(
            "pk", "snapshot__phase", "snapshot__tie")}

    def humans(self, table: Any) -> list[Any]:
        return list(table.seats.filter(is_bot=False, removed=False, shares__isnull=True)
                    .order_by("position"))

    def hand_seats_to_bots(self, keep: int) -> None:
        from facilitator.models import Seat

        for table in self.tables():
            seats = self.humans(table)
            for seat in self.rng.sample(seats, max(0, len(seats) - keep)):
                Seat.objects.filter(pk=seat.pk).update(
                    is_bot=True, token_hash=None, bot_policy=self.rng.choice(self.policies))

    # ---- acting

    def attempt(self, what: str, call: Any, **kwargs: Any) -> bool:
        """Call a service; count it, or count its refusal (True if refused)."""
        from facilitator.errors import ServiceError

        try:
            call(**kwargs)
        except ServiceError as exc:
            self.counts[f"refused:{exc.code}"] += 1
            return True
        self.counts[what] += 1
        return False

    def students_act(self) -> None:
        session, rng, services = self.refresh(), self.rng, self.services
        votes = {self.stage.TAX_VOTE: ("tax", "ABCD"),
                 self.stage.BUDGET_VOTE: ("budget", ("health", "education", "shield"))}
        phases = self.phases()
        for table in self.tables():
            if phases[table.pk][0] == "over":
                continue
            for seat in self.humans(table):
                if rng.random() < 0.1:
                    continue  # asleep: abstains (or gives nothing to the pact)
                if session.stage == self.stage.PACT:
                    self.attempt("pact", self.sic.pact_submit, seat_id=seat.pk,
                                 coins=rng.randrange(4), expected=session.stage_id)
                elif session.stage in votes:
                    kind, options = votes[session.stage]
                    self.attempt("ballot", services.ballot_cast, seat_id=seat.pk, kind=kind,
                                 option=rng.choice(options), expected=session.stage_id)
                    if rng.random() < 0.05:  # a double tap, or a second tab
                        self.counts["double tap"] += 1
                        assert self.attempt("double tap", services.ballot_cast,
                                            seat_id=seat.pk, kind=kind,
                                            option=rng.choice(options))
        self.break_ties()

    def break_ties(self) -> None:
        """Ties are decided once the class sees the count (``pacing.tie_shown``)."""
        from facilitator.lessons.state_in_class.pacing import tie_shown

        session, rng = self.refresh(), self.rng
        if not tie_shown(session.stage):
            return
        for table in self.tables():
            for _ in range(12):
                phase, tie = self.phases()[table.pk]
                if phase != "tie_break" or not tie:
                    break
                choices = [*tie["options"], *([None] if tie["kind"] == "tax" else [])]
                choice = rng.choice(choices)
                decider = table.seats.filter(player_name=tie["deciders"][0]).first()
                if decider is None or decider.is_bot or decider.removed or rng.random() < 0.2:
                    self.attempt("teacher tie_break", self.sic.tie_break_submit,
                                 session=session, table_number=table.number, choice=choice,
                                 expected=session.stage_id)
                else:
                    self.attempt("tie_break", self.sic.tie_break_submit, seat_id=decider.pk,
                                 choice=choice, expected=session.stage_id)

    def teacher_acts(self) -> None:
        session, rng, services = self.refresh(), self.rng, self.services
        roll = rng.random()
        if roll < 0.03 and self.undos < 4 and session.steps.count() > 1:
            self.undos += 1
            self.attempt("undo", services.session_undo, session=session,
                         expected=session.stage_id)
            return
        if roll < 0.05:
            services.session_pause(session=session, paused=True)
            assert self.attempt("next while paused", services.session_advance,
                                session=self.refresh(), expected=session.stage_id)
            services.session_pause(session=self.refresh(), paused=False)
            self.counts["pause"] += 1
        if roll > 0.99 and self.removals < 2:
            seats = [s for t in self.tables() for s in self.humans(t)]
            if seats:
                self.removals += 1
                self.attempt("remove", services.seat_remove, session=session,
                             seat=rng.choice(seats))
        self.break_ties()
        # the teacher mostly answers "count anyway?", and sometimes presses Next unconfirmed
        self.attempt("next", services.session_advance, session=session,
                     expected=self.refresh().stage_id, confirm=rng.random() < 0.8)

    def play(self) -> Any:
        for _ in range(400):  # bounded: a lesson is about 60 steps
            if self.refresh().stage == self.stage.FINAL:
                return self.session
            self.students_act()
            self.teacher_acts()
        raise AssertionError(f"the lesson did not end: {self.refresh().stage_id}")


def check_invariants(session: Any) -> list[str]:
    """What must hold for every table (one game) of a finished lesson; [] if all is well."""
    from facilitator.log import (
        engine_balances,
        engine_of,
        game_record,
        ledger_balances,
        load_state,
        verify_table,
    )
    from games.registry import replay

    problems = []
    for table in session.tables.select_related("session"):
        where = f"lesson {session.pk} table {table.number} (seed {table.seed})"
        problems += [f"{where}: {p}" for p in verify_table(table)]  # snapshot = full replay
        live = load_state(table)
        engine = engine_of(table)
        ledger = ledger_balances(table)
        if sum(ledger.values()) != 0:
            problems.append(f"{where}: coins created or lost: {ledger}")
        expected = engine_balances(table, live)
        if {k: v for k, v in ledger.items() if v} != {k: v for k, v in expected.items() if v}:
            problems.append(f"{where}: ledger {ledger} != engine {expected}")
        if any(v < 0 for k, v in ledger.items() if k != "bank"):
            problems.append(f"{where}: an account is overdrawn: {ledger}")
        record = json.loads(json.dumps(game_record(table)))  # the export, as a file would be
        if engine.summary(replay(record).state) != engine.summary(live):
            problems.append(f"{where}: the exported record replays to another game")
        if live.phase != "over":
            problems.append(f"{where}: the game did not reach its end ({live.phase})")
    return problems


def play_games(games: int, seed: int, *, keep: tuple[int, ...] = (1, 2, 3)) -> dict[str, Any]:
    """Play random lessons until ``games`` tables have finished; report what was seen."""
    from django.contrib.auth import get_user_model

    rng = random.Random(seed)
    teacher = get_user_model().objects.create_user(username=f"random-{seed}")
    done, lessons, problems = 0, 0, []
    counts: Counter[str] = Counter()
    sizes: Counter[int] = Counter()
    started = time.monotonic()
    while done < games:
        students, fill = rng.choice(CLASS_SIZES)
        driver = RandomClass(rng, teacher, students, fill, rng.choice(keep))
        session = driver.play()
        problems += check_invariants(session)
        for table in session.tables.all():
            sizes[len(table.config["players"])] += 1
        done += session.tables.count()
        lessons += 1
        counts += driver.counts
        session.delete()  # purge as we go: the next lesson starts from a small database
    return {"games": done, "lessons": lessons, "seconds": round(time.monotonic() - started, 1),
            "problems": problems, "counts": dict(counts),
            "players": {str(k): v for k, v in sorted(sizes.items())}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.reliability.fast_settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    result = play_games(args.games, args.seed)
    sys.stdout.write("RESULT " + json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
