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
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from docextract.data.augment import global_block_shuffle, neighbour_block_swap
from docextract.data.labelled import LabelledDocument, load_documents
from docextract.data.tagging import encode_window
from docextract.data.validate import errors as validation_errors
from docextract.data.validate import validate_files
from docextract.errors import InputError, UsageError
from docextract.extraction.entities import split_tag
from docextract.files import replace_folder_atomic, write_bytes_atomic
from docextract.modeling.batching import IGNORE_INDEX
from docextract.modeling.model_folder import (
    CROSS_PAGES_KEY, REPLAY_KEY, SCHEME_KEY, STRIDE_KEY, WINDOW_TOKENS_KEY, write_settings,
)
from docextract.modeling.model_folder import model_scheme as read_scheme
from docextract.evaluation.evaluate import EvalSettings, evaluate_model, prepare_for_model
from docextract.training.loop import TrainConfig, train

AUGMENTATIONS = ("none", "global-shuffle", "neighbour-swap")


# Defaults that depend on where training starts. From a preset or a pretrained encoder (a new head, nothing to
# forget): the first recipes' 10 epochs at 5e-5. From a trained model folder (its head kept): a short, gentle
# continuation with a replay, chosen on real e-invoices of producers the model never saw
# (benchmarks/finetune_supplier.py; README "Teach it your suppliers").
NEW_HEAD_EPOCHS, NEW_HEAD_LR = 10, 5e-5
CONTINUE_EPOCHS, CONTINUE_LR = 4, 5e-5
CONTINUE_REPEAT = 4  # the new documents' windows per epoch, against the replay's once
CONTINUE_REPLAY_SYNTH = 32  # synthetic invoices of the model's recorded recipe
CONTINUE_PULL = 0.0  # L2 pull towards the starting weights (TrainConfig.pull_to_start)
SAVE_FORMATS = ("compact", "full")


@dataclass(frozen=True)
class FinetuneOptions:
    train_files: tuple[Path, ...]
    eval_files: tuple[Path, ...]
    output_dir: Path
    model: str = "lspe-layoutlm"  # a preset name, a shipped model's name, or a folder written by pretrain/finetune
    scheme: str | None = None  # None: the starting head's scheme, else BIO
    # word tokens per window; None: 510, or with cross_pages the model's positions minus [CLS]/[SEP]
    max_tokens: int | None = None
    cross_pages: bool = False  # windows span pages (needs page embeddings)
    max_positions: int | None = None  # presets only: max_position_embeddings (learned 1D table tiled from 512)
    stride: int = 128
    epochs: int | None = None  # None: NEW_HEAD_EPOCHS, or CONTINUE_EPOCHS from a model's head
    learning_rate: float | None = None  # None: NEW_HEAD_LR, or CONTINUE_LR from a model's head
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
    # Fit the softmax temperature on the eval documents at the end (docextract/evaluation/calibration.py). They also
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
    # A head for the data's labels even when the model folder has one (which is otherwise kept: training/heads.py)
    new_head: bool = False
    # Replay (training/replay.py): labelled files trained on beside the new ones, and how many synthetic invoices
    # of the model's recorded recipe (None: CONTINUE_REPLAY_SYNTH from a model's head with a recipe, else 0)
    replay_files: tuple[Path, ...] = ()
    replay_synth: int | None = None
    repeat: int | None = None  # the training files' windows per epoch (None: CONTINUE_REPEAT with a replay, else 1)
    pull: float | None = None  # L2 pull towards the starting weights (None: CONTINUE_PULL from a model's head, else 0)
    save: str = "compact"  # the final model: compact (fp16, int8 word embeddings: modeling/compact.py) or full fp32
    # A student (modeling/student.py): this many of the model's layers, taught by the whole model as well as the labels
    student_layers: int | None = None
    distill_weight: float = 0.5  # the student's loss: (1 - w) * labels + w * (teacher's tags + hidden states)


def label_set_of(documents: Sequence[LabelledDocument]) -> list[str]:
    """Every entity type in the data, in the order the files declare them."""
    seen: dict[str, None] = {}
    for doc in documents:
        for label in doc.label_set:
            seen.setdefault(label, None)
    return list(seen)


def encode_documents(documents: Sequence[LabelledDocument], tokenizer, label_ids: dict[str, int], scheme: str,
                     max_tokens: int, stride: int, cross_pages: bool = False,
                     partial: bool | None = None) -> list[dict[str, list]]:
    """Every window of every document, encoded with its labels. When some document annotates fewer labels
    than the model has (its ``label_set``), every window also carries ``open_tags``: the tags its O words
    may also be (see ``modeling.heads.partial_label_loss``). ``partial`` decides that for windows that will
    share batches with other documents' (None: from ``documents``)."""
    from docextract.pipeline import document_windows

    if partial is None:
        partial = is_partial(documents, label_ids)
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


def is_partial(documents: Sequence[LabelledDocument], label_ids: dict[str, int]) -> bool:
    """Whether some document annotates fewer labels than the model has (its windows need ``open_tags``)."""
    model_labels = {split_tag(tag)[1] for tag in label_ids} - {None}
    return any(model_labels - set(d.label_set) for d in documents)


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
    return LayoutConfig.from_pretrained(str(check_loadable_folder(model_folder(name_or_folder))))


def model_folder(name_or_folder: str) -> Path:
    """The folder of ``--model`` when it is not a preset: a path, or a shipped model's name (``invoice``)."""
    from docextract.errors import DocextractError
    from docextract.modeling.presets import PRESETS
    from docextract.modeling.store import resolve_model

    try:
        return resolve_model(name_or_folder)
    except DocextractError:
        raise UsageError(f"--model {name_or_folder!r} is neither a preset ({', '.join(PRESETS)}), a shipped model "
                         "nor a model folder") from None


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


def resolve_start(options: FinetuneOptions, config) -> tuple[FinetuneOptions, list[str] | None]:
    """``options`` with the defaults that depend on the start settled (scheme, epochs, rate, replay, repeat,
    pull, see NEW_HEAD_* and CONTINUE_*), and the starting head's tags (None: a new head)."""
    from docextract.training.heads import head_tags
    from docextract.training.replay import recorded_recipe

    model_scheme = read_scheme(config)
    tags = head_tags(config, model_scheme)
    scheme = options.scheme or (model_scheme if tags is not None else "BIO")
    if tags is not None and not options.new_head and scheme != model_scheme:
        raise UsageError(f"--scheme {scheme} differs from {options.model}'s ({model_scheme}): keep its scheme, or "
                         "start a head for the data's labels with --new-head")
    if options.student_layers and (tags is None or options.new_head):
        raise UsageError(f"--student-layers: {options.model} has no trained head to teach with; a student learns "
                         "from a finetuned model folder (e.g. --model invoice)")
    # A student is a new model learning the teacher's data: no replay, repeat or pull as when continuing a model
    continuing = tags is not None and not options.new_head and not options.student_layers
    recipe = recorded_recipe(config) if continuing else None
    if options.replay_synth and recipe is None:
        why = "has no trained head to keep" if tags is None else f"records no synthetic recipe ({REPLAY_KEY})"
        raise UsageError(f"--replay-synth {options.replay_synth}: {options.model} {why}; name replay data with --replay")
    replay_synth = options.replay_synth if options.replay_synth is not None else (
        CONTINUE_REPLAY_SYNTH if recipe is not None else 0)
    replaying = bool(replay_synth or options.replay_files)
    resolved = replace(
        options, scheme=scheme,
        epochs=options.epochs or (CONTINUE_EPOCHS if continuing else NEW_HEAD_EPOCHS),
        learning_rate=options.learning_rate if options.learning_rate is not None else (
            CONTINUE_LR if continuing else NEW_HEAD_LR),
        replay_synth=replay_synth,
        repeat=options.repeat or (CONTINUE_REPEAT if replaying else 1),
        pull=options.pull if options.pull is not None else (CONTINUE_PULL if continuing else 0.0))
    return resolved, (tags if continuing or options.student_layers else None)


def build_model(name_or_folder: str, labels: list[str], overrides: dict[str, Any], kept: int | None = None):
    """The model to train: a preset with a head for ``labels``, or a folder's model whose classifier keeps its
    first ``kept`` rows (None: all of them when its tags are ``labels``' first ones, else none) and grows to
    ``labels``. What was fitted to the folder model's outputs is dropped from its config (see :data:`FITTED_KEYS`)."""
    from docextract.modeling import LayoutForTokenClassification, from_preset
    from docextract.modeling.compact import is_compact, load_compact
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.presets import PRESETS
    from docextract.training.heads import grow_classifier, head_tags

    id2label = dict(enumerate(labels))
    label2id = {v: k for k, v in id2label.items()}
    if name_or_folder in PRESETS:
        return from_preset(name_or_folder, num_labels=len(labels), id2label=id2label, label2id=label2id,
                           attention_probs_dropout_prob=0.0, **overrides)
    folder = check_loadable_folder(model_folder(name_or_folder))
    saved_tags = head_tags(target_config(str(folder), {}), "BIESO")  # any head (BIO tags are BIESO tags too)
    if kept is None:
        kept = len(saved_tags) if saved_tags and saved_tags == labels[:len(saved_tags)] else 0
    if is_compact(folder):  # a shipped model (fp16/int8): continue training it in fp32
        model = load_compact(folder, LayoutForTokenClassification)
        grow_classifier(model, labels, kept)
    elif kept:  # its own head as saved, grown for new labels
        model = LayoutForTokenClassification.from_pretrained(str(folder))
        grow_classifier(model, labels, kept)
    else:
        # A pretrained encoder (or --new-head): its encoder weights, a fresh classifier for these labels.
        model = LayoutForTokenClassification.from_pretrained(
            str(folder), num_labels=len(labels), id2label=id2label, label2id=label2id, ignore_mismatched_sizes=True)
        if saved_tags is not None:
            grow_classifier(model, labels, 0)  # a head of the same size would have been loaded as it was
    model.train()
    for key in FITTED_KEYS:
        if hasattr(model.config, key):
            delattr(model.config, key)
    return model


def fitted_keys() -> tuple[str, ...]:
    from docextract.modeling.model_folder import COMPACT_KEY, FITTED_KEYS

    return (*FITTED_KEYS, COMPACT_KEY)


# What was fitted to a model's outputs (temperature, field calibration, review policy) does not hold for the weights
# finetuning makes from it; the compact marker describes the file, not the model. Refit with `docextract calibrate`.
FITTED_KEYS = fitted_keys()


def finetune(options: FinetuneOptions, *, on_step: Callable | None = None, on_epoch: Callable | None = None,
             on_note: Callable[[str], None] | None = None, stop_after_steps: int | None = None) -> dict[str, Any]:
    """Validate the data, train, evaluate each epoch, keep the best; returns the training record. ``on_note``
    gets a line for each step worth logging (the head, the replay, the dropped review policy)."""
    from docextract.modeling.tokenizer import load_tokenizer
    from docextract.training.heads import plan_labels
    from docextract.training.loop import check_device
    from docextract.training.replay import recorded_recipe, synth_recipe_beside, synthetic_replay, weighted

    note = on_note or (lambda line: None)
    check_device(options.device, options.mixed_precision)  # a GPU that is not there fails before the data is read
    options = resolve_window_options(options)
    config = target_config(options.model, options.model_overrides)
    options, start_tags = resolve_start(options, config)
    issues = validate_files(list(options.train_files) + list(options.replay_files), held_out=list(options.eval_files))
    problems = validation_errors(issues)
    if problems:
        shown = "; ".join(str(p) for p in problems[:5])
        raise InputError(f"the training data has {len(problems)} defect(s), fix them first: {shown}",
                         path=str(options.train_files[0]), code="INPUT_UNREADABLE")

    def read(files: Sequence[Path]) -> list[LabelledDocument]:
        return [prepare_for_model(d.renamed(options.label_map)) for d in load_documents(files, options.limit)]

    train_docs, eval_docs, user_replay = read(options.train_files), read(options.eval_files), read(options.replay_files)
    if not train_docs:
        raise InputError("no training documents", path=str(options.train_files[0]), code="INPUT_EMPTY")
    if options.calibrate and not eval_docs:
        raise UsageError("calibrating needs held-out documents: give --eval data")
    if options.select_by != "f1" and not any(d.fields for d in eval_docs):
        raise UsageError(f"--select-by {options.select_by} needs --eval documents with field truth (`fields`)")
    recipe = recorded_recipe(config) if start_tags is not None else None
    synthetic = []
    if options.replay_synth:
        note(f"replay: {options.replay_synth} synthetic invoices of {options.model}'s recipe "
             f"(seed {recipe['seed']}, {len(recipe['families'])} layout families) -> {options.output_dir / 'replay'}")
        synthetic = [prepare_for_model(d) for d in synthetic_replay(recipe, options.replay_synth, options.seed,
                                                                    Path(options.output_dir) / "replay")]
    replay_docs = user_replay + synthetic
    plan = plan_labels(start_tags, label_set_of(train_docs + replay_docs + eval_docs), options.scheme,
                       options.new_head, options.model, new_labels=label_set_of(train_docs))
    note(plan.message)
    labels = plan.labels
    label_ids = {tag: i for i, tag in enumerate(labels)}
    tokenizer = load_tokenizer()
    import torch

    torch.manual_seed(options.seed)  # the fresh layout and classifier weights are part of "same seed, same model"
    model = build_model(options.model, labels, options.model_overrides, kept=plan.kept)
    if options.student_layers:
        model = _student(model, options, plan, note)
    model.layout.checkpoint_layers = options.gradient_checkpointing
    write_settings(model.config, {WINDOW_TOKENS_KEY: options.max_tokens, SCHEME_KEY: options.scheme,
                                  STRIDE_KEY: options.stride, CROSS_PAGES_KEY: options.cross_pages})
    model.config.entity_loss_weight = options.entity_weight
    own_recipe = synth_recipe_beside(options.train_files)
    if own_recipe is not None or recipe is not None:  # what a later finetune of this model replays
        setattr(model.config, REPLAY_KEY, {"synth": own_recipe or recipe})
    elif hasattr(model.config, REPLAY_KEY):  # a new head: the old recipe's labels are not this model's
        delattr(model.config, REPLAY_KEY)
    dropped = _fitted_for_other_weights(options.model)

    train_set = augmented(train_docs, options.augment, options.augment_copies, options.seed)
    partial = is_partial(train_set + replay_docs, label_ids)
    new = encode_documents(train_set, tokenizer, label_ids, options.scheme, options.max_tokens, options.stride,
                           options.cross_pages, partial=partial)
    old = encode_documents(replay_docs, tokenizer, label_ids, options.scheme, options.max_tokens, options.stride,
                           options.cross_pages, partial=partial)
    examples = keep_negative_windows(weighted(new, old, options.repeat), options.negative_windows, options.seed)
    if replay_docs or options.repeat > 1:
        note(f"each epoch: {len(new)} windows of {len(train_set)} training documents x {options.repeat}, "
             f"{len(old)} windows of {len(replay_docs)} replay documents")
    settings = EvalSettings(scheme=options.scheme, max_tokens=options.max_tokens, stride=options.stride,
                            cross_pages=options.cross_pages)
    evaluate = (lambda m: _headline(evaluate_model(m, tokenizer, eval_docs, settings))) if eval_docs else None
    config = TrainConfig(
        output_dir=options.output_dir, epochs=options.epochs, learning_rate=options.learning_rate,
        batch_size=options.batch_size, grad_accumulation=options.grad_accumulation,
        warmup_ratio=options.warmup_ratio, lr_floor=options.lr_floor, seed=options.seed,
        lspe_lr_scale=options.lspe_lr_scale, layout_lr_scale=options.layout_lr_scale, stop_after_steps=stop_after_steps,
        patience=options.patience, device=options.device, mixed_precision=options.mixed_precision,
        pull_to_start=options.pull,
    )
    history = train(model, examples, config, evaluate=evaluate, metric=options.select_by, on_step=on_step,
                    on_epoch=on_epoch)
    if stop_after_steps is not None:
        return {"history": history, "interrupted": True}
    from docextract.training.distributed import from_environment

    main_process = from_environment().main  # under torchrun, process 0 writes the model; the others are done
    final = Path(options.output_dir) / "model"
    best = Path(options.output_dir) / "best"
    if dropped:
        from docextract.modeling.model_folder import POLICY_DROPPED_KEY

        setattr(model.config, POLICY_DROPPED_KEY, {"by": "finetune", "from": options.model, "dropped": dropped})

    def write_model(staging: Path) -> None:
        from docextract.modeling.compact import save_compact
        from docextract.training.loop import load_weights

        if best.is_dir():  # the best epoch's weights (without evaluation data: the last epoch's)
            load_weights(model, best)
        model.to("cpu")
        if options.save == "compact":
            save_compact(model, staging)
        else:
            model.save_pretrained(staging, safe_serialization=True)
        tokenizer.save_pretrained(staging)

    if main_process:
        replace_folder_atomic(final, write_model)
    record = {
        "train_files": [str(p) for p in options.train_files], "eval_files": [str(p) for p in options.eval_files],
        "replay_files": [str(p) for p in options.replay_files],
        "train_documents": len(train_docs), "train_windows": len(examples),
        "train_windows_spanning_pages": sum(len(set(e["page_ids"][1:-1])) > 1 for e in examples),
        "replay_documents": len(replay_docs), "new_windows": len(new), "replay_windows": len(old),
        "eval_documents": len(eval_docs),
        "labels": labels, "head": {"kept": plan.kept, "added": plan.added, "message": plan.message},
        "options": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(options).items()
                    if k not in ("train_files", "eval_files", "replay_files")},
        "history": history,
    }
    if dropped:
        record["dropped"] = dropped
        note(f"{' and '.join(dropped)} of {options.model} were fitted for its weights, not these, and were dropped: "
             f"every field is `review` until `docextract calibrate {final} HELD_OUT.jsonl --fields` fits them anew")
    if not main_process:
        return record
    if options.calibrate:
        record["calibration"] = _calibrate_final(final, tokenizer, eval_docs)
    write_bytes_atomic(final / "training.json", json.dumps(record, indent=2, default=str).encode("utf-8"))
    return record


def _student(teacher, options: FinetuneOptions, plan, note: Callable[[str], None]):
    """``options.student_layers`` of ``teacher``'s layers, with ``teacher`` attached to teach it."""
    from docextract.modeling.student import kept_layers, student_of

    if plan.added:
        raise UsageError(f"--student-layers: the data has labels {options.model} has no tags for "
                         f"({', '.join(plan.added)}); a teacher can only teach the tags it has")
    depth = teacher.config.num_hidden_layers
    if not 1 <= options.student_layers < depth:
        raise UsageError(f"--student-layers must be below {options.model}'s {depth} layers, got {options.student_layers}")
    student = student_of(teacher, options.student_layers)
    student.attach_teacher(teacher, options.distill_weight)
    note(f"student: {options.student_layers} of {depth} layers (teacher layers "
         f"{', '.join(map(str, kept_layers(depth, options.student_layers)))}), taught by {options.model} "
         f"at weight {options.distill_weight}")
    return student


def _fitted_for_other_weights(name_or_folder: str) -> list[str]:
    """What the starting folder's config.json holds that was fitted to its outputs and that finetuning drops."""
    from docextract.modeling.model_folder import FIELD_CALIBRATION_KEY, REVIEW_POLICY_KEY, TEMPERATURE_KEY
    from docextract.modeling.presets import PRESETS

    if name_or_folder in PRESETS:
        return []
    config = json.loads((model_folder(name_or_folder) / "config.json").read_text(encoding="utf-8"))
    names = {REVIEW_POLICY_KEY: "the review policy", FIELD_CALIBRATION_KEY: "the field calibration",
             TEMPERATURE_KEY: "the temperature"}
    return [name for key, name in names.items() if key in config]


def _calibrate_final(folder: Path, tokenizer, eval_docs: Sequence[LabelledDocument]) -> dict[str, Any]:
    """Fit the final model's temperature on the eval documents and write it into its config.json."""
    from docextract.modeling.loader import load_model
    from docextract.evaluation.calibration import calibrate, write_temperature

    model, _ = load_model(str(folder))  # compact or full, as `run` loads it
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
