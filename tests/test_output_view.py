"""Output a person can read: the model described once (name, version, settings hash; no coefficients), no empty
timings, and `--fields-only`, the short view the README's first command prints."""

import hashlib
import json
import re
import shlex
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_USAGE
from docextract.extraction.output import load_schema
from docextract.modeling.store import resolve_model

REPO = Path(__file__).resolve().parent.parent
INVOICE = REPO / "examples" / "invoice.pdf"
runner = CliRunner()


def _run(*args) -> dict:
    result = runner.invoke(app, ["run", *map(str, args)])
    assert result.exit_code == 0, result.output
    output = json.loads(result.stdout)
    jsonschema.validate(output, load_schema())
    return output


def test_the_model_is_described_once_by_name_version_and_settings_hash():
    output = _run(INVOICE)
    model = output["run"]["model"]
    folder = resolve_model("invoice")
    assert set(model) == {"name", "version", "settings_hash", "preset", "compute", "field_calibration", "review"}
    assert model["compute"] == "onnx-int8"  # the arithmetic its config.json names (float32 is left out)
    assert model["version"] == hashlib.sha256((folder / "model.safetensors").read_bytes()).hexdigest()[:16]
    assert re.fullmatch(r"[0-9a-f]{16}", model["settings_hash"])
    assert model["field_calibration"] == "evidence"  # the method; its coefficients stay in config.json
    assert set(model["review"]) == {"precision", "source", "required"}
    assert len(json.dumps(output["run"])) < 600  # it was 2.4 KB of coefficients and thresholds in every output
    assert "timings_ms" not in output["run"]  # empty without --timings: left out
    timed = _run(INVOICE, "--model", "none", "--timings")
    assert set(timed["run"]["timings_ms"]) == {"read", "layout"}


def test_fields_only_is_the_fields_of_the_whole_output_and_short():
    whole = _run(INVOICE)
    view = _run(INVOICE, "--fields-only")
    assert view["view"] == "fields" and view["source"] == str(INVOICE) and view["model"] == "invoice"
    [document] = view["documents"]
    [full] = whole["documents"]
    assert document["fields"] == {label: {key: field[key] for key in ("value", "normalized", "confidence", "status")}
                                  for label, field in full["fields"].items()}
    assert len(document["line_items"]) == len(full["line_items"])
    assert document["line_items"][0]["amount"] == full["line_items"][0]["fields"]["amount"]["normalized"]["amount"]
    assert (document["needs_review"], document["review_reasons"]) == (full["validation"]["needs_review"],
                                                                       full["validation"]["review_reasons"])
    assert len(json.dumps(view, indent=2).splitlines()) < 250  # the whole output: 2,680 lines


def test_the_readmes_first_command_prints_the_short_view():
    readme = (REPO / "README.md").read_text()
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    command = next(line for line in first_block.splitlines() if "docextract run" in line)
    args = shlex.split(command.split(".venv/bin/docextract", 1)[1])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    output = json.loads(result.stdout)
    jsonschema.validate(output, load_schema())
    assert output["view"] == "fields" and len(result.stdout.splitlines()) < 250


def test_fields_only_is_refused_where_it_does_not_apply(tmp_path):
    for extra in (["--format", "csv"], ["--format", "labelstudio"], ["--include-tokens"], ["--timings"]):
        result = runner.invoke(app, ["run", str(INVOICE), "--fields-only", *extra])
        assert result.exit_code == EXIT_USAGE, extra


def test_a_folder_with_fields_only_writes_the_view_and_counts_its_review(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "invoice.pdf").write_bytes(INVOICE.read_bytes())
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(folder), "--out", str(out), "--fields-only", "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    written = json.loads((out / "invoice.pdf.json").read_text())
    jsonschema.validate(written, load_schema())
    assert written["view"] == "fields" and json.loads((out / "documents.jsonl").read_text()) == written
    summary = json.loads((out / "summary.json").read_text())
    assert summary["documents_needing_review"] == int(written["documents"][0]["needs_review"])
    assert summary["fields_accepted"] == sum(f["status"] == "accepted" for f in written["documents"][0]["fields"].values())
