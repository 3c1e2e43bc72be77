"""The shipped default model loads from models/invoice (safetensors, within the size budget) and extracts
the fields of the example invoice the README's first command runs on."""

import json
from pathlib import Path

import jsonschema
import pytest

from docextract.model_store import models_dir
from docextract.output import load_schema
from docextract.pipeline import RunOptions, extract_file

REPO = Path(__file__).resolve().parent.parent
MODEL_BUDGET_MB = 50  # per shipped checkpoint
ALL_MODELS_BUDGET_MB = 200


def test_shipped_models_fit_the_size_budget_and_are_safetensors_only():
    folders = [p for p in models_dir().iterdir() if p.is_dir()]
    assert folders, "no shipped model in models/"
    total = 0
    for folder in folders:
        size = sum(f.stat().st_size for f in folder.iterdir())
        total += size
        assert size < MODEL_BUDGET_MB * 2**20, folder
        assert (folder / "model.safetensors").is_file() and (folder / "README.md").is_file()
        assert not [f for f in folder.iterdir() if f.suffix in (".bin", ".pt", ".pth", ".pkl")]
    assert total < ALL_MODELS_BUDGET_MB * 2**20


def test_default_model_extracts_the_example_invoice():
    """The README's first command: the fields must equal the invoice's true values (known by construction)."""
    out = extract_file(str(REPO / "examples" / "invoice.pdf"), RunOptions(model="invoice"))
    jsonschema.validate(out, load_schema())
    truth = json.loads((REPO / "examples" / "invoice.pdf.truth.json").read_text())["fields"]
    fields = out["documents"][0]["fields"]
    assert fields["invoice_number"]["normalized"] == truth["invoice_number"]
    assert fields["invoice_date"]["normalized"] == truth["invoice_date"]
    assert fields["total"]["normalized"]["amount"] == truth["total"]
    assert all(0.0 <= f["confidence"] <= 1.0 for f in fields.values())
