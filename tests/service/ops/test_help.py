"""`tavern --help` and the help of the commands that read the environment list every setting with
its default, from the one table; `tavern --version` says the package's version."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from services.cli.main import main
from services.ops.settings import VARIABLES, Settings, from_env


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["worker", "--help"]])
def test_help_lists_every_variable_with_its_default(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    for variable in VARIABLES:
        assert f"{variable.name} ".ljust(25) + f"({variable.default or 'unset'}) {variable.help}" in shown


def test_the_defaults_shown_are_those_of_settings_made_in_code():
    in_code = Settings(redis_url=None, queue_url=None)
    assert from_env({}) == in_code


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"tavern {version('tavern')}\n"
