"""The order of a lesson's stages, the Midlife cards read so far, and when the class sees a
State fail.

Shared by the services (what "next" does) and the presenters (what a screen shows), so both
agree on the moment something becomes visible.

The Midlife Crossroads (round 4) is read card by card: the engine plays the whole round at
once, but the class sees the n-th card of every table (and only then the Tension and tokens
it causes) at the teacher's n-th press in the Midlife stage. Class changes, as the rulebook
says, come at the end, once everyone has read their card: at the round's end.
"""

from __future__ import annotations

from typing import Any

from facilitator.lessons.state_in_class.stages import Stage

# Within a round; round 4 (the Midlife Crossroads) goes event → midlife → end of round.
ROUND_STAGES = [Stage.EVENT, Stage.DEBATE, Stage.MIDLIFE, Stage.TAX_VOTE, Stage.PAY,
                Stage.BUDGET_VOTE, Stage.END_OF_ROUND]
# Where the class sees each cause of the last Tension change (a Midlife card's: at its card).
FAILURE_SHOWN_AT = {"storm": Stage.EVENT, "could_not_pay": Stage.PAY,
                    "midlife": Stage.MIDLIFE, "weak_country": Stage.MIDLIFE}
ALL_CARDS = 99  # "every card has been read" (the deck has 12)
# The secret ballot each voting stage holds, by its short kind (the engine's "tax"/"budget").
# The class still sees the vote there, its bag counted or not: a tie found at a count stays
# unseen (see tie_shown).
VOTE_STAGES = {Stage.TAX_VOTE: "tax", Stage.BUDGET_VOTE: "budget"}

StageKey = tuple[int, int, int]


def tie_shown(stage: str) -> bool:
    """May a tie be shown (and its decider asked) at this stage?

    A bag is counted as soon as its last token is in, and a tie is found then, while the
    class still sees the vote. Saying "Tie!" on the projector, asking the decider on their
    phone, or answering a decider's message differently would tell the class the result before
    the teacher reveals the count. So a tie is shown, asked and decided from the stage that
    reveals its count (pay for a tax, the round's end for a budget); the teacher's button
    waits there for it (``presenters.next_blocked``). A bot decider decides at the count, as
    unseen as the count itself.
    """
    return stage not in VOTE_STAGES


def stage_key(round_: int, stage: str, cards: int = 0) -> StageKey:
    """A comparable position in the lesson (lobby and pact first, final count last); within
    the Midlife stage, ``cards`` is how many cards have been read."""
    if stage in (Stage.LOBBY, Stage.PACT):
        return (0, 0 if stage == Stage.LOBBY else 1, 0)
    if stage == Stage.FINAL:
        return (99, 0, 0)
    return (round_, ROUND_STAGES.index(stage), cards if stage == Stage.MIDLIFE else 0)


def session_stage_key(session: dict[str, Any]) -> StageKey:
    return stage_key(session["round"], session["stage"], session.get("cards", 0))


def cards_read(session: dict[str, Any], round_: int) -> int:
    """How many Midlife cards of round ``round_`` the class has seen (``ALL_CARDS``: all)."""
    reached = session_stage_key(session)
    if reached < stage_key(round_, Stage.MIDLIFE, 1):
        return 0
    if reached[:2] == stage_key(round_, Stage.MIDLIFE)[:2]:
        return reached[2]
    return ALL_CARDS


def card_moments(entry: dict[str, Any]) -> tuple[list[int | None], list[int | None]]:
    """For a Midlife round's history entry: the card (1-based) at which each Tension change
    and each exclusion happened, ``None`` for those of the class changes and the round's end.

    A card's own changes come in reading order: "Nothing happens to you" in a weak country
    (Tension +1), then the card's Exclusion token (+2). A token from a class change (already
    working class and short of 5 coins) is also a "midlife" token: it is told apart because
    its player's card gave no token, or already had its own.
    """
    draws = entry.get("midlife") or []
    card_of = {d["player"]: i + 1 for i, d in enumerate(draws)}
    token_of = {d["player"] for d in draws if d.get("token")}

    def assign(items: list[dict[str, Any]], reasons: tuple[str, ...]) -> list[int | None]:
        claimed: set[str] = set()
        out: list[int | None] = []
        for item in items:
            player = item.get("player")
            if item.get("reason") == "weak_country" and "weak_country" in reasons:
                out.append(card_of.get(player))
            elif (item.get("reason") == "midlife" and player in token_of
                  and player not in claimed):
                claimed.add(player)
                out.append(card_of.get(player))
            else:
                out.append(None)
        return out

    return (assign(entry.get("tension") or [], ("weak_country", "midlife")),
            assign(entry.get("exclusions") or [], ("midlife",)))


def failure_key(failed: bool, round_: int, history: list[dict[str, Any]]
                   ) -> StageKey | None:
    """When the class sees this table's State fail (None if it has not failed)."""
    if not failed or not history:
        return None
    entry = history[-1]
    changes = entry.get("tension") or [{}]
    reason = changes[-1].get("reason")
    if reason in ("midlife", "weak_country"):
        card = card_moments(entry)[0][-1]
        if card is None:  # a class change's token: the class changes come at the end
            return stage_key(round_, Stage.END_OF_ROUND)
        return stage_key(round_, Stage.MIDLIFE, card)
    return stage_key(round_, FAILURE_SHOWN_AT.get(reason, Stage.END_OF_ROUND))


def stage_order(stage: str) -> int:
    """A stage's place within a round (lobby and pact before, the final count after)."""
    if stage in ROUND_STAGES:
        return ROUND_STAGES.index(stage)
    return 99 if stage == Stage.FINAL else -1
