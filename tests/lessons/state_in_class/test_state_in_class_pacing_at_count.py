"""A count changes no phone's screen, and on the projector only its table's vote line.

When the last token goes into a bag the engine counts it (and pays everyone) at once, while
the class still sees the vote: phones and the projector are paced to the teacher's stage, so
the result, the round's payments and a tie's question to its decider appear when the teacher
reveals the count (``pacing.tie_shown``). The services rely on that to render nothing at a
count: the count's progress frame says the bag was counted, and the console's page turns the
table's line to "The bag has been counted." (static/js/live.js), as its next render would
(docs/performance.md). These lessons, played through the services with random choices, hold
them to it, and check that a tie's decider is asked once the count is shown.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from facilitator import selectors, services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context
from tests.facilitator.lesson import (
    advance,
    break_ties,
    drive_to,
    fresh,
    humans,
    join,
    make_session,
)
from tests.facilitator.told import Told, console, listen, screen

OPTIONS = {"tax": ["A", "B", "C", "D"], "budget": ["health", "education", "shield"]}


def counted_line(html: str, table_number: int) -> str:
    """``html`` with the table's vote line as the console's page shows it after a "counted"
    progress frame (static/js/live.js: the counts and bag dropped, marked data-counted)."""
    line = re.compile(rf'<p class="progress" data-progress="{table_number}" data-voted="\d+" '
                      r'data-of="\d+" data-bag="[^"]*">[^<]*</p>')
    assert len(line.findall(html)) == 1, "the table's vote line is not on the console"
    return line.sub(f'<p class="progress" data-progress="{table_number}" data-counted>'
                    "The bag has been counted.</p>", html)


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> Told:
    return listen(monkeypatch)


def count_each_table(session: ClassSession, kind: str, rng: random.Random, told: Told) -> int:
    """Everyone votes; around each table's last ballot, every phone and the console are
    compared."""
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
        projector = console(session)
        told.clear()
        assert services.ballot_cast(seat_id=voters[-1].pk, kind=kind,
                                    option=rng.choice(OPTIONS[kind]),
                                    expected=session.stage_id) is None  # counted
        # The last voter's own phone turns to "your token is in the bag" from its ack.
        changed = {s.pk for s in phones if screen(s) != before[s.pk]} - {voters[-1].pk}
        assert changed <= set(told.rendered), (kind, session.round, changed, told.rendered)
        assert told.rendered == []
        assert all(not seats for _t, _b, seats in told.counted)  # no phone is told a thing
        assert told.projector == 0  # nothing is rendered for the count...
        assert [p.get("counted") for p in told.progress] == [True]  # ...its frame says it
        assert console(session) == counted_line(projector, table.number)
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
        services.session_advance(confirm=True, session=session, expected=fresh(session).stage_id)
    assert checked >= 40, checked  # phones compared around a count (the State may fail early)


def health(html: str) -> tuple[str, str]:
    """The console's Health service: its level and its fund, as shown."""
    found = re.search(r'svc-H" aria-hidden="true">H</span> <span class="name">Health</span></p>'
                      r'\s*<p class="level" aria-label="([^"]+)".*?<p class="fund">([^<]+)</p>',
                      html, re.S)
    assert found, "no Health service on the console"
    return found.group(1), found.group(2)


@pytest.mark.django_db
def test_round_ones_budget_stays_off_the_console_until_the_rounds_end():
    session = make_session()
    join(session, 8)
    services.session_start(session=session)
    session = drive_to(session, Stage.BUDGET_VOTE, 1)
    before = health(console(session))
    # Health first, then Education, then the Social Shield: a ranking with no tie to decide.
    for voter, option in zip(humans(session.tables.get()), ["health"] * 4 + ["education"] * 3
                             + ["shield"], strict=True):
        services.ballot_cast(seat_id=voter.pk, kind="budget", option=option,
                             expected=session.stage_id)
    assert load_state(session.tables.get()).round == 2  # counted: the engine is past round 1
    while fresh(session).stage != Stage.END_OF_ROUND:
        assert health(console(session)) == before, fresh(session).stage
        session = advance(session)
    assert health(console(session)) != before  # shown with the round's end
