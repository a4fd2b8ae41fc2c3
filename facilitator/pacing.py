"""The order of a lesson's stages, and when the class sees a State fail.

Shared by the services (what "next" does) and the presenters (what a screen shows), so both
agree on the moment a failure becomes visible.
"""

from __future__ import annotations

from typing import Any

from facilitator.models import ClassSession

Stage = ClassSession.Stage
# Within a round; round 4 (the Midlife Crossroads) goes event → midlife → end of round.
ROUND_STAGES = [Stage.EVENT, Stage.DEBATE, Stage.MIDLIFE, Stage.TAX_VOTE, Stage.PAY,
                Stage.BUDGET_VOTE, Stage.END_OF_ROUND]
# Where the class sees each cause of the last Tension change.
FAILURE_SHOWN_AT = {"storm": Stage.EVENT, "could_not_pay": Stage.PAY,
                    "midlife": Stage.MIDLIFE, "weak_country": Stage.MIDLIFE}


def moment(round_: int, stage: str) -> tuple[int, int]:
    """A comparable position in the lesson (lobby and pact first, final count last)."""
    if stage in (Stage.LOBBY, Stage.PACT):
        return (0, 0 if stage == Stage.LOBBY else 1)
    if stage == Stage.FINAL:
        return (99, 0)
    return (round_, ROUND_STAGES.index(stage))


def failure_moment(failed: bool, round_: int, history: list[dict[str, Any]]
                   ) -> tuple[int, int] | None:
    """When the class sees this table's State fail (None if it has not failed)."""
    if not failed or not history:
        return None
    changes = history[-1].get("tension") or [{}]
    return moment(round_, FAILURE_SHOWN_AT.get(changes[-1].get("reason"), Stage.END_OF_ROUND))


def rank(stage: str) -> int:
    """A stage's place within a round (lobby and pact before, the final count after)."""
    if stage in ROUND_STAGES:
        return ROUND_STAGES.index(stage)
    return 99 if stage == Stage.FINAL else -1
