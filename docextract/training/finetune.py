"""`docextract finetune`: labelled JSONL in, a token-classification model folder out.

Recipe (CPU): windows of 510 word tokens with a 128-token stride (the same windowing as
inference), AdamW with warmup and linear decay, evaluation each epoch, the best epoch kept in
``OUTPUT/best`` and copied to ``OUTPUT/model`` at the end together with the tokenizer and a
``training.json`` record of data, recipe and scores.

Long documents (``cross_pages``): windows span pages, so a document that fits the window (by default
the model's whole position table minus [CLS]/[SEP]) is read in one sequence, and longer ones in
windows of ``max_tokens`` with ``stride`` tokens of shared context. Only models with page embeddings
(the layout-cosformer and layout-linformer presets) may do this; ``max_positions`` gives a preset a
longer position table. Both settings go into the saved config (``docextract_cross_pages``,
``docextract_window_tokens``), and inference reads its windows the same way.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from docextract.data.augment import global_block_shuffle, neighbour_block_swap
from docextract.data.labelled import LabelledDocument, read_jsonl
from docextract.data.tagging import encode_window, labels_for
from docextract.data.validate import errors as validation_errors
from docextract.data.validate import validate_files
from docextract.errors import InputError, UsageError
from docextract.extraction.entities import split_tag
from docextract.files import replace_folder_atomic, write_bytes_atomic
from docextract.modeling.batching import IGNORE_INDEX
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
    # word tokens per window; None: 510, or with cross_pages the model's positions minus [CLS]/[SEP]
    max_tokens: int | None = None
    cross_pages: bool = False  # windows span pages (needs page embeddings)
    max_positions: int | None = None  # presets only: max_position_embeddings (learned 1D table tiled from 512)
    stride: int = 128
    epochs: int = 10
    learning_rate: float = 5e-5
    batch_size: int = 8
    grad_accumulation: int = 1
    warmup_ratio: float = 0.1
    lr_floor: float = 0.0  # the decay ends at this fraction of the peak rate (see training/schedule.py)
    seed: int = 42
    lspe_lr_scale: float = 0.02  # see TrainConfig
    layout_lr_scale: float = 1.0  # see TrainConfig
    augment: str = "none"
    augment_copies: int = 1
    limit: int | None = None  # use only the first N documents of each file (quick runs)
    model_overrides: dict[str, Any] = field(default_factory=dict)
    # Fit the softmax temperature on the eval documents at the end (docextract/training/calibration.py). They also
    # picked the best epoch, so a separate set with `docextract calibrate` is the cleaner measurement.
    calibrate: bool = False
    # Share of training windows with no entity that are kept (seeded). Long contracts are mostly pages
    # without any value on them: keeping all of them costs most of the training time for little signal.
    negative_windows: float = 1.0
    # Loss weight of entity tags against O (1.0: plain cross-entropy); see LayoutForTokenClassification.
    entity_weight: float = 1.0
    # data label -> model label, applied to every training and eval document (e.g. SROIE's company as the
    # invoice model's vendor_name, so receipts can train an invoice model)
    label_map: dict[str, str] = field(default_factory=dict)
    # The eval metric that picks the best epoch: "f1" (entity F1), "field_f1" or "field_accuracy" (documents
    # with `fields` truth, e.g. real invoices, where the field a user gets is what counts)
    select_by: str = "f1"
    patience: int | None = None  # stop after this many epochs without a better select_by (see TrainConfig)
    device: str = "auto"  # auto|cpu|cuda|mps (modeling/devices.py)
    mixed_precision: str = "auto"  # autocast on GPUs (bf16 where supported, else fp16); fp32 on the CPU
    # Recompute each layer's activations in the backward pass instead of keeping them (see layers.py): whole
    # 16k-token contracts train in bounded memory, for about a third more compute per step.
    gradient_checkpointing: bool = False


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
                     max_tokens: int, stride: int, cross_pages: bool = False) -> list[dict[str, list]]:
    """Every window of every document, encoded with its labels. When some document annotates fewer labels
    than the model has (its ``label_set``), every window also carries ``open_tags``: the tags its O words
    may also be (see ``modeling.heads.partial_label_loss``)."""
    from docextract.pipeline import document_windows

    model_labels = {split_tag(tag)[1] for tag in label_ids} - {None}
    partial = any(model_labels - set(d.label_set) for d in documents)
    examples = []
    for ldoc in documents:
        windows = document_windows(ldoc.document, tokenizer, max_tokens=max_tokens, stride=stride,
                                   cross_pages=cross_pages)
        open_tags = unannotated_tags(ldoc.label_set, label_ids) if partial else None
        for window in windows:
            example = encode_window(ldoc, window, tokenizer, label_ids, scheme)
            if open_tags is not None:
                example["open_tags"] = open_tags
            examples.append(example)
    return examples


def unannotated_tags(label_set: Sequence[str], label_ids: dict[str, int]) -> list[int]:
    """One 0/1 per tag id: 1 for the tags of labels the document does not annotate."""
    annotated = set(label_set)
    flags = [0] * len(label_ids)
    for tag, index in label_ids.items():
        label = split_tag(tag)[1]
        if label is not None and label not in annotated:
            flags[index] = 1
    return flags


def keep_negative_windows(examples: list[dict[str, list]], fraction: float, seed: int) -> list[dict[str, list]]:
    """Every window with an entity word, and ``fraction`` of those without one (chosen with ``seed``)."""
    if fraction >= 1.0:
        return examples
    rng = random.Random(seed)
    outside_or_ignored = (0, IGNORE_INDEX)  # tag 0 is O (labels_for puts it first)
    return [e for e in examples if any(label not in outside_or_ignored for label in e["labels"]) or rng.random() < fraction]


def augmented(documents: Sequence[LabelledDocument], mode: str, copies: int, seed: int) -> list[LabelledDocument]:
    """The training documents plus ``copies`` reordered versions of each (LSPE paper, section 4.4)."""
    if mode == "none":
        return list(documents)
    reorder = global_block_shuffle if mode == "global-shuffle" else neighbour_block_swap
    extra = [d.with_document(reorder(d.document, seed + 1000 * c + i))
             for c in range(copies) for i, d in enumerate(documents)]
    return list(documents) + extra


def target_config(name_or_folder: str, overrides: dict[str, Any]):
    """The configuration the model will have, read without building it (presets) or loading weights (folders)."""
    from docextract.modeling import LayoutConfig
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.presets import PRESETS, minilm_preset_config

    if name_or_folder in PRESETS:
        return minilm_preset_config(name_or_folder, **overrides)
    folder = Path(name_or_folder)
    if not folder.is_dir():
        raise UsageError(f"--model {name_or_folder!r} is neither a preset ({', '.join(PRESETS)}) nor a model folder")
    return LayoutConfig.from_pretrained(str(check_loadable_folder(folder)))


def resolve_window_options(options: FinetuneOptions) -> FinetuneOptions:
    """``options`` with ``max_tokens`` settled and ``max_positions`` folded into the model overrides;
    a UsageError (saying why) for windows the model cannot read."""
    from docextract.modeling.config import SPECIAL_TOKENS, max_window_tokens
    from docextract.modeling.presets import PRESETS, with_max_positions

    overrides = with_max_positions(options.model, options.max_positions, options.model_overrides)
    config = target_config(options.model, overrides)
    if options.cross_pages and not config.page_embeddings:
        raise UsageError(
            f"--cross-pages needs a model with page embeddings (the layout-cosformer and layout-linformer presets): "
            f"{options.model} has none, so in a window that spans pages it could not tell one page's words from "
            "another's (every page's boxes lie on the same 0..1000 grid)")
    limit = max_window_tokens(config)
    max_tokens = options.max_tokens
    if max_tokens is None:
        max_tokens = (limit if limit is not None else config.max_position_embeddings - SPECIAL_TOKENS) \
            if options.cross_pages else min(510, limit if limit is not None else 510)
    if limit is not None and max_tokens > limit:
        more = " (--max-positions gives a preset more)" if options.model in PRESETS else ""
        raise UsageError(
            f"--max-tokens {max_tokens} is more than {options.model} can read: its position table has "
            f"{limit + SPECIAL_TOKENS} positions, so at most {limit} word tokens per window ([CLS] and [SEP] take "
            f"{SPECIAL_TOKENS}){more}")
    if not 0 <= options.stride < max_tokens:
        raise UsageError(f"--stride must be below the window size ({max_tokens} tokens), got {options.stride}")
    return replace(options, max_tokens=max_tokens, model_overrides=overrides)


def build_model(name_or_folder: str, labels: list[str], overrides: dict[str, Any]):
    import torch

    from docextract.extraction.confidence import FIELD_CALIBRATION_KEY
    from docextract.inference import TEMPERATURE_KEY
    from docextract.modeling import LayoutForTokenClassification, from_preset
    from docextract.modeling.compact import COMPACT_MARKER, is_compact, load_compact
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
    if is_compact(folder):  # a shipped model (fp16/int8): continue training it in fp32
        model = load_compact(folder, LayoutForTokenClassification)
        if [model.config.id2label[i] for i in range(model.config.num_labels)] != labels:
            model.classifier = torch.nn.Linear(model.config.hidden_size, len(labels))
            model.num_labels = model.config.num_labels = len(labels)
        model.config.id2label, model.config.label2id = id2label, label2id
        model.train()
    else:
        # A pretrained (or finetuned) folder: its encoder weights, a fresh classifier for these labels.
        model = LayoutForTokenClassification.from_pretrained(
            str(folder), num_labels=len(labels), id2label=id2label, label2id=label2id, ignore_mismatched_sizes=True,
        )
    # What was fitted to the old model's outputs does not hold for the new one: refit after training.
    for key in (TEMPERATURE_KEY, FIELD_CALIBRATION_KEY, COMPACT_MARKER):
        if hasattr(model.config, key):
            delattr(model.config, key)
    return model


def finetune(options: FinetuneOptions, *, on_step: Callable | None = None, on_epoch: Callable | None = None,
             stop_after_steps: int | None = None) -> dict[str, Any]:
    """Validate the data, train, evaluate each epoch, keep the best; returns the training record."""
    from docextract.modeling.tokenizer import load_tokenizer
    from docextract.training.loop import check_device

    check_device(options.device, options.mixed_precision)  # a GPU that is not there fails before the data is read
    options = resolve_window_options(options)
    issues = validate_files(list(options.train_files), held_out=list(options.eval_files))
    problems = validation_errors(issues)
    if problems:
        shown = "; ".join(str(p) for p in problems[:5])
        raise InputError(f"the training data has {len(problems)} defect(s), fix them first: {shown}",
                         path=str(options.train_files[0]), code="INPUT_UNREADABLE")
    train_docs = [prepare_for_model(d.renamed(options.label_map))
                  for d in load_documents(options.train_files, options.limit)]
    eval_docs = [prepare_for_model(d.renamed(options.label_map))
                 for d in load_documents(options.eval_files, options.limit)]
    if not train_docs:
        raise InputError("no training documents", path=str(options.train_files[0]), code="INPUT_EMPTY")
    if options.calibrate and not eval_docs:
        raise UsageError("calibrating needs held-out documents: give --eval data")
    if options.select_by != "f1" and not any(d.fields for d in eval_docs):
        raise UsageError(f"--select-by {options.select_by} needs --eval documents with field truth (`fields`)")
    labels = labels_for(label_set_of(train_docs + eval_docs), options.scheme)
    label_ids = {tag: i for i, tag in enumerate(labels)}
    tokenizer = load_tokenizer()
    import torch

    torch.manual_seed(options.seed)  # the fresh layout and classifier weights are part of "same seed, same model"
    model = build_model(options.model, labels, options.model_overrides)
    model.layout.checkpoint_layers = options.gradient_checkpointing
    model.config.docextract_window_tokens = options.max_tokens
    model.config.docextract_scheme = options.scheme
    model.config.docextract_stride = options.stride
    model.config.docextract_cross_pages = options.cross_pages
    model.config.entity_loss_weight = options.entity_weight

    train_set = augmented(train_docs, options.augment, options.augment_copies, options.seed)
    examples = encode_documents(train_set, tokenizer, label_ids, options.scheme, options.max_tokens, options.stride,
                                options.cross_pages)
    examples = keep_negative_windows(examples, options.negative_windows, options.seed)
    settings = EvalSettings(scheme=options.scheme, max_tokens=options.max_tokens, stride=options.stride,
                            cross_pages=options.cross_pages)
    evaluate = (lambda m: _headline(evaluate_model(m, tokenizer, eval_docs, settings))) if eval_docs else None
    config = TrainConfig(
        output_dir=options.output_dir, epochs=options.epochs, learning_rate=options.learning_rate,
        batch_size=options.batch_size, grad_accumulation=options.grad_accumulation,
        warmup_ratio=options.warmup_ratio, lr_floor=options.lr_floor, seed=options.seed,
        lspe_lr_scale=options.lspe_lr_scale, layout_lr_scale=options.layout_lr_scale, stop_after_steps=stop_after_steps, patience=options.patience,
        device=options.device, mixed_precision=options.mixed_precision,
    )
    history = train(model, examples, config, evaluate=evaluate, metric=options.select_by, on_step=on_step,
                    on_epoch=on_epoch)
    if stop_after_steps is not None:
        return {"history": history, "interrupted": True}
    from docextract.training.distributed import from_environment

    main_process = from_environment().main  # under torchrun, process 0 writes the model; the others are done
    final = Path(options.output_dir) / "model"
    best = Path(options.output_dir) / "best"

    def write_model(staging: Path) -> None:
        if best.is_dir():
            shutil.copytree(best, staging, dirs_exist_ok=True)
        else:  # no evaluation data: the last epoch is the model
            model.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)

    if main_process:
        replace_folder_atomic(final, write_model)
    record = {
        "train_files": [str(p) for p in options.train_files], "eval_files": [str(p) for p in options.eval_files],
        "train_documents": len(train_docs), "train_windows": len(examples),
        "train_windows_spanning_pages": sum(len(set(e["page_ids"][1:-1])) > 1 for e in examples),
        "eval_documents": len(eval_docs),
        "labels": labels, "options": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(options).items()
                                      if k not in ("train_files", "eval_files")},
        "history": history,
    }
    if not main_process:
        return record
    if options.calibrate:
        record["calibration"] = _calibrate_final(final, tokenizer, eval_docs)
    write_bytes_atomic(final / "training.json", json.dumps(record, indent=2, default=str).encode("utf-8"))
    return record


def _calibrate_final(folder: Path, tokenizer, eval_docs: Sequence[LabelledDocument]) -> dict[str, Any]:
    """Fit the final model's temperature on the eval documents and write it into its config.json."""
    import torch

    from docextract.modeling import LayoutForTokenClassification
    from docextract.training.calibration import calibrate, write_temperature

    model = LayoutForTokenClassification.from_pretrained(str(folder), dtype=torch.float32).eval()
    report = calibrate(model, tokenizer, eval_docs)
    write_temperature(folder, report.temperature)
    return report.to_dict()


def _headline(report: dict[str, Any]) -> dict[str, float]:
    """The per-epoch numbers worth printing: entity F1 and, for key-value data, field F1."""
    out = {"f1": report["f1"], "precision": report["precision"], "recall": report["recall"]}
    if "fields" in report:
        out["field_f1"] = report["fields"]["micro"]["f1"]
        out["field_accuracy"] = report["fields"]["micro"]["accuracy"]
    if "kleister" in report:
        out["kleister_f1"] = report["kleister"]["micro"]["f1"]
    return out
