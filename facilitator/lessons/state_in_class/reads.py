"""What State in Class's screens read beyond the engine's view, handed to the presenters as
plain values (the ``Lesson``'s ``session_info`` and ``seat_info``): the Midlife cards the class
has seen, the debate's timer, what a phone may do now and whether its student abstained. The
presenters read nothing themselves; this module writes nothing."""

from __future__ import annotations

from typing import Any

from facilitator.lessons.state_in_class import pacing, script
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import Bag, BallotReceipt, ClassSession, Seat, Table


def session_info(session: ClassSession) -> dict[str, Any]:
    return {"cards": script.cards_read(session),
            "debate_seconds": session.options.get("debate_seconds")}


def seat_info(session: ClassSession, seat: Seat, table: Table,
              legal: list[dict[str, Any]]) -> dict[str, Any]:
    return {"can": seat_can(session, legal), "abstained": abstained(seat, table, session)}


def abstained(seat: Seat, table: Table, session: ClassSession) -> bool:
    """The seat put no token in the vote whose result the class is being shown. A bag closed
    unopened (fewer than 3 tokens) kept no receipt, and counted nobody's token: the platform's
    notice says so to everyone at the table, voters and abstainers alike."""
    kind = script.COUNTED_AT.get(session.stage)
    if kind is None:
        return False
    bag = Bag.objects.filter(table=table, decision=script.decision_id(session.round, kind),
                             status=Bag.Status.COUNTED).first()
    return (bag is not None and not bag.set_aside
            and not BallotReceipt.objects.filter(bag=bag, seat=seat).exists())


def seat_can(session: ClassSession, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What the phone may offer now: the engine allows it *and* the lesson is at that moment."""
    types = {a["type"]: a for a in legal}
    running = session.status == ClassSession.Status.RUNNING and not session.paused
    vote = types.get("ballot", {}).get("kind")
    return {
        "pact": running and "pact" in types and session.stage == Stage.PACT,
        "vote": vote if running and session.stage == f"{vote}_vote" else None,
        "decision": script.decision_id(session.round, vote) if vote else None,
        "tie_break": [a["choice"] for a in legal if a["type"] == "tie_break"]
        if running and pacing.tie_shown(session.stage) else [],
    }
