"""``manage.py simulate --game``: every game's simulator through the same options."""

import io
import json

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_another_games_simulator_prints_its_report_and_json():
    printed = run("--game", "poleconomy", "--games", "2", "--policy", "builder")
    assert "Poleconomy" in printed and "winner_pct" in printed
    report = json.loads(run("--game", "poleconomy", "--games", "2", "--policy", "cautious",
                            "--json"))
    assert report["game"] == "poleconomy" and report["policies"][0]["games"] == 2


def test_an_unknown_game_or_policy_is_a_clear_error():
    with pytest.raises(CommandError, match="Unknown game"):
        run("--game", "monopoly")
    with pytest.raises(CommandError, match="Unknown policy"):
        run("--game", "poleconomy", "--policy", "nope")
