"""The debrief's "What if we had…?" pages and the class handout's turning points, for each of
the four modules: only the lesson's teacher sees them, once the lesson has ended; a plain GET
form picks a table's decision and an alternative the rules allowed; the page shows both lines
on the module's charts in the game's own words, one sentence per difference and every decision
the bot took; the turning points come with a question each; nothing is written; and two
lessons that differ only in their secrets (who cast which ballot behind the same counts, the
pact's split behind the same total) give the same pages and handout text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from facilitator.lessons.austerity.debrief import handouts as austerity_handouts
from facilitator.lessons.crisis import debrief as crisis_debrief
from facilitator.lessons.poleconomy import debrief as poleconomy_reports
from facilitator.lessons.state_in_class.debrief import handouts as sic_handouts
from facilitator.log import game_record
from facilitator.models import (
    ClassSession,
    Handout,
    LedgerEntry,
    TableAction,
)
from facilitator.reports import whatif as whatifs
from tests.facilitator.lesson import join, make_session
from tests.lessons.whatif_support import GAMES, finished, poleconomy_lesson
from tests.reports.scripted import default_pact, default_tax, scripted_lesson

pytestmark = pytest.mark.django_db

# Raw engine keys and placeholders a page must never show: each module names them.
CLASS_HTML = {"state-in-class": sic_handouts.DEBRIEF.class_html,
              "austerity": austerity_handouts.DEBRIEF.class_html,
              "crisis": crisis_debrief.DEBRIEF.class_html,
              "poleconomy": poleconomy_reports.DEBRIEF.class_html}
RAW = re.compile(r"\{\w+\}|\boption [a-z]+[-:]|the move |level:|fund:|wealth:|vp:|export:|"
                 r"black_market|not-carried|%\(")


@pytest.fixture(scope="module")
def lessons(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A finished lesson of every module (committed for the module's tests, deleted after)."""
    with django_db_blocker.unblock():
        users = get_user_model().objects
        teacher = users.create_user(username="whatif-teacher", password="x-whatif")
        other = users.create_user(username="whatif-other", password="x-other")
        data: dict[str, Any] = {"teacher": teacher, "other": other}
        try:
            for game in GAMES:
                data[game] = finished(game, teacher=teacher)
            yield data
        finally:
            ClassSession.objects.filter(owner__in=[teacher, other]).delete()
            users.filter(pk__in=[teacher.pk, other.pk]).delete()
            cache.clear()


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def base(session: ClassSession) -> str:
    return f"/teacher/lessons/{session.pk}/reports/"


def choices(session: ClassSession) -> list[dict[str, Any]]:
    table = session.tables.get(number=1)
    side = whatifs.side_of(session)
    assert side is not None
    return whatifs.table_choices(side, table)


def selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{name}">(.*?)</select>', page, flags=re.S)
    assert select, name
    found = re.search(r'<option value="([^"]*)" selected>', select.group(1))
    assert found, name
    return found.group(1)


# --------------------------------------------------------------------------- who may see it


def test_only_the_lessons_teacher_sees_the_what_if_and_only_once_the_lesson_has_ended(
        lessons: dict[str, Any]) -> None:
    session = lessons["state-in-class"]
    for page in ("what-if/", "turning-points/"):
        url = base(session) + page
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
        assert client_of(lessons["other"]).get(url).status_code == 404
        assert client_of(lessons["teacher"]).get(url).status_code == 200
    running = make_session(lessons["teacher"])
    join(running, 6)
    for page in ("what-if/", "turning-points/"):
        assert client_of(lessons["teacher"]).get(base(running) + page).status_code == 409


def test_the_debrief_page_links_each_tables_what_if_and_turning_points(
        lessons: dict[str, Any]) -> None:
    session = lessons["crisis"]
    page = client_of(lessons["teacher"]).get(base(session)).content.decode()
    assert f'{base(session)}what-if/?table=1' in page
    assert f'{base(session)}turning-points/?table=1' in page


# --------------------------------------------------------------------------- the what-if page


@pytest.mark.parametrize("game", GAMES)
def test_a_picked_decision_is_shown_side_by_side_on_the_modules_charts_in_its_words(
        lessons: dict[str, Any], game: str) -> None:
    session = lessons[game]
    found = choices(session)
    assert found, "the lesson has public decisions to change"
    choice = found[len(found) // 2]
    key = choice["alternatives"][-1]["key"]
    url = base(session) + f"what-if/?table=1&decision={choice['index']}&alternative={key}"
    page = client_of(lessons["teacher"]).get(url).content.decode()
    assert selected(page, "decision") == str(choice["index"])
    assert selected(page, "alternative") == key
    assert '<form method="get" class="pick">' in page  # no script needed to pick
    charts = re.findall(r"<figure><figcaption>(.*?)</figcaption><svg", page)
    assert 1 <= len(charts) <= 8
    # Every chart draws the game as played and as it would have gone, on one scale.
    for svg in re.findall(r"<svg[^>]*class=\"chart\".*?</svg>", page, flags=re.S):
        assert svg.count('stroke="#111111" stroke-width="3"') == 1  # as played: solid
        assert svg.count('stroke-dasharray="7 4"') == 1  # what if: dashed
    assert "What would have been different" in page
    shown = re.sub(r"<[^>]+>", " ", page.split('<main id="main"', 1)[1])
    assert not RAW.search(shown), RAW.search(shown)


def test_a_bot_decision_in_the_changed_game_is_marked_on_the_charts_and_told(
        lessons: dict[str, Any]) -> None:
    session = lessons["austerity"]
    side = whatifs.side_of(session)
    assert side is not None
    table = session.tables.get(number=1)
    choice = choices(session)[0]
    key = choice["alternatives"][0]["key"]
    result = whatifs.table_what_if(side, table, choice["index"], key)
    assert result["bot"], "this what-if needs the bot"
    page = client_of(lessons["teacher"]).get(
        base(session) + f"what-if/?table=1&decision={choice['index']}&alternative={key}"
    ).content.decode()
    decisions = len({(t["step"], t["decision"]) for t in result["bot"]})
    assert f"The bot took {decisions} decisions in the what-if" in page
    assert "hatched: the bot decided" in page
    assert page.count("-bot)") >= len({t["step"] for t in result["bot"]})  # hatched steps


def test_a_decision_or_alternative_not_offered_falls_back_to_the_first_offered(
        lessons: dict[str, Any]) -> None:
    session = lessons["state-in-class"]
    first = choices(session)[0]
    page = client_of(lessons["teacher"]).get(
        base(session) + "what-if/?table=7&decision=abc&alternative=nonsense").content.decode()
    assert selected(page, "decision") == str(first["index"])
    assert selected(page, "alternative") == first["alternatives"][0]["key"]


def test_picking_another_decision_starts_from_its_first_alternative(
        lessons: dict[str, Any]) -> None:
    session = lessons["state-in-class"]
    taxes = [c for c in choices(session) if c["label"].startswith("Tax vote")]
    one, two = taxes[0], taxes[1]
    kept = next(a["key"] for a in two["alternatives"] if a["key"] != two["alternatives"][0]["key"])
    client = client_of(lessons["teacher"])
    same = client.get(base(session) + f"what-if/?table=1&shown={two['index']}"
                      f"&decision={two['index']}&alternative={kept}").content.decode()
    assert selected(same, "alternative") == kept
    moved = client.get(base(session) + f"what-if/?table=1&shown={one['index']}"
                       f"&decision={two['index']}&alternative={kept}").content.decode()
    assert selected(moved, "alternative") == two["alternatives"][0]["key"]


def test_a_what_if_writes_nothing_and_is_computed_once(
        lessons: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    session = lessons["poleconomy"]
    table = session.tables.get(number=1)
    record = game_record(table)
    rows = (TableAction.objects.count(), LedgerEntry.objects.count(), Handout.objects.count())
    side = whatifs.side_of(session)
    assert side is not None
    calls: list[int] = []
    real = side.what_if

    def counted(*args: Any) -> dict[str, Any]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(side, "what_if", counted)
    choice = choices(session)[-1]
    url = base(session) + f"what-if/?table=1&decision={choice['index']}"
    client = client_of(lessons["teacher"])
    first, second = client.get(url).content, client.get(url).content
    assert first == second and len(calls) == 1
    assert (TableAction.objects.count(), LedgerEntry.objects.count(),
            Handout.objects.count()) == rows
    assert game_record(table) == record


# --------------------------------------------------------------------------- turning points


@pytest.mark.parametrize("game", GAMES)
def test_the_turning_points_come_with_a_question_each_and_a_link_to_their_what_if(
        lessons: dict[str, Any], game: str) -> None:
    session = lessons[game]
    page = client_of(lessons["teacher"]).get(base(session) + "turning-points/").content.decode()
    points = re.findall(r'<li class="point">(.*?)</li>\s*(?=<li class="point">|</ol>)', page,
                        flags=re.S)
    side = whatifs.side_of(session)
    assert side is not None
    expected = whatifs.table_turning_points(side, session.tables.get(number=1))
    assert len(points) == len(expected) <= 3
    assert expected, "this lesson has turning points"
    for point, found in zip(points, expected, strict=True):
        assert '<p class="question">' in point and "?" in point
        assert (f"what-if/?table=1&amp;decision={found['choice']['index']}"
                f"&amp;alternative={quote(found['alternative'], safe='')}") in point
    shown = re.sub(r"<[^>]+>", " ", page.split('<main id="main"', 1)[1])
    assert not RAW.search(shown), RAW.search(shown)


@pytest.mark.parametrize("game", GAMES)
def test_the_class_handout_has_a_page_of_each_tables_turning_points_in_both_languages(
        lessons: dict[str, Any], game: str) -> None:
    session = lessons[game]
    side = whatifs.side_of(session)
    assert side is not None
    points = whatifs.table_turning_points(side, session.tables.get(number=1))
    for language, heading, ask in (("en", "Turning points", "?"),
                                   ("es", "Momentos decisivos", "¿")):
        html = CLASS_HTML[game](session, paper="a4", language=language)
        section = html.split('<section class="turning-points">', 1)[1].split("</section>")[0]
        assert heading in section
        assert section.count('<p class="ask">') == len(points)
        assert all(ask in q for q in re.findall(r'<p class="ask">(.*?)</p>', section))


# --------------------------------------------------------------------------- secrecy

PERMUTED = [3, 1, 4, 0, 6, 7, 2, 5]  # seat i votes (and pays) as seat PERMUTED[i] would


def _budget(state: Any, me: Any, index: int) -> str:
    return ("shield", "health", "education")[index % 3]


def _pages(session: ClassSession, client: Client) -> list[str]:
    """Every what-if of table 1's first decisions, its turning points and the handout's
    turning points, with the lesson's own id taken out."""
    pages = [client.get(base(session) + "turning-points/").content.decode()]
    for choice in choices(session)[:6]:
        for alt in choice["alternatives"][:3]:
            pages.append(client.get(base(session) + f"what-if/?table=1&decision="
                                    f"{choice['index']}&alternative={alt['key']}"
                                    ).content.decode())
    with translation.override("en"):
        html = CLASS_HTML[session.game](session, paper="a4")
    pages.append(html.split('<section class="turning-points">', 1)[1].split("</section>")[0])
    return [p.replace(f"/lessons/{session.pk}/", "/lessons/N/") for p in pages]


def test_two_lessons_differing_only_in_who_voted_what_and_the_pacts_split_show_the_same(
        lessons: dict[str, Any]) -> None:
    teacher = lessons["teacher"]
    one = scripted_lesson(students=8, seed=5, teacher=teacher, title="Twins",
                          budget=_budget)
    two = scripted_lesson(
        students=8, seed=5, teacher=teacher, title="Twins",
        tax=lambda t, r, i: default_tax(t, r, PERMUTED[i]),
        budget=lambda state, me, i: _budget(state, me, PERMUTED[i]),
        pact=lambda t, i: default_pact(t, PERMUTED[i]))
    records = [game_record(s.tables.get(number=1)) for s in (one, two)]
    pacts = [[a["coins"] for a in r["actions"] if a["type"] == "pact"] for r in records]
    assert pacts[0] != pacts[1] and sum(pacts[0]) == sum(pacts[1])  # the split differs
    client = client_of(teacher)
    assert _pages(one, client) == _pages(two, client)


def test_two_lessons_differing_only_in_who_consented_show_the_same(
        lessons: dict[str, Any]) -> None:
    teacher = lessons["teacher"]
    one = poleconomy_lesson(teacher=teacher, language="en", title="Twins",
                            consent=lambda r, i: "yes")
    two = poleconomy_lesson(teacher=teacher, language="en", title="Twins")
    client = client_of(teacher)
    assert _pages(one, client) == _pages(two, client)
