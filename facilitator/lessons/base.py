"""The lesson-module contract: what a game's lesson side gives the platform (docs/modules.md).

The platform (sessions, joining, seats and parties, the teacher's steps, undo and pause, sealed
ballots, the ledger, the action log, sockets, bots, records, the PDF shell) calls these hooks and
nothing else of a game. A module subclasses :class:`Lesson` in its own app
(``facilitator/lessons/<game>/``) and names the instance in its ``AppConfig.lesson``.

Words: a lesson moves through **stages** (the teacher's position in the lesson script: its
``stage`` and ``round``, and the ``stage_id`` that names the exact moment a screen shows); an
engine moves through its own **phases**. A phone's action carries the ``stage_id`` it was shown
and is refused as stale once the lesson has moved on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from facilitator.seating import SeatingPlan
from games.registry import get_engine

if TYPE_CHECKING:
    from pydantic import BaseModel

    from facilitator.models import Bag, ClassSession, Seat, Table, TeacherStep


# The teacher's main button, in the platform's words (``Lesson.step_label``).
COUNT_VOTES = gettext_lazy("Count the votes")
CLOSE_VOTE = gettext_lazy("Close the vote")
NEXT_ROUND = gettext_lazy("Next round")
NEXT = gettext_lazy("Next")


@dataclass(frozen=True)
class StepPlan:
    """Where the teacher's "next" takes the lesson.

    ``kind``: "next" moves every table on (the lesson calls :meth:`Lesson.on_step` for each);
    any other kind (e.g. State in Class's "card", one more Midlife card read aloud) is a step
    of the script alone: no table changes. ``timer``: seconds of the stage's countdown, or None.
    ``confirmed``: the teacher's request confirmed counting bags that miss tokens (set by the
    platform from the request; a module passes it to ``vote_close``).
    """

    stage: str
    round: int
    kind: str = "next"
    timer: int | None = None
    finished: bool = False
    confirmed: bool = False


@dataclass(frozen=True)
class Ballot:
    """A secret ballot the lesson opens at a table: the decision it settles and its options,
    with each voter's weight where the rules weigh votes (then only the outcome is kept)."""

    decision: str
    options: list[str]
    weights: dict[str, int] = field(default_factory=dict)


class Lesson:
    """One game as a class activity. Class attributes describe it; methods are the hooks."""

    game: ClassVar[str]  # the engine's id in ``games.registry`` (and ``ClassSession.game``)
    name: ClassVar[str | Promise]
    summary: ClassVar[str | Promise]  # one line on the new-lesson page
    duration: ClassVar[str | Promise]
    group_sizes: ClassVar[str | Promise]
    students_do: ClassVar[str | Promise]
    credits: ClassVar[str | Promise] = ""  # the game's designers and licence (About page)
    # False while only the engine exists: offered on the new-lesson page as "in preparation".
    playable: ClassVar[bool] = True
    default_options: ClassVar[dict[str, Any]] = {}
    options_form: ClassVar[Any] = None  # a Form class with the module's lesson options
    # Template names: "phone" (a student's whole screen), "console" (the teacher's console
    # below the controls), "progress" (the console's position bar), "result" (how one table
    # ended, on the debrief page, given ``result``: an item of ``reports().results``) and the
    # report templates; "console_css"/"phone_css" (optional): a static path of the module's
    # own stylesheet, which the console's and the phone's page shells link after the
    # platform's.
    templates: ClassVar[dict[str, str]] = {}
    # Messages beyond the platform's own (ballot, refresh), as pydantic models with a
    # ``type`` literal: a phone's and a teacher's.
    seat_messages: ClassVar[tuple[type[BaseModel], ...]] = ()
    teacher_messages: ClassVar[tuple[type[BaseModel], ...]] = ()
    # The dotted path of a URLconf of the module's own teacher pages (e.g. a game master's
    # page kept off the projector), mounted at ``teacher/lessons/<session_id>/<game>/``; its
    # views check the owner themselves (``selectors.session_for_teacher``). "": none.
    teacher_urls: ClassVar[str] = ""

    # ------------------------------------------------------------------ setting up

    def check_options(self, options: dict[str, Any]) -> None:
        """Raise ``ServiceError("bad_options", ...)`` for an option the module cannot run."""
        unknown = set(options) - set(self.default_options)
        if unknown:
            raise ServiceError("bad_options", _("Unknown lesson options: %(names)s.")
                               % {"names": ", ".join(sorted(unknown))})

    def seating(self, students: int, fill: str | None,
                options: dict[str, Any]) -> SeatingPlan | None:
        """How ``students`` sit (``fill``: "bots", "pairs" or None; ``options``: the lesson's);
        None if they cannot. A plan with ``party_size`` > 1 seats them in teams; one with
        ``parties`` gives each table's teams and players alone (``SeatingPlan``)."""
        raise NotImplementedError

    def seating_error(self, students: int, fill: str | None, options: dict[str, Any]) -> str:
        """Why ``students`` cannot sit that way, for the teacher."""
        raise NotImplementedError

    def party_name(self, index: int) -> str:
        """The engine name of a table's ``index``-th team (0-based), when seats sit in teams."""
        return _("Team %(n)d") % {"n": index + 1}

    def table_config(self, names: list[str], options: dict[str, Any]) -> dict[str, Any]:
        """The engine config of one table whose players are ``names``."""
        return {"players": names}

    def table_seeds(self, options: dict[str, Any], seeds: list[int]) -> list[int]:
        """The seed of each table, given one fresh seed per table (in table order); the
        default keeps them. A module may give every table the same seed (e.g. so that a
        debrief compares the tables' choices from one starting position)."""
        return seeds

    def engine_audience(self, seat: Seat) -> str:
        """The engine player whose view a seat's phone shows (with its legal actions): the
        seat's own player name by default (a module whose whole table is one engine player
        names that player)."""
        return seat.player_name

    first_stage: ClassVar[str]  # the stage "start" opens
    stage_names: ClassVar[dict[str, str | Promise]] = {}  # every stage: its label

    def bot_policy(self, options: dict[str, Any]) -> str:
        return str(options.get("bot_policy", ""))

    # ------------------------------------------------------------------ the script

    def stage_id(self, session: ClassSession) -> str:
        """Names the moment of the lesson a screen shows (see the module docstring)."""
        return f"{session.round}:{session.stage}"

    def on_start(self, table: Table, state: Any, step: TeacherStep) -> Any:
        """Open what the first stage asks at a new table (e.g. its first ballot)."""
        return state

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        """Where "next" goes from here (or raise ``ServiceError`` to refuse, nothing changed)."""
        raise NotImplementedError

    def step_label(self, session: ClassSession, plan: StepPlan, *, votes: int | None,
                   states: dict[int, Any]) -> str | Promise:
        """What the teacher's main button says for the step ``plan`` (where "next" goes from
        ``session``'s stage, as :meth:`plan_step` says from the tables' ``states``): what
        pressing it will do, in words a module may choose per destination. ``votes``: the
        ballots the step opens and counts (in bags open at the tables, or counted by their
        last token and not shown yet); None where it closes no bag, 0 where those it closes
        hold none to count (a bag of fewer than three tokens closes unopened).

        The default: the final stage's name when the step ends the lesson; "Count the votes"
        when ballots are counted; "Close the vote" when the bags hold none; "Next round"
        into a new round; otherwise the name of the stage it goes to
        (``facilitator.main_button``; ``tests/facilitator/main_button.py`` holds every module
        to it over whole lessons)."""
        if plan.finished:
            return self.stage_names.get(plan.stage, plan.stage)
        if votes:
            return COUNT_VOTES
        if votes == 0:
            return CLOSE_VOTE
        if plan.round > session.round and plan.stage != session.stage:
            return NEXT_ROUND
        return self.stage_names.get(plan.stage, NEXT)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        """Apply the step at one table (close what the stage left, open what the next one
        asks, through ``facilitator.services``); returns the table's state."""
        raise NotImplementedError

    def live(self, state: Any) -> bool:
        """Whether the table still plays (an ended game is not moved on)."""
        return True

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        """The secret ballot open at a table at the current stage, if any."""
        return None

    def ballot_decision(self, session: ClassSession, kind: str) -> str:
        """A phone may name a ballot by its short kind (a word of its own): the decision id it means
        now, or ``ServiceError`` ("bad_kind", "vote_closed")."""
        raise ServiceError("bad_kind", _("Unknown vote."))

    def ballot_action(self, decision: str, player: str) -> dict[str, Any] | None:
        """The engine action of one receipt (the record rebuilds ballots from receipts), or
        None where the engine keeps no receipts (the bag's receipts are then the platform's
        alone, and the count's actions are the engine's whole record of the ballot)."""
        return {"type": "ballot", "decision": decision, "player": player}

    def count_action(self, decision: str, result: dict[str, Any]
                     ) -> dict[str, Any] | list[dict[str, Any]]:
        """The engine action of a count, or a list of engine actions (applied in order; an
        empty list: the count changes nothing in the game); ``result`` is
        ``{"tally": ...}`` or ``{"outcome": ...}``."""
        return {"type": "count", "decision": decision, **result}

    def form_message(self, raw: dict[str, Any]) -> dict[str, Any]:
        """A plain form post of this lesson's own messages, as the message its websocket
        would carry (``messages.from_form`` has converted the platform's fields)."""
        return raw

    def counted_decision(self, round_: int, action: dict[str, Any]) -> str | None:
        """The decision a logged ``count`` action settled (the inverse of ``count_action``),
        so the record can put that bag's ballots back just before it; None if it names
        none."""
        return action.get("decision")

    def on_count(self, table: Table, state: Any, decision: str, result: dict[str, Any],
                 step: TeacherStep | None) -> Any:
        """After a bag's count actions are applied: the module's own follow-up at the table
        (``result`` as for :meth:`count_action`; its outcome may be kept, never a ballot);
        returns the table's state. The default does nothing."""
        return state

    def ballot_outcome(self, state: Any, decision: str, tally: dict[str, int]) -> Any:
        """The outcome of a count where only the outcome may be kept: the engine's
        ``ballot_outcome`` unless the module settles the ballot itself."""
        return get_engine(self.game).ballot_outcome(state, decision, tally)

    # ------------------------------------------------------------------ bots

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        """The action a bot seat takes now, or None."""
        return None

    def bot_vote(self, state: Any, seat: Seat, bag: Bag, rng: Any) -> str:
        """A bot's option in ``bag`` (``rng`` is never stored: see ``services.ballots``)."""
        return str(rng.choice(bag.options))

    def automatic_action(self, seats: list[Seat], state: Any) -> dict[str, Any] | None:
        """An action the rules take on their own for a seat that cannot act (e.g. a removed
        student's turn passes), or None."""
        return None

    def after_count(self, state: Any, seats: list[Seat]) -> list[int]:
        """The seats whose screens a count changes (others show the same until the teacher
        reveals it). Their phones are rendered again, or, where the count only marks the bag
        (``count_only_marks_the_bag``), sent a ``counted`` frame."""
        return [s.pk for s in seats]

    def count_only_marks_the_bag(self, session: ClassSession, decision: str) -> bool:
        """True where the count of ``decision``'s bag, at ``session``'s stage, changes no
        screen but in what the count's frame carries out on the page (static/js/live.js):
        the table's vote line turns to what a counted bag's says (``data-counted``), and each
        part marked ``data-until-counted`` with the bag's generation gives way to the
        ``<template data-once-counted>`` after it (or to nothing). Then the projector is
        not rendered again, and the seats ``after_count`` names get a ``counted`` frame
        instead of a new screen (docs/performance.md). False (the default): they are
        rendered again."""
        return False

    # ------------------------------------------------------------------ screens

    def held_back(self, table: Table, state: Any) -> Any:
        """Held results: while an outcome at ``table`` waits for the teacher's step that
        reveals it (a count made by the last token, a round's end the engine has already
        played, a move that would end the round), the game as every screen shows it; None
        while nothing waits (the default: every outcome shows at once).

        ``state`` is the table's game (``load_state``); the answer is ``state`` itself when
        the game has not played past what the screens show (the outcome is a lesson's own
        row, or a move kept until the step). Every screen of the table is then rendered as
        from the answer, and until the teacher's next step changes in nothing but progress
        ("n have voted"), the countdown and the acting user's own confirmation
        (docs/modules.md, "Held results"; ``tests/facilitator/test_held_results.py``)."""
        return None

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        """What the screens need of the session beyond the platform's own fields."""
        return {}

    def table_info(self, table: Table, state: Any) -> dict[str, Any]:
        """What the projector and the console need of one table beyond the engine's public
        view and the platform's roster (merged into the table's entry of the view)."""
        return {}

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        """What a seated phone may offer now (``can``) and other per-seat facts."""
        return {"can": {}}

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        raise NotImplementedError

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def undone_notice(self, session: dict[str, Any]) -> str:
        """One sentence for the screens: what the last Undo took back ("" if nothing)."""
        return ""

    # ------------------------------------------------------------------ messages

    def seat_act(self, seat_id: int, message: Any, token_hash: str | None) -> Any:
        """Run one of the module's ``seat_messages``."""
        raise NotImplementedError

    def teacher_act(self, session: ClassSession, message: Any) -> None:
        """Run one of the module's ``teacher_messages``."""
        raise NotImplementedError

    # ------------------------------------------------------------------ debrief

    def reports(self) -> Any:
        """The module's debrief (an object with ``class_handout``, ``student_handouts``,
        ``rounds_csv``, ``results_csv``, ``story`` ...), or None if it has none."""
        return None

    def whatif(self) -> Any:
        """The module's side of the debrief's "What if we had…?" (a ``kit.whatif.WhatIf``:
        the engines' what-if core and the game's own words), or None if it has none."""
        return None
