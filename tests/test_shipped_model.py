"""The shipped default model loads from models/invoice (safetensors, within the size budget) and extracts
the fields of the example invoice the README's first command runs on; so does its student, models/invoice-fast."""

import json
from pathlib import Path

import jsonschema
import pytest

from docextract.extraction.output import load_schema
from docextract.modeling.store import models_dir
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


@pytest.mark.parametrize("model", ["invoice", "invoice-fast"])
def test_default_model_extracts_the_example_invoice(model):
    """The README's first command (and the same with the default's student): the fields must equal the invoice's
    true values (known by construction)."""
    out = extract_file(str(REPO / "examples" / "invoice.pdf"), RunOptions(model=model))
    jsonschema.validate(out, load_schema())
    truth = json.loads((REPO / "examples" / "invoice.pdf.truth.json").read_text())["fields"]
    fields = out["documents"][0]["fields"]
    assert fields["invoice_number"]["normalized"] == truth["invoice_number"]
    assert fields["invoice_date"]["normalized"] == truth["invoice_date"]
    assert fields["total"]["normalized"]["amount"] == truth["total"]
    assert all(0.0 <= f["confidence"] <= 1.0 for f in fields.values())


def _evaluate_shipped(name, documents):
    from docextract.pipeline import load_model
    from docextract.evaluation.evaluate import evaluate_model, settings_for_model

    net, tokenizer = load_model(name)
    return evaluate_model(net, tokenizer, documents, settings_for_model(net))


def test_shipped_sroie_model_reads_real_test_receipts(shared_data):
    from docextract.data.sroie import convert_sroie

    documents, _ = convert_sroie(shared_data("sroie"), split="test", limit=5)
    report = _evaluate_shipped("sroie", documents)
    assert report["fields"]["micro"]["f1"] > 0.6  # 89.4 on all 347 (model card)


def test_shipped_funsd_model_reads_real_test_forms(shared_data):
    from docextract.data.funsd import convert_funsd

    documents, _ = convert_funsd(shared_data("funsd"), split="test", limit=3)
    report = _evaluate_shipped("funsd", documents)
    assert report["f1"] > 0.25  # 57.3 on all 50 (model card)


def test_default_model_reads_a_real_invoice_of_a_producer_it_never_saw(shared_data):
    """factur-x-kit's English design: held out of the default model's training entirely (its test producer). Read
    from the page only, the number, dates, issuer, total and currency match the XML the PDF embeds."""
    from docextract.readers.einvoice import read_embedded_invoice

    pdf = shared_data("einvoices-more", "factur-x-kit", "PDF_DESIGN_EN.pdf")
    truth = read_embedded_invoice(pdf)
    out = extract_file(str(pdf), RunOptions(model="invoice", ignore_embedded=True))
    fields = out["documents"][0]["fields"]
    assert all(f["method"] != "embedded" for f in fields.values())
    assert fields["invoice_number"]["normalized"] == truth.invoice_number
    assert fields["invoice_date"]["normalized"] == truth.invoice_date.isoformat()
    assert fields["vendor_name"]["value"] == truth.vendor_name
    assert fields["total"]["normalized"] == {"amount": str(truth.total), "currency": truth.currency}
