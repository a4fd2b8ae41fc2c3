"""A count changes no phone's screen, and no phone is told of it.

When the last token goes into a bag the engine counts it (and pays everyone) at once, while
the class still sees the vote: phones are paced to the teacher's stage, so the result, the
round's payments and a tie's question to its decider appear when the teacher reveals the
count (``pacing.tie_shown``). The services rely on that to re-render only the projector at a
count (docs/performance.md); these lessons, played through the services with random choices,
hold them to it, and check that a tie's decider is asked once the count is shown.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import broadcast, selectors, services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context
from tests.facilitator.lesson import break_ties, fresh, humans, join, make_session

OPTIONS = {"tax": ["A", "B", "C", "D"], "budget": ["health", "education", "shield"]}


def screen(seat: Seat) -> str:
    view = selectors.seat_view(seat)
    return render_to_string("play/_screen.html", {**phone_context(view), "csrf_token": "x"})


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats whose phones the services ask to re-render."""
    seats: list[int] = []
    real = broadcast.refresh

    def refresh(session_id: int, seat_ids: Any = ()) -> None:
        seats.extend(seat_ids)
        real(session_id, seat_ids)

    monkeypatch.setattr(broadcast, "refresh", refresh)
    return seats


def count_each_table(session: ClassSession, kind: str, rng: random.Random,
                     told: list[int]) -> int:
    """Everyone votes; around each table's last ballot, every phone is compared."""
    checked = 0
    for table in session.tables.order_by("number"):
        if load_state(table).phase == "over":  # the State failed at this table
            continue
        voters = humans(table)
        for seat in voters[:-1]:
            services.ballot_cast(seat_id=seat.pk, kind=kind, option=rng.choice(OPTIONS[kind]),
                                 expected=session.stage_id)
        phones = list(Seat.objects.filter(table=table, is_bot=False, removed=False))
        before = {s.pk: screen(s) for s in phones}
        told.clear()
        assert services.ballot_cast(seat_id=voters[-1].pk, kind=kind,
                                    option=rng.choice(OPTIONS[kind]),
                                    expected=session.stage_id) is None  # counted
        # The last voter's own phone turns to "your token is in the bag" from its ack.
        changed = {s.pk for s in phones if screen(s) != before[s.pk]} - {voters[-1].pk}
        assert changed <= set(told), (kind, session.round, changed, told)
        assert told == []
        checked += len(phones)
    return checked


def assert_deciders_asked(session: ClassSession) -> None:
    """At the stage that shows the count, each tie's decider is asked (their phone only)."""
    for table in session.tables.all():
        state = load_state(table)
        if state.phase != "tie_break":
            continue
        for seat in Seat.objects.filter(table=table, is_bot=False, removed=False):
            decides = seat.player_name == state.tie.deciders[0]
            view = selectors.seat_view(seat)
            assert bool(phone_context(view)["me"]["decides_tie"]) == decides
            assert bool(view["can"]["tie_break"]) == decides


def fresh_table(table: Any) -> Any:
    table.refresh_from_db()
    return table


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_count_rerenders_only_the_projector(seed, told):
    rng = random.Random(seed)
    session = make_session()
    join(session, 14 + seed)  # two tables (with bots or pairs for 15 and 17)
    services.session_start(session=session, fill="bots")
    session = fresh(session)
    for table in session.tables.all():
        for seat in humans(table):
            sic_services.pact_submit(seat_id=seat.pk, coins=rng.randrange(4),
                                 expected=session.stage_id)
    checked = 0
    while fresh(session).stage != Stage.FINAL:
        session = fresh(session)
        kind = {Stage.TAX_VOTE: "tax", Stage.BUDGET_VOTE: "budget"}.get(session.stage)
        if kind:
            checked += count_each_table(session, kind, rng, told)
        else:
            assert_deciders_asked(session)
        break_ties(session, rng)
        services.session_advance(session=session, expected=fresh(session).stage_id)
    assert checked >= 40, checked  # phones compared around a count (the State may fail early)
