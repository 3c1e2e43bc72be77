import json

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


def test_the_command_exits_with_its_code_and_everything_printed(tmp_path):
    """`docextract` leaves without the interpreter's teardown (cli._leave): what it printed must all be there."""
    import subprocess
    import sys

    code = "import sys; sys.argv = ['docextract', 'run', sys.argv[1], '--model', 'none']; from docextract.cli import main; main()"
    missing = subprocess.run([sys.executable, "-c", code, str(tmp_path / "missing.pdf")], capture_output=True, text=True)
    assert missing.returncode == 4 and "missing.pdf: no such file" in missing.stderr
    from pdf_factory import text_lines_pdf

    text_lines_pdf(tmp_path / "a.pdf", ["Invoice 42"] * 40, height=800)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a.pdf")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["text"].count("Invoice 42") == 40


def test_an_unknown_option_is_a_usage_error_with_exit_code_2():
    import subprocess
    import sys

    code = "import sys; sys.argv = ['docextract', 'run', 'x.pdf', '--bogus']; from docextract.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "No such option" in done.stderr and "internal error" not in done.stderr
