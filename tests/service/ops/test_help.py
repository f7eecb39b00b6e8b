"""`tavern --help` and the help of the commands that read the environment list every setting with
its default, from the one table; `tavern --version` says the package's version."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from services.cli.main import main
from services.ops.limits import Limits
from services.ops.settings import VARIABLES, Settings, from_env


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
