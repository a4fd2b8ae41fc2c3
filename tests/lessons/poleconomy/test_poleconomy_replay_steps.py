"""The replay's "step n of N" counts the round as planned at its start, so a round the bank
cuts short is not told before the teacher reaches its end."""

from facilitator.lessons.poleconomy.presenters import steps_told

ORDER = ["Ana", "Ben", "Cai", "Dee"]


def round_of(turns: int) -> list[list[dict]]:
    """The beats of a round of four players in which ``turns`` turns were played."""
    start = [{"type": "round_start", "multiplier": 1, "order": ORDER}]
    played = [[{"type": "turn", "player": name, "nmr": False}] for name in ORDER[:turns]]
    return [start, *played, [{"type": "round_end"}]]


def test_a_whole_round_has_the_auctions_a_turn_each_and_its_end():
    beats = round_of(4)
    assert [steps_told(beats, done) for done in (False, True)] == [6, 6]


def test_a_round_the_bank_cut_short_says_the_planned_steps_until_its_last_step():
    beats = round_of(2)  # the bank ran dry in the second turn: 4 beats, not 6
    assert steps_told(beats, done=False) == 6
    assert steps_told(beats, done=True) == 4


def test_a_round_not_yet_played_has_no_steps():
    assert steps_told([], done=False) == 0
