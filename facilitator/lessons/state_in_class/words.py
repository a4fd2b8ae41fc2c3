"""State in Class's words, shared by every screen and handout: names of roles, classes,
services and taxes, coins and signed numbers, what an event did, why Tension moved.

The projector speaks while the round is on (``event_effect_now``, ``tension_reason``: "Health is
at level 2 → …", "+3: you could not pay"); the handouts tell the story afterwards
(``event_effect_told``, ``tension_cause``: "Health was at level 2, so …").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.state_in_class import data

MINUS = "−"  # U+2212: clearer than a hyphen, on screen and in print

# The letter keys the service colours in CSS (svc-H...); the mark is what people read, in their
# language (the same marks as the charts).
SERVICE_LETTERS = {data.HEALTH: "H", data.EDUCATION: "E", data.SHIELD: "S"}


def service_mark(service: str) -> str:
    return {data.HEALTH: pgettext("chart letter for Health", "H"),
            data.EDUCATION: pgettext("chart letter for Education", "E"),
            data.SHIELD: pgettext("chart letter for Social Shield", "S")}[service]


def signed(n: int) -> str:
    """+3, −1, 0 (a real minus sign)."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def _role_names() -> dict[str, str]:
    """Each role card's name as the screens and handouts say it: in the context "role card",
    so a language can give every card a form that fits any player (no fixed gender)."""
    return {
        "company-director": pgettext("role card", "Company director"),
        "specialist-doctor": pgettext("role card", "Specialist doctor"),
        "landlord": pgettext("role card", "Landlord"),
        "secondary-teacher": pgettext("role card", "Secondary school teacher"),
        "shop-owner": pgettext("role card", "Small shop owner"),
        "office-worker": pgettext("role card", "Office worker"),
        "nurse": pgettext("role card", "Nurse"),
        "factory-worker": pgettext("role card", "Factory worker"),
        "care-worker": pgettext("role card", "Home care worker"),
        "precarious-freelancer": pgettext("role card", "Precarious freelancer"),
        "waiter": pgettext("role card", "Waiter"),
    }


def role_name(role: str | None) -> str:
    if not role:
        return ""
    return _role_names().get(role) or _(data.ROLES[role].name)


def class_name(klass: str | None) -> str:
    return _(data.CLASS_NAMES[klass]) if klass else ""


def service_name(service: str) -> str:
    return _(data.SERVICE_NAMES[service])


def tax_name(option: str) -> str:
    return _(data.TAX_NAMES[option])


def tax_label(option: str) -> str:
    return f"{option} · {tax_name(option)}"


def event_name(event: str) -> str:
    return _(data.EVENT_NAMES[event])


def goal_name(goal: str) -> str:
    return _(data.GOAL_NAMES[goal])


def coins(n: int) -> str:
    """"1 coin", "5 coins" (the number with its noun, for sentences with several numbers)."""
    return ngettext("%(n)d coin", "%(n)d coins", abs(n)) % {"n": n}


def who(name: str, role: str | None) -> str:
    """"the Precarious freelancer (Cai)": the role first, as the rules speak of roles."""
    if not role:
        return name
    return _("the %(role)s (%(name)s)") % {"role": role_name(role), "name": name}


def card_outcome(draw: Mapping[str, Any]) -> str:
    params = {k: v for k, v in (draw.get("params") or {}).items() if v is not None}
    text = _(draw["outcome"])
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def measured(draw: Mapping[str, Any]) -> str:
    if draw["measures"] == "country":
        return _("the three levels add up to %(n)d") % {"n": draw["level"]}
    return _("%(service)s at level %(level)d") % {"service": service_name(draw["measures"]),
                                                  "level": draw["level"]}


def event_effect_told(event: str, effect: Mapping[str, Any]) -> str:
    """What the round's event did at this table, told afterwards (the handouts), in one or
    two sentences."""
    kind = effect.get("effect")
    if kind == "boom":
        return ngettext("Everyone received %(n)d coin.", "Everyone received %(n)d coins.",
                        effect.get("coins", 0)) % {"n": effect.get("coins", 0)}
    if kind == "surcharge":
        return _("%(service)s was at level %(level)d, so everyone's cost of living was "
                 "%(coins)s higher this round.") % {
            "service": service_name(effect["service"]), "level": effect["level"],
            "coins": coins(effect.get("surcharge", 0))}
    if kind == "spared":
        return _("%(service)s was at level %(level)d, so the cost of living stayed normal.") % {
            "service": service_name(effect["service"]), "level": effect["level"]}
    if kind == "tech_bonus":
        return _("Education was at level %(level)d: the middle and working classes earn "
                 "an extra %(coins)s every round from now on.") % {
            "level": effect["level"], "coins": coins(effect.get("bonus", 0))}
    if kind == "missed":
        return _("Education was only at level %(level)d: nobody got the extra income.") % {
            "level": effect["level"]}
    if kind == "storm":
        if effect.get("loss", 0) >= 3:
            return _("Tension rose by 1. Health and Social Shield were both weak, so everyone "
                     "lost up to 3 coins.")
        return _("Tension rose by 1. The services softened the blow: everyone lost up to "
                 "1 coin.")
    if kind == "peace":
        return _("Tension was %(t)d (3 or lower): an extra %(coins)s went into the budget.") % {
            "t": effect.get("tension") or 0, "coins": coins(effect.get("coins", 0))}
    if kind == "no_peace":
        return _("Tension was %(t)d, above 3: no extra coins for the budget.") % {
            "t": effect.get("tension") or 0}
    if event == data.MIDLIFE:
        return _("No tax and no budget vote: everyone collected their income, paid nothing "
                 "and drew a life card.")
    if event == data.LEGACY:
        return _("The last round, followed by the final count.")
    return ""


def tension_cause(change: Mapping[str, Any], history_draws: Sequence[Mapping[str, Any]] = ()
                  ) -> str:
    reason = change.get("reason")
    person = who(change.get("player", ""), change.get("role"))
    if reason == "could_not_pay":
        return _("%(who)s could not pay") % {"who": person}
    if reason == "midlife":
        return _("%(who)s got an Exclusion at the Midlife Crossroads") % {"who": person}
    if reason == "service_at_level_1":
        return _("%(service)s was still at level 1") % {"service": service_name(change["service"])}
    if reason == "strong_services":
        return _("all three services were at level 4 or more")
    if reason == "storm":
        return _("the Great storm")
    if reason == "weak_country":
        return _("the country was weak when %(who)s drew “Nothing happens to you”") % {
            "who": person}
    return str(reason)


def tension_line(change: Mapping[str, Any]) -> str:
    """"+3: the Precarious freelancer (Cai) could not pay"; the rule's amount, with the cap
    said where the track's end cut it short (as on the screens)."""
    return capped_line(change, tension_cause(change))


def exclusion_line(exclusion: Mapping[str, Any]) -> str:
    """"Precarious freelancer (Cai)": who got an Exclusion (the cause is in the Tension list)."""
    return _("%(role)s (%(name)s)") % {"role": role_name(exclusion.get("role")),
                                      "name": exclusion["player"]}


def class_change_line(change: Mapping[str, Any]) -> str:
    name, result = change["player"], change.get("result")
    up = change.get("move", 0) > 0
    values = {"name": name, "from_role": role_name(change.get("from_role")),
              "from_class": class_name(change.get("from_class")),
              "to_role": role_name(change.get("to_role")),
              "to_class": class_name(change.get("to_class")), "n": 5}
    if result == "changed":
        text = (_("%(name)s moved up a class: from %(from_role)s (%(from_class)s) to "
                  "%(to_role)s (%(to_class)s).") if up else
                _("%(name)s moved down a class: from %(from_role)s (%(from_class)s) to "
                  "%(to_role)s (%(to_class)s)."))
    elif result == "no_spare":
        text = (_("%(name)s should have moved up, but that class's spare role was already "
                  "taken: they kept the %(from_role)s card.") if up else
                _("%(name)s should have moved down, but that class's spare role was already "
                  "taken: they kept the %(from_role)s card."))
    elif result == "top_bonus":
        text = _("%(name)s was already upper class and moved up anyway: +%(n)d coins.")
    elif result == "bottom_loss":
        text = _("%(name)s was already working class and moved down anyway: lost %(n)d coins.")
    else:
        text = _("%(name)s was already working class and moved down anyway, could not pay "
                 "%(n)d coins and got an Exclusion.")
    return text % values


def class_mark(klass: str | None) -> str:
    """The class's initial on a badge, in the active language (U/M/W; A/M/T in Spanish)."""
    if not klass:
        return ""
    return {data.UPPER: pgettext("badge for the upper class", "U"),
            data.MIDDLE: pgettext("badge for the middle class", "M"),
            data.WORKING: pgettext("badge for the working class", "W")}[klass]



def event_effect_now(event: str, effect: Mapping[str, Any]) -> str:
    """The event's effect at this table as the projector says it while the round is on, e.g.
    "Health is at level 2 → everyone's cost of living +2 this round"."""
    kind = effect.get("effect")
    if kind == "boom":
        return ngettext("Everyone receives %(n)d coin.", "Everyone receives %(n)d coins.",
                        effect["coins"]) % {"n": effect["coins"]}
    if kind == "surcharge":
        return _("%(service)s is at level %(level)d → everyone's cost of living +2 this round.") % {
            "service": service_name(effect["service"]), "level": effect["level"]}
    if kind == "spared":
        return _("%(service)s is at level %(level)d → no extra cost this round.") % {
            "service": service_name(effect["service"]), "level": effect["level"]}
    if kind == "tech_bonus":
        return _("Education is at level %(level)d → the middle and working classes earn 2 more "
                 "coins every round from now on.") % {"level": effect["level"]}
    if kind == "missed":
        return _("Education is only at level %(level)d → no bonus.") % {"level": effect["level"]}
    if kind == "storm":
        levels = effect.get("levels", {})
        return _("Tension +1. Health %(h)d and Social Shield %(s)d → everyone loses "
                 "%(coins)s.") % {"h": levels.get(data.HEALTH, 0),
                                  "s": levels.get(data.SHIELD, 0),
                                  "coins": coins(effect["loss"])}
    if kind == "peace":
        return _("Tension is %(t)d → 15 extra coins for this round's budget.") % {
            "t": effect["tension"]}
    if kind == "no_peace":
        return _("Tension is %(t)d, above 3 → no extra coins.") % {"t": effect["tension"]}
    return _(data.EVENT_TEXTS[event])


# The rulebook's amount for each cause of a Tension change (the track stops at 1 and 10,
# so the change the engine records can be smaller).
RULE_TENSION = {"could_not_pay": data.EXCLUSION_TENSION,
                "midlife": data.MIDLIFE_EXCLUSION_TENSION, "service_at_level_1": 1,
                "strong_services": -1, "storm": data.STORM_TENSION, "weak_country": 1}


def tension_reason(change: Mapping[str, Any], me: str | None = None) -> str:
    """"+3: Home care worker could not pay"; said to ``me`` ("you could not pay") on the
    phone of the player it is about. The rule's amount is shown even when the track's end
    cut it short, with a word on the cap."""
    reason = change.get("reason")
    role = role_name(change.get("role"))
    mine = me is not None and change.get("player") == me
    if reason == "could_not_pay":
        text = _("you could not pay") if mine else _("%(role)s could not pay") % {"role": role}
    elif reason == "midlife":
        text = (_("you got an Exclusion token at the Midlife Crossroads") if mine else
                _("%(role)s got an Exclusion token at the Midlife Crossroads") % {"role": role})
    elif reason == "service_at_level_1":
        text = _("%(service)s is still at level 1") % {"service": service_name(change["service"])}
    elif reason == "strong_services":
        text = _("all three services are at level 4 or more")
    elif reason == "storm":
        text = _("the Great storm")
    elif reason == "weak_country":
        text = (_("you drew “Nothing happens to you” in a weak country") if mine else
                _("%(role)s drew “Nothing happens to you” in a weak country") % {"role": role})
    else:
        text = str(reason)
    return capped_line(change, text)


def capped_line(change: Mapping[str, Any], text: str) -> str:
    """"+2: <text>", with the rule's amount; where the track's end cut the change short,
    "(Tension stops at 10, the end of the track)" is said after it: one figure everywhere."""
    rule = RULE_TENSION.get(str(change.get("reason")), change["delta"])
    if rule != change["delta"]:
        return _("%(delta)s: %(reason)s (Tension stops at %(value)d, the end of the track)") % {
            "delta": signed(rule), "reason": text, "value": change["value"]}
    return f"{signed(change['delta'])}: {text}"


