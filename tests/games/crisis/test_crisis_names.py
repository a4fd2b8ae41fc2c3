"""Names that can be translated: a Company is its type's msgid and its number, card texts
carry no untranslatable identifier, and an engine text is filled after translation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core import InvalidAction
from games.crisis import cards, data, names, preview_production
from tests.games.crisis.crisis_support import staged
from tests.i18n.po import read

PO = Path(__file__).resolve().parents[3] / "locale" / "es" / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def spanish():
    catalogue = {e.msgid: e.msgstr[0] for e in read(PO)
                 if not e.obsolete and e.msgctxt is None and not e.msgid_plural and e.msgstr}
    return lambda text: catalogue.get(text) or text


def test_every_company_is_its_types_msgid_and_its_printed_number():
    for company_id, card in cards.COMPANIES.items():
        sector, number = cards.company_name(company_id)
        assert sector == cards.SECTOR_NAMES[card.sector] and f"{card.sector} {number}" == \
            company_id
    assert cards.company_name("HEAVY INDUSTRY 02") == ("Heavy Industry", "02")
    assert names.company_label("FARM 03") == "Farm 03"
    with pytest.raises(KeyError):
        cards.company_name("FARM 99")


def test_every_company_type_and_resource_has_spanish(spanish):
    for msgid in (*cards.SECTOR_NAMES.values(), *cards.RESOURCE_NAMES.values(),
                  *cards.EMPLOYEE_NAMES.values()):
        assert spanish(msgid) != msgid, msgid
    assert names.company_label("HEAVY INDUSTRY 02", spanish) == "Industria pesada 02"
    assert names.company_label("FARM 03", spanish) == "Granja 03"
    assert names.company_label("BANK 01", spanish) == "Banco 01"


def test_no_card_text_embeds_a_company_type_as_an_identifier(spanish):
    types = "|".join(re.escape(s) for s in cards.SECTOR_NAMES)
    pattern = re.compile(rf"\b({types})\b")
    for card in (*data.EVENT_CARDS.values(), *data.INFLUENCE.values()):
        for text in (card.name, card.text):
            assert not pattern.search(text), text
            assert spanish(text) != text, text  # and every one has Spanish
    assert "every Farm produces 1 more Food" in data.EVENT_CARDS["good-harvest"].text
    assert "cada Granja" in spanish(data.EVENT_CARDS["good-harvest"].text)


def test_an_engine_reason_is_translated_then_filled_with_names(spanish):
    state = staged(2, phase="production", players={
        "Blue": {"companies": ["PORT 01"], "employees": ["W1"]},
        "Red": {"companies": ["FARM 01"]}})
    out = preview_production(state, "Blue", [{"company": "PORT 01", "staff": ["W1"],
                                              "bonus": []}])
    assert names.render(out["error"], out["params"]) == \
        "Port 01 needs these Employees to work: Worker, Engineer."
    assert names.render(out["error"], out["params"], spanish) == \
        "Puerto 01 necesita estos Empleados para funcionar: Obrero, Ingeniero."
    short = InvalidAction("The plan needs {n} {resource} but your Warehouse holds {have}.",
                          n=2, resource="energy", have=1)
    assert names.render(short.reason, short.params, spanish) == \
        "El plan necesita 2 de Energía, pero tu Almacén tiene 1."


@pytest.mark.parametrize(("key", "value", "english"), [
    ("company", "FOOD INDUSTRY 01", "Food Industry 01"),
    ("card", "tax-break", "tax-break"),
    ("resource", "chemicals", "Chemicals"),
    ("role", "banker", "Banker"),
    ("roles", ["worker", "farmer"], "Worker, Farmer"),
    ("slots", "worker, worker, banker", "Worker, Worker, Banker"),
    ("amounts", [["energy", 2], ["minerals", 1]], "2 Energy, 1 Minerals"),
    ("amounts", {"food": 3}, "3 Food"),
    ("space", "loan", "Loan"),
    ("space", "company-3", "Companies 3"),
    ("n", 4, 4),
])
def test_each_coded_parameter_is_shown_by_its_name(key, value, english):
    assert names.shown(key, value) == english
