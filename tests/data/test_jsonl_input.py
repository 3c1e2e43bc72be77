"""Every command that reads labelled JSONL refuses a file that is not JSONL with one line naming it, and exit 4."""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.jsonl import jsonl_lines
from docextract.errors import EXIT_INPUT_FAILED, InputError

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

COMMANDS = {
    "validate": lambda data, tmp: ["validate", str(data)],
    "split": lambda data, tmp: ["split", str(data), str(tmp / "train.jsonl"), str(tmp / "val.jsonl")],
    "evaluate": lambda data, tmp: ["evaluate", "invoice", str(data), "--threads", "1"],
    "calibrate": lambda data, tmp: ["calibrate", "invoice", str(data), "--out", str(tmp / "calibrated")],
    "finetune": lambda data, tmp: ["finetune", str(data), "-o", str(tmp / "run"), "--threads", "1"],
}


@pytest.fixture(params=["pdf", "readme", "latin1"])
def not_jsonl(request, tmp_path):
    if request.param == "pdf":
        return shutil.copy(REPO / "examples" / "invoice.pdf", tmp_path / "invoice.pdf")
    if request.param == "readme":
        return shutil.copy(REPO / "README.md", tmp_path / "README.md")
    path = tmp_path / "latin1.jsonl"  # a real first record, then a line in Latin-1
    path.write_bytes(b'{"id": "a", "pages": []}\n{"id": "caf\xe9"}\n')
    return path


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_is_not_jsonl_is_one_line_and_exit_4(command, not_jsonl, tmp_path):
    result = runner.invoke(app, COMMANDS[command](not_jsonl, tmp_path))
    assert result.exit_code == EXIT_INPUT_FAILED, (result.exit_code, result.output, result.exception)
    errors = [line for line in result.stderr.splitlines() if line.startswith("docextract:")]
    assert len(errors) == 1 and str(not_jsonl) in errors[0] and "internal error" not in errors[0], result.stderr
    assert "not a JSONL file" in errors[0] or "not a labelled document record" in errors[0], errors[0]


def test_what_the_file_is_and_which_line_is_said(tmp_path):
    pdf = shutil.copy(REPO / "examples" / "invoice.pdf", tmp_path / "data.jsonl")
    with pytest.raises(InputError, match="it is a PDF file"):
        list(jsonl_lines(pdf))
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"a": 1}\n\n{"b": "caf\xe9"}\n')
    with pytest.raises(InputError, match="line 3 is not UTF-8 text"):
        list(jsonl_lines(latin))
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps({"a": 1}, indent=2))
    with pytest.raises(InputError, match=r"line 1 is not a JSON object \('\{'\)"):
        list(jsonl_lines(pretty))


def test_jsonl_with_a_bom_and_blank_lines_reads(tmp_path):
    path = tmp_path / "ok.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\n\n  \n{"b": 2}\n')
    assert [(n, json.loads(t)) for n, t in jsonl_lines(path)] == [(1, {"a": 1}), (4, {"b": 2})]
