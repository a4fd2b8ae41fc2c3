"""Names on screen: Company names, resources, Employee types and action spaces in the active
language, and an engine text (a msgid with ``{named}`` placeholders) filled after translation.

The engine never builds a sentence from English fragments: its texts are whole msgids marked
with ``_``, and the values it puts in them are numbers, names of players, or *codes* (a
Company id ``"FARM 03"``, a resource ``"food"``, a type ``"farmer"``, a space ``"loan"``). The
codes are shown by name here, each through the caller's ``translate`` (Django's ``gettext``
in the lesson; the identity, i.e. English, by default), so ``games/`` stays pure.

Parameters shown by name (by key): ``company`` (a Company id), ``card`` (when it is a Company
id), ``resource`` (a resource), ``role`` (an Employee type), ``needed``/``slots`` (Employee
types joined with ``", "``, as the production errors give them), ``roles`` (a list of types),
``amounts``/``extra`` (a list of ``[what, n]`` pairs, ``what`` a resource, ``"vp"`` or
``"credits"``), ``space`` (an action space). Anything else is shown as given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.crisis import board, cards
from games.i18n import _

Translate = Callable[[str], str]
NTranslate = Callable[[str, str, int], str]
# What an amount counts besides resources (a Company's output, a preview's earnings).
UNIT_NAMES = {"vp": _("VP"), "credits": _("credits")}


def _same(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def company_label(company_id: str, translate: Translate = _same) -> str:
    """``"HEAVY INDUSTRY 02"`` -> ``"Heavy Industry 02"`` (``"Industria pesada 02"`` with a
    Spanish ``translate``): the type's msgid translated, then the printed number."""
    sector, number = cards.company_name(company_id)
    return f"{translate(sector)} {number}"


def resource_name(resource: str, translate: Translate = _same) -> str:
    return translate(cards.RESOURCE_NAMES[resource])


def role_name(role: str, translate: Translate = _same) -> str:
    return translate(cards.EMPLOYEE_NAMES[role])


def space_name(space: str, translate: Translate = _same) -> str:
    """An action space: its location's name, with its number when the location has several
    spaces (``"company-3"`` -> ``"Companies 3"``)."""
    location = board.LOCATION_OF[space]
    spaces = dict(board.LOCATIONS)[location]
    name = translate(board.LOCATION_NAMES[location])
    return name if len(spaces) == 1 else f"{name} {spaces.index(space) + 1}"


def amounts_text(amounts: Any, translate: Translate = _same) -> str:
    """``[["energy", 1], ["vp", 2]]`` (or a mapping) -> ``"1 Energy, 2 VP"``."""
    pairs = amounts.items() if isinstance(amounts, Mapping) else amounts
    return ", ".join(f"{n} {unit_name(what, translate)}" for what, n in pairs)


def unit_name(what: str, translate: Translate = _same) -> str:
    """A resource, VP or credits by name."""
    return translate(UNIT_NAMES[what]) if what in UNIT_NAMES else resource_name(what, translate)


def shown(key: str, value: Any, translate: Translate = _same) -> Any:
    """One parameter as it is shown: a code by its name, anything else unchanged."""
    if key in ("company", "card") and isinstance(value, str) and value in cards.COMPANIES:
        return company_label(value, translate)
    if key == "resource" and isinstance(value, str) and value in cards.RESOURCE_NAMES:
        return resource_name(value, translate)
    if key == "role" and isinstance(value, str) and value in cards.EMPLOYEE_NAMES:
        return role_name(value, translate)
    if key in ("needed", "slots") and isinstance(value, str):
        return ", ".join(role_name(r, translate) if r in cards.EMPLOYEE_NAMES else r
                         for r in value.split(", "))
    if key == "roles" and isinstance(value, list):
        return ", ".join(role_name(r, translate) for r in value)
    if key in ("amounts", "extra") and isinstance(value, (list, tuple, Mapping)):
        return amounts_text(value, translate)
    if key == "space" and isinstance(value, str) and value in board.LOCATION_OF:
        return space_name(value, translate)
    return value


def render(text: str, params: Mapping[str, Any] | None = None,
           translate: Translate = _same) -> str:
    """An engine text (``InvalidAction.reason``, a preview line's ``text``) translated, then
    filled with its parameters shown by name."""
    translated = translate(text)
    if not params:
        return translated
    return translated.format(**{k: shown(k, v, translate) for k, v in params.items()})


def render_line(line: Mapping[str, Any], translate: Translate = _same,
                ntranslate: NTranslate = _english_plural) -> str:
    """A preview line (``previews``): ``{"text", "params"}`` through ``translate``, or with
    ``"plural"`` and ``"count"`` through ``ntranslate(text, plural, params[count])``."""
    params = dict(line.get("params") or {})
    if "plural" not in line:
        return render(line["text"], params, translate)
    text = ntranslate(line["text"], line["plural"], int(params[line["count"]]))
    return text.format(**{k: shown(k, v, translate) for k, v in params.items()})
