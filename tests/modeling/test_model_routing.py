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


def test_the_shipped_route_names_a_shipped_model_for_every_document_type():
    route = json.loads((SHIPPED.parent / "auto.json").read_text())
    for kind, target in route["types"].items():
        assert target == "contract" or (SHIPPED.parent / target / "config.json").is_file(), (kind, target)
    assert route["types"]["invoice"] == "invoice" and route["types"]["contract"] == "contract"


CONTRACT = ("This Mutual Non-Disclosure Agreement is entered into by and between the Parties named below. "
            "Whereas each Party wishes to disclose Confidential Information to the other, the Parties hereby agree "
            "that the receiving Party shall hold it in confidence and shall not disclose it. This Agreement shall be "
            "governed by the laws of the State of Delaware and shall remain in effect for two years. ")


def test_auto_reads_an_invoice_with_the_invoice_model_and_a_contract_with_the_contract_model(tmp_path):
    from pdf_factory import text_lines_pdf

    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--model", "auto"])
    assert result.exit_code == 0, result.output
    model = json.loads(result.stdout)["run"]["model"]
    assert model["name"] == "invoice" and model["auto"]["document_type"] == "invoice"

    words = (CONTRACT * 8).split()
    lines = [" ".join(words[i:i + 12]) for i in range(0, len(words), 12)]
    contract = tmp_path / "nda.pdf"
    text_lines_pdf(contract, lines, width=612, height=40 + 14 * len(lines), leading=14, font_size=9)
    result = CliRunner().invoke(app, ["run", str(contract), "--model", "auto"])
    assert result.exit_code == 0, result.output
    model = json.loads(result.stdout)["run"]["model"]
    assert model["auto"]["document_type"] == "contract" and model["name"] == "nda"
