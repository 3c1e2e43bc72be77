"""Fixtures shared by the training tests."""

import pytest
import torch

from docextract.data.funsd import convert_funsd
from docextract.data.labelled import write_jsonl


@pytest.fixture(scope="module")
def tiny_funsd(tmp_path_factory, shared_data):
    """A folder with 6 real FUNSD training forms (train.jsonl), 3 test forms for validation (val.jsonl) and a 1-layer
    MiniLM layout model without dropout saved as pretrain writes one (tiny/), so that the CLI can start from it."""
    from docextract.modeling import from_preset
    from docextract.modeling.tokenizer import load_tokenizer

    folder = tmp_path_factory.mktemp("tiny-funsd")
    train, _ = convert_funsd(shared_data("funsd"), "train", limit=6)
    val, _ = convert_funsd(shared_data("funsd"), "test", limit=3)
    write_jsonl(train, folder / "train.jsonl")
    write_jsonl(val, folder / "val.jsonl")
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", task="pretraining", num_hidden_layers=1, hidden_dropout_prob=0.0)
    model.save_pretrained(folder / "tiny", safe_serialization=True)
    load_tokenizer().save_pretrained(folder / "tiny")
    return folder
