"""The inference runtime: saved models as plain torch modules and the tokenizers-library WordPiece give exactly
what the transformers classes give, and `docextract run` never imports transformers or the training code."""

import json
import os
import subprocess
import sys

import pytest
import torch
from modeling_helpers import TINY, pad_batch, tiny_config, toy_document

from docextract.errors import ModelRefusedError
from docextract.modeling import LayoutForTokenClassification
from docextract.modeling.compact import load_compact, save_compact
from docextract.modeling.runtime import RuntimeTokenClassifier, load_runtime_model
from docextract.modeling.saved_config import IncompleteConfig
from docextract.modeling.tokenizer import load_tokenizer, load_wordpiece
from docextract.pipeline import load_model

PRESETS = ("docpolarbert", "lspe-layoutlm", "layout-cosformer", "layout-cosformer-local", "layoutlm", "lagabi", "layout-linformer")


def _batch():
    """Two toy documents of different lengths (so one is padded), with pages for the long-range presets."""
    batch = pad_batch([toy_document(37, seed=1, pages=2), toy_document(50, seed=2, pages=1)], 50)
    batch["input_ids"] = batch["input_ids"].clamp(max=TINY["vocab_size"] - 1)
    return batch


def _trained_like(preset: str) -> LayoutForTokenClassification:
    torch.manual_seed(0)
    model = LayoutForTokenClassification(tiny_config(preset, num_labels=5)).eval()
    with torch.no_grad():  # tables that start at zero (polar padding aside) get values, as training gives them
        for parameter in model.parameters():
            parameter.add_(torch.randn_like(parameter) * 0.02)
    return model


@pytest.mark.parametrize("preset", PRESETS)
def test_runtime_model_gives_the_transformers_models_logits_exactly(tmp_path, preset):
    model = _trained_like(preset)
    model.save_pretrained(tmp_path, safe_serialization=True)
    runtime = load_runtime_model(tmp_path)
    assert isinstance(runtime, RuntimeTokenClassifier) and not runtime.training
    batch = _batch()
    with torch.inference_mode():
        expected, got = model(**batch).logits, runtime(**batch).logits
    assert torch.equal(expected, got)
    assert runtime.config.id2label == model.config.id2label and runtime.config.num_labels == 5


def test_runtime_reads_compact_and_sharded_checkpoints_as_transformers_does(tmp_path):
    model = _trained_like("docpolarbert")
    save_compact(model, tmp_path / "compact")
    model.save_pretrained(tmp_path / "sharded", safe_serialization=True, max_shard_size="100KB")
    assert (tmp_path / "sharded" / "model.safetensors.index.json").is_file()
    batch = _batch()
    with torch.inference_mode():
        compact = load_compact(tmp_path / "compact", LayoutForTokenClassification)(**batch).logits
        assert torch.equal(load_runtime_model(tmp_path / "compact")(**batch).logits, compact)
        assert torch.equal(load_runtime_model(tmp_path / "sharded")(**batch).logits, model(**batch).logits)


def test_a_config_from_an_older_version_is_loaded_through_transformers(tmp_path):
    model = _trained_like("lspe-layoutlm")
    model.save_pretrained(tmp_path, safe_serialization=True)
    config = json.loads((tmp_path / "config.json").read_text())
    del config["polar_rel1d"]  # a key a later version added: transformers fills in LayoutConfig's default
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(IncompleteConfig, match="polar_rel1d"):
        load_runtime_model(tmp_path)
    loaded, _ = load_model(str(tmp_path))
    assert isinstance(loaded, LayoutForTokenClassification)
    batch = _batch()
    with torch.inference_mode():
        assert torch.equal(loaded(**batch).logits, model(**batch).logits)


def test_weights_that_do_not_fit_the_config_are_refused(tmp_path):
    _trained_like("layoutlm").save_pretrained(tmp_path, safe_serialization=True)
    config = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "num_hidden_layers": 3}))
    with pytest.raises(ModelRefusedError, match="missing"):
        load_runtime_model(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({**config, "intermediate_size": 64}))
    with pytest.raises(ModelRefusedError, match="do not fit"):
        load_runtime_model(tmp_path)


WORDS = ["Invoice", "No.", "INV-2024/0042", "Rechnungsdatum:", "Müller", "Straße", "ÉTÉ", "naïve", "Ångström",
         "北京市", "€1.234,56", "ﬁnance", "\u200b", "a\u0301", "İstanbul", "", " ", "x" * 300, "🙂", "(cid:12)",
         "\ufffd", "DE89370400440532013000", "12/03/2024", "Σύνολο", "итого", "ﾃｽﾄ"]


@pytest.mark.parametrize("folder", [None, "invoice"])
def test_wordpiece_gives_the_transformers_tokenizers_ids(folder):
    path = None
    if folder is not None:
        from docextract.modeling.store import resolve_model

        path = str(resolve_model(folder))
    reference, wordpiece = load_tokenizer(path), load_wordpiece(path)
    assert wordpiece(WORDS, add_special_tokens=False)["input_ids"] == \
        reference(WORDS, add_special_tokens=False)["input_ids"]
    for name in ("cls_token_id", "sep_token_id", "unk_token_id", "pad_token_id"):
        assert getattr(wordpiece, name) == getattr(reference, name)


RUN_AND_LIST_MODULES = """
import sys
from docextract.cli import _run  # main() without its final exit
sys.argv = ["docextract", "run", sys.argv[1], "--format", "jsonl"]
assert _run() == 0
import os
print("WAIT_POLICY", os.environ.get("OMP_WAIT_POLICY"))
print("MODULES", " ".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize("compute", [None, "float32"])  # the shipped default (ONNX Runtime), and torch's runtime
def test_run_imports_neither_transformers_nor_the_training_code(tmp_path, compute):
    from docextract.modeling.store import REPO_MODELS

    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "DOCEXTRACT_COMPUTE")}
    if compute:
        env["DOCEXTRACT_COMPUTE"] = compute
    else:  # the ONNX graph built into the cache first (its one-time build traces the torch model)
        load_model("invoice")
    result = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, str(REPO_MODELS.parent / "examples" / "invoice.pdf")],
                            capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    assert "WAIT_POLICY PASSIVE" in result.stdout  # torch's threads sleep rather than spin (cli.py)
    output, _, modules = result.stdout.rpartition("MODULES ")
    assert json.loads(output.splitlines()[0])["documents"][0]["fields"]  # it did read the invoice with the model
    loaded = modules.split()
    assert not [m for m in loaded if m == "transformers" or m.startswith("transformers.")]
    assert not [m for m in loaded if m.startswith(("docextract.training", "docextract.synth", "docextract.data"))]
    assert "tokenizers" in loaded
    if compute == "float32":
        assert "docextract.modeling.runtime" in loaded
    else:  # the default model runs in ONNX Runtime from its cached graph: torch (a second of start-up) stays out
        assert "onnxruntime" in loaded and "torch" not in loaded


def _ship_module():
    import importlib.util

    from docextract.modeling.store import REPO_MODELS

    spec = importlib.util.spec_from_file_location("ship_model", REPO_MODELS.parent / "scripts" / "ship_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("compute", "preset"), [("bfloat16", "docpolarbert"), ("int8-linear", "docpolarbert"),
                                                  ("int8-linear", "lspe-layoutlm")])  # LSPE: the default model's
def test_a_model_shipped_with_a_compute_runs_in_it_and_stays_close_to_float32(tmp_path, compute, preset, monkeypatch):
    from docextract.modeling.runtime import native_bfloat16

    monkeypatch.delenv("DOCEXTRACT_COMPUTE", raising=False)
    model = _trained_like(preset)
    model.save_pretrained(tmp_path / "run", safe_serialization=True)
    ship = _ship_module()
    ship.ship(tmp_path / "run", tmp_path / "shipped", compute)
    assert json.loads((tmp_path / "shipped" / "config.json").read_text())["docextract_compute"] == compute
    runtime = load_runtime_model(tmp_path / "shipped")
    expected = compute if compute != "bfloat16" or native_bfloat16() else "float32"
    assert runtime.compute == expected
    if compute == "int8-linear":
        linear = runtime.layout.encoder.layer[0].intermediate.dense
        assert type(linear).__module__.startswith("torch.ao.nn.quantized")
        assert isinstance(runtime.classifier, torch.nn.Linear)  # the classifier stays float
    reference = load_runtime_model(tmp_path / "shipped", compute="float32")
    assert reference.compute == "float32"
    batch = _batch()
    with torch.inference_mode():
        got, want = runtime(**batch).logits, reference(**batch).logits
    assert got.dtype == torch.float32 and got.shape == want.shape
    assert (got - want).abs().max() < 0.1 * want.abs().max()
    # re-shipping a shipped folder to record another compute keeps its weights
    ship.ship(tmp_path / "shipped", tmp_path / "again", "float32")
    with torch.inference_mode():
        assert torch.equal(load_runtime_model(tmp_path / "again")(**batch).logits, want)


def test_the_environment_overrides_a_models_compute_and_an_unknown_one_is_refused(tmp_path, monkeypatch):
    _trained_like("layoutlm").save_pretrained(tmp_path, safe_serialization=True)
    monkeypatch.setenv("DOCEXTRACT_COMPUTE", "int8-linear")
    load_model.cache_clear()
    try:
        model, _ = load_model(str(tmp_path))
        assert model.compute == "int8-linear"
        monkeypatch.setenv("DOCEXTRACT_COMPUTE", "float8")
        load_model.cache_clear()
        with pytest.raises(ModelRefusedError, match="float8"):
            load_model(str(tmp_path))
    finally:
        load_model.cache_clear()
