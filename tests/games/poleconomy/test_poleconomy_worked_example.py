"""The worked record of docs/engines/poleconomy.md replays to exactly what the page says."""

import json
import re
from pathlib import Path

from games import registry
from games.poleconomy import summary

DOC = Path(__file__).resolve().parents[3] / "docs" / "engines" / "poleconomy.md"


def worked_record():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return json.loads(next(b for b in blocks if '"actions"' in b and '"dice"' in b))


def test_the_documented_record_replays_to_the_documented_state():
    state = registry.replay(worked_record()).state
    out = summary(state)
    assert (out["round"], out["phase"], out["multiplier"]) == (3, "orders", 2)
    assert out["index"] == {"space": 4, "direction": "clockwise", "effect": "salary",
                            "value": 2}
    assert (out["bank"], out["treasury"]) == (2890, 3)
    assert out["bonds"] == {"issued": 2, "unissued": 28, "bank": 1}
    assert out["owners"] == {"c1": "Ana", "c2": "Cai"}
    assert out["cabinet"] == ["Ben"] and out["salaries"] == {"pm": 12, "ministers": {"Ben": 10}}
    assert out["balances"] == {"bank": -110, "treasury": 3, "player:Ana": 25,
                               "player:Ben": 40, "player:Cai": 42}
    ana = out["players"]["Ana"]
    assert (ana["cash"], ana["position"], ana["bonds"], ana["firms"], ana["score"]) == (
        25, "bonds", 1, ["c1"], 55)
    assert out["players"]["Cai"]["position"] == "life-insurance"
    assert state.election["votes"] == {"Ana": 9, "Ben": 7, "Cai": 8}


def test_the_documented_staged_situation_ends_in_a_treasury_default():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    staged = json.loads(next(b for b in blocks if '"start"' in b and '"actions"' in b))
    out = summary(registry.replay(staged).state)
    assert (out["phase"], out["over_reason"], out["winners"], out["all_lose"]) == (
        "over", "treasury", [], True)
    assert (out["treasury"], out["bank"]) == (20, 2755)
    assert out["bonds"] == {"issued": 30, "unissued": 0, "bank": 27}
