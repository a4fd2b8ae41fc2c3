"""A module's side of the debrief's "What if we had…?" (docs/what-if.md): the base class it
fills with the engines' what-if core and its own words (``WhatIf``), a chart of its tracks
(``Chart``), and an engine text in the active language (``words``)."""

from facilitator.whatif import Chart, Core, WhatIf, words

__all__ = ["Chart", "Core", "WhatIf", "words"]
