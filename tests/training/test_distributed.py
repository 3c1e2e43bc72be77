"""Data-parallel training on the CPU (gloo): 2 processes started by torchrun train the run 1 process trains.

The recipe is fixed by the global batch, so 2 processes and 1 give the same loss curve, and a checkpoint
written by either resumes in the other. Tolerance: each epoch's training loss within 1e-5 relative (measured:
about 1e-8, the order in which the float sums add up), validation scores within 0.02 (equal in practice: a
word's tag flips only on a near tie). The tiny model has no dropout: with dropout each process draws its own
masks, and the curves then agree in distribution, not in value.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from docextract.data.labelled import read_jsonl
from docextract.data.tagging import labels_for
from docextract.layout import analyze_layout
from docextract.modeling import from_preset
from docextract.modeling.batching import collate
from docextract.modeling.presets import PRESETS
from docextract.modeling.tokenizer import load_tokenizer
from docextract.pipeline import document_windows
from docextract.training.finetune import FinetuneOptions, encode_documents, finetune
from docextract.training.masking import MaskedWindows, MaskingSettings, MaskVocabulary
from docextract.training.pretrain import encode_for_pretraining, line_numbers

HELPER = Path(__file__).with_name("ddp_finetune.py")
# saved full (fp32): the weights are compared at 1e-4, finer than a compact model's fp16 steps
RECIPE = dict(epochs=2, learning_rate=5e-4, batch_size=4, max_tokens=126, stride=32, device="cpu", save="full")
LOSS_TOLERANCE = 1e-5  # relative, per epoch
SCORE_TOLERANCE = 0.02  # absolute, validation P/R/F1


def _options(data: Path, output: Path) -> FinetuneOptions:
    return FinetuneOptions(train_files=(data / "train.jsonl",), eval_files=(data / "val.jsonl",), output_dir=output,
                           model=str(data / "tiny"), **RECIPE)


@pytest.fixture()
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def one_process(tiny_funsd, tmp_path_factory):
    """The reference: the recipe in this process, uninterrupted."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        output = tmp_path_factory.mktemp("one")
        return finetune(_options(tiny_funsd, output)), output
    finally:
        torch.set_num_threads(threads)


def _torchrun(*args: str, processes: int = 2) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    for key in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
        env.pop(key, None)
    result = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                             f"--nproc-per-node={processes}", *args],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def _cli_finetune(data: Path, output: Path) -> list[str]:
    return ["-m", "docextract", "finetune", str(data / "train.jsonl"), "--eval", str(data / "val.jsonl"),
            "-o", str(output), "--model", str(data / "tiny"), "--epochs", str(RECIPE["epochs"]),
            "--lr", str(RECIPE["learning_rate"]), "--batch-size", str(RECIPE["batch_size"]),
            "--max-tokens", str(RECIPE["max_tokens"]), "--stride", str(RECIPE["stride"]), "--threads", "1",
            "--device", "cpu", "--save", RECIPE["save"]]


def _helper(data: Path, output: Path, stop_after_steps: int) -> list[str]:
    options = {k: str(v) if isinstance(v, Path) else v for k, v in vars(_options(data, output)).items()}
    options.update(train_files=[str(data / "train.jsonl")], eval_files=[str(data / "val.jsonl")],
                   stop_after_steps=stop_after_steps)
    return [str(HELPER), json.dumps(options)]


def _assert_same_run(history: dict, reference: dict) -> None:
    assert len(history["epochs"]) == len(reference["epochs"])
    for mine, theirs in zip(history["epochs"], reference["epochs"]):
        assert mine["step"] == theirs["step"] and mine["lr"] == pytest.approx(theirs["lr"], rel=1e-12)
        assert mine["train_loss"] == pytest.approx(theirs["train_loss"], rel=LOSS_TOLERANCE)
        for key in ("f1", "precision", "recall"):
            assert mine[key] == pytest.approx(theirs[key], abs=SCORE_TOLERANCE)


def _assert_same_weights(a: Path, b: Path) -> None:
    """Equal to 1e-4. Attention key biases are left out: their true gradient is exactly 0 (a bias on every key adds
    the same q.b to a query's scores, which softmax ignores), so Adam, which divides a gradient by its own running
    size, moves them by the rounding noise that differs between 1 and 2 processes (measured 5e-5)."""
    first, second = load_file(str(a / "model" / "model.safetensors")), load_file(str(b / "model" / "model.safetensors"))
    assert first.keys() == second.keys()
    for key in first:
        if not key.endswith("attention.self.key.bias"):
            torch.testing.assert_close(first[key], second[key], rtol=0, atol=1e-4, msg=key)


def _steps_per_epoch(reference: dict) -> int:
    return reference["epochs"][0]["step"]


def test_two_processes_give_the_loss_curve_of_one(tiny_funsd, one_process, tmp_path):
    reference, reference_dir = one_process
    output = tmp_path / "two"
    result = _torchrun(*_cli_finetune(tiny_funsd, output))
    history = json.loads((output / "history.json").read_text())
    _assert_same_run(history, reference["history"])
    _assert_same_weights(output, reference_dir)
    assert result.stderr.count("model written to") == 1  # process 0 reports; the other trains silently
    record = json.loads((output / "model" / "training.json").read_text())
    assert record["history"]["epochs"] == history["epochs"]


def test_a_run_interrupted_in_two_processes_resumes_in_one(tiny_funsd, one_process, tmp_path, one_thread):
    reference, reference_dir = one_process
    output = tmp_path / "resumed"
    _torchrun(*_helper(tiny_funsd, output, stop_after_steps=_steps_per_epoch(reference["history"]) + 1))
    assert not (output / "model").exists()  # "killed" in epoch 2: only the epoch-1 checkpoint is there
    resumed = finetune(_options(tiny_funsd, output))
    _assert_same_run(resumed["history"], reference["history"])
    _assert_same_weights(output, reference_dir)


def test_a_run_interrupted_in_one_process_resumes_in_two(tiny_funsd, one_process, tmp_path, one_thread):
    reference, reference_dir = one_process
    output = tmp_path / "resumed"
    finetune(_options(tiny_funsd, output), stop_after_steps=_steps_per_epoch(reference["history"]) + 1)
    _torchrun(*_cli_finetune(tiny_funsd, output))
    _assert_same_run(json.loads((output / "history.json").read_text()), reference["history"])
    _assert_same_weights(output, reference_dir)


def test_shards_cover_a_global_batch_once():
    from docextract.training.distributed import Processes

    for size in (1, 2, 5, 8):
        batch = list(range(10, 10 + size))
        shards = [Processes(rank, 2).shard(batch) for rank in range(2)]
        assert shards[0] + shards[1] == batch  # in order, nothing twice, nothing left out
    assert Processes(1, 2).shard([7]) == []  # the process left without a window joins with weight 0


def _finetune_batch(data: Path, labels: list[str]) -> dict:
    documents = list(read_jsonl(data / "train.jsonl"))[:2]
    examples = encode_documents(documents, load_tokenizer(), {t: i for i, t in enumerate(labels)}, "BIO", 126, 32)
    return collate(examples[:2])


def _pretraining_batch(data: Path, vocab_size: int) -> dict:
    tokenizer = load_tokenizer()
    document = analyze_layout(next(iter(read_jsonl(data / "train.jsonl"))).document)
    windows = [encode_for_pretraining(document, w, tokenizer, line_numbers(document))
               for w in document_windows(document, tokenizer, max_tokens=126, stride=32)]
    masked = MaskedWindows(windows, MaskingSettings(), MaskVocabulary.from_tokenizer(tokenizer, vocab_size), 0)
    return collate([masked[0], masked[1]])


@pytest.mark.parametrize("task", ["token-classification", "pretraining"])
def test_every_trainable_parameter_of_every_preset_gets_a_gradient(tiny_funsd, task):
    """Why DDP runs without find_unused_parameters: it would otherwise wait forever for a missing gradient."""
    labels = labels_for(["header", "question", "answer"], "BIO")
    for name in PRESETS:
        kwargs = {"num_labels": len(labels)} if task == "token-classification" else {}
        model = from_preset(name, task=task, num_hidden_layers=1, **kwargs)
        batch = _finetune_batch(tiny_funsd, labels) if task == "token-classification" else \
            _pretraining_batch(tiny_funsd, model.config.vocab_size)
        model(**batch).loss.backward()
        missing = [n for n, p in model.named_parameters() if p.requires_grad and p.grad is None]
        assert not missing, (name, missing)
