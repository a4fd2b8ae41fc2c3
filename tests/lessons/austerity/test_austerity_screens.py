"""Austerity's screens: the projector (the teacher's console), a minister's phone, another
student's phone, the budget session's ballot and the final result, in English and Spanish,
rendered through the real pages from a lesson played through the services."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from facilitator import services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity import services as aus_services
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Seat, Table
from games import austerity as engine
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def offered(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)


class Lesson:
    """A lesson of ``students`` and its pages: the teacher's console and each phone."""

    def __init__(self, students: int, language: str = "en", **options: Any) -> None:
        self.teacher = make_teacher()
        self.session = services.session_create(owner=self.teacher, game="austerity",
                                                language=language, options=options)
        self.tokens = join(self.session, students)
        self.console = Client()
        self.console.force_login(self.teacher)

    @property
    def now(self) -> ClassSession:
        return fresh(self.session)

    def start(self, fill: str | None = None) -> None:
        services.session_start(session=self.now, fill=fill, seed=3)

    def advance(self) -> None:
        services.session_advance(confirm=True, session=self.now, expected=self.now.stage_id)

    def projector(self) -> str:
        page = self.console.get(f"/teacher/lessons/{self.session.pk}/")
        assert page.status_code == 200, page.content[:2000]
        return page.content.decode()

    def phone(self, seat: Seat) -> str:
        client = Client()
        client.cookies[SEAT_COOKIE] = self.tokens[seat.nickname]
        page = client.get("/play/")
        assert page.status_code == 200, page.content[:2000]
        return page.content.decode()

    def table(self, number: int = 1) -> Table:
        return self.now.tables.get(number=number)

    def seats(self, number: int = 1) -> list[Seat]:
        return list(self.table(number).seats.filter(shares__isnull=True, removed=False)
                    .order_by("position"))

    def minister(self, number: int = 1) -> Seat:
        chair = script.minister(self.seats(number), script.year_of(self.now))
        assert chair is not None
        return chair

    def vote_everyone(self, option: int, number: int = 1) -> None:
        bag = Bag.objects.get(table=self.table(number), status=Bag.Status.OPEN)
        for seat in self.seats(number):
            if not seat.is_bot:
                services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                                     expected=self.now.stage_id)

    def to_stage(self, stage: str) -> None:
        for _n in range(20):
            if self.now.stage == stage:
                return
            self.advance()
        raise AssertionError(f"never reached {stage}")

    def decide_first(self, number: int = 1) -> None:
        table = self.table(number)
        pending = engine.decisions(load_state(table))[0]
        aus_services.decide(seat_id=self.minister(number).pk, decision=pending.id,
                            choice=pending.options[0], expected=self.now.stage_id)

    def play_year(self, number: int = 1) -> None:
        for _n in range(300):
            if not script.minister_may_act(self.now, load_state(self.table(number))):
                return
            self.decide_first(number)
        raise AssertionError("the year did not end")


def text(html: str) -> str:
    """The page's words, without tags (for "is this said" checks)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def main_of(html: str) -> str:
    """The lesson's part of a page (the live region: not the title or the shell)."""
    return html.split('id="live"', 1)[1]


# ------------------------------------------------------------------ the projector


def test_the_projector_shows_the_whole_board_of_one_table() -> None:
    lesson = Lesson(5)
    lesson.start()
    page = text(lesson.projector())
    state = load_state(lesson.table())
    for track in ("Employment", "Public Safety", "Wealth", "Health", "Popularity"):
        assert f"{track}: {state.tracks[engine.data.TRACKS[0]]} of 10" in page or track in page
    # The bag's contents by colour, each with its letter and its count (public by the rules).
    for colour, name in (("debt", "Debt"), ("crime", "Crime"), ("income", "Income")):
        assert f'aria-label="{name}: {state.bag[colour]}"' in lesson.projector()
    for place in ("Bag", "Current", "Used", "Treasury"):
        assert place in page
    for inst in ("Private Enterprise", "National Security", "Social Welfare"):
        assert inst in page
    assert "Win at Year End when no Debt cube is in Used." in page  # the scenario's goal
    assert "Year 1" in page
    assert f"Finance Minister {lesson.minister().nickname}" in page


def test_each_track_marks_its_losing_zero_and_every_cube_has_a_letter() -> None:
    lesson = Lesson(5)
    lesson.start()
    html = lesson.projector()
    assert html.count('<li class="lose">✖</li>') == 5  # every track's 0 is marked, none is at 0
    for letter, colour in (("D", "debt"), ("W", "welfare"), ("S", "security"), ("C", "crime"),
                           ("I", "income")):
        assert re.search(rf'class="cube cube-{colour}"[^>]*>{letter}</span>', html), colour


def test_the_budget_ballot_shows_its_question_options_and_progress_not_the_votes() -> None:
    lesson = Lesson(5)
    lesson.start()
    seats = lesson.seats()
    bag = Bag.objects.get(table=lesson.table(), status=Bag.Status.OPEN)
    services.ballot_cast(seat_id=seats[0].pk, decision=bag.decision, option=2,
                         expected=lesson.now.stage_id)
    page = text(lesson.projector())
    assert "How many times should we raise taxes this year?" in page
    assert "Raise Taxes twice" in page
    assert "1 of 5 has voted" in page
    assert "A tie goes to the smaller change" in page


def test_a_bag_counted_by_its_last_token_is_shown_only_when_the_teacher_moves_on() -> None:
    lesson = Lesson(5)
    lesson.start()
    before = load_state(lesson.table()).bag["income"]
    lesson.vote_everyone(2)  # raise taxes twice: two Income cubes go into the bag
    assert load_state(lesson.table()).bag["income"] == before + 2  # counted already
    html = lesson.projector()
    assert "Everyone has voted." in text(html)
    assert f'aria-label="Income: {before}"' in html  # the board as before the count
    assert "Raise Taxes twice" not in text(html)
    lesson.advance()
    html = lesson.projector()
    assert f'aria-label="Income: {before + 2}"' in html
    assert re.search(r"Raise taxes:</span> <strong>twice</strong>", html)
    assert "5 of 5 voted" in text(html)


def test_the_year_shows_the_event_its_options_and_who_decides() -> None:
    lesson = Lesson(5)
    lesson.start()
    lesson.to_stage(script.YEAR)
    minister = lesson.minister()
    page = text(lesson.projector())
    assert f"{minister.nickname} decides:" in page
    assert "Take any actions you want, then draw the next two cubes." in page
    lesson.decide_first()  # the first draw
    state = load_state(lesson.table())
    page = text(lesson.projector())
    event = engine.data.EVENTS[engine.data.pair_key(state.pair)]
    assert event.name in page
    if state.stage == "event":
        for option in event.options:
            assert option.text in page


def test_several_tables_are_compact_cards_on_the_projector() -> None:
    lesson = Lesson(10)
    lesson.start()
    html = lesson.projector()
    assert html.count('class="aus-card') == 2
    assert "aus-grid aus-n2" in html
    assert "Table 1" in html and "Table 2" in html


def test_the_console_says_why_next_waits_for_a_table_still_in_its_year() -> None:
    lesson = Lesson(5)
    lesson.start()
    lesson.to_stage(script.YEAR)
    html = lesson.projector()
    assert "Table 1 is still playing its year." in text(html)
    assert re.search(r'value="next"[^>]*disabled', html)
    lesson.play_year()
    html = lesson.projector()
    assert not re.search(r'value="next"[^>]*disabled', html)
    assert "Year 1 is done" in text(html) or "has lost" in text(html)


# ------------------------------------------------------------------ phones


def test_the_ministers_phone_has_the_decision_as_buttons_and_the_others_wait() -> None:
    lesson = Lesson(5)
    lesson.start()
    lesson.to_stage(script.YEAR)
    minister = lesson.minister()
    other = next(s for s in lesson.seats() if s.pk != minister.pk)
    mine = lesson.phone(minister)
    assert "You are the Finance Minister this year." in text(mine)
    assert re.search(r'name="type" value="decide"', mine)
    assert re.search(r'<button type="submit" name="choice" value="draw"', mine)
    assert "Draw the next two cubes" in text(mine)
    assert "Raise Taxes" in text(mine)  # the mid-year Actions
    theirs = lesson.phone(other)
    assert f"{minister.nickname} is deciding" in text(theirs)
    assert 'value="decide"' not in theirs
    for page in (mine, theirs):  # the board in brief
        assert "The country" in page and "Employment" in page


def test_the_phone_ballot_then_its_token_in_the_bag_after_a_reload() -> None:
    lesson = Lesson(5)
    lesson.start()
    seat = lesson.seats()[1]
    page = lesson.phone(seat)
    assert 'data-action="ballot"' in page
    assert page.count('name="option"') == 3  # 0, 1 or 2 times
    assert "Put my token in the bag" in page
    bag = Bag.objects.get(table=lesson.table(), status=Bag.Status.OPEN)
    services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=0,
                         expected=lesson.now.stage_id)
    again = lesson.phone(seat)  # a reload: the token is in, no second ballot
    assert 'data-action="ballot"' not in again
    assert "Your token is in the bag" in text(again)


def test_a_portfolio_shows_on_the_phone_when_the_option_is_on() -> None:
    lesson = Lesson(5)
    lesson.start()
    assert "Your portfolio" not in text(lesson.phone(lesson.seats()[0]))
    # The option itself lands with the lesson's core work; the screens read it from the
    # session's options.
    ClassSession.objects.filter(pk=lesson.session.pk).update(
        options={**lesson.now.options, "portfolios": True})
    seat_page = text(lesson.phone(lesson.seats()[0]))
    assert "Your portfolio: Labour" in seat_page
    assert "You defend Employment." in seat_page
    assert "Your portfolio: Press office" in text(lesson.phone(lesson.seats()[4]))
    assert "Labour" in text(lesson.projector())  # the seats' portfolios are public


def test_the_final_result_on_the_projector_and_the_phones() -> None:
    lesson = Lesson(5, year_limit=3)
    lesson.start()
    for _year in range(3):
        lesson.to_stage(script.YEAR)
        lesson.play_year()
        lesson.advance()  # Year End
        if lesson.now.stage == script.YEAR_END and all(
                load_state(t).stage == "over" for t in lesson.now.tables.all()):
            break
    lesson.to_stage(script.FINAL)
    state = load_state(lesson.table())
    projector = text(lesson.projector())
    phone = text(lesson.phone(lesson.seats()[0]))
    if state.result == "won":
        assert "The country has won" in projector and "Your country has won!" in phone
    else:
        assert "The country has lost" in projector and "Your country has lost." in phone


# ------------------------------------------------------------------ Spanish


def test_the_screens_speak_spanish_in_a_spanish_lesson() -> None:
    lesson = Lesson(5, language="es")
    lesson.start()
    projector = text(main_of(lesson.projector()))
    assert "¿Cuántas veces subimos los impuestos este año?" in projector
    assert "Ministro de Hacienda" in projector
    phone = text(main_of(lesson.phone(lesson.seats()[1])))
    assert "Meter mi ficha en la bolsa" in phone
    lesson.to_stage(script.YEAR)
    minister = text(main_of(lesson.phone(lesson.minister())))
    assert "Sacar los dos cubos siguientes" in minister
    for english in ("Raise taxes", "Budget session", "Finance Minister", "Draw the next"):
        assert english not in projector + phone + minister, english


def test_undoing_a_count_says_so_on_the_projector_and_asks_the_phones_again() -> None:
    lesson = Lesson(5)
    lesson.start()
    bag = Bag.objects.get(table=lesson.table(), status=Bag.Status.OPEN)
    for seat in lesson.seats()[:3]:  # three of five: the teacher's "next" counts the bag
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=1,
                             expected=lesson.now.stage_id)
    lesson.advance()
    services.session_undo(session=lesson.now, expected=lesson.now.stage_id)
    assert lesson.now.stage == script.budget_stage(script.TAXES)
    projector = text(lesson.projector())
    assert "Undone: the count of “Raise taxes”." in projector
    assert "The votes cast were discarded: everyone votes again." in projector
    phone = lesson.phone(lesson.seats()[0])
    assert 'data-action="ballot"' in phone  # the bag is open again, empty
    assert "Please vote again." in text(phone)


def test_the_policy_item_and_an_extra_institution_read_as_their_names() -> None:
    lesson = Lesson(5, policies=True, extra_institutions=True, country="liberal-democracy")
    lesson.start()
    html = text(lesson.projector())
    assert "Welfare State" in html  # the country's policy face
    lesson.to_stage(script.YEAR)
    lesson.play_year()
    lesson.advance()  # Year End
    if load_state(lesson.table()).stage == "over":
        pytest.skip("the country lost in its first year")  # seed 3 keeps it standing
    lesson.advance()  # year 2's session opens with the policy card
    assert lesson.now.stage == script.budget_stage(script.POLICY_ITEM)
    phone = text(lesson.phone(lesson.seats()[0]))
    assert "Keep the policy cards as they are" in phone
    assert "Turn Welfare" in phone
    assert "Keep the policy cards, or turn one (costs 1 Popularity)?" in phone
    steps = text(main_of(lesson.projector()))
    assert "Policy card" in steps and "New institution" in steps  # the year's steps


def test_undoing_a_step_after_a_full_bag_goes_back_to_its_held_result() -> None:
    lesson = Lesson(5)
    lesson.start()
    lesson.vote_everyone(1)  # counted by its last token: the count stays through the undo
    lesson.advance()
    services.session_undo(session=lesson.now, expected=lesson.now.stage_id)
    projector = text(lesson.projector())
    assert "Undone: back to “Budget session: raise taxes”." in projector
    assert "Everyone has voted." in projector


def test_every_option_the_engine_lists_has_words_with_its_variants() -> None:
    from facilitator.lessons.austerity import words

    assert words.action_label("open:investment:current") == (
        "Open Investment (spend 2 Income) (Income from Current first)")
    assert words.action_label("pay-loan:treasury") == (
        "Pay Loan (Income from the Treasury first)")
    assert words.option_label("event", "spend:current", "debt+security") == (
        "Spend an Income cube. (Income from Current first)")
    # what funding gives is the option's effect line (as the cards in force make it)
    assert words.option_label("income", "fund:social-welfare") == "Fund Social Welfare"
    assert words.option_short("income", "fund:social-welfare") == "Social Welfare"


@pytest.mark.parametrize("scenario", sorted(engine.data.SCENARIOS))
def test_every_decision_of_played_games_reads_as_words(scenario: str) -> None:
    """Bots play games of every scenario with every option on; each decision the screens
    meet says each of its options in words (never the engine's option id)."""
    import random

    from facilitator.lessons.austerity import presenters
    from games.austerity import bots

    for seed in range(16):
        policy = bots.get_policy("sensible" if seed % 2 else "random")
        state = engine.new_game({"scenario": scenario, "policies": True,
                                 "extra_institutions": True, "year_limit": 6}, seed)
        rng = random.Random(seed)
        for _move in range(400):
            if engine.is_over(state):
                break
            view = engine.view(state, "government")
            for decision in view["decisions"]:
                block = presenters.decision_block(decision, view)
                for option in block["options"]:
                    assert option["label"] != option["value"] or option["value"] == "draw", (
                        decision["action"], option)
            state, _events = engine.apply(state, policy(state, rng))


def test_an_item_that_cannot_apply_says_so_by_its_name() -> None:
    lesson = Lesson(5)
    lesson.start()
    lesson.vote_everyone(0)
    lesson.advance()  # borrow
    lesson.vote_everyone(0)
    lesson.advance()  # pay a loan: no Income to pay with at the start
    assert lesson.now.stage == script.budget_stage(script.LOAN)
    assert not Bag.objects.filter(table=lesson.table(), status=Bag.Status.OPEN).exists()
    for page in (lesson.projector(), lesson.phone(lesson.seats()[0])):
        words_ = text(main_of(page))
        assert "Pay a loan" in words_
        assert "Nothing to vote on here: the country cannot do this now." in words_


def test_a_count_the_tie_rule_decided_says_so_and_a_clear_one_does_not() -> None:
    lesson = Lesson(4)
    lesson.start()
    bag = Bag.objects.get(table=lesson.table(), status=Bag.Status.OPEN)
    for seat, option in zip(lesson.seats(), (0, 0, 2, 2), strict=True):  # a 2-2 tie
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                             expected=lesson.now.stage_id)
    lesson.advance()
    page = text(main_of(lesson.projector()))
    assert "Raise taxes: no" in page  # the smaller change
    assert "4 of 4 voted: no 2, twice 2" in page  # the tally the platform published
    assert "a tie: the tie rule decided" in page
    lesson.vote_everyone(1)  # borrow once, all four: no tie
    lesson.advance()
    page = text(main_of(lesson.projector()))
    assert "Borrow: once" in page
    assert page.count("a tie: the tie rule decided") == 1


def test_a_motion_put_to_the_vote_gives_every_phone_at_its_table_the_secret_ballot() -> None:
    from facilitator.lessons.austerity import motions

    lesson = Lesson(5)
    lesson.start()
    lesson.to_stage(script.YEAR)
    raiser, mate, *_rest = [s for s in lesson.seats() if s.pk != lesson.minister().pk]
    motion = motions.motion_raise(seat_id=raiser.pk, kind=motions.BALLOT, target="income",
                                  expected=lesson.now.stage_id)
    assert "Support it" in text(lesson.phone(mate))
    motions.motion_support(seat_id=mate.pk, motion=motion, expected=lesson.now.stage_id)
    assert "Put it to a secret vote" in lesson.projector()
    motions.motion_open(session=lesson.now, table=1, motion=motion,
                        expected=lesson.now.stage_id)
    for seat in lesson.seats():
        page = lesson.phone(seat)
        assert re.search(rf'name="decision" value="{re.escape(motion)}"', page), seat.nickname
        assert 'data-action="ballot"' in page


def test_the_board_before_a_count_is_replayed_once_for_every_screen_of_its_log(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every phone of a table shows the board as before a held count: the replay is kept, and
    it is kept for one log only (a longer log, or more actions held back, is replayed anew)."""
    from facilitator.lessons.austerity import facts
    from facilitator.log import engine_of, record_actions
    from games.core import PUBLIC

    def replayed(table: Table, hidden: int) -> dict[str, Any]:
        actions = record_actions(table, open_bags=False)
        engine = engine_of(table)
        state, _e = engine.replay_actions(engine.new_game(table.config, table.seed),
                                          actions[:len(actions) - hidden])
        return engine.view(state, PUBLIC)

    lesson = Lesson(5)
    lesson.start()
    lesson.vote_everyone(2)  # counted by its last token, held back until the teacher moves on
    calls: list[int] = []
    real = facts.record_actions
    monkeypatch.setattr(facts, "record_actions",
                        lambda table, **kw: calls.append(table.pk) or real(table, **kw))
    for seat in lesson.seats():
        assert 'data-action="ballot"' not in lesson.phone(seat)
    lesson.projector()
    assert len(calls) == 1  # five phones and the projector, one replay
    table = lesson.table()
    for hidden in (1, 2):
        assert facts._before(table, hidden) == replayed(table, hidden)
    lesson.advance()  # the log grows: the same count of hidden actions names another board
    table = lesson.table()
    assert facts._before(table, 1) == replayed(table, 1)
