"""The platform calls a module's hooks for table seeds, the phone's engine audience, a
table's extra facts and a count's follow-up; their defaults keep every module as it was
(driven with the fake game, Coin Jar)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from facilitator import selectors, services
from facilitator.models import Bag, Seat
from tests.facilitator.lesson import fresh
from tests.fakegame.installed import coin_jar_installed, started
from tests.fakegame.lesson import LESSON

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_jar(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with coin_jar_installed(monkeypatch):
        yield


def test_the_modules_table_seeds_are_the_tables_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[int]] = []

    def seeds(options: dict[str, Any], fresh_seeds: list[int]) -> list[int]:
        seen.append(list(fresh_seeds))
        return [41] * len(fresh_seeds)

    monkeypatch.setattr(LESSON, "table_seeds", seeds)
    session = started()
    assert session.tables.get().seed == 41 and len(seen[0]) == 1


def test_by_default_a_phone_shows_its_own_players_view_and_the_module_may_name_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = started()
    first, second = Seat.objects.filter(session=session, is_bot=False).order_by("position")[:2]
    assert selectors.seat_view(first)["game"]["me"]["name"] == first.player_name
    monkeypatch.setattr(LESSON, "engine_audience", lambda seat: second.player_name)
    assert selectors.seat_view(first)["game"]["me"]["name"] == second.player_name


def test_a_modules_table_info_joins_the_projectors_table(monkeypatch: pytest.MonkeyPatch) -> None:
    session = started()
    assert set(selectors.projector_view(session)["tables"][0]) == {
        "number", "seats", "game", "reopened", "bag"}
    monkeypatch.setattr(LESSON, "table_info", lambda table, state: {"jar_colour": "blue"})
    assert selectors.projector_view(session)["tables"][0]["jar_colour"] == "blue"


def test_a_count_calls_the_modules_follow_up_with_its_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    def on_count(table: Any, state: Any, decision: str, result: dict[str, Any],
                 step: Any) -> Any:
        calls.append((decision, result))
        return state

    monkeypatch.setattr(LESSON, "on_count", on_count)
    session = started()
    bag = Bag.objects.get(table__session=session, status=Bag.Status.OPEN)
    for seat in Seat.objects.filter(session=session, is_bot=False).order_by("position"):
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=0,
                             expected=fresh(session).stage_id)
    assert calls == [(bag.decision, {"tally": {bag.options[0]: 3}})]
