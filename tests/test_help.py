"""Every command's --help as a user reads it: no value placeholders on flags, every help text printed whole (Rich
markup must not eat "[plots]"), the exit-code footer with every documented code, and prose wrapped by the terminal,
not by the docstring's line breaks."""

import re

import click
import pytest
import typer.main
import typer.rich_utils
from typer.testing import CliRunner

from docextract.cli import COMMANDS, app
from docextract.errors import (
    EXIT_INPUT_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_MISSING_DEPENDENCY,
    EXIT_MODEL_REFUSED,
    EXIT_OUTPUT,
    EXIT_TERMINATED,
    EXIT_USAGE,
)

runner = CliRunner()
CLICK_COMMANDS = typer.main.get_command(app).commands


def _help(name: str, monkeypatch, width: int) -> str:
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", width)
    result = runner.invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def _flat(text: str) -> str:
    """The help with its box drawing removed and all whitespace collapsed: wrapped text reads as one line."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _as_written(help_text: str) -> str:
    """A help string as a user must see it: Rich's escapes (\\[) removed."""
    return " ".join(help_text.replace("\\[", "[").split())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_shows_no_value_placeholder_on_flags(name, monkeypatch):
    text = _help(name, monkeypatch, 200)
    assert "<bool>" not in text and "<str>" not in text and "<path>" not in text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage  # "run [OPTIONS] {path}" was the newer typer's rendering
    command = CLICK_COMMANDS[name]
    for param in command.params:
        if isinstance(param, click.Argument):
            assert param.human_readable_name in usage, usage
        if isinstance(param, click.Option) and param.is_flag and param.help:
            row = next(line for line in text.splitlines() if param.opts[0] in line.split())
            # a flag's row: its names, then straight away its help; no value placeholder between them
            rest = " ".join(word for word in _flat(row).split() if word not in param.opts + param.secondary_opts)
            assert rest.startswith(" ".join(_as_written(param.help).split()[:2])), row

@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_prints_every_help_text_whole(name, monkeypatch):
    """Each option's and argument's help, and the command's own, appears word for word (at a width where nothing
    wraps into a neighbouring column): nothing in square brackets was taken for Rich markup."""
    text = _flat(_help(name, monkeypatch, 2000))
    command = CLICK_COMMANDS[name]
    for param in command.params:
        if getattr(param, "help", None):
            assert _as_written(param.help) in text, (name, param.name)
    for paragraph in command.help.split("\n\n"):
        assert _as_written(paragraph) in text, (name, paragraph)


def test_the_extras_in_brackets_survive_rich_markup(monkeypatch):
    assert "pip install 'docextract[plots]'" in _flat(_help("evaluate", monkeypatch, 2000))
    assert "pip install 'docextract[ray]'" in _flat(_help("run", monkeypatch, 2000))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_ends_with_every_exit_code(name, monkeypatch):
    text = _flat(_help(name, monkeypatch, 100))
    footer = text[text.index("Exit codes:"):]
    codes = [int(code) for code in re.findall(r"(\d+) [a-z]", footer)]
    assert codes == [0, EXIT_INTERNAL, EXIT_USAGE, EXIT_MISSING_DEPENDENCY, EXIT_INPUT_FAILED, EXIT_OUTPUT,
                     EXIT_MODEL_REFUSED, EXIT_INTERRUPTED, EXIT_TERMINATED], footer


def test_the_top_level_help_lists_every_command_and_the_exit_codes(monkeypatch):
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 200)
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f" {name} " in result.output
    assert "143 terminated" in _flat(result.output)


def test_prose_is_wrapped_by_the_terminal_not_by_the_docstring(monkeypatch):
    """A paragraph of run's help flows at the terminal's width: at 200 columns its second sentence is on the same
    line as its first (the docstring breaks it after "a manifest")."""
    text = _help("run", monkeypatch, 200)
    line = next(line for line in text.splitlines() if "A folder: one JSON per file" in line)
    assert "a manifest with one record per input" in line, line
