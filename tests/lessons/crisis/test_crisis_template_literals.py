"""Every word Crisis's templates show goes through the catalogue. A word
typed into a template outside ``{% translate %}``/``{% blocktranslate %}`` (as "VP" was on
the phone) stays English on a Spanish screen; this finds one in the text or in an attribute
a person reads (``aria-label``, ``title``, ``alt``, ``placeholder``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = sorted((ROOT / "facilitator" / "lessons" / "crisis" / "templates").rglob("*.html"))
TRANSLATED = re.compile(r"{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}|"
                        r"{%\s*translate\s+(\"[^\"]*\"|'[^']*')[^%]*%}", re.S)
TEMPLATE_CODE = re.compile(r"{#.*?#}|{%.*?%}|{{.*?}}", re.S)
NOT_SHOWN = re.compile(r"<(style|script)\b.*?</\1>|<!--.*?-->|<!doctype[^>]*>", re.S | re.I)
READ_ATTRIBUTES = re.compile(r"\b(aria-label|title|alt|placeholder)=\"([^\"]*)\"")
TAG = re.compile(r"<[^>]*>", re.S)
WORD = re.compile(r"[A-Za-z]{2,}")


def literals(text: str) -> list[str]:
    text = NOT_SHOWN.sub(" ", TRANSLATED.sub(" ", text))
    read = [v for _a, v in READ_ATTRIBUTES.findall(TEMPLATE_CODE.sub(" ", text))]
    shown = TAG.sub(" ", TEMPLATE_CODE.sub(" ", text))
    return [w for chunk in [shown, *read] for w in WORD.findall(chunk)]


def test_the_check_finds_a_word_typed_into_a_template() -> None:
    assert literals('<dd>{{ me.vp }} VP</dd>') == ["VP"]
    assert literals('<button aria-label="Close">×</button>') == ["Close"]
    assert literals('<dd>{% blocktranslate with n=me.vp %}{{ n }} VP{% endblocktranslate %}'
                    '</dd><a title="{% translate \'Close\' %}">×</a>') == []


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_no_word_is_typed_into_a_crisis_template(path: Path) -> None:
    assert literals(path.read_text(encoding="utf-8")) == []
