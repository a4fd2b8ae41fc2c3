"""Coin Jar's debrief: its parts of the platform's (``kit.reports.Debrief``), which writes the
handouts' frame, their language, who gets a page and the PDFs. A module supplies its
templates, its story of the class and one page per student, the results and two
spreadsheets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from facilitator.kit import load_state
from facilitator.kit.reports import Debrief, csv_text
from facilitator.models import ClassSession, Seat, Table


def jars(session: ClassSession) -> list[tuple[Table, dict[str, Any]]]:
    """Each table and the coins its players hold at the end."""
    return [(t, dict(load_state(t).coins)) for t in session.tables.order_by("number")]


class CoinJarDebrief(Debrief):
    class_template = "coin_jar/reports/class.html"
    students_template = "coin_jar/reports/students.html"

    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        return {"jars": [{"number": t.number, "coins": coins} for t, coins in jars(session)]}

    def student_pages(self, session: ClassSession, seats: Sequence[Seat]
                      ) -> list[dict[str, Any]]:
        coins = {t.pk: c for t, c in jars(session)}
        return [{"nickname": s.nickname, "coins": coins[s.table_id].get(s.player_name, 0)}
                for s in seats]

    def results(self, session: ClassSession) -> list[tuple[Any, Any]]:
        return [(t, [f"{name}: {n}" for name, n in coins.items()]) for t, coins in jars(session)]

    def rounds_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
        return csv_text(("table", "round"), [{"table": t.number, "round": 2}
                                            for t, _ in jars(session)])

    def results_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
        return csv_text(("table", "player", "coins"),
                        [{"table": t.number, "player": name, "coins": n}
                         for t, coins in jars(session) for name, n in coins.items()])


DEBRIEF = CoinJarDebrief()
