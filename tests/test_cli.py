from typer.testing import CliRunner

from docextract import __version__
from docextract.cli import app

runner = CliRunner()


def test_help_lists_every_command():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("run", "inspect", "finetune", "pretrain", "evaluate"):
        assert command in result.output
    assert "Exit codes" in result.output


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output
