"""Shared test fixtures: paths to the real data beside the checkout, skipped with a reason when absent."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DOCEXTRACT_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data; the calling test is skipped with a clear reason if it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not available: {path} (set DOCEXTRACT_SHARED_DATA to the shared/data folder)")
    return path


@pytest.fixture(scope="module", autouse=True)
def _module_folders_freed(request, tmp_path_factory):
    """Removes the folders a test module made under pytest's base temp (its trained models, checkpoints and saved
    tiny models: a few hundred MB each) when the module ends with no failure. Pytest would keep them all to the
    session's end (2.2 GB in all), and CI machines have run out of disk on that; a failing module keeps its own."""
    base = tmp_path_factory.getbasetemp()
    before = set(base.iterdir())
    failed_before = request.session.testsfailed
    yield
    if request.session.testsfailed == failed_before:
        for path in set(base.iterdir()) - before:
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(name="shared_data", scope="session")
def shared_data_fixture():
    """``shared_data("funsd", "testing_data")`` inside a test: the path, or a skip with the reason."""
    return shared_data


def funsd_jsonl(path: Path, split: str, limit: int) -> Path:
    """The first ``limit`` real FUNSD forms of ``split``, converted and written to ``path`` (skips without the data)."""
    from docextract.data.funsd import convert_funsd
    from docextract.data.labelled import write_jsonl

    documents, _ = convert_funsd(shared_data("funsd"), split, limit=limit)
    write_jsonl(documents, path)
    return path


@pytest.fixture(scope="module")
def tiny_funsd(tmp_path_factory):
    """A folder with 6 real FUNSD training forms (train.jsonl), 3 test forms for validation (val.jsonl) and a 1-layer
    MiniLM layout model without dropout saved as pretrain writes one (tiny/), so that the CLI can start from it."""
    import torch

    from docextract.modeling import from_preset
    from docextract.modeling.tokenizer import load_tokenizer

    folder = tmp_path_factory.mktemp("tiny-funsd")
    funsd_jsonl(folder / "train.jsonl", "train", limit=6)
    funsd_jsonl(folder / "val.jsonl", "test", limit=3)
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", task="pretraining", num_hidden_layers=1, hidden_dropout_prob=0.0)
    model.save_pretrained(folder / "tiny", safe_serialization=True)
    load_tokenizer().save_pretrained(folder / "tiny")
    return folder


TINY_MODEL_LABELS = ["O", "B-total", "I-total", "B-invoice_date", "I-invoice_date"]


def save_tiny_model(folder: Path, labels: list[str], *, tokenizer: bool = False) -> Path:
    """A real (untrained, 1-layer, seeded) token-classification model with ``labels`` saved in ``folder`` as
    finetune saves one (with its tokenizer when asked): loading and the output path are exercised for real."""
    import torch

    from docextract.modeling import from_preset

    torch.manual_seed(0)  # an untrained model's tags depend on its initialisation: keep them the same every run
    model = from_preset("lspe-layoutlm", num_labels=len(labels), id2label=dict(enumerate(labels)),
                        label2id={label: i for i, label in enumerate(labels)}, num_hidden_layers=1)
    model.save_pretrained(folder, safe_serialization=True)
    if tokenizer:
        from docextract.modeling.tokenizer import load_tokenizer

        load_tokenizer().save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_model(request, tmp_path_factory):
    """:func:`save_tiny_model` in a fresh folder, with the test module's ``TINY_MODEL_LABELS`` when it names its
    own (else total and invoice date)."""
    labels = getattr(request.module, "TINY_MODEL_LABELS", TINY_MODEL_LABELS)
    return save_tiny_model(tmp_path_factory.mktemp("model"), labels)
