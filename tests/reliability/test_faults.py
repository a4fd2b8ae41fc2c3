"""Faults a classroom brings, over the real socket protocol (the whole ASGI application).

A phone that reloads, sleeps or loses the wifi in the middle of a vote, of the pact or of a
tie-break resumes its exact view (the same data and the same screen); its action counts once
if it reached the server (a resend is refused without counting), and can be sent again if it
never did. A double submit (the same ballot twice in a row, or from two tabs) counts once.
The projector tab closed and opened again shows the console exactly where it was.

32 concurrent duplicate ballots on PostgreSQL: ``tests/facilitator/test_concurrency.py``
(``test_thirty_two_identical_ballots_from_one_seat_count_once``). A phone that drops before
voting and comes back during a whole game: ``tests/facilitator/test_websockets.py``.
Restarting daphne or Redis, with real browsers: ``test_restart.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client

from facilitator import services
from facilitator.log import load_state
from facilitator.models import Bag, BallotReceipt, Seat, Table
from tests.facilitator.test_websockets import (
    game_of,
    lesson,
    open_lesson,
    table_fingerprint,
)
from tests.facilitator.wsclient import Socket, login_cookie, shut, wait_all

db = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_worker_connections():
    yield
    await database_sync_to_async(connections.close_all)()


async def hang_up(sock: Socket) -> None:
    """The client goes away; the server is given time to run its goodbye to the end.

    (Cut short, a consumer still busy with the last message is cancelled; with the Redis layer
    a cancelled receive can outlive its test and break the next tests' sockets.)
    """
    if sock.closed_code is None:
        await shut(sock.comm, timeout=15)
        sock.closed_code = 1000


async def close_all(*sockets: Socket) -> None:
    for sock in sockets:
        await hang_up(sock)


def private(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the connection dots (the phone's own dot blinks while it is away)."""
    out = dict(view)
    for key in ("table",):
        if key in out:
            out[key] = {**out[key], "seats": [{**s, "connected": None}
                                              for s in out[key]["seats"]]}
    return out


async def reconnected(phone: Socket, token: str, name: str) -> Socket:
    """The phone comes back (a reload, the wifi back, the screen unlocked)."""
    await hang_up(phone)
    return await Socket.phone(token, name)


@database_sync_to_async
def receipts(seat_id: int) -> int:
    return BallotReceipt.objects.filter(seat_id=seat_id).count()


@database_sync_to_async
def tally(session_id: int) -> dict[tuple[int, str], int]:
    """Tokens in each bag (round, kind): sealed while open, then the count's tally."""
    out: dict[tuple[int, str], int] = {}
    for bag in Bag.objects.filter(table__session_id=session_id):
        round_, kind = bag.decision.split(":")
        if bag.status == Bag.Status.OPEN:
            votes = bag.sealed.count()
        else:
            count = bag.table.actions.get(round=int(round_), payload__type="count",
                                          payload__kind=kind)
            votes = sum(count.payload["tally"].values())
        out[(int(round_), kind)] = out.get((int(round_), kind), 0) + votes
    return out


async def send_and_drop(phone: Socket, message: dict[str, Any]) -> None:
    """The message leaves the phone, then the connection dies before any answer is read."""
    await phone.send(message)
    await hang_up(phone)


# --------------------------------------------------------------------------- mid-vote


@db
async def test_reload_mid_vote_resumes_the_exact_view_and_the_ballot_counts_once():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    tokens, seats = setup["tokens"], setup["seats"]
    ana, ben = phones["Ana"], phones["Ben"]
    phase = ana.view["session"]["stage_id"]
    # Ben's phone sleeps before voting: it comes back to exactly the screen it left.
    before = ben.frames[-1]
    ben = phones["Ben"] = await reconnected(ben, tokens["Ben"], "Ben")
    assert private(ben.view) == private(before["view"]) and ben.frames[0]["html"] == before[
        "html"]
    assert ben.view["can"]["vote"] == "tax"
    # Ana's ballot reaches the server, but the wifi drops before the answer.
    ballot = {"type": "ballot", "kind": "tax", "option": "C", "expected": phase, "id": "a-1"}
    await send_and_drop(ana, ballot)
    await projector.until(lambda f: f["type"] == "progress" and f["voted"] == 1)
    ana = phones["Ana"] = await reconnected(ana, tokens["Ana"], "Ana")
    assert ana.view["game"]["me"]["has_voted"] and ana.view["can"]["vote"] is None
    assert "Your token is in the bag" in ana.frames[0]["html"]
    # The phone cannot know whether it arrived, so it sends it again: refused, not counted.
    await ana.send(ballot)
    answer = await ana.answer("a-1")
    assert (answer["type"], answer["code"]) == ("error", "already_voted")
    assert await receipts(seats["Ana"]) == 1
    # Ben's ballot never left his phone (it dropped first): it can be sent again, once.
    await hang_up(ben)
    ben = phones["Ben"] = await reconnected(ben, tokens["Ben"], "Ben")
    assert ben.view["can"]["vote"] == "tax"
    await ben.ok("ballot", kind="tax", option="D", expected=phase)
    assert await receipts(seats["Ben"]) == 1
    assert (await tally(setup["session"]))[(1, "tax")] == 2
    await projector.until(lambda f: f["type"] == "progress" and f["voted"] == 2)
    await close_all(projector, *phones.values())


# --------------------------------------------------------------------------- mid-pact


@db
async def test_network_loss_mid_pact_resumes_the_view_and_the_pact_counts_once():
    setup = await lesson("pact")
    projector, phones = await open_lesson(setup)
    tokens = setup["tokens"]
    cai = phones["Cai"]
    phase = cai.view["session"]["stage_id"]
    before = private(cai.view)
    cai = phones["Cai"] = await reconnected(cai, tokens["Cai"], "Cai")
    assert private(cai.view) == before and cai.view["can"]["pact"] is True
    pact = {"type": "pact", "coins": 3, "expected": phase, "id": "p-1"}
    await send_and_drop(cai, pact)
    await projector.view_until(lambda v: game_of(v)["pact"]["done"] == 1)
    cai = phones["Cai"] = await reconnected(cai, tokens["Cai"], "Cai")
    assert cai.view["game"]["me"]["pact"] == 3 and cai.view["can"]["pact"] is False
    await cai.send(pact)
    assert (await cai.answer("p-1"))["code"] == "already_contributed"
    # A different amount sent "again" is refused too: the first one stands.
    assert (await cai.do("pact", coins=0, expected=phase))["code"] == "already_contributed"

    @database_sync_to_async
    def pacts() -> list[Any]:
        table = Table.objects.get(session_id=setup["session"])
        return [p.pact for p in load_state(table).players if p.name == "Cai"]

    assert await pacts() == [3]
    assert game_of(projector.view)["pact"]["done"] == 1
    await close_all(projector, *phones.values())


# --------------------------------------------------------------------------- mid-tie-break


async def tied_tax_vote(setup: dict[str, Any], projector: Socket,
                        phones: dict[str, Socket]) -> dict[str, Any]:
    """Four vote A and four vote C: a tax tie for the lowest Income to break."""
    phase = projector.view["session"]["stage_id"]
    await wait_all([phone.ok("ballot", kind="tax", option="A" if i < 4 else "C",
                             expected=phase)
                    for i, phone in enumerate(phones.values())])
    await projector.until(lambda f: bool(f.get("counted")))  # the console: "counted" only
    # The tie is asked once the teacher shows the count (pacing.tie_shown).
    await projector.ok("next", expected=phase)
    view = await projector.view_until(lambda v: v["session"]["stage"] == "pay")
    return game_of(view)["tie_break"]


@db
async def test_phone_sleeping_mid_tie_break_resumes_and_its_decision_counts_once():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    tie = await tied_tax_vote(setup, projector, phones)
    name = tie["decider"]
    decider = phones[name]
    view = await decider.view_until(lambda v: v["can"]["tie_break"])
    phase = view["session"]["stage_id"]
    # Asleep before deciding: back to the same question.
    decider = phones[name] = await reconnected(decider, setup["tokens"][name], name)
    assert private(decider.view) == private(view)
    assert decider.view["can"]["tie_break"] == [*tie["options"], None]
    # The decision reaches the server, the answer does not reach the phone.
    decision = {"type": "tie_break", "choice": tie["options"][-1], "expected": phase,
                "id": "t-1"}
    await send_and_drop(decider, decision)
    await projector.view_until(lambda v: game_of(v)["phase"] == "budget_vote")
    decider = phones[name] = await reconnected(decider, setup["tokens"][name], name)
    assert decider.view["can"]["tie_break"] == [] and not decider.view["game"]["me"][
        "decides_tie"]
    await decider.send(decision)  # sent again: refused, the tie stays broken once
    assert (await decider.answer("t-1"))["code"] == "no_tie"

    @database_sync_to_async
    def decisions() -> list[Any]:
        table = Table.objects.get(session_id=setup["session"])
        return [a.payload for a in table.actions.filter(payload__type="tie_break")]

    assert await decisions() == [{"type": "tie_break", "player": name,
                                  "choice": tie["options"][-1]}]
    [entry] = [h for h in game_of(projector.view)["history"] if h["round"] == 1]
    assert entry["tax"]["winner"] == tie["options"][-1]
    await close_all(projector, *phones.values())


@db
async def test_a_tie_break_sent_from_an_earlier_moment_is_refused_as_stale():
    """Found here: the phone's phase id was dropped for tie-breaks (actions.seat_act)."""
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    tie = await tied_tax_vote(setup, projector, phones)
    decider = phones[tie["decider"]]
    await decider.view_until(lambda v: v["can"]["tie_break"])
    answer = await decider.do("tie_break", choice=tie["options"][0], expected="1:debate")
    assert answer["code"] == "stale"
    assert game_of((await projector.do("refresh")) and projector.view)["phase"] == "tie_break"
    await close_all(projector, *phones.values())


# --------------------------------------------------------------------------- double submit


@db
async def test_double_submit_the_same_ballot_twice_quickly_counts_once():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    ana = phones["Ana"]
    phase = ana.view["session"]["stage_id"]
    first = {"type": "ballot", "kind": "tax", "option": "B", "expected": phase, "id": "d-1"}
    await ana.send(first)
    await ana.send({**first, "id": "d-2"})  # the second tap, before any answer
    answers = [await ana.answer("d-1"), await ana.answer("d-2")]
    assert [a["type"] for a in answers] == ["ack", "error"]
    assert answers[1]["code"] == "already_voted"
    assert await receipts(setup["seats"]["Ana"]) == 1
    assert (await tally(setup["session"]))[(1, "tax")] == 1
    await close_all(projector, *phones.values())


@db
async def test_double_submit_from_two_tabs_at_once_counts_once():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    token = setup["tokens"]["Dee"]
    tab1, tab2 = phones["Dee"], await Socket.phone(token, "Dee-tab2")
    phase = tab1.view["session"]["stage_id"]
    answers = await wait_all([tab.do("ballot", kind="tax", option=option, expected=phase)
                              for tab, option in ((tab1, "A"), (tab2, "D"))])
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert [a["code"] for a in answers if a["type"] == "error"] == ["already_voted"]
    assert await receipts(setup["seats"]["Dee"]) == 1
    assert (await tally(setup["session"]))[(1, "tax")] == 1
    # Both tabs end up showing the token in the bag: the one whose ballot counted by its ack
    # (the bag's progress), the other by the fresh screen that follows its refusal.
    [counted] = [a for a in answers if a["type"] == "ack"]
    assert counted["progress"]["voted"] == 1
    refused = tab1 if answers[0]["type"] == "error" else tab2
    await refused.view_until(lambda v: v["game"]["me"]["has_voted"])
    await close_all(projector, tab2, *phones.values())


@pytest.mark.django_db
def test_double_submit_of_the_http_fallback_form_counts_once(settings):
    from tests.facilitator.lesson import drive_to, seat, started

    session, tokens = started(8)
    session = drive_to(session, "tax_vote", 1)
    client = Client()
    client.cookies["sic_seat"] = tokens["Eli"]
    form = {"type": "ballot", "kind": "tax", "option": "C", "expected": session.stage_id}
    first, second = client.post("/play/act/", form), client.post("/play/act/", form)
    assert first.status_code == 302
    assert second.status_code == 409 and "already in the bag" in second.content.decode()
    assert BallotReceipt.objects.filter(seat=seat(session, "Eli")).count() == 1


# --------------------------------------------------------------------------- the projector


@database_sync_to_async
def midlife_lesson() -> dict[str, Any]:
    """A lesson of 8 at the Midlife Crossroads (round 4), every decision made on the way."""
    from tests.facilitator.lesson import drive_to, make_teacher, started

    teacher = make_teacher()
    session, tokens = started(8, teacher=teacher)
    session = drive_to(session, "midlife", 4)
    seats = {s.nickname: s.pk for s in Seat.objects.filter(session=session)}
    return {"teacher": teacher, "session": session.pk, "tokens": tokens, "seats": seats,
            "code": session.join_code}


@db
@pytest.mark.parametrize("moment", ["mid-vote", "paused", "tie-break", "midlife", "pact"])
async def test_projector_tab_closed_and_reopened_shows_the_console_exactly_where_it_was(moment):
    setup = await (midlife_lesson() if moment == "midlife" else
                   lesson("pact" if moment == "pact" else "tax_vote"))
    projector, phones = await open_lesson(setup)
    names = list(phones)
    if moment == "pact":
        for name in names[:3]:
            await phones[name].ok("pact", coins=1)
        await projector.view_until(lambda v: game_of(v)["pact"]["done"] == 3)
    elif moment == "mid-vote":
        for name in names[:5]:
            await phones[name].ok("ballot", kind="tax", option="C")
        await projector.until(lambda f: f["type"] == "progress" and f["voted"] == 5)
    elif moment == "paused":
        await projector.ok("pause")
        await projector.view_until(lambda v: v["session"]["paused"])
    elif moment == "tie-break":
        await tied_tax_vote(setup, projector, phones)
    await projector.ok("refresh")
    before = projector.frames[-2]
    assert before["type"] == "view"
    fingerprint = await table_fingerprint(setup["session"])
    await hang_up(projector)  # the tab is closed (the laptop lid, a stray click) ...
    reopened = await Socket.projector(setup["session"], await login_cookie(setup["teacher"]))
    await reopened.drain(0.2)
    after = reopened.frames[-1]
    assert after["view"] == before["view"], moment  # ... and opened again: exactly there
    assert after["html"] == before["html"], moment
    assert await table_fingerprint(setup["session"]) == fingerprint
    # The console still drives the lesson from there.
    if moment != "paused":
        phase = after["view"]["session"]["stage_id"]
        await reopened.ok("pause", expected=phase)
        await reopened.view_until(lambda v: v["session"]["paused"])
    await close_all(reopened, *phones.values())


# --------------------------------------------------------------------------- removed seats


@db
async def test_token_of_a_reseated_phone_cannot_act_even_if_the_removed_message_is_lost(
        monkeypatch):
    """Found here: a socket trusted its token once, at connect; if the "removed" message was
    lost (another daphne process, a Redis hiccup), the old phone kept the seat."""
    from facilitator import broadcast

    monkeypatch.setattr(broadcast, "seat_removed", lambda seat_id: None)  # the lost message
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    old = phones["Fay"]

    @database_sync_to_async
    def reseat() -> str:
        session = Seat.objects.get(pk=setup["seats"]["Fay"]).session
        link = services.seat_reseat(session=session, seat=session.seats.get(nickname="Fay"))
        return services.seat_claim(token=link)[1]

    new_token = await reseat()
    answer = await old.do("ballot", kind="tax", option="C")
    assert (answer["type"], answer["code"]) == ("error", "removed")
    assert (await old.until(lambda f: f["type"] in ("removed", "closed")))["type"] == "removed"
    assert old.view["seat"]["nickname"] == "Fay"  # it was shown nothing new after that
    assert await receipts(setup["seats"]["Fay"]) == 0
    new = await Socket.phone(new_token, "Fay-new")
    await new.ok("ballot", kind="tax", option="C")
    assert await receipts(setup["seats"]["Fay"]) == 1
    await close_all(projector, new, *[p for n, p in phones.items() if n != "Fay"])
