"""``manage.py simulate --game``: every game's simulator through the same options."""

import io
import json
from pathlib import Path

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


def test_state_in_class_is_simulated_by_the_same_command_with_its_own_options():
    printed = run("--games", "2", "--players", "7", "--policy", "always-C", "--roles")
    assert "State in Class · 7 players · 2 games" in printed
    assert "Roles under always-C (7 players, 2 games)" in printed
    report = json.loads(run("--games", "2", "--policy", "civic", "--json"))
    assert report["players"] == 8 and report["policies"][0]["policy"] == "civic"


def test_a_game_refuses_another_games_option_by_name():
    with pytest.raises(CommandError, match="--pact-dilemma is an option of state-in-class, "
                                           "not of austerity"):
        run("--game", "austerity", "--games", "1", "--pact-dilemma")
    with pytest.raises(CommandError, match="--min-years is an option of austerity"):
        run("--games", "1", "--min-years", "3")


def test_a_value_the_game_does_not_have_is_its_own_clear_error():
    with pytest.raises(CommandError, match="--players must be 6, 7 or 8 \\(got 5\\)"):
        run("--games", "1", "--players", "5")
    with pytest.raises(CommandError, match="--games must be 1 or more"):
        run("--games", "0")


def test_commands_that_serve_every_game_live_in_the_platform_not_in_a_module():
    lessons = Path(__file__).resolve().parents[2] / "facilitator" / "lessons"
    assert not list(lessons.glob("*/management")), "a lesson module holds a management command"
