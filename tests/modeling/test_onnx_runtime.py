"""ONNX Runtime as the model's arithmetic (``docextract_compute: onnx`` / ``onnx-int8``): the exported graph gives the
torch runtime's logits, is built once into the cache and reused without the torch weights, and a new set of
weights gets a graph of its own."""

import pytest
import torch
from test_runtime import PRESETS, _batch, _trained_like

from docextract.modeling.onnx_runtime import OnnxTokenClassifier, graph_path
from docextract.modeling.runtime import load_runtime_model

pytest.importorskip("onnxruntime", reason="onnxruntime is a dependency of docextract: pip install -e .")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCEXTRACT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("DOCEXTRACT_COMPUTE", raising=False)


# The polar-bias presets do not export: torch's exporter has no searchsorted (DocPolarBERT's distance buckets), and
# LAGaBi's Gaussian bias gives NaN in the traced graph; both are refused when the graph is built (next test).
NOT_EXPORTED = ("docpolarbert", "lagabi")


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in NOT_EXPORTED])
def test_the_onnx_graph_gives_the_torch_runtimes_logits(tmp_path, preset):
    _trained_like(preset).save_pretrained(tmp_path / "model", safe_serialization=True)
    reference = load_runtime_model(tmp_path / "model", compute="float32")
    onnx = load_runtime_model(tmp_path / "model", compute="onnx")
    assert isinstance(onnx, OnnxTokenClassifier) and onnx.compute == "onnx"
    batch = _batch()  # two documents of different lengths: one padded, two pages
    with torch.inference_mode():
        want = reference(**batch).logits
    got = onnx(**batch).logits
    assert got.shape == want.shape and got.dtype == torch.float32
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)
    # a batch of another size and length than the one traced
    shorter = {k: v[:1, :20] for k, v in batch.items()}
    with torch.inference_mode():
        torch.testing.assert_close(onnx(**shorter).logits, reference(**shorter).logits, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("preset", NOT_EXPORTED)
def test_a_model_whose_graph_differs_is_refused_not_run(tmp_path, preset):
    from docextract.errors import ModelRefusedError

    _trained_like(preset).save_pretrained(tmp_path / "model", safe_serialization=True)
    with pytest.raises(ModelRefusedError, match="cannot be exported to ONNX"):
        load_runtime_model(tmp_path / "model", compute="onnx")
    assert not graph_path(tmp_path / "model", "onnx").exists()


def test_int8_stays_close_and_the_graph_is_built_once(tmp_path):
    _trained_like("lspe-layoutlm").save_pretrained(tmp_path / "model", safe_serialization=True)
    folder = tmp_path / "model"
    int8 = load_runtime_model(folder, compute="onnx-int8")
    graph = graph_path(folder, "onnx-int8")
    assert int8.graph == graph and graph.is_file()
    batch, reference = _batch(), load_runtime_model(folder, compute="float32")
    with torch.inference_mode():
        want = reference(**batch).logits
    got = int8(**batch).logits
    assert (got - want).abs().max() < 0.1 * want.abs().max()

    from docextract.modeling import onnx_runtime

    def no_torch_weights(path):
        raise AssertionError("a cached graph is opened without building it again")

    again = onnx_runtime.load_onnx_model(folder, int8.config, "onnx-int8", no_torch_weights)
    assert torch.equal(again(**batch).logits, got)


def test_new_weights_get_a_graph_of_their_own(tmp_path):
    _trained_like("lspe-layoutlm").save_pretrained(tmp_path / "model", safe_serialization=True)
    before = graph_path(tmp_path / "model", "onnx")
    assert graph_path(tmp_path / "model", "onnx-int8") != before
    torch.manual_seed(1)
    _trained_like("docpolarbert").save_pretrained(tmp_path / "model", safe_serialization=True)
    assert graph_path(tmp_path / "model", "onnx") != before


def test_a_cache_that_cannot_be_written_still_runs(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DOCEXTRACT_CACHE", str(blocker / "cache"))
    _trained_like("lspe-layoutlm").save_pretrained(tmp_path / "model", safe_serialization=True)
    onnx = load_runtime_model(tmp_path / "model", compute="onnx")
    batch, reference = _batch(), load_runtime_model(tmp_path / "model", compute="float32")
    with torch.inference_mode():
        want = reference(**batch).logits
    torch.testing.assert_close(onnx(**batch).logits, want, atol=1e-4, rtol=1e-4)


class _TorchCalls:
    """The same ONNX Runtime model seen as a torch module (no ``logits_array``): inference takes its torch route."""

    def __init__(self, model):
        self.model, self.config, self.compute = model, model.config, model.compute

    def __call__(self, **batch):
        return self.model(**batch)

    def eval(self):
        return self

    def parameters(self):
        return iter(())


def test_run_tags_in_numpy_as_the_torch_route_does(monkeypatch):
    """`run` feeds an ONNX Runtime model numpy arrays and never imports torch; the words' tags and probabilities are
    those of the torch route (torch batches, torch softmax) on the same model."""
    from docextract.modeling.inference import tag_words
    from docextract.modeling.loader import load_model
    from docextract.modeling.store import REPO_MODELS
    from docextract.pipeline import RunOptions, model_windows, read_and_analyze

    load_model.cache_clear()
    model, tokenizer = load_model("invoice")
    assert hasattr(model, "logits_array"), "the shipped default model runs in ONNX Runtime"
    doc, _ = read_and_analyze(str(REPO_MODELS.parent / "examples" / "multipage_invoice.pdf"), RunOptions())
    windows = model_windows(doc, model, tokenizer)
    assert len(windows) > 1  # three pages: several windows, batched
    numpy_route = tag_words(model, tokenizer, doc, windows)
    torch_route = tag_words(_TorchCalls(model), tokenizer, doc, windows)
    assert [t.tag for t in numpy_route] == [t.tag for t in torch_route]
    for a, b in zip(numpy_route, torch_route):
        assert a.probability == pytest.approx(b.probability, abs=1e-6)
        assert a.label_probabilities.keys() == b.label_probabilities.keys()
        assert all(a.label_probabilities[k] == pytest.approx(b.label_probabilities[k], abs=1e-6) for k in a.label_probabilities)
    load_model.cache_clear()
