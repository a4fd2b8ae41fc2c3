"""The debrief's words for the engine's ids: cubes, tracks, events and their options,
institutions, actions, budget items, policy cards and how a country ended.

The engine's names are msgids (``games/austerity/data.py``) translated with Django's gettext
here; call these inside the language wanted (``translation.override``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.lessons.austerity import script
from facilitator.lessons.austerity.scoring import LOST, UNFINISHED, WON, CountryResult
from games.austerity import data


def cube(colour: str) -> str:
    return _(data.COLOUR_NAMES[colour]) if colour in data.COLOUR_NAMES else colour


def cubes(colours: list[str]) -> str:
    return " + ".join(cube(c) for c in colours)


def track(track_id: str) -> str:
    return _(data.TRACK_NAMES[track_id]) if track_id in data.TRACK_NAMES else track_id


def institution(inst: str) -> str:
    return _(data.INSTITUTIONS[inst].name) if inst in data.INSTITUTIONS else inst


def event_name(key: str | None) -> str:
    return _(data.EVENTS[key].name) if key in data.EVENTS else ""


def event_text(key: str | None) -> str:
    return _(data.EVENTS[key].text) if key in data.EVENTS else ""


def _variant(choice: str) -> tuple[str, str]:
    """``"pay-loan:current"`` -> ("pay-loan", " (Income from Current first)")."""
    base, _sep, variant = choice.partition(":")
    if base in (data.OPEN, "fund", "fund-again", "turn"):
        return choice, ""
    note = {"current": _(" (Income from Current first)"),
            "treasury": _(" (Income from the Treasury first)")}.get(variant, "")
    return base, note


def event_choice(key: str, choice: str) -> str:
    """The option of event ``key`` that ``choice`` names, in words."""
    if choice.startswith("fund-again:"):
        return _("Spend both Income cubes to fund %(institution)s again.") % {
            "institution": institution(choice.split(":", 1)[1])}
    base, note = _variant(choice)
    option = next((o for o in data.EVENTS[key].options if o.id == base), None) \
        if key in data.EVENTS else None
    if option is None:
        return _("Keep your money.") if base == "decline" else choice
    return _(option.text).rstrip(".") + note + "."


def action(choice: str) -> str:
    """An action in words: "Raise Taxes", "Open a new institution: Investment"."""
    if choice.startswith(data.OPEN + ":"):
        inst = choice.split(":")[1]
        return _("Open a new institution: %(institution)s") % {"institution": institution(inst)}
    base, note = _variant(choice)
    name = data.ACTION_NAMES.get(base)
    return (_(name) if name else choice) + note


def income(choice: str) -> str:
    if choice.startswith("fund:"):
        return _("Income funded %(institution)s") % {
            "institution": institution(choice.split(":", 1)[1])}
    return {"treasury": _("Income banked in the Treasury"),
            "used": _("Income put in Used"),
            "olympics": _("Income put in the Olympics box")}.get(choice, choice)


def policy_card(card: str) -> str:
    return _(data.POLICY_CARDS[card].name) if card in data.POLICY_CARDS else card


def policy_face(face: str) -> str:
    return _(data.FACES[face][1].name) if face in data.FACES else face


def item_name(item: str) -> str:
    return {script.POLICY_ITEM: _("Policy card"), script.TAXES: _("Raise taxes"),
            script.BORROW: _("Borrow"), script.LOAN: _("Pay a loan"),
            script.INSTITUTION: _("New institution")}.get(item, item)


def item_choice(item: str, option: str) -> str:
    """A budget item's option in words ("2 times", "yes", "Infrastructure")."""
    if item in (script.TAXES, script.BORROW) and option.isdigit():
        n = int(option)
        return _("no") if n == 0 else ngettext("%(n)d time", "%(n)d times", n) % {"n": n}
    if option in (script.NO, script.NONE):
        return _("no") if option == script.NO else _("none")
    if option == script.YES:
        return _("yes")
    if option == script.KEEP:
        return _("keep the cards")
    if option.startswith("turn:"):
        return _("turn %(card)s") % {"card": policy_card(option.split(":", 1)[1])}
    if option.startswith(data.OPEN + ":"):
        return institution(option.split(":", 1)[1])
    return option


def reason(kind: str, why: str | None) -> str:
    """Why a game ended, in words."""
    if kind == WON:
        return {"debt-free": _("no Debt cube was left in Used at Year End"),
                "crime-free": _("no Crime cube was left in Used at Year End"),
                "olympics": _("the Olympics were a success"),
                "war": _("the war was won")}.get(why or "", why or "")
    if why in data.TRACKS:
        return _("%(track)s fell to 0") % {"track": track(why)}
    return {"war": _("the war marker fell to 0"),
            "olympics": _("the Olympics failed"),
            "year-limit": _("the lesson's last year ended before the goal was reached")}.get(
        why or "", why or "")


def result_kind(result: CountryResult) -> str:
    return {WON: _("Won"), LOST: _("Lost"), UNFINISHED: _("Unfinished")}[result.kind]


def result_line(result: CountryResult, played: int | None = None) -> str:
    """The country's result in one sentence (``played``: the last year the country played,
    for an unfinished one: the lesson may have ended at a Year End, before the next year)."""
    if result.kind == WON:
        return _("Won in year %(year)d: %(reason)s.") % {
            "year": result.year, "reason": reason(result.kind, result.reason)}
    if result.kind == LOST:
        return _("Lost in year %(year)d: %(reason)s.") % {
            "year": result.year, "reason": reason(result.kind, result.reason)}
    return _("Unfinished after year %(year)d: score %(score)d (tracks %(tracks)d, less 2 × "
             "%(debt)d Debt cubes).") % {"year": played or result.year,
                                         "score": result.score or 0,
                                         "tracks": result.tracks, "debt": result.debt}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
