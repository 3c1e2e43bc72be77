"""`--model auto` reads a short document with the windowed model and a long one with the long-range model."""

import json
from pathlib import Path

import pytest

from docextract.cli import app
from typer.testing import CliRunner

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "invoice"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "multipage_invoice.pdf"


def _models_dir(tmp_path: Path, threshold: int) -> Path:
    root = tmp_path / "models"
    root.mkdir()
    (root / "short").symlink_to(SHIPPED)  # two names for the shipped model: the route, not the model, is tested
    (root / "long").symlink_to(SHIPPED)
    (root / "auto.json").write_text(json.dumps({"windowed": "short", "long_range": "long",
                                                "long_range_from_tokens": threshold}))
    return root


@pytest.mark.parametrize("threshold, chosen", [(10**6, "short"), (100, "long")])
def test_auto_picks_the_model_by_document_length(tmp_path, monkeypatch, threshold, chosen):
    monkeypatch.setenv("DOCEXTRACT_MODELS", str(_models_dir(tmp_path, threshold)))
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--model", "auto"])
    assert result.exit_code == 0, result.output
    model = json.loads(result.stdout)["run"]["model"]
    assert model["name"] == chosen
    assert model["auto"]["chose"] == chosen and model["auto"]["tokens"] > 100


def test_auto_without_a_route_file_is_a_clear_error(tmp_path, monkeypatch):
    (tmp_path / "models").mkdir()
    monkeypatch.setenv("DOCEXTRACT_MODELS", str(tmp_path / "models"))
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--model", "auto"])
    assert result.exit_code != 0
    assert "auto.json" in result.output


def test_a_route_without_a_long_range_model_reads_every_length_windowed(tmp_path, monkeypatch):
    root = _models_dir(tmp_path, 100)
    (root / "auto.json").write_text(json.dumps({"windowed": "short", "long_range": None, "long_range_from_tokens": None}))
    monkeypatch.setenv("DOCEXTRACT_MODELS", str(root))
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--model", "auto"])
    assert result.exit_code == 0, result.output
    model = json.loads(result.stdout)["run"]["model"]
    assert model["name"] == "short" and model["auto"]["chose"] == "short" and model["auto"]["long_range_from_tokens"] is None


def test_the_shipped_route_names_shipped_models():
    route = json.loads((SHIPPED.parent / "auto.json").read_text())
    for key in ("windowed", "long_range"):
        if route[key] is not None:
            assert (SHIPPED.parent / route[key] / "config.json").is_file(), route[key]
    assert route["measured"]
