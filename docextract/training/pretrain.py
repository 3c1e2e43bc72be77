"""`docextract pretrain`: unlabelled documents in, a layout encoder adapted by MLM + 1-LOP out, or, with
``objective="distill"``, a linear-attention encoder adapted to its softmax twin (:mod:`.distill`).

Sources are JSONL files in the labelled format (labels are ignored, so unlabelled records work too)
and PDFs/images (one by one or in folders), read through ``docextract.readers``. Every document goes
through the pipeline's own layout analysis and windowing, so pre-training sees exactly the inputs
``finetune`` and inference build. The result, ``OUTPUT/model``, is a safetensors model folder with the
tokenizer; ``finetune --model OUTPUT/model`` keeps its encoder and puts a fresh classifier on top.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import torch

from docextract.data.labelled import read_jsonl
from docextract.document import Document, Window
from docextract.errors import DocextractError, InputError, MissingDependencyError, UsageError
from docextract.files import replace_folder_atomic, write_bytes_atomic
from docextract.modeling.batching import IGNORE_INDEX, collate, encode_words
from docextract.modeling.model_folder import STRIDE_KEY, WINDOW_TOKENS_KEY, write_settings
from docextract.training.loop import TrainConfig, train
from docextract.training.masking import NO_LINE, MaskedWindows, MaskingSettings, MaskVocabulary

JSONL_SUFFIXES = (".jsonl",)
DOCUMENT_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp")
HELDOUT_SEED_OFFSET = 1  # held-out masks come from seed + 1, fixed for every epoch
EVAL_BATCH_SIZE = 8  # windows per forward pass when measuring held-out loss


@dataclass(frozen=True)
class PretrainOptions:
    sources: tuple[Path, ...]
    output_dir: Path
    model: str = "lspe-layoutlm"  # a preset name, or a folder written by pretrain/finetune
    objective: str = "mlm"  # "mlm": masked LM + 1-LOP; "distill": match the softmax twin layer by layer
    max_tokens: int = 510
    stride: int = 128
    epochs: int = 3
    learning_rate: float = 1e-4  # DocPolarBERT's pre-training peak lr (docs/models.md §2b)
    batch_size: int = 8
    grad_accumulation: int = 1
    warmup_ratio: float = 0.1
    seed: int = 42
    limit: int | None = None  # use only the first N documents of each source (quick runs)
    heldout: int = 0  # the last N documents are not trained on; their MLM loss/accuracy is measured each epoch
    masking: MaskingSettings = field(default_factory=MaskingSettings)
    model_overrides: dict[str, Any] = field(default_factory=dict)  # config changes for a preset (tests: tiny models)
    max_positions: int | None = None  # presets only: max_position_embeddings (e.g. 16384 for whole contracts)
    layout_lr_scale: float = 1.0  # learning-rate multiplier of the untrained layout parameters (see TrainConfig)
    device: str = "auto"  # auto|cpu|cuda|mps (modeling/devices.py)
    mixed_precision: str = "auto"  # autocast on GPUs (bf16 where supported, else fp16); fp32 on the CPU


# ---- reading unlabelled documents ----

def _document_reader() -> Callable[[Path], Document]:
    try:
        from docextract.readers import read_document
    except ImportError:
        raise MissingDependencyError(
            "reading PDFs/images needs docextract.readers, which this build does not have yet; "
            "give pre-extracted documents as JSONL instead"
        ) from None
    return read_document


def _files_of(source: Path) -> list[Path]:
    if source.is_dir():
        return sorted(p for p in source.rglob("*") if p.is_file() and p.suffix.lower() in JSONL_SUFFIXES + DOCUMENT_SUFFIXES)
    if not source.exists():
        raise InputError("no such file or folder", path=str(source), code="INPUT_NOT_FOUND")
    if source.suffix.lower() not in JSONL_SUFFIXES + DOCUMENT_SUFFIXES:
        raise InputError(f"not a JSONL file, PDF or image (supported: {', '.join(JSONL_SUFFIXES + DOCUMENT_SUFFIXES)})",
                         path=str(source), code="UNSUPPORTED_FORMAT")
    return [source]


def iter_documents(source: Path, on_skip: Callable[[Path, DocextractError], None] | None = None) -> Iterator[Document]:
    """The documents of one source: the records of a JSONL file, or each PDF/image of a file or folder.

    Inside a folder, a PDF/image that cannot be read (corrupt, encrypted, ...) is reported to ``on_skip``
    and left out, so one bad file does not stop a long run; a file named directly must be readable.
    """
    reader = None
    for path in _files_of(source):
        if path.suffix.lower() in JSONL_SUFFIXES:
            yield from (record.document for record in read_jsonl(path))
            continue
        reader = reader or _document_reader()
        try:
            document = reader(path)
        except DocextractError as error:
            if not source.is_dir() or on_skip is None or isinstance(error, MissingDependencyError):
                raise
            on_skip(path, error)
            continue
        yield document


def load_unlabelled(sources: Sequence[Path], limit: int | None = None,
                    on_skip: Callable[[Path, DocextractError], None] | None = None) -> list[Document]:
    """Every document of ``sources`` (at most ``limit`` from each), with the pipeline's layout analysis."""
    from docextract.layout import analyze_layout

    documents = []
    for source in sources:
        for i, document in enumerate(iter_documents(Path(source), on_skip)):
            if limit is not None and i >= limit:
                break
            if document.word_count:
                documents.append(analyze_layout(document))
    return documents


# ---- encoding ----

def line_numbers(document: Document) -> dict[tuple[int, int], int]:
    """(page index, word index) -> a document-wide number of the layout line holding the word."""
    line_of: dict[tuple[int, int], int] = {}
    number = 0
    for page_index, page in enumerate(document.pages):
        for line in page.lines:
            for w in line.word_indices:
                line_of[(page_index, w)] = number
            number += 1
    return line_of


def line_ids_of(window: Window, word_index: Sequence[int], line_of: dict[tuple[int, int], int]) -> list[int]:
    """Per token, its word's line number (``NO_LINE`` for [CLS]/[SEP]). A word that no line holds (not
    expected after layout analysis) is a segment of its own."""
    lonely = max(line_of.values(), default=-1) + 1
    out = []
    for index in word_index:
        if index < 0:
            out.append(NO_LINE)
            continue
        ref = window.words[index]
        out.append(line_of.get((ref.page_index, ref.word_index), lonely + index))
    return out


def encode_for_pretraining(document: Document, window: Window, tokenizer: Any,
                           line_of: dict[tuple[int, int], int] | None = None) -> dict[str, list]:
    """:func:`encode_words` (as at inference) plus ``line_ids``, the text segments of 1-LOP."""
    out = encode_words(document, window, tokenizer)
    out["line_ids"] = line_ids_of(window, out["word_index"], line_of if line_of is not None else line_numbers(document))
    return out


def encode_unlabelled(documents: Sequence[Document], tokenizer: Any, max_tokens: int, stride: int) -> list[dict[str, list]]:
    from docextract.pipeline import document_windows

    encoded = []
    for doc in documents:
        line_of = line_numbers(doc)
        encoded.extend(encode_for_pretraining(doc, w, tokenizer, line_of)
                       for w in document_windows(doc, tokenizer, max_tokens=max_tokens, stride=stride))
    return encoded


# ---- model ----

def build_pretraining_model(name_or_folder: str, overrides: dict[str, Any]):
    """A preset initialised from MiniLM, or a model folder's encoder (its MLM/1-LOP heads if it has them)."""
    from docextract.modeling import LayoutForPretraining, from_preset
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.presets import PRESETS

    if name_or_folder in PRESETS:
        return from_preset(name_or_folder, task="pretraining", **overrides)
    folder = Path(name_or_folder)
    if not folder.is_dir():
        raise UsageError(f"--model {name_or_folder!r} is neither a preset ({', '.join(PRESETS)}) nor a model folder")
    check_loadable_folder(folder)
    return LayoutForPretraining.from_pretrained(str(folder))


def _tokenizer_for(name_or_folder: str):
    from docextract.modeling.tokenizer import load_tokenizer

    folder = Path(name_or_folder)
    return load_tokenizer(str(folder) if (folder / "tokenizer.json").is_file() else None)


@torch.no_grad()
def heldout_metrics(model, windows: Sequence[dict[str, list]]) -> dict[str, float]:
    """Masked-LM loss and accuracy, and 1-LOP accuracy, over held-out windows with fixed masks."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    loss_sum, correct, count, lop_correct, lop_count = 0.0, 0, 0, 0, 0
    for start in range(0, len(windows), EVAL_BATCH_SIZE):
        batch = collate([windows[i] for i in range(start, min(start + EVAL_BATCH_SIZE, len(windows)))])
        batch = {k: v.to(device) for k, v in batch.items()}
        output = model(**batch)
        targets = batch["labels"][batch["labels"] != IGNORE_INDEX]  # (N,)
        loss_sum += float(output.mlm_loss) * len(targets)
        correct += int((output.mlm_logits.argmax(-1) == targets).sum())
        count += len(targets)
        hidden = batch["lop_labels"] != IGNORE_INDEX  # (B, S)
        lop_correct += int((output.lop_logits.argmax(-1)[hidden] == batch["lop_labels"][hidden]).sum())
        lop_count += int(hidden.sum())
    model.train(was_training)
    return {"heldout_mlm_loss": loss_sum / max(1, count), "heldout_mlm_accuracy": correct / max(1, count),
            "heldout_lop_accuracy": lop_correct / max(1, lop_count)}


def _resumed_epoch(output_dir: Path) -> int:
    """Epochs already done by an interrupted run in ``output_dir`` (the loop resumes there)."""
    from docextract.training.checkpoints import latest_complete_checkpoint

    checkpoint = latest_complete_checkpoint(Path(output_dir))
    if checkpoint is None:
        return 0
    return int(json.loads((checkpoint / "trainer_state.json").read_text())["epoch"])


OBJECTIVES = ("mlm", "distill")


def _masked_lm_setup(options: PretrainOptions, tokenizer, train_docs, heldout_docs, on_epoch):
    """Model, training windows (fresh masks each epoch), held-out evaluation, its metric, and the epoch hook."""
    model = build_pretraining_model(options.model, options.model_overrides)
    vocabulary = MaskVocabulary.from_tokenizer(tokenizer, model.config.vocab_size)
    encoded = encode_unlabelled(train_docs, tokenizer, options.max_tokens, options.stride)
    windows = MaskedWindows(encoded, options.masking, vocabulary, options.seed, _resumed_epoch(options.output_dir))
    evaluate = None
    if heldout_docs:
        fixed = list(MaskedWindows(encode_unlabelled(heldout_docs, tokenizer, options.max_tokens, options.stride),
                                   options.masking, vocabulary, options.seed + HELDOUT_SEED_OFFSET))
        evaluate = lambda m: heldout_metrics(m, fixed)  # noqa: E731

    def next_epoch(epoch: int, record: dict) -> None:
        windows.set_epoch(epoch)  # ``epoch`` epochs are done: the next one draws new masks
        if on_epoch:
            on_epoch(epoch, record)

    return model, windows, evaluate, "heldout_mlm_accuracy", next_epoch


def _distillation_setup(options: PretrainOptions, tokenizer, train_docs, heldout_docs, on_epoch):
    """The same five things for ``--objective distill``: plain windows, agreement with the teacher held out."""
    from docextract.training.distill import build_distillation_model, distillation_windows, heldout_agreement

    model = build_distillation_model(options.model, options.model_overrides)
    windows = distillation_windows(encode_unlabelled(train_docs, tokenizer, options.max_tokens, options.stride))
    evaluate = None
    if heldout_docs:
        fixed = distillation_windows(encode_unlabelled(heldout_docs, tokenizer, options.max_tokens, options.stride))
        evaluate = lambda m: heldout_agreement(m, fixed)  # noqa: E731
    return model, windows, evaluate, "heldout_cosine", on_epoch


def pretrain(options: PretrainOptions, *, on_step: Callable | None = None, on_epoch: Callable | None = None,
             on_skip: Callable[[Path, DocextractError], None] | None = None, stop_after_steps: int | None = None) -> dict[str, Any]:
    """Read, encode, train with fresh masks each epoch; write ``OUTPUT/model``. Returns the training record."""
    from docextract.training.loop import check_device

    check_device(options.device, options.mixed_precision)  # a GPU that is not there fails before the data is read
    if options.objective not in OBJECTIVES:
        raise UsageError(f"unknown pre-training objective {options.objective!r}; choose one of {', '.join(OBJECTIVES)}")
    from docextract.modeling.presets import with_max_positions

    options = replace(options, model_overrides=with_max_positions(options.model, options.max_positions,
                                                                   options.model_overrides))
    skipped: list[str] = []

    def skip(path: Path, error: DocextractError) -> None:
        skipped.append(error.one_line())
        if on_skip:
            on_skip(path, error)

    documents = load_unlabelled(options.sources, options.limit, skip)
    if options.heldout >= len(documents):
        raise UsageError(f"--heldout {options.heldout} leaves no document to train on ({len(documents)} read)")
    if not documents:
        raise InputError("no document with words in the sources", path=str(options.sources[0]), code="INPUT_EMPTY")
    train_docs = documents[:len(documents) - options.heldout]
    heldout_docs = documents[len(documents) - options.heldout:]

    tokenizer = _tokenizer_for(options.model)
    torch.manual_seed(options.seed)  # the fresh layout tables and heads: the same seed gives the same model
    if options.objective == "distill":
        model, windows, evaluate, metric, next_epoch = _distillation_setup(options, tokenizer, train_docs, heldout_docs, on_epoch)
    else:
        model, windows, evaluate, metric, next_epoch = _masked_lm_setup(options, tokenizer, train_docs, heldout_docs, on_epoch)
    write_settings(model.config, {WINDOW_TOKENS_KEY: options.max_tokens, STRIDE_KEY: options.stride})

    config = TrainConfig(
        output_dir=options.output_dir, epochs=options.epochs, learning_rate=options.learning_rate,
        batch_size=options.batch_size, grad_accumulation=options.grad_accumulation,
        warmup_ratio=options.warmup_ratio, seed=options.seed, stop_after_steps=stop_after_steps,
        layout_lr_scale=options.layout_lr_scale, device=options.device, mixed_precision=options.mixed_precision,
    )
    history = train(model, windows, config, evaluate=evaluate, metric=metric, on_step=on_step, on_epoch=next_epoch)
    if stop_after_steps is not None:
        return {"history": history, "interrupted": True}
    # The last epoch is the model (more pre-training is better); held-out numbers are for watching.
    final = Path(options.output_dir) / "model"

    def write_model(staging: Path) -> None:
        model.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)

    from docextract.training.distributed import from_environment

    main_process = from_environment().main  # under torchrun, process 0 writes the model
    if main_process:
        replace_folder_atomic(final, write_model)
    record = {
        "sources": [str(p) for p in options.sources], "train_documents": len(train_docs),
        "heldout_documents": len(heldout_docs), "train_windows": len(windows), "skipped_files": skipped,
        "options": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(options).items() if k != "sources"},
        "history": history,
    }
    if main_process:
        write_bytes_atomic(final / "pretraining.json", json.dumps(record, indent=2, default=str).encode("utf-8"))
    return record
