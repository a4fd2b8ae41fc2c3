"""A party request is seen. The phone says it was sent, the partners'
phones show it, the game master's page fills its parties form in from it (declaring what
was asked is one click) and accepts a coalition request in one click; the phone's "With"
takes several partners, as its text says "two or more"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from facilitator.lessons.poleconomy import options, script
from facilitator.lessons.poleconomy.models import PoliticsRequest
from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db


def ask(lesson: Lesson, player: str, **fields: Any) -> None:
    page = lesson.phone(player).post("/play/act/", {"type": "ask",
                                                  "expected": lesson.now.stage_id, **fields})
    assert page.status_code == 302, page.content[:400]


def test_a_party_of_three_is_sent_seen_by_its_partners_and_declared_in_one_click() -> None:
    lesson = Lesson()
    lesson.start()
    phone = lesson.phone_page("Ana")
    assert 'name="with_1"' in phone and 'name="with_2"' in phone  # every partner a box
    ask(lesson, "Ana", kind="party", name="Greens", with_1="Ben", with_2="Cai")
    request = PoliticsRequest.objects.get()
    assert request.members == ["Ana", "Ben", "Cai"]
    assert "Sent to the game master: the party “Greens” (Ana, Ben, Cai)." in \
        lesson.phone_page("Ana")
    assert "Ana asks the game master for the party “Greens” with you" in \
        lesson.phone_page("Ben")
    master = lesson.master()
    assert 'name="party1" maxlength="40" value="Greens"' in master
    ticked = re.findall(r'name="members1" value="(\w+)" checked', master)
    assert ticked == ["Ana", "Ben", "Cai"]
    response = lesson.console.post(
        f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/",
        {"type": "master_parties", "table": "1", "expected": lesson.now.stage_id,
         "party1": "Greens", "members1": ticked})
    assert response.status_code == 302
    assert {p.party for p in lesson.state().players} == {"Greens"}


def test_the_game_master_accepts_a_coalition_request_in_one_click(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain = options.table_config

    def config(names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return {**plain(names, options_),  # 5, 6 and 4 votes: nobody has a majority
                "dice": [[2, 3], [2, 4], [1, 3], [2, 3], [2, 4], [1, 3]]}

    monkeypatch.setattr(options, "table_config", config)
    lesson = Lesson()
    lesson.start()
    lesson.advance()
    assert lesson.now.stage == script.GOVERNMENT
    ask(lesson, "Cai", kind="coalition", members="Ben", pm="Ben")
    assert "Sent to the game master: a coalition of Ben, Cai" in lesson.phone_page("Cai")
    assert "Cai asks the game master for a coalition with you" in lesson.phone_page("Ben")
    master = lesson.master()
    form = re.search(r'<form[^>]*class="pol-accept">(.*?)</form>', master, re.S)
    assert form and "Accept this coalition" in form.group(1)
    fields = dict.fromkeys(("type", "table", "expected", "pm"), "")
    for key in fields:
        fields[key] = re.search(rf'name="{key}" value="([^"]*)"', form.group(1)).group(1)
    members = re.findall(r'name="members" value="(\w+)"', form.group(1))
    response = lesson.console.post(
        f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/",
        {**fields, "members": members})
    assert response.status_code == 302
    state = lesson.state()
    assert (state.pm, sorted(state.government)) == ("Ben", ["Ben", "Cai"])


def test_a_party_request_needs_a_partner_of_the_table_and_says_so() -> None:
    lesson = Lesson()
    lesson.start()
    alone = lesson.phone("Ana").post("/play/act/", {
        "type": "ask", "kind": "party", "name": "Greens", "expected": lesson.now.stage_id})
    assert "A party has a name and two members or more." in alone.content.decode()
    stranger = lesson.phone("Ana").post("/play/act/", {
        "type": "ask", "kind": "party", "name": "Greens", "with_1": "Zed",
        "expected": lesson.now.stage_id})
    assert "Choose players of your table." in stranger.content.decode()
    assert not PoliticsRequest.objects.exists()
