"""Starting a lesson (tables, bots, pairs) and driving every table in lock-step."""

import random
from collections import Counter

import pytest

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.models import Bag, BallotReceipt, Seat, TableAction
from games.state_in_class import bots as sic_bots
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    break_ties,
    deterministic,
    dump_facilitator,
    fresh,
    humans,
    join,
    make_session,
    open_tally,
    seat,
    started,
    state_of,
    vote_all,
    vote_as,
)

pytestmark = pytest.mark.django_db


def error(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return caught.value


def counts(table, kind, round_):
    return list(TableAction.objects.filter(table=table, round=round_, payload__type="count",
                                           payload__kind=kind))


def counters(table):
    """The open bag's contents, the options with votes only (the test holds the key)."""
    return {o: n for o, n in open_tally(table).items() if n}


# --------------------------------------------------------------------------- starting


def test_eight_students_make_one_table_of_eight():
    session, _tokens = started(8)
    assert (session.status, session.stage, session.round) == ("running", "pact", 0)
    assert session.started_at is not None
    table = session.tables.get()
    seats = list(table.seats.order_by("position"))
    assert [s.position for s in seats] == list(range(8))
    assert table.config == {"players": [s.nickname for s in seats]}
    assert {s.player_name for s in seats} == {s.nickname for s in seats}
    assert set(table.config["players"]) == set(session.seats.values_list("nickname", flat=True))
    state = state_of(table)
    assert state.phase == "pact" and state.names == table.config["players"]
    assert not session.seats.filter(is_bot=True).exists()


def test_twenty_students_make_three_tables_every_one_seated_once():
    session, _tokens = started(20)
    tables = list(session.tables.order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3]
    assert sorted(len(t.config["players"]) for t in tables) == [6, 7, 7]
    names = [n for t in tables for n in t.config["players"]]
    assert sorted(names) == sorted(session.seats.values_list("nickname", flat=True))
    assert not session.seats.filter(table__isnull=True).exists()
    assert len({t.seed for t in tables}) == 3


def test_seventeen_students_need_a_fill_and_nothing_changes():
    session = make_session()
    join(session, 17)
    before = dump_facilitator()
    err = error(services.session_start, session=session)
    assert err.code == "needs_fill" and "17" in err.message
    assert dump_facilitator() == before


def test_bots_fill_seventeen_into_three_tables_of_six(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(17, fill="bots", options={"bot_policy": "always-B"})
    tables = list(session.tables.all())
    assert sorted(len(t.config["players"]) for t in tables) == [6, 6, 6]
    bot = session.seats.get(is_bot=True)
    assert bot.bot_policy == "always-B" and bot.bot_policy in sic_bots.POLICIES
    assert bot.token_hash is None and bot.table_id is not None
    assert bot.player_name in bot.table.config["players"]
    # The bot has made its pact already; nobody else has.
    state = state_of(bot.table)
    assert state.player(bot.player_name).pact is not None
    assert [p.name for p in state.players if p.pact is not None] == [bot.player_name]
    pact = TableAction.objects.get(table=bot.table, payload__type="pact")
    assert (pact.actor, pact.seat_id) == ("bot", bot.pk)
    # A vote opens: the bot's token is in the bag at once, the humans' are not.
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    assert session.stage == "tax_vote"
    assert list(BallotReceipt.objects.values_list("seat", flat=True)) == [bot.pk]
    assert sum(counters(bot.table).values()) == 1
    assert state_of(bot.table).receipts == [bot.player_name]
    # ... and its budget token when the budget vote opens.
    vote_all(session, "tax", random.Random(1), ["A"])
    session = advance(session)
    session = advance(session)
    assert session.stage == "budget_vote"
    assert BallotReceipt.objects.filter(bag__decision="1:budget", seat=bot).count() == 1


def test_bots_decide_their_tie_breaks(monkeypatch):
    """Four students and two civic bots (they vote C); A, C and D tie; humans pass."""
    deterministic(monkeypatch, 5)
    session, _tokens = started(4, fill="bots")
    table = session.tables.get()
    assert len(table.config["players"]) == 6
    assert session.seats.filter(is_bot=True, bot_policy="civic").count() == 2
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    for s, option in zip(humans(table), ["A", "A", "D", "D"], strict=True):
        services.ballot_cast(seat_id=s.pk, kind="tax", option=option,
                             expected=session.stage_id)
    assert counts(table, "tax", 1)[0].payload["tally"] == {"A": 2, "C": 2, "D": 2}
    session = advance(session)  # ties are decided once the class sees the count
    for _ in range(6):
        state = state_of(table)
        if state.phase != "tie_break":
            break
        decider = table.seats.get(player_name=state.tie.deciders[0])
        assert not decider.is_bot  # a bot decider never makes anyone wait
        sic_services.tie_break_submit(seat_id=decider.pk, choice=None)
    state = state_of(table)
    assert state.tax == "C" and state.phase == "budget_vote"
    final = TableAction.objects.filter(table=table, payload__type="tie_break").last()
    assert final.actor == "bot" and final.payload["choice"] == "C"
    assert Seat.objects.get(pk=final.seat_id).is_bot


def test_pairs_share_a_seat_and_play_as_one_player(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(9, fill="pairs")
    table = session.tables.get()
    assert len(table.config["players"]) == 8
    partner = session.seats.get(shares__isnull=False)
    host = partner.shares
    assert partner.table_id == host.table_id == table.pk
    assert partner.player_name == "" and partner.position is None
    assert host.player_name == f"{host.nickname} & {partner.nickname}"
    assert host.player_name in table.config["players"]
    assert partner.nickname not in table.config["players"]
    # The partner's own phone cannot act; the host's can, for both.
    assert error(sic_services.pact_submit, seat_id=partner.pk, coins=1).code == "no_table"
    sic_services.pact_submit(seat_id=host.pk, coins=1)
    assert state_of(table).player(host.player_name).pact == 1


def test_fewer_than_six_students_play_with_bots():
    session, _tokens = started(4, fill="bots")
    table = session.tables.get()
    assert len(table.config["players"]) == 6
    assert session.seats.filter(is_bot=True).count() == 2
    assert len({s.nickname.casefold() for s in session.seats.all()}) == 6


def test_bot_names_never_clash_with_a_student():
    session = make_session()
    for name in ["Bot 1", "bot 2", "Ana", "Ben"]:
        services.seat_join(code=session.join_code, nickname=name)
    services.session_start(session=session, fill="bots")
    names = [s.nickname.casefold() for s in session.seats.all()]
    assert len(names) == len(set(names)) == 6


def test_start_refusals_change_nothing():
    session = make_session(options={"bots_allowed": False})
    before = dump_facilitator()
    assert error(services.session_start, session=session).code == "empty"
    join(session, 5)
    before = dump_facilitator()
    assert error(services.session_start, session=session, fill="bots").code == \
        "bots_not_allowed"
    assert error(services.session_start, session=session, fill="pairs").code == "cannot_seat"
    assert error(services.session_start, session=session).code == "needs_fill"
    assert error(services.session_start, session=session, fill="ghosts").code == "bad_fill"
    assert dump_facilitator() == before
    services.seat_join(code=session.join_code, nickname="Zed")
    services.session_start(session=session)
    before = dump_facilitator()
    assert error(services.session_start, session=fresh(session)).code == "already_started"
    assert dump_facilitator() == before


# --------------------------------------------------------------------------- lock-step


def expected_stages(cards: int) -> list[tuple[int, str]]:
    """Every stage of a lesson; the Midlife stage once per card read (one per player)."""
    stages = [(0, "pact")]
    for r in range(1, 9):
        if r == 4:
            stages += [(4, "event"), *[(4, "midlife")] * cards, (4, "end_of_round")]
        else:
            stages += [(r, s) for s in ("event", "debate", "tax_vote", "pay", "budget_vote",
                                        "end_of_round")]
    return [*stages, (8, "final")]


def test_one_next_moves_every_table_through_the_whole_lesson(monkeypatch):
    deterministic(monkeypatch, 2)
    rng = random.Random(2)
    session, _tokens = started(12)
    tables = list(session.tables.all())
    assert len(tables) == 2
    all_pacts(session, coins=1)
    seen = [(session.round, session.stage)]
    while session.stage != "final":
        steps = session.steps.count()
        r = session.round
        if session.stage in ("tax_vote", "budget_vote"):
            vote_as(session, session.stage.removesuffix("_vote"))
        break_ties(session, rng)
        session = advance(session)
        assert session.steps.count() == steps + 1  # one teacher step, every table moved
        seen.append((session.round, session.stage))
        for table in tables:
            state = state_of(table)
            if session.stage == "event" and session.round != 4:
                assert (state.round, state.phase) == (session.round, "tax_vote")
            if session.stage == "tax_vote":
                assert Bag.objects.get(table=table, decision=f"{r}:tax").options == list("ABCD")
            if session.stage == "pay":
                assert len(counts(table, "tax", r)) == 1
            if session.stage == "budget_vote":
                assert state.phase == "budget_vote" and state.tax == "C"
                assert len(Bag.objects.get(table=table, decision=f"{r}:budget").options) == 3
            if session.stage == "end_of_round" and r != 4:
                assert len(counts(table, "budget", r)) == 1
            if session.stage == "midlife":
                assert state.history[3].get("midlife")
    assert seen == expected_stages(cards=6)  # two tables of 6
    session = fresh(session)
    assert session.status == "finished" and session.finished_at is not None
    for table in tables:
        assert state_of(table).phase == "over"
    assert error(services.session_advance, session=session).code == "read_only"


def test_a_vote_closes_itself_when_every_active_seat_has_voted_else_the_teacher_closes_it(
        monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(14)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    one, two = session.tables.order_by("number")
    for s in humans(one):
        services.ballot_cast(seat_id=s.pk, kind="tax", option="C", expected=session.stage_id)
    # Table 1 is counted by the engine the moment its bag is full ...
    [count] = counts(one, "tax", 1)
    assert count.payload["tally"] == {"C": 7} and count.actor == "teacher"
    assert state_of(one).phase != "tax_vote"
    # ... table 2, where three students have not voted, is still open.
    absent = humans(two)[:3]
    voters = humans(two)[3:]
    for s, option in zip(voters, ["A", "B", "B", "D"], strict=True):
        services.ballot_cast(seat_id=s.pk, kind="tax", option=option,
                             expected=session.stage_id)
    assert counts(two, "tax", 1) == []
    assert state_of(two).phase == "tax_vote"
    assert len(state_of(two).receipts) == 4
    in_the_bag = counters(two)
    session = advance(session)  # the teacher empties every bag still open
    [count] = counts(two, "tax", 1)
    assert count.payload["tally"] == in_the_bag == {"A": 1, "B": 2, "D": 1}
    assert state_of(two).tax == "B"
    assert not BallotReceipt.objects.filter(seat__in=absent).exists()
    assert len(counts(one, "tax", 1)) == 1  # table 1 was not counted twice
    for s in absent:  # too late now
        err = error(services.ballot_cast, seat_id=s.pk, kind="tax", option="A",
                    expected=session.stage_id)
        assert err.code == "vote_closed"


def test_the_teachers_pact_close_gives_nothing_for_missing_contributions():
    session, _tokens = started(8)
    table = session.tables.get()
    givers = humans(table)[:3]
    for s in givers:
        sic_services.pact_submit(seat_id=s.pk, coins=3, expected=session.stage_id)
    assert state_of(table).phase == "pact"
    advance(session)
    state = state_of(table)
    assert state.pact_total == 9
    for s in humans(table):
        assert state.player(s.player_name).pact == (3 if s in givers else 0)
    closing = TableAction.objects.filter(table=table, actor="teacher", payload__type="pact")
    assert sorted(a.payload["player"] for a in closing) == sorted(
        s.player_name for s in humans(table)[3:])
    assert all(a.payload["coins"] == 0 and a.seat_id is None for a in closing)


def tie_the_tax(session, table):
    """Four vote A, four vote C: a tax tie."""
    for i, s in enumerate(humans(table)):
        services.ballot_cast(seat_id=s.pk, kind="tax", option="AC"[i % 2],
                             expected=session.stage_id)


def test_a_pending_tax_tie_blocks_moving_past_pay_until_the_decider_decides(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    tie_the_tax(session, table)
    state = state_of(table)
    assert state.phase == "tie_break" and state.tie.options == ["A", "C"]
    session = advance(session)  # tax_vote -> pay is allowed: paying waits for the tie
    assert session.stage == "pay"
    before = dump_facilitator()
    err = error(services.session_advance, session=session, expected=session.stage_id)
    assert err.code == "tie_break_pending" and "1" in err.message
    assert dump_facilitator() == before
    decider = table.seats.get(player_name=state.tie.deciders[0])
    other = table.seats.exclude(pk=decider.pk).first()
    err = error(sic_services.tie_break_submit, seat_id=other.pk, choice="A")
    assert (err.code, err.status) == ("not_your_turn", 403)
    assert error(sic_services.tie_break_submit, seat_id=decider.pk, choice="B").code == \
        "bad_option"
    assert dump_facilitator() == before
    sic_services.tie_break_submit(seat_id=decider.pk, choice="A")
    state = state_of(table)
    assert state.tax == "A" and state.phase == "budget_vote"
    assert advance(session).stage == "budget_vote"


def test_the_teacher_breaks_a_budget_tie_for_an_absent_decider(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    vote_all(session, "tax", random.Random(0), ["C"])
    session = advance(advance(session))
    assert session.stage == "budget_vote"
    vote_all(session, "budget", random.Random(0), ["health"])
    state = state_of(table)  # health first, then education and shield tie at level 1
    assert state.phase == "tie_break" and state.tie.kind == "budget"
    assert sorted(state.tie.options) == ["education", "shield"]
    session = advance(session)
    assert session.stage == "end_of_round"
    assert error(services.session_advance, session=session).code == "tie_break_pending"
    assert error(sic_services.tie_break_submit, session=session, table_number=1,
                 choice=None).code == "invalid_action"  # a budget tie cannot be passed
    assert error(sic_services.tie_break_submit, session=session, table_number=9,
                 choice="shield").code == "not_found"
    sic_services.tie_break_submit(session=session, table_number=1, choice="shield",
                              expected=session.stage_id)
    action = TableAction.objects.filter(table=table, payload__type="tie_break").get()
    assert action.actor == "teacher" and action.seat_id is None
    assert action.payload == {"type": "tie_break", "player": state.tie.deciders[0],
                              "choice": "shield"}
    state = state_of(table)
    assert state.history[0]["split"]["ranking"] == ["health", "shield", "education"]
    assert (state.round, state.phase) == (2, "tax_vote")
    assert advance(session).stage == "event"


def test_a_tie_with_no_tie_is_refused():
    session, _tokens = started(8)
    ana = seat(session, "Ana")
    assert error(sic_services.tie_break_submit, seat_id=ana.pk, choice="A").code == "no_tie"
    assert error(sic_services.tie_break_submit, session=session, table_number=1,
                 choice="A").code == "no_tie"


def test_bots_vote_at_every_table_and_every_vote_sums_to_its_receipts(monkeypatch):
    deterministic(monkeypatch, 9)
    session, _tokens = started(9, fill="bots", options={"bot_policy": "random"})
    assert sorted(len(t.config["players"]) for t in session.tables.all()) == [6, 6]
    rng = random.Random(9)
    all_pacts(session)
    while (session.round, session.stage) != (5, "event"):
        if session.stage == "tax_vote":
            vote_all(session, "tax", rng, ["A", "B", "C", "D"])
        elif session.stage == "budget_vote":
            vote_all(session, "budget", rng, ["health", "education", "shield"])
        break_ties(session, rng)
        session = advance(session)
    receipts = Counter(BallotReceipt.objects.values_list("bag__table", "bag__decision"))
    for action in TableAction.objects.filter(payload__type="count"):
        tally = action.payload["tally"]
        assert sum(tally.values()) == receipts[(action.table_id,
                                                f"{action.round}:{action.payload['kind']}")]
    bags = [(a.table_id, f"{a.round}:{a.payload['kind']}")
            for a in TableAction.objects.filter(payload__type="count")]
    assert sorted(bags) == sorted(receipts)  # one count per bag, every bag counted
    assert all(n == 6 for n in receipts.values())  # every seat voted, the bots included
    assert len(receipts) == 2 * 3 * 2  # two tables, three voting rounds, two votes each
