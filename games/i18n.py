"""Translation markers for the pure engines.

`games/` may not import Django, yet every text the product shows must go through Django's
gettext. Engines therefore mark their English source strings with `gettext_noop` (imported as
`_`), which returns the string unchanged; `makemessages` extracts them (xgettext knows both
names) and the facilitator translates them with Django's gettext when it renders them.
Texts with values use named placeholders (``"Tension +{delta}"``) filled in after translation.
"""


def gettext_noop(message: str) -> str:
    """Mark `message` for translation without translating it."""
    return message


_ = gettext_noop
