"""Replay: a little of what a model learned from, trained on again beside a user's new documents.

Finetuning a trained model on a handful of one supplier's invoices moves every weight towards those few pages;
without anything else in the batches it forgets the layouts it read before. A replay mixes documents like the ones
the model was trained on into every epoch:

* the synthetic invoices of the model's recorded recipe (``docextract_replay`` in its config.json: the options of
  the `docextract synth` run it trained on, which ``synth`` wrote beside its labels.jsonl as ``synth-config.json``),
  regenerated here: ``count`` of the recipe's documents, drawn with the finetune seed;
* any labelled files the user names (``--replay``), e.g. the real invoices a model was first trained on.

The new documents are repeated (``repeat``) so that a few pages are not drowned by the replay; both numbers were
chosen on real e-invoices of producers the model never saw (benchmarks/finetune_supplier.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from docextract.data.labelled import LabelledDocument, read_jsonl, write_jsonl
from docextract.errors import UsageError
from docextract.files import write_bytes_atomic
from docextract.modeling.model_folder import REPLAY_KEY, read_setting

SYNTH_CONFIG = "synth-config.json"  # what `docextract synth` writes beside labels.jsonl
STAMP = "replay.json"  # in the replay folder: which recipe and documents it holds (reused on resume)


def synth_recipe_beside(train_files: Sequence[Path]) -> dict[str, Any] | None:
    """The options of the `docextract synth` run whose labels.jsonl is among ``train_files`` (the first one),
    or None: what a model trained on it records as its replay recipe."""
    for path in train_files:
        config = Path(path).parent / SYNTH_CONFIG
        if Path(path).name == "labels.jsonl" and config.is_file():
            try:
                recipe = json.loads(config.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(recipe, dict) and {"seed", "count", "families"} <= set(recipe):
                return recipe
    return None


def recorded_recipe(config: Any) -> dict[str, Any] | None:
    """The synthetic recipe a model's config records (None: the model names none)."""
    value = read_setting(config, REPLAY_KEY)
    synth = (value or {}).get("synth") if isinstance(value, Mapping) else None
    return dict(synth) if isinstance(synth, Mapping) else None


def synth_options(recipe: Mapping[str, Any]):
    """The recipe as :class:`docextract.synth.generate.SynthOptions`; families this version no longer has are
    refused (the replay would not be what the model learned from)."""
    from docextract.synth.generate import SynthOptions
    from docextract.synth.layouts import FAMILY_NAMES

    families = tuple(recipe["families"])
    unknown = [name for name in families if name not in FAMILY_NAMES]
    if unknown:
        raise UsageError(f"the model's replay recipe ({REPLAY_KEY}) names layout families this version does not have: "
                         f"{', '.join(unknown)}; finetune with --replay-synth 0 and --replay FILE instead")
    keys = ("pages_max", "pages_min", "scan_fraction", "scan_dpi")
    return SynthOptions(families, **{k: recipe[k] for k in keys if k in recipe})


def synthetic_replay(recipe: Mapping[str, Any], count: int, seed: int, folder: Path,
                     on_document: Callable[[int, int], None] | None = None) -> list[LabelledDocument]:
    """``count`` documents of the recipe's synthetic set (indices drawn with ``seed``), written under ``folder``
    (PDFs, scan images, labels.jsonl) and read back; a folder that already holds the same draw is reused."""
    if count <= 0:
        return []
    from docextract.synth.generate import generate_invoice

    options = synth_options(recipe)
    population = int(recipe["count"])
    indices = sorted(random.Random(seed).sample(range(population), min(count, population)))
    stamp = {"recipe": dict(recipe), "indices": indices}
    labels = folder / "labels.jsonl"
    if (folder / STAMP).is_file() and labels.is_file():
        try:
            if json.loads((folder / STAMP).read_text(encoding="utf-8")) == stamp:
                return list(read_jsonl(labels))
        except ValueError:
            pass  # a damaged stamp: make the documents again
    folder.mkdir(parents=True, exist_ok=True)
    documents = []
    for n, index in enumerate(indices, 1):
        documents.append(LabelledDocument.from_dict(generate_invoice(int(recipe["seed"]), index, options, folder)))
        if on_document is not None:
            on_document(n, len(indices))
    write_jsonl(documents, labels)
    write_bytes_atomic(folder / STAMP, json.dumps(stamp, indent=2).encode("utf-8"))
    return documents


def weighted(new: Sequence[dict], replay: Sequence[dict], repeat: int) -> list[dict]:
    """One epoch's windows: the new documents' windows ``repeat`` times, then the replay's once (the loop shuffles)."""
    return [example for _ in range(repeat) for example in new] + list(replay)
