"""`tavern --help` and the help of the commands that read the environment list every setting with
its default, from the one table; `tavern --version` says the package's version."""

from __future__ import annotations

import argparse
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from domain.games import game_ids, get_game, make_bot
from services.cli.main import build_parser, main
from services.ops.limits import Limits
from services.ops.settings import VARIABLES, Settings, from_env

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["worker", "--help"]])
def test_help_lists_every_variable_with_its_default(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    for variable in VARIABLES:
        assert f"{variable.name} ".ljust(25) + f"({variable.default or 'unset'}) {variable.help}" in shown
    assert "TAVERN_OPEN_MATCHES ".ljust(37) + f"({Limits().open_matches})" in shown
    assert "TAVERN_API_KEYS ".ljust(37) + "(unset)" in shown and "TAVERN_BODY_TIMEOUT_S" in shown


def test_the_defaults_shown_are_those_of_settings_made_in_code():
    in_code = Settings(redis_url=None, queue_url=None)
    assert from_env({}) == in_code


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"tavern {version('tavern')}\n"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return dict(sub.choices)


def helped(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["simulate", "serve", "worker", "audit", "replay"])
def test_each_subcommands_help_says_what_each_argument_is(command, capsys):
    parser = subcommands()[command]
    shown = "".join(helped([command], capsys).split())  # argparse wraps lines, at spaces and hyphens
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, f"tavern {command} {action.dest}: no help"
        assert "".join(action.help.split()) in shown
        assert all(flag in shown for flag in action.option_strings)
    assert set(subcommands()) == {"simulate", "serve", "worker", "audit", "replay"}  # a new one: add it above


def test_simulate_help_lists_every_game_with_its_seats_bots_and_options_as_it_takes_them(capsys):
    shown = helped(["simulate"], capsys)
    for game_id in game_ids():
        game = get_game(game_id)
        line = next(line for line in shown.splitlines() if line.startswith(f"  {game.id} ({game.name})"))
        assert f"{game.min_seats} to {game.max_seats} seats" in line
        listed = line.split("bots: ")[1].split(", ")
        assert listed == ["random", *game.bots]
        assert all(make_bot(game, kind, {}) for kind in listed)  # each one listed is taken ({}: no options)
        for option in game.options:
            (row,) = [row.strip() for row in shown.splitlines() if row.strip().startswith(f"{option.name}=")]
            texts = row.partition("=")[2].split("|")
            assert game.option_from_text(option.name, texts[0]) == option.default  # the default first
            assert sorted(map(repr, (game.option_from_text(option.name, t) for t in texts))) == sorted(
                map(repr, option.choices)
            )


DOCS = [ROOT / "README.md", ROOT / "deploy/README.md", *(ROOT / "docs").glob("*.md")]


def test_every_flag_the_docs_give_a_subcommand_exists():
    commands = subcommands()
    given = 0
    for doc in DOCS:
        for command, rest in re.findall(r"\btavern (simulate|serve|worker|audit|replay)\b([^`\n|#]*)", doc.read_text()):
            for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest):
                accepted = {f for action in commands[command]._actions for f in action.option_strings}
                assert flag in accepted, f"{doc.name}: tavern {command} {flag} is not an option of it"
                given += 1
    assert given >= 5
