"""`docextract finetune`: labelled JSONL in, a token-classification model folder out.

Recipe (CPU): windows of 510 word tokens with a 128-token stride (the same windowing as
inference), AdamW with warmup and linear decay, evaluation each epoch, the best epoch kept in
``OUTPUT/best`` and copied to ``OUTPUT/model`` at the end together with the tokenizer and a
``training.json`` record of data, recipe and scores.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from docextract.data.augment import global_block_shuffle, neighbour_block_swap
from docextract.data.labelled import LabelledDocument, read_jsonl
from docextract.data.tagging import encode_window, labels_for
from docextract.data.validate import errors as validation_errors
from docextract.data.validate import validate_files
from docextract.errors import InputError, UsageError
from docextract.training.evaluate import EvalSettings, evaluate_model, prepare_for_model
from docextract.training.loop import TrainConfig, train

AUGMENTATIONS = ("none", "global-shuffle", "neighbour-swap")


@dataclass(frozen=True)
class FinetuneOptions:
    train_files: tuple[Path, ...]
    eval_files: tuple[Path, ...]
    output_dir: Path
    model: str = "lspe-layoutlm"  # a preset name, or a folder written by pretrain/finetune
    scheme: str = "BIO"
    max_tokens: int = 510
    stride: int = 128
    epochs: int = 10
    learning_rate: float = 5e-5
    batch_size: int = 8
    grad_accumulation: int = 1
    warmup_ratio: float = 0.1
    seed: int = 42
    lspe_lr_scale: float = 0.02  # see TrainConfig
    augment: str = "none"
    augment_copies: int = 1
    limit: int | None = None  # use only the first N documents of each file (quick runs)
    model_overrides: dict[str, Any] = field(default_factory=dict)
    # Fit the softmax temperature on the eval documents at the end (docextract/calibration.py). They also
    # picked the best epoch, so a separate set with `docextract calibrate` is the cleaner measurement.
    calibrate: bool = False


def load_documents(files: Sequence[Path], limit: int | None = None) -> list[LabelledDocument]:
    docs: list[LabelledDocument] = []
    for path in files:
        for i, doc in enumerate(read_jsonl(path)):
            if limit is not None and i >= limit:
                break
            docs.append(doc)
    return docs


def label_set_of(documents: Sequence[LabelledDocument]) -> list[str]:
    """Every entity type in the data, in the order the files declare them."""
    seen: dict[str, None] = {}
    for doc in documents:
        for label in doc.label_set:
            seen.setdefault(label, None)
    return list(seen)


def encode_documents(documents: Sequence[LabelledDocument], tokenizer, label_ids: dict[str, int], scheme: str,
                     max_tokens: int, stride: int) -> list[dict[str, list]]:
    from docextract.pipeline import document_windows

    examples = []
    for ldoc in documents:
        windows = document_windows(ldoc.document, tokenizer, max_tokens=max_tokens, stride=stride)
        examples.extend(encode_window(ldoc, w, tokenizer, label_ids, scheme) for w in windows)
    return examples


def augmented(documents: Sequence[LabelledDocument], mode: str, copies: int, seed: int) -> list[LabelledDocument]:
    """The training documents plus ``copies`` reordered versions of each (LSPE paper, section 4.4)."""
    if mode == "none":
        return list(documents)
    reorder = global_block_shuffle if mode == "global-shuffle" else neighbour_block_swap
    extra = [d.with_document(reorder(d.document, seed + 1000 * c + i))
             for c in range(copies) for i, d in enumerate(documents)]
    return list(documents) + extra


def build_model(name_or_folder: str, labels: list[str], overrides: dict[str, Any]):
    from docextract.modeling import LayoutForTokenClassification, from_preset
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.presets import PRESETS

    id2label = dict(enumerate(labels))
    label2id = {v: k for k, v in id2label.items()}
    if name_or_folder in PRESETS:
        return from_preset(name_or_folder, num_labels=len(labels), id2label=id2label, label2id=label2id,
                           attention_probs_dropout_prob=0.0, **overrides)
    folder = Path(name_or_folder)
    if not folder.is_dir():
        raise UsageError(f"--model {name_or_folder!r} is neither a preset ({', '.join(PRESETS)}) nor a model folder")
    check_loadable_folder(folder)
    # A pretrained (or finetuned) folder: its encoder weights, a fresh classifier for these labels.
    return LayoutForTokenClassification.from_pretrained(
        str(folder), num_labels=len(labels), id2label=id2label, label2id=label2id, ignore_mismatched_sizes=True,
    )


def finetune(options: FinetuneOptions, *, on_step: Callable | None = None, on_epoch: Callable | None = None,
             stop_after_steps: int | None = None) -> dict[str, Any]:
    """Validate the data, train, evaluate each epoch, keep the best; returns the training record."""
    from docextract.text_encoder import load_tokenizer

    issues = validate_files(list(options.train_files), held_out=list(options.eval_files))
    problems = validation_errors(issues)
    if problems:
        shown = "; ".join(str(p) for p in problems[:5])
        raise InputError(f"the training data has {len(problems)} defect(s), fix them first: {shown}",
                         path=str(options.train_files[0]), code="INPUT_UNREADABLE")
    train_docs = [prepare_for_model(d) for d in load_documents(options.train_files, options.limit)]
    eval_docs = [prepare_for_model(d) for d in load_documents(options.eval_files, options.limit)]
    if not train_docs:
        raise InputError("no training documents", path=str(options.train_files[0]), code="INPUT_EMPTY")
    if options.calibrate and not eval_docs:
        raise UsageError("calibrating needs held-out documents: give --eval data")
    labels = labels_for(label_set_of(train_docs + eval_docs), options.scheme)
    label_ids = {tag: i for i, tag in enumerate(labels)}
    tokenizer = load_tokenizer()
    import torch

    torch.manual_seed(options.seed)  # the fresh layout and classifier weights are part of "same seed, same model"
    model = build_model(options.model, labels, options.model_overrides)
    model.config.docextract_window_tokens = options.max_tokens
    model.config.docextract_scheme = options.scheme
    model.config.docextract_stride = options.stride

    train_set = augmented(train_docs, options.augment, options.augment_copies, options.seed)
    examples = encode_documents(train_set, tokenizer, label_ids, options.scheme, options.max_tokens, options.stride)
    settings = EvalSettings(scheme=options.scheme, max_tokens=options.max_tokens, stride=options.stride)
    evaluate = (lambda m: _headline(evaluate_model(m, tokenizer, eval_docs, settings))) if eval_docs else None
    config = TrainConfig(
        output_dir=options.output_dir, epochs=options.epochs, learning_rate=options.learning_rate,
        batch_size=options.batch_size, grad_accumulation=options.grad_accumulation,
        warmup_ratio=options.warmup_ratio, seed=options.seed, lspe_lr_scale=options.lspe_lr_scale,
        stop_after_steps=stop_after_steps,
    )
    history = train(model, examples, config, evaluate=evaluate, on_step=on_step, on_epoch=on_epoch)
    if stop_after_steps is not None:
        return {"history": history, "interrupted": True}
    final = Path(options.output_dir) / "model"
    source = Path(options.output_dir) / "best"
    if not source.is_dir():  # no evaluation data: the last epoch is the model
        model.save_pretrained(source, safe_serialization=True)
    if final.exists():
        shutil.rmtree(final)
    shutil.copytree(source, final)
    tokenizer.save_pretrained(final)
    record = {
        "train_files": [str(p) for p in options.train_files], "eval_files": [str(p) for p in options.eval_files],
        "train_documents": len(train_docs), "train_windows": len(examples), "eval_documents": len(eval_docs),
        "labels": labels, "options": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(options).items()
                                      if k not in ("train_files", "eval_files")},
        "history": history,
    }
    if options.calibrate:
        record["calibration"] = _calibrate_final(final, tokenizer, eval_docs)
    (final / "training.json").write_text(json.dumps(record, indent=2, default=str))
    return record


def _calibrate_final(folder: Path, tokenizer, eval_docs: Sequence[LabelledDocument]) -> dict[str, Any]:
    """Fit the final model's temperature on the eval documents and write it into its config.json."""
    import torch

    from docextract.calibration import calibrate, write_temperature
    from docextract.modeling import LayoutForTokenClassification

    model = LayoutForTokenClassification.from_pretrained(str(folder), dtype=torch.float32).eval()
    report = calibrate(model, tokenizer, eval_docs)
    write_temperature(folder, report.temperature)
    return report.to_dict()


def _headline(report: dict[str, Any]) -> dict[str, float]:
    """The per-epoch numbers worth printing: entity F1 and, for key-value data, field F1."""
    out = {"f1": report["f1"], "precision": report["precision"], "recall": report["recall"]}
    if "fields" in report:
        out["field_f1"] = report["fields"]["micro"]["f1"]
    return out
