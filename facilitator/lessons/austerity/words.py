"""Austerity's words for the screens, in the active language: cube colours with a letter each
(colour is never the only sign), tracks, institutions, policy faces, and the engine's options
said as what they do."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from facilitator.lessons.austerity import script
from games.austerity import data

# One letter per cube colour, shown on every cube (colour-blind-safe).
CUBE_LETTERS = {
    data.DEBT: pgettext_lazy("Debt cube, one letter", "D"),
    data.WELFARE: pgettext_lazy("Welfare cube, one letter", "W"),
    data.SECURITY: pgettext_lazy("Security cube, one letter", "S"),
    data.CRIME: pgettext_lazy("Crime cube, one letter", "C"),
    data.INCOME: pgettext_lazy("Income cube, one letter", "I"),
}
VARIANTS = {"current": gettext_lazy("Income from Current first"),
            "treasury": gettext_lazy("Income from the Treasury first")}
ITEM_NAMES = {
    script.POLICY_ITEM: gettext_lazy("Policy card"),
    script.TAXES: gettext_lazy("Raise taxes"),
    script.BORROW: gettext_lazy("Borrow"),
    script.LOAN: gettext_lazy("Pay a loan"),
    script.INSTITUTION: gettext_lazy("New institution"),
}
ITEM_QUESTIONS = {
    script.POLICY_ITEM: gettext_lazy("Keep the policy cards, or turn one (costs 1 Popularity)?"),
    script.TAXES: gettext_lazy("How many times should we raise taxes this year?"),
    script.BORROW: gettext_lazy("How many times should we borrow money this year?"),
    script.LOAN: gettext_lazy("Should we pay off a loan now?"),
    script.INSTITUTION: gettext_lazy("Should we open a new institution (costs 2 Income)?"),
}
REASONS = {
    "debt-free": gettext_lazy("No Debt cube in Used at Year End: the debt is cleared."),
    "crime-free": gettext_lazy("No Crime cube in Used at Year End: crime is beaten."),
    "olympics": gettext_lazy("The Olympic Games are over."),
    "war": gettext_lazy("The war is over."),
    "year-limit": gettext_lazy("The year limit is reached."),
}


def cube(colour: str) -> dict[str, str]:
    return {"colour": colour, "letter": str(CUBE_LETTERS[colour]),
            "name": _(data.COLOUR_NAMES[colour])}


def track_name(track: str) -> str:
    return _(data.TRACK_NAMES[track])


def institution_name(key: str) -> str:
    return _(data.INSTITUTIONS[key].name)


def action_name(key: str) -> str:
    return _(data.ACTION_NAMES[key])


def reason_text(reason: str | None) -> str:
    """Why the game ended: a track that fell to 0, or the scenario's own reason."""
    if reason in data.TRACK_NAMES:
        return _("%(track)s fell to 0.") % {"track": track_name(reason)}
    return str(REASONS.get(reason or "", ""))


def _variant(option: str) -> tuple[str, str]:
    """``"pay-loan:treasury"`` → ``("pay-loan", " (Income from the Treasury first)")``;
    ``"open:investment:current"`` → ``("open:investment", " (Income from Current first)")``."""
    base, _sep, tail = option.rpartition(":")
    if base and tail in VARIANTS:
        return base, f" ({VARIANTS[tail]})"
    return option, ""


def action_label(option: str) -> str:
    """A mid-year Action (or a budget item's engine action) as the board names it."""
    base, note = _variant(option)
    if base.startswith(f"{data.OPEN}:"):
        inst = base.split(":", 1)[1]
        return _("Open %(institution)s (spend 2 Income)") % {
            "institution": institution_name(inst)} + note
    if base in data.ACTION_NAMES:
        return action_name(base) + note
    return option


def option_label(kind: str, option: str, event: str | None = None,
                 policies: dict[str, str] | None = None) -> str:
    """One option of the engine's decision of ``kind`` (its ``action``), in plain words (a
    policy turn names the card's other face when the faces in force, ``policies``, are
    given)."""
    if kind == "draw":
        return _("Draw the next two cubes")
    if kind == "action":
        return action_label(option)
    if kind == "cuts":
        return _("Cuts to %(institution)s") % {"institution": institution_name(option)}
    if kind == "income":
        if option.startswith("fund:"):
            inst = option.split(":", 1)[1]
            return _("Fund %(institution)s") % {"institution": institution_name(inst)}
        return {"treasury": _("Bank it in the Treasury"), "used": _("Put it in Used"),
                "olympics": _("Put it in the Olympics box")}.get(option, option)
    if kind == "policy":
        if option == script.KEEP:
            return _("Keep the policy cards as they are")
        card = option.split(":", 1)[1]
        if policies is not None and card in policies:
            return _("Turn %(card)s to %(face)s") % {"card": _(data.POLICY_CARDS[card].name),
                                                     "face": other_face(policies, card)}
        return _("Turn %(card)s (costs 1 Popularity)") % {
            "card": _(data.POLICY_CARDS[card].name)}
    if kind == "event" and event is not None:
        base, note = _variant(option)
        if base.startswith("fund-again:"):
            inst = base.split(":", 1)[1]
            return _("Spend both Income cubes to fund %(institution)s again") % {
                "institution": institution_name(inst)}
        texts = {o.id: o.text for o in data.EVENTS[event].options}
        if base in texts:
            return _(texts[base]) + note
        if base == "decline":
            return _("Keep the Income cubes")
    return option


def option_short(kind: str, option: str, event: str | None = None) -> str:
    """An option in a few words, for a table's compact card (the phone has it in full)."""
    if kind == "cuts":
        return institution_name(option)
    if kind == "income":
        if option.startswith("fund:"):
            return institution_name(option.split(":", 1)[1])
        return {"treasury": _("Treasury"), "used": _("Used"),
                "olympics": _("Olympics box")}.get(option, option)
    if kind == "policy" and option != script.KEEP:
        return _(data.POLICY_CARDS[option.split(":", 1)[1]].name)
    return option_label(kind, option, event)


def other_face(policies: dict[str, str], card: str) -> str:
    """The face a policy card shows once turned, in the active language."""
    faces = data.POLICY_CARDS[card].faces
    return _((faces[1] if policies.get(card) == faces[0].id else faces[0]).name)


def item_option_label(item: str, option: str, policies: dict[str, str] | None = None) -> str:
    """One option of a budget item's ballot (a policy turn names the card's other face when
    the faces in force, ``policies``, are given)."""
    if item in (script.TAXES, script.BORROW):
        times = int(option)
        if times == 0:
            return _("No")
        name = action_name(data.RAISE_TAXES if item == script.TAXES else data.BORROW)
        return (_("%(action)s once") if times == 1 else _("%(action)s twice")) % {
            "action": name}
    if item == script.LOAN:
        return _("Yes: pay off one Debt cube (2 Income)") if option == script.YES else _("No")
    if item == script.INSTITUTION:
        if option == script.NONE:
            return _("None this year")
        return institution_name(option.split(":", 1)[1])
    if option == script.KEEP:
        return option_label("policy", option)
    card = option.split(":", 1)[1]
    if policies is not None and card in policies:
        return _("Turn %(card)s to %(face)s") % {"card": _(data.POLICY_CARDS[card].name),
                                                 "face": other_face(policies, card)}
    return _("Turn %(card)s") % {"card": _(data.POLICY_CARDS[card].name)}


def item_outcome(item: str, choice: str) -> str:
    """What a counted item decided, said after the item's name ("Raise taxes: twice")."""
    if item in (script.TAXES, script.BORROW):
        return {0: _("no"), 1: _("once"), 2: _("twice")}.get(int(choice), choice)
    if item == script.LOAN:
        return _("yes") if choice == script.YES else _("no")
    if item == script.INSTITUTION:
        return _("none") if choice == script.NONE else institution_name(choice.split(":", 1)[1])
    if choice == script.KEEP:
        return _("keep the cards")
    return _("turn %(card)s") % {"card": _(data.POLICY_CARDS[choice.split(":", 1)[1]].name)}
