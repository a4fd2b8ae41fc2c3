"""The worked record of docs/engines/crisis.md replays exactly, as documented."""

import json
import re
from pathlib import Path

from games.crisis import summary
from games.registry import replay

DOC = Path(__file__).resolve().parents[3] / "docs" / "engines" / "crisis.md"


def documented_record():
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- worked-record -->\s*```json\n(.*?)```", text, re.S)
    assert block, "the worked record is missing from docs/engines/crisis.md"
    return json.loads(block.group(1))


def test_the_documented_record_replays_to_the_documented_state():
    out = summary(replay(documented_record()).state)
    assert (out["round"], out["phase"], out["status"], out["event"]) == \
        (2, "planning", 31, "export-boom")
    ana, ben = out["players"]["Ana"], out["players"]["Ben"]
    assert (ana["credits"], ana["vp"], ana["companies"], ana["employees"]) == \
        (23, 18, ["FARM 03"], ["F1-1"])
    assert (ben["credits"], ben["vp"], ben["companies"], ben["hand"]) == \
        (28, 18, ["TRAINS 01"], [])
    first = out["history"][0]
    assert first["production"] == {"Ana": {"food": 2}, "Ben": {}}
    assert first["evaluation"]["delta"] == 0 and out["balances"]["bank"] == -51
