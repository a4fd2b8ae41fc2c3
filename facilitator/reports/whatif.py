"""The debrief's "What if we had…?" (docs/what-if.md): a finished table's game replayed with
one public decision answered differently, side by side with the game as played, and the
table's turning points: what the pages and the class handout show.

Read-only. Everything is computed from the table's record (``log.game_record``) by the lesson
module's what-if side (``Lesson.whatif()``, a ``kit.whatif.WhatIf``) and never written to the
record, the action log or the ledger. The engine's answers (language-free) are kept in
Django's cache per table, keyed by the application's version and the lesson's end (a finished
lesson's record no longer changes), so a page asked again, or in the other language, is
only drawn. Only public outcomes reach these pages: the engine's lines hold public figures
and the record holds no ballot (docs/secrecy.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.core.cache import cache
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.charts import compare_lines
from facilitator.log import game_record
from facilitator.models import ClassSession, Table
from facilitator.reports.handouts import version
from facilitator.whatif import WhatIf

CACHE_SECONDS = 12 * 3600
T = TypeVar("T")


def side_of(session: ClassSession) -> WhatIf | None:
    """The lesson module's what-if side, or None if its debrief has none."""
    found = session.lesson.whatif()
    return found if isinstance(found, WhatIf) else None


def _cached(table: Table, parts: tuple[Any, ...], compute: Callable[[], T]) -> T:
    text = repr((version(), table.pk, table.session.finished_at, parts))
    key = "whatif:" + hashlib.sha256(text.encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found


def _record(table: Table) -> dict[str, Any]:
    """What replays the table's game (who acted is not needed)."""
    def read() -> dict[str, Any]:
        record = game_record(table)
        return {k: record[k] for k in ("game", "version", "seed", "config", "actions")}
    return _cached(table, ("record",), read)


def table_choices(side: WhatIf, table: Table) -> list[dict[str, Any]] | None:
    """The table's public decisions that had an alternative, in the order they were taken;
    None when its game does not replay from its public decisions alone (no what-if)."""
    def read() -> list[dict[str, Any]] | None:
        try:
            return side.choices(_record(table))
        except side.core.NotReplayable:
            return None
    return _cached(table, ("choices",), read)


def not_replayable() -> str:
    return _("This table's game cannot be replayed from its public decisions alone (what "
             "stays secret changed its course), so it has no what-if.")


def table_what_if(side: WhatIf, table: Table, index: int, key: str) -> dict[str, Any]:
    return _cached(table, ("what-if", index, key),
                   lambda: side.what_if(_record(table), index, key))


def table_turning_points(side: WhatIf, table: Table) -> list[dict[str, Any]]:
    if table_choices(side, table) is None:
        return []
    return _cached(table, ("turning-points",), lambda: side.turning_points(_record(table)))


# --------------------------------------------------------------------------- the what-if page


def _tables(session: ClassSession) -> list[Table]:
    return list(session.tables.order_by("number").select_related("session"))


def _number(raw: str | None) -> int | None:
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def _pick_table(tables: Sequence[Table], raw: str | None) -> Table | None:
    number = _number(raw)
    return next((t for t in tables if t.number == number), tables[0] if tables else None)


def whatif_url(session: ClassSession, table: int, index: int | None = None,
               key: str | None = None) -> str:
    query: dict[str, Any] = {"table": table}
    if index is not None:
        query["decision"] = index
    if key is not None:
        query["alternative"] = key
    return reverse("facilitator:reports:whatif", args=[session.pk]) + "?" + urlencode(query)


def turning_url(session: ClassSession, table: int) -> str:
    return (reverse("facilitator:reports:turning_points", args=[session.pk]) + "?"
            + urlencode({"table": table}))


def _keys(line: Mapping[str, Any]) -> list[str]:
    keys: list[str] = []
    for point in line["series"]:
        keys += [k for k in point if k not in keys]
    return keys


def _points(line: Mapping[str, Any], track: str) -> list[tuple[int, float]]:
    return [(s, p[track]) for s, p in zip(line["steps"], line["series"], strict=True)
            if isinstance(s, int) and p.get(track) is not None]


def _bot(side: WhatIf, taken: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The decisions the bot took in the changed game, by round or year (one decision may
    take several actions: a whole bag's receipts and its count)."""
    decided: dict[tuple[Any, Any], Mapping[str, Any]] = {}
    for t in taken:
        decided.setdefault((t.get("step"), t.get("decision")), t)
    by_step: dict[int, list[str]] = {}
    for (step, _decision), t in decided.items():
        if isinstance(step, int):
            by_step.setdefault(step, []).append(side.bot_decision(t))
    steps = sorted(by_step)
    items = []
    for step in steps:
        named = [n for n in by_step[step] if n]
        counted = {n: named.count(n) for n in named}
        what = ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in counted.items())
        items.append({"step": side.at_step(step), "count": len(by_step[step]), "what": what})
    count = len(decided)
    text = ""
    if count:
        text = ngettext(
            "The bot took %(n)d decision in the what-if (hatched on the charts): where the "
            "class's own was no longer allowed, or never taken.",
            "The bot took %(n)d decisions in the what-if (hatched on the charts): where the "
            "class's own were no longer allowed, or never taken.", count) % {"n": count}
    return {"count": count, "text": text, "items": items, "steps": steps}


def _charts(side: WhatIf, result: Mapping[str, Any], marks: Sequence[int],
            changed: int | None) -> list[dict[str, Any]]:
    real, alt = result["as_played"], result["what_if"]
    names = (_("As played"), _("What if"))
    out = []
    for chart in side.charts(_keys(real)):
        svg = compare_lines(_points(real, chart.track), _points(alt, chart.track),
                            title=chart.title, axis=side.step_name(), names=names,
                            marks=marks, changed=changed, lo=chart.lo, hi=chart.hi)
        out.append({"title": chart.title, "svg": svg})
    return out


def whatif_context(session: ClassSession, side: WhatIf, query: Mapping[str, str]
                   ) -> dict[str, Any]:
    """The what-if page: the pickers (table, decision, alternative: any value not offered
    falls back to the first one offered) and, for the picked alternative, both lines on the
    module's charts, the differences in words and the decisions the bot took."""
    tables = _tables(session)
    table = _pick_table(tables, query.get("table"))
    context: dict[str, Any] = {
        "session": session, "tables": [{"number": t.number,
                                        "url": whatif_url(session, t.number),
                                        "current": t == table} for t in tables],
        "table": table, "decisions": [], "alternatives": [], "result": None}
    if table is None:
        return context
    context["turning_url"] = turning_url(session, table.number)
    side = side.at(table)  # its players as the lesson names them
    choices = table_choices(side, table)
    if choices is None:
        context["unavailable"] = not_replayable()
    if not choices:
        return context
    index = _number(query.get("decision"))
    choice = next((c for c in choices if c["index"] == index), choices[0])
    keys = [a["key"] for a in choice["alternatives"]]
    key = query.get("alternative")
    if query.get("shown") not in (None, str(choice["index"])):
        key = None  # another decision was picked: the alternative shown was the last one's
    key = key if key in keys else keys[0]
    context["decisions"] = [
        {"index": c["index"], "selected": c is choice,
         "label": _("%(decision)s: %(played)s") % {
             "decision": side.decision(c), "played": side.option(c, c["played"])}}
        for c in choices]
    context["alternatives"] = [{"key": k, "label": side.option(choice, k),
                                "selected": k == key} for k in keys]
    result = table_what_if(side, table, choice["index"], key)
    bot = _bot(side, result["bot"])
    changed = side.step(choice)
    context.update({
        "decision": side.decision(choice), "played": side.option(choice, choice["played"]),
        "alternative": side.option(choice, key), "changed_at": changed,
        "changed_step": side.at_step(changed) if changed is not None else "",
        "charts": _charts(side, result, bot["steps"], changed),
        "sentences": [side.sentence(d) for d in result["differences"]],
        "bot": bot, "result": result,
        "bot_mark": _("hatched: the bot decided"),
    })
    return context


# --------------------------------------------------------------------------- turning points


def _point(side: WhatIf, point: Mapping[str, Any]) -> dict[str, Any]:
    choice = point["choice"]
    return {"decision": side.decision(choice), "played": side.option(choice, choice["played"]),
            "alternative": side.option(choice, point["alternative"]),
            "sentences": [side.sentence(d) for d in point["differences"]],
            "question": side.question(point), "index": choice["index"],
            "key": point["alternative"]}


def table_turning_words(side: WhatIf, table: Table) -> list[dict[str, Any]]:
    """A table's turning points in words, each with its discussion question."""
    named = side.at(table)  # its players as the lesson names them
    return [_point(named, p) for p in table_turning_points(side, table)]


def turning_context(session: ClassSession, side: WhatIf, query: Mapping[str, str]
                    ) -> dict[str, Any]:
    tables = _tables(session)
    table = _pick_table(tables, query.get("table"))
    context: dict[str, Any] = {
        "session": session, "table": table, "points": [], "measure": side.measure(),
        "tables": [{"number": t.number, "url": turning_url(session, t.number),
                    "current": t == table} for t in tables]}
    if table is None:
        return context
    if table_choices(side, table) is None:
        context["unavailable"] = not_replayable()
    points = table_turning_words(side, table)
    for p in points:
        p["url"] = whatif_url(session, table.number, p["index"], p["key"])
    context.update({"points": points, "whatif_url": whatif_url(session, table.number)})
    return context


def handout_turning_points(session: ClassSession) -> list[dict[str, Any]]:
    """Each table's turning points in words, for the class handout (in the active
    language); [] when the lesson module has no what-if."""
    side = side_of(session)
    if side is None:
        return []
    return [{"number": t.number, "points": table_turning_words(side, t),
             "unavailable": not_replayable() if table_choices(side, t) is None else ""}
            for t in _tables(session)]
