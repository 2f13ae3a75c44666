"""`--game` picks the game wherever one is meant (board, simulate, ladder); pantheon by default,
an unknown game or a player count the game does not allow is refused before anything runs."""

from __future__ import annotations

import json

import pytest

from domain import games
from service.cli import main


def _last_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_board_draws_the_named_games_board_and_map_is_the_same_command(tmp_path):
    named, default, old = tmp_path / "named.svg", tmp_path / "default.svg", tmp_path / "old.svg"
    assert main(["board", "--game", "pantheon", "--svg", str(named)]) == 0
    assert main(["board", "--svg", str(default)]) == 0
    assert main(["map", "--svg", str(old), "--edition", "house-1"]) == 0
    assert named.read_text() == default.read_text() == old.read_text() == games.get("pantheon").render_board("house-1")
    assert "<svg" in named.read_text() and named.read_text().rstrip().endswith("</svg>")


def test_an_edition_the_game_does_not_have_is_refused(tmp_path, capsys):
    assert main(["board", "--svg", str(tmp_path / "x.svg"), "--edition", "house-9"]) == 2
    assert "house-1" in capsys.readouterr().err and not (tmp_path / "x.svg").exists()


def test_simulate_with_the_game_named_plays_the_same_games_as_without(capsys):
    assert main(["simulate", "--game", "pantheon", "--games", "2", "--seed", "g"]) == 0
    named = _last_json(capsys)
    assert main(["simulate", "--games", "2", "--seed", "g"]) == 0
    default = _last_json(capsys)
    clocks = ("seconds", "games_per_s", "games_per_cpu_s")
    assert named["finished"] == 2 and {k: v for k, v in named.items() if k not in clocks} == {
        k: v for k, v in default.items() if k not in clocks
    }


def test_ladder_takes_the_game_and_its_bots(capsys):
    assert main(["ladder", "--game", "pantheon", "--games", "2", "--bots", "random,greedy", "--players", "2"]) == 0
    assert set(_last_json(capsys)["results"]) == {"random", "greedy"}


def test_pergamon_is_simulated_laddered_and_drawn_by_the_same_commands(tmp_path, capsys):
    assert main(["simulate", "--game", "pergamon", "--games", "6", "--seed", "p"]) == 0
    result = _last_json(capsys)
    assert result["finished"] == 6 and result["errors"] == 0 and result["invariant_violations"] == 0
    assert (
        main(["ladder", "--game", "pergamon", "--games", "3", "--bots", "random,greedy,strong", "--players", "3"]) == 0
    )
    assert set(_last_json(capsys)["results"]) == {"random", "greedy", "strong"}
    assert main(["board", "--game", "pergamon", "--svg", str(tmp_path / "p.svg")]) == 0
    assert (tmp_path / "p.svg").read_text() == games.get("pergamon").render_board("house-1")


def test_the_card_game_is_simulated_exported_laddered_and_drawn_by_the_same_commands(tmp_path, capsys):
    assert main(["simulate", "--game", "pantheon_cards", "--games", "4", "--seed", "c", "--export", str(tmp_path)]) == 0
    result = _last_json(capsys)
    assert result["finished"] == 4 and result["errors"] == 0 and result["invariant_violations"] == 0
    [exported, *_] = sorted(tmp_path.glob("*.jsonl"))
    assert main(["audit", str(exported)]) == 0 and _last_json(capsys)["ok"] is True
    assert (
        main(["ladder", "--game", "pantheon_cards", "--games", "3", "--bots", "random,greedy", "--players", "3"]) == 0
    )
    assert set(_last_json(capsys)["results"]) == {"random", "greedy"}
    assert (
        main(["ladder", "--game", "pantheon_cards", "--games", "1", "--bots", "random,greedy", "--players", "2"]) == 2
    )
    assert main(["board", "--game", "pantheon_cards", "--svg", str(tmp_path / "c.svg")]) == 0
    assert (tmp_path / "c.svg").read_text() == games.get("pantheon_cards").render_board("house-1")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--game", "chess", "--games", "1"],
        ["ladder", "--game", "chess", "--bots", "random,greedy"],
        ["board", "--game", "chess", "--svg", "x.svg"],
    ],
)
def test_an_unknown_game_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "1", "--players", "5"],
        ["ladder", "--bots", "random,greedy", "--players", "1"],
        ["ladder", "--bots", "random,grandmaster"],
    ],
)
def test_a_player_count_or_bot_the_game_does_not_have_is_refused(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "must be" in err or "needs two or more" in err


def test_the_ladder_plays_the_expert_with_parameters_given_on_the_command_line(capsys):
    argv = ["ladder", "--game", "pergamon", "--games", "2", "--bots", "expert,random", "--players", "2"]
    assert main([*argv, "--params", '{"expert": {"iterations": 8}}']) == 0
    assert set(_last_json(capsys)["results"]) == {"expert", "random"}
