"""Leave-one-producer-out: how well an invoice model reads the invoices of a producer it never saw.

The yardstick every choice of the invoice model is made on (data mixture, epochs, decoding, thresholds).
Each fold trains without one producer's documents (and without any other producer's rendering of the same
invoice content: :func:`docextract.data.producers.leave_out`) and measures that producer's documents through
the pipeline ``docextract run`` runs, page only (``--ignore-embedded``), every output field's normalised value
against the truth (the rules of ``docextract/evaluation/extraction_eval.py``).

Steps (each resumable; WORK holds the data, the fold models and the tag cache, never the repository):

    # 1. the folds' data: real e-invoices (`docextract convert einvoice`), plus any labelled JSONL of other
    #    producers (renderers, `producer` per record) that training may use
    PYTHONPATH=$PWD .venv/bin/python benchmarks/lopo.py prepare --work WORK --real EINVOICES.jsonl \
        --synth SYNTH/labels.jsonl --sroie SROIE_TRAIN.jsonl [--extra RENDERED.jsonl ...]
    # 2. one model per fold (the recipe: RECIPE below; `--fold NAME` for one)
    PYTHONPATH=$PWD .venv/bin/python benchmarks/lopo.py train --work WORK [--fold factur-x-kit] [--threads 1]
    # 3. every held-out document through the pipeline, scored; writes benchmarks/results/lopo_NAME.{json,md}
    PYTHONPATH=$PWD .venv/bin/python benchmarks/lopo.py measure --work WORK --name NAME

``measure`` caches each document's tags (the model's half of a run) under WORK/FOLD/tags/, keyed by the fold
model's weights and the reading code (docextract/readers, docextract/layout), so that decoding changes are measured on the same tags in seconds; ``--no-cache`` re-tags.
``--fold-model student3/model`` measures each fold's student (``finetune --student-layers``) instead of its model.
``--model DIR`` measures one fixed model on every fold's held-out documents instead (e.g. the shipped
default, which trained on most of these producers: not a leave-one-producer-out figure, named as such).

``scans`` makes a scan of every held-out document (docextract's own scan simulation: rendered at 150 dpi, greyscale,
skew, blur, noise, JPEG; WORK/FOLD/test_scans.jsonl), and ``--scans`` has ``measure`` and ``calibrate`` read them too,
through Tesseract (``--scan-lang``, default deu+eng): the same producers' layouts on the OCR path, reported apart and
grouped with their producer (a calibration fitted without a producer never saw its scans either). They never feed the
candidate scorer's fit, so the digital figures stay those without ``--scans``.

``scan-copies`` labels the scans of each fold's real training invoices (OCR readings of ``measure --scans``, labelled
from their XML as ``docextract convert einvoice`` labels text layers) and ``train --with-scans --variant V`` trains on
them too: measured on two folds (stop 48, ``lopo_s48_ocr2`` against ``lopo_s48_base2``), scans 79.4 -> 79.2%, text
94.2 -> 94.4%: no lever for scans, so the recipe does not use them.

``--scorer lopo`` fits the candidate scorer per fold on the other folds' documents (and ``--scorer-extra``
rendered invoices of other producers, tagged by each fold's model); ``--scorer-into MODEL`` writes the scorer
fitted on every fold into a model folder. ``calibrate`` fits field confidence and the review policy on fields judged
from the fold tags, grouped by producer (``--calibrate-extra``: the rendered invoices too, each renderer a producer),
and reports per producer what a fit on the others alone accepts of it; ``--into MODEL`` writes them.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import os
import pickle
import platform
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
SROIE_LABEL_MAP = "company=vendor_name,date=invoice_date,address=vendor_address,total=total"
# The shortened recipe of examples/train_invoice.sh that fits a fold on this CPU (about an hour on 2 threads):
# 300 synthetic invoices instead of 700, 300 SROIE receipts instead of 626, 3 epochs instead of 6 and no epoch
# picked by validation (the real validation invoices would be other producers'; the rate decays to 0, so the last
# epoch is the model). The real training invoices are listed twice, as in the full recipe.
RECIPE = {"base": "models/sroie", "epochs": 3, "lr": 1e-4, "batch_size": 8, "seed": 42, "sroie_receipts": 300,
          "real_copies": 2}
SCAN_LANG = "deu+eng"  # most held-out invoices are German; `--scan-lang eng` is what `run` reads with by default
FOLD_MODEL = "run/model"  # where `train` leaves a fold's model, under WORK/FOLD
CORE_FIELDS = ("invoice_number", "invoice_date", "total", "currency", "vendor_name")


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    tmp.replace(path)


def prepare(args) -> None:
    from docextract.data.producers import EINVOICE_PRODUCERS, leave_out, producers

    work = Path(args.work)
    real = _read(Path(args.real))
    extra = [r for path in args.extra for r in _read(Path(path))]
    folds = args.folds.split(",") if args.folds else list(EINVOICE_PRODUCERS)
    plan = {"real": str(args.real), "extra": args.extra, "synth": str(args.synth), "sroie": str(args.sroie),
            "recipe": RECIPE, "producers": producers(real + extra), "folds": {}}
    plan["extra_per_producer"] = args.extra_per_producer
    for fold in folds:
        training, held_out = leave_out(real + extra, fold)
        if not held_out:
            raise SystemExit(f"lopo: no record of producer {fold!r}")
        for r in held_out:  # `convert` wrote sources relative to where it ran (run this from there too)
            if r.get("source"):
                r["source"] = str(Path(r["source"]).resolve())
        real_training = [r for r in training if not r.get("producer")]
        copies = [{**r, "id": f"{r['id']}#copy{k}"} if k else r for k in range(RECIPE["real_copies"])
                  for r in real_training]
        _write(work / fold / "train_real.jsonl", copies)
        rendered = _per_producer([r for r in training if r.get("producer")], args.extra_per_producer)
        if rendered:
            _write(work / fold / "train_extra.jsonl", rendered)
        _write(work / fold / "test.jsonl", held_out)
        plan["folds"][fold] = {"train_real_documents": len(real_training), "train_extra_documents": len(rendered),
                               "train_producers": producers(real_training + rendered), "test_documents": len(held_out)}
        print(f"{fold}: train {len(real_training)} real documents (x{RECIPE['real_copies']}) and {len(rendered)} "
              f"rendered, test {len(held_out)}", file=sys.stderr)
    (work / "plan.json").write_text(json.dumps(plan, indent=2), encoding="utf-8")


def _per_producer(records: list[dict], limit: int | None) -> list[dict]:
    """At most ``limit`` records of each producer, a seeded sample (all of them without a limit)."""
    import random

    from docextract.data.producers import producer_of

    by_producer: dict[str, list[dict]] = defaultdict(list)
    for r in sorted(records, key=lambda r: r["id"]):
        by_producer[producer_of(r)].append(r)
    out = []
    for name, rs in sorted(by_producer.items()):
        out += rs if limit is None or len(rs) <= limit else random.Random(f"lopo:{name}").sample(rs, limit)
    return out


def train_command(work: Path, fold: str, plan: dict, threads: int | None, variant: str = "run",
                  more: Sequence[str] = (), with_scans: bool = False) -> list[str]:
    """The fold's finetune; ``variant`` names its output folder under the fold and ``more`` adds options, for a
    recipe lever measured against the plain recipe (``measure --fold-model VARIANT/model``); ``with_scans`` adds the
    training invoices' scans (:func:`scan_copies`)."""
    extra = [str(work / fold / "train_extra.jsonl")] if (work / fold / "train_extra.jsonl").is_file() else []
    if with_scans:
        extra.append(str(work / fold / "train_scans.jsonl"))
    return [str(REPO / ".venv" / "bin" / "docextract"), "finetune", plan["synth"], str(work / fold / "train_real.jsonl"),
            *extra, plan["sroie"], "--output", str(work / fold / variant), "--model", str(REPO / RECIPE["base"]),
            "--label-map", SROIE_LABEL_MAP, "--epochs", str(RECIPE["epochs"]), "--lr", str(RECIPE["lr"]),
            "--batch-size", str(RECIPE["batch_size"]), "--seed", str(RECIPE["seed"]),
            "--limit", str(RECIPE["sroie_receipts"]), *(["--threads", str(threads)] if threads else []), *more]


def train(args) -> None:
    work = Path(args.work)
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    variant = args.variant
    if variant in ("scans", "tags"):
        sys.exit(f"--variant {variant}: each fold keeps its {variant} there; name the variant otherwise")
    for fold in ([args.fold] if args.fold else list(plan["folds"])):
        if (work / fold / variant / "model" / "config.json").is_file():
            print(f"{fold}: trained", file=sys.stderr)
            continue
        command = train_command(work, fold, plan, args.threads, variant, args.finetune_option, args.with_scans)
        suffix = "" if variant == "run" else f"_{variant}"  # the plain recipe's files keep their names
        (work / fold / f"command{suffix}.txt").write_text(shlex.join(command) + "\n", encoding="utf-8")
        print(f"{fold}: {shlex.join(command)}", file=sys.stderr)
        with open(work / fold / f"train{suffix}.log", "a", encoding="utf-8") as log:
            subprocess.run(command, check=True, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)


def portable(text: str) -> str:
    """Results text with this machine's paths written relative to the repository (its data, fold models and the
    frozen checkouts that trained them live beside it)."""
    return text.replace(str(REPO) + "/", "").replace(str(REPO.parent) + "/", "../")


def _weights_key(model_dir: Path) -> str:
    weights = model_dir / "model.safetensors"
    stat = weights.stat()
    return hashlib.sha256(f"{weights.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def _reading_key() -> str:
    """The reading and layout code's hash: a change there (how words are read, lines and blocks formed) tags anew."""
    package = Path(__file__).resolve().parent.parent / "docextract"
    digest = hashlib.sha256()
    for path in sorted([*(package / "readers").rglob("*.py"), *(package / "layout").rglob("*.py")]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cached_path(record: dict, model_dir: Path, cache: Path | None) -> Path | None:
    compute = os.environ.get("DOCEXTRACT_COMPUTE")  # another arithmetic tags anew (absent: the folder's own)
    key = hashlib.sha256(f"{record['id']}:{_weights_key(model_dir)}:{_reading_key()}{':' + compute if compute else ''}"
                         .encode()).hexdigest()[:24]
    return None if cache is None else cache / f"{key}.pkl"


def tagged_document(record: dict, model_dir: Path, cache: Path | None, options, read_by: tuple | None = None):
    """(document, model, tagged words) of one held-out record: read and laid out as `run` does, tagged by the
    model (cached by record and model weights). ``read_by``: (model folder, cache) of another model whose cached
    reading of the record may serve (a fold model's, for its student: OCR is most of a scan's time)."""
    from docextract.pipeline import load_model, read_and_analyze, tag_document

    path = _cached_path(record, model_dir, cache)
    if path is not None and path.is_file():
        doc, tagged = pickle.loads(path.read_bytes())
        model, _ = load_model(str(model_dir))
        return doc, model, tagged
    other = _cached_path(record, *read_by) if read_by else None
    if other is not None and other.is_file():
        doc, _ = pickle.loads(other.read_bytes())
    else:
        doc, _ = read_and_analyze(record["source"], options)
    _, _, model, tagged = tag_document(doc, options)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps((doc, tagged)))
        tmp.replace(path)
    return doc, model, tagged


def tag_fold(records: list[dict], model_dir: Path, cache: Path | None, lang: str = "eng",
             read_by: tuple | None = None) -> list[tuple]:
    """(record, document, model, tagged words) of every held-out record (``lang``: Tesseract's, for scans;
    ``read_by``: see :func:`tagged_document`)."""
    from docextract.pipeline import RunOptions

    options = RunOptions(model=str(model_dir), ignore_embedded=True, lang=lang)
    out = []
    for n, record in enumerate(records, 1):
        out.append((record, *tagged_document(record, model_dir, cache, options, read_by)))
        print(f"\r{n}/{len(records)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def judge_fold(tagged_records: list[tuple], model_dir: Path, scorer=None) -> list[dict]:
    """Every tagged held-out record through the rest of `run` (with ``scorer`` as the model's candidate scorer when
    given, else the model's own), judged against its truth."""
    from docextract.extraction.candidate_scorer import SCORER_KEY
    from docextract.pipeline import RunOptions, document_output
    from docextract.evaluation.extraction_eval import judge_output

    options = RunOptions(model=str(model_dir), ignore_embedded=True)
    results = []
    for record, doc, model, tagged in tagged_records:
        saved = getattr(model.config, SCORER_KEY, None)
        if scorer is not None:
            setattr(model.config, SCORER_KEY, scorer.to_config())
        try:
            output = document_output(doc, tagged, model, str(model_dir), None, {}, options)
        finally:
            setattr(model.config, SCORER_KEY, saved)
        fields = output["documents"][0]["fields"] if output["documents"] else {}
        judgements = judge_output(output, record["fields"])
        results.append({"id": record["id"], "group": record.get("group"), "judgements": [
            {"key": j.key, "correct": j.correct, "confidence": j.confidence, "in_truth": j.in_truth,
             "status": (fields.get(j.key) or {}).get("status"), "method": (fields.get(j.key) or {}).get("method"),
             "value": (fields.get(j.key) or {}).get("value"), "truth": record["fields"].get(j.key)}
            for j in judgements]})
    return results


def scorer_rows(fold: str, tagged_records: list[tuple]) -> list:
    from docextract.training.candidate_fit import candidate_rows

    return [row for record, doc, _, tagged in tagged_records
            for row in candidate_rows(record["id"], fold, doc, tagged, record["fields"])]


def summary(results: list[dict]) -> dict:
    """Micro accuracy over true fields, the five first fields, invoice numbers, per field; what the review policy
    accepted and how much of it was right."""
    true = [j for r in results for j in r["judgements"] if j["in_truth"]]
    accepted = [j for r in results for j in r["judgements"] if j["status"] == "accepted"]
    per_field = defaultdict(Counter)
    for j in true:
        per_field[j["key"]]["n"] += 1
        per_field[j["key"]]["right"] += j["correct"]
    core = [j for j in true if j["key"] in CORE_FIELDS]
    return {
        "documents": len(results), "true_fields": len(true),
        "micro_accuracy": sum(j["correct"] for j in true) / len(true) if true else None,
        "core_accuracy": sum(j["correct"] for j in core) / len(core) if core else None,
        "invoice_number": (per_field["invoice_number"]["right"] / per_field["invoice_number"]["n"]
                           if per_field["invoice_number"]["n"] else None),
        "accepted_share_of_true": sum(j["in_truth"] for j in accepted) / len(true) if true else None,
        "accepted": len(accepted),
        "accepted_right": sum(j["correct"] for j in accepted),
        "accepted_precision": sum(j["correct"] for j in accepted) / len(accepted) if accepted else None,
        "per_field": {k: {"accuracy": c["right"] / c["n"], "n": c["n"]} for k, c in sorted(per_field.items())},
    }


def fold_model(args, fold: str) -> Path:
    """The model measured on ``fold``: ``--model`` for every fold, else the fold's own (``--fold-model``, under
    the fold's folder: its trained model, or e.g. a student of it)."""
    return Path(args.model) if args.model else Path(args.work) / fold / args.fold_model


def cache_name(args, model_dir: Path) -> str:
    """The tag cache's folder name for a model (the fold models' is "fold", their students' "fold-student3")."""
    if args.model:
        return model_dir.name
    return "fold" if args.fold_model == FOLD_MODEL else "fold-" + Path(args.fold_model).parts[0]


def tag_caches(args, fold: str, model_dir: Path, prefix: str = "", suffix: str = "") -> tuple[Path, tuple | None]:
    """The tag cache of ``model_dir`` on ``fold`` (``prefix + cache_name + suffix`` under WORK/FOLD/tags), and for a
    fold's student (``--fold-model``) the fold model with its cache of the same records, whose readings serve."""
    tags = Path(args.work) / fold / "tags"
    cache = tags / f"{prefix}{cache_name(args, model_dir)}{suffix}"
    if args.model or args.fold_model == FOLD_MODEL:
        return cache, None
    return cache, (Path(args.work) / fold / FOLD_MODEL, tags / f"{prefix}fold{suffix}")


def tagged_folds(args, work: Path, plan: dict) -> tuple[dict[str, list[tuple]], dict[str, Path]]:
    """Every fold's held-out records with their document, model and tags (cached)."""
    tagged: dict[str, list[tuple]] = {}
    models: dict[str, Path] = {}
    for fold in (args.fold.split(",") if args.fold else list(plan["folds"])):
        model_dir = fold_model(args, fold)
        if not (model_dir / "config.json").is_file():
            print(f"{fold}: no model yet ({model_dir})", file=sys.stderr)
            continue
        records = [r for r in _read(work / fold / "test.jsonl") if r.get("fields")]
        cache, read_by = (None, None) if args.no_cache else tag_caches(args, fold, model_dir)
        print(f"{fold}: {len(records)} documents", file=sys.stderr)
        tagged[fold] = tag_fold(records, model_dir, cache, read_by=read_by)
        models[fold] = model_dir
    return tagged, models


def make_scans(args) -> None:
    """A scan of every held-out document of every fold (resumable): WORK/FOLD/scans/*.jpg|tif and
    WORK/FOLD/test_scans.jsonl, each record the document's with ``#scan`` after its id and the scan as its source."""
    import random

    from docextract.synth.scan import save_scan, scan_pdf

    work = Path(args.work)
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    for fold in ([args.fold] if args.fold else list(plan["folds"])):
        out = []
        records = [r for r in _read(work / fold / "test.jsonl") if r.get("fields")]
        for n, record in enumerate(records, 1):
            stem = work / fold / "scans" / hashlib.sha256(record["id"].encode()).hexdigest()[:16]
            existing = [p for p in (stem.with_suffix(".jpg"), stem.with_suffix(".tif")) if p.is_file()]
            if existing:
                path = str(existing[0])
            else:
                stem.parent.mkdir(parents=True, exist_ok=True)
                rng = random.Random(f"{args.seed}:{record['id']}")
                path = save_scan(scan_pdf(Path(record["source"]).read_bytes(), rng, args.dpi), str(stem))
            out.append({**{k: v for k, v in record.items() if k != "pages"}, "id": record["id"] + "#scan",
                        "source": path, "scan_of": record["id"]})
            print(f"\r{fold}: {n}/{len(records)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        _write(work / fold / "test_scans.jsonl", out)


def scan_copies(args) -> None:
    """WORK/FOLD/train_scans.jsonl for every fold: the scans (`lopo.py scans`) of the fold's real training invoices,
    read by Tesseract as ``measure --scans`` reads them (its cached reading where there is one: each scan is a
    held-out document of its own producer's fold) and labelled from their embedded XML as ``docextract convert
    einvoice`` labels the text layer. ``train --with-scans`` trains on them beside the text layer, so a fold model
    learns OCR's words (split, misread, keys garbled) on real layouts; none is a scan of a held-out invoice."""
    from docextract.data.einvoice import label_document
    from docextract.data.kleister import clipped_to_pages
    from docextract.data.labelled import write_jsonl
    from docextract.data.report import MatchTally
    from docextract.pipeline import RunOptions, read_and_analyze
    from docextract.readers.einvoice import read_embedded_invoice

    work = Path(args.work)
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    lang = "" if args.scan_lang == SCAN_LANG else "-" + args.scan_lang
    scans = {}  # held-out record id -> (scan record, the cache its reading may sit in)
    pdfs = {}  # held-out record id -> its PDF, whose embedded XML labels the scan
    for fold in plan["folds"]:
        cache = work / fold / "tags" / f"fold-scans{lang}"
        for record in _read(work / fold / "test_scans.jsonl"):
            scans[record["scan_of"]] = (record, _cached_path(record, work / fold / FOLD_MODEL, cache))
        pdfs.update((r["id"], r["source"]) for r in _read(work / fold / "test.jsonl"))
    options = RunOptions(ignore_embedded=True, lang=args.scan_lang)
    for fold in ([args.fold] if args.fold else list(plan["folds"])):
        tally, docs = MatchTally(), []
        training = list(dict.fromkeys(r["id"].split("#copy")[0] for r in _read(work / fold / "train_real.jsonl")))  # the plain recipe lists each twice
        for n, record_id in enumerate(training, 1):
            scan, cached = scans[record_id]
            if cached is not None and cached.is_file():
                doc, _ = pickle.loads(cached.read_bytes())
            else:
                doc, _ = read_and_analyze(scan["source"], options)
            doc, _ = clipped_to_pages(doc)  # a deskewed word at the margin may stand a point off the page
            labelled = label_document(scan["id"], doc, read_embedded_invoice(Path(pdfs[record_id])), tally)
            docs.append(dataclasses.replace(labelled, group=scan.get("group")))
            print(f"\r{fold}: {n}/{len(training)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        write_jsonl(docs, work / fold / "train_scans.jsonl")
        found = sum(tally.expected.values()) - sum(tally.unmatched.values())
        print(f"{fold}: {len(docs)} scans, {found} of {sum(tally.expected.values())} true values located "
              f"(missed: {dict(tally.unmatched)})", file=sys.stderr)


def tagged_scans(args, work: Path, models: dict[str, Path]) -> dict[str, list[tuple]]:
    """With ``--scans``: every fold's scanned held-out documents, read by OCR and tagged by the fold model."""
    if not getattr(args, "scans", False):
        return {}
    out = {}
    for fold, model_dir in models.items():
        path = work / fold / "test_scans.jsonl"
        if not path.is_file():
            sys.exit(f"{path}: no scans yet (run `lopo.py scans --work {work}` first)")
        # the tags of another OCR language are cached apart (the default's under the folder's plain name)
        lang = "" if args.scan_lang == SCAN_LANG else "-" + args.scan_lang
        cache, read_by = (None, None) if args.no_cache else tag_caches(args, fold, model_dir, suffix="-scans" + lang)
        print(f"{fold}: {path.name}", file=sys.stderr)
        out[fold] = tag_fold(_read(path), model_dir, cache, args.scan_lang, read_by)
    return out


def fold_scorers(args, tagged: dict[str, list[tuple]], extra_documents: dict[str, list[tuple]] | None = None
                 ) -> tuple[dict, object | None]:
    """With ``--scorer lopo``: each fold's candidate scorer fitted on the other folds' documents (their own fold
    tags) and :func:`extra_tagged`'s (given, or tagged here), and the scorer fitted on every fold (to ship); else
    none."""
    if args.scorer != "lopo":
        return {}, None
    from docextract.training.candidate_fit import fit_scorer

    rows = {fold: scorer_rows(fold, records) for fold, records in tagged.items()}
    extra = extra_scorer_rows(extra_tagged(args, tagged) if extra_documents is None else extra_documents)
    scorers = {fold: fit_scorer([r for other, rs in rows.items() if other != fold for r in rs] + extra.get(fold, []),
                                c=args.scorer_c, min_probability=args.scorer_min) for fold in tagged}
    # the scorer to ship: every fold's documents, and the other producers' rows once (as the first fold tagged them)
    final = fit_scorer([r for rs in rows.values() for r in rs] + (next(iter(extra.values())) if extra else []),
                       c=args.scorer_c, min_probability=args.scorer_min)
    return scorers, final


def extra_tagged(args, tagged: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """Other producers' documents (``--scorer-extra``: rendered invoices of synthetic content,
    ``--scorer-extra-per-producer`` of each) tagged by each fold's model, as :func:`tag_fold` gives them: a fold
    model that never trained on them tags them as it would a new producer's."""
    from docextract.data.producers import content_group

    if not getattr(args, "scorer_extra", None):
        return {}
    records = []
    for path in args.scorer_extra:
        base = Path(path).resolve().parent
        for r in _per_producer([r for r in _read(Path(path)) if content_group(r).startswith("synth-")],
                               args.scorer_extra_per_producer):
            records.append({**r, "source": str(base / r["source"]) if not Path(r["source"]).is_absolute() else r["source"]})
    out = {}
    for fold in tagged:
        model_dir = fold_model(args, fold)
        cache, read_by = tag_caches(args, fold, model_dir, prefix="extra-")
        print(f"{fold}: tagging {len(records)} documents of other producers", file=sys.stderr)
        out[fold] = tag_fold(records, model_dir, cache, read_by=read_by)
    return out


def extra_scorer_rows(extra_documents: dict[str, list[tuple]]) -> dict[str, list]:
    """Candidate rows of :func:`extra_tagged`'s documents, per fold, so each fold's scorer sees its own model's
    tags."""
    from docextract.training.candidate_fit import candidate_rows

    return {fold: [row for record, doc, _, tags in records
                   for row in candidate_rows(record["id"], record.get("producer", "extra"), doc, tags, record["fields"])]
            for fold, records in extra_documents.items()}


def measure(args) -> None:
    work = Path(args.work)
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    start = time.perf_counter()
    tagged, models = tagged_folds(args, work, plan)
    scorers, final = fold_scorers(args, tagged)
    if final is not None and args.save_scorer:
        Path(args.save_scorer).write_text(json.dumps(final.to_config(), indent=1), encoding="utf-8")
    if final is not None and args.scorer_into:
        from docextract.evaluation.calibration import write_model_config
        from docextract.modeling.model_folder import SCORER_KEY

        write_model_config(Path(args.scorer_into), {SCORER_KEY: final.to_config()})
        print(f"candidate scorer written into {args.scorer_into}/config.json (calibrate --fields it next)",
              file=sys.stderr)
    folds, all_results = {}, []
    for fold, records in tagged.items():
        results = judge_fold(records, models[fold], scorers.get(fold))
        folds[fold] = {"summary": summary(results), "results": results, "model": str(models[fold]),
                       "train_command": (work / fold / "command.txt").read_text().strip()
                       if (work / fold / "command.txt").is_file() and not args.model else None}
        all_results += results
    scan_folds, scan_results = {}, []
    for fold, records in tagged_scans(args, work, models).items():
        results = judge_fold(records, models[fold], scorers.get(fold))
        scan_folds[fold] = {"summary": summary(results), "results": results}
        scan_results += results
    report = {
        "name": args.name,
        "what": ("one fixed model on each producer's documents (NOT leave-one-producer-out)" if args.model else
                 "leave-one-producer-out: each producer measured with the fold model trained without it")
                + ("; candidate scorer fitted on the other folds' documents" if args.scorer == "lopo" else ""),
        "command": "PYTHONPATH=$PWD .venv/bin/python " + shlex.join(["benchmarks/lopo.py", *sys.argv[1:]]),
        "recipe": RECIPE, "plan": {k: v for k, v in plan.items() if k != "folds"}, "fold_data": plan["folds"],
        "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version()},
        "micro": summary(all_results),
        "per_producer": {fold: f["summary"] for fold, f in folds.items()},
        "folds": folds, "seconds": round(time.perf_counter() - start, 1),
    }
    if scan_folds:
        report["scans"] = {"what": f"the same documents scanned (150 dpi simulation) and read by Tesseract ({args.scan_lang})",
                           "micro": summary(scan_results),
                           "per_producer": {fold: f["summary"] for fold, f in scan_folds.items()}, "folds": scan_folds}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"lopo_{args.name}.json").write_text(portable(json.dumps(report, indent=1, ensure_ascii=False, default=str)),
                                                     encoding="utf-8")
    (RESULTS / f"lopo_{args.name}.md").write_text(portable(markdown(report)), encoding="utf-8")
    print(markdown(report))


def calibrate(args) -> None:
    """The field confidence and review policy fitted across producers: each field judged as `run` prints it from
    its fold model's tags (a model that never saw the producer), grouped by producer, so the cross-fitting that
    picks the thresholds leaves whole producers out; per producer, what a calibration fitted on the other producers
    alone accepts of it and how much of that is right. With ``--into MODEL``: the calibration, the policy and (with
    ``--scorer lopo``) the candidate scorer fitted on every producer are written into that model's config.json."""
    from dataclasses import replace as with_field

    from docextract.data.labelled import LabelledDocument
    from docextract.extraction.candidate_scorer import SCORER_KEY
    from docextract.extraction.confidence import FIELD_CALIBRATION_KEY
    from docextract.extraction.review import REVIEW_POLICY_KEY
    from docextract.extraction.scoring import FieldScoring
    from docextract.evaluation.confidence_fit import fit_field_confidence, held_out_group_report
    from docextract.evaluation.field_judgements import judge_document

    work = Path(args.work)
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    tagged, models = tagged_folds(args, work, plan)
    extra = extra_tagged(args, tagged) if args.scorer == "lopo" or args.calibrate_extra else {}
    scorers, final = fold_scorers(args, tagged, extra)
    judged = []
    # With --calibrate-extra the rendered invoices are judged too, each renderer a producer of its own: more
    # layouts for the thresholds. The per-producer report stays honest for the real producers (a renderer's
    # fields never count for a real producer's report); a renderer's own row is optimistic, since the scorer
    # that judged it learned from its rows.
    sources = [(fold, fold, records) for fold, records in tagged.items()]
    # scans belong to their producer's group: a fit that leaves a producer out never saw its scans either
    sources += [(fold, fold, records) for fold, records in tagged_scans(args, work, models).items()]
    if args.calibrate_extra:
        sources += [(fold, None, records) for fold, records in extra.items()]
    for fold, group, records in sources:
        for record, doc, model, tags in records:
            labels = tuple(sorted({t.split("-", 1)[1] for t in model.config.id2label.values() if "-" in t}))
            scoring = FieldScoring(None, None, labels, None, scorers.get(fold))
            ldoc = LabelledDocument(record["id"], doc, tuple(("O",) * len(p.words) for p in doc.pages),
                                    tuple((None,) * len(p.words) for p in doc.pages), labels,
                                    {k: tuple(v) for k, v in record["fields"].items()})
            producer = group or "render:" + str(record.get("producer", "extra"))
            judged += [with_field(j, group=producer) for j in judge_document(ldoc, tags, scoring, with_evidence=True)]
    calibration, policy, report = fit_field_confidence(judged, "evidence", args.precision, len({j.group for j in judged}))
    held_out = held_out_group_report(judged, "evidence", args.precision,
                                     part=lambda j: "scans" if j.document.endswith("#scan") else "digital")
    total = {k: sum(r[k] for r in held_out.values()) for k in ("true_fields", "accepted", "right")}
    by_part = {part: {k: sum(r["parts"][part][k] for r in held_out.values() if part in r["parts"])
                      for k in ("true_fields", "accepted", "right")}
               for part in sorted({p for r in held_out.values() for p in r["parts"]})}
    for part in by_part.values():
        part.update(coverage=part["accepted"] / part["true_fields"] if part["true_fields"] else None,
                    precision=part["right"] / part["accepted"] if part["accepted"] else None)
    out = {"name": args.name, "command": "PYTHONPATH=$PWD .venv/bin/python " + shlex.join(["benchmarks/lopo.py", *sys.argv[1:]]),
           "what": ("field confidence (evidence) and review policy at the target precision, fitted on fields judged "
                    "from leave-one-producer-out fold tags; per producer: fitted on the other producers only"),
           "precision_target": args.precision, "held_out_producers": held_out,
           "held_out_total": {**total, "coverage": total["accepted"] / total["true_fields"] if total["true_fields"] else None,
                              "precision": total["right"] / total["accepted"] if total["accepted"] else None,
                              "parts": by_part},
           "fit_on_all": {k: v for k, v in report.items() if k not in ("calibration", "review_policy")}}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"lopo_calibration_{args.name}.json").write_text(portable(json.dumps(out, indent=1, default=str)),
                                                                encoding="utf-8")
    print(json.dumps({"held_out_producers": held_out, "held_out_total": out["held_out_total"]}, indent=1))
    if args.into:
        from docextract.evaluation.calibration import write_model_config
        from docextract.modeling.model_folder import POLICY_DROPPED_KEY

        updates = {FIELD_CALIBRATION_KEY: calibration.to_config(), REVIEW_POLICY_KEY: policy.to_config()}
        if final is not None:
            updates[SCORER_KEY] = final.to_config()
        # fitted for the model's own weights: a finetune's note that it dropped its starting model's policy goes
        write_model_config(Path(args.into), updates, remove=(POLICY_DROPPED_KEY,))
        print(f"written into {args.into}/config.json: {', '.join(updates)}", file=sys.stderr)


def _pct(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def markdown(report: dict) -> str:
    lines = [f"# Leave-one-producer-out: {report['name']}", "", report["what"], "", f"`{report['command']}`", "",
             "| held-out producer | documents | true fields | micro accuracy | five first fields | invoice number | "
             "accepted (share of true fields) | accepted right |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, s in [*report["per_producer"].items(), ("**micro, all folds**", report["micro"])]:
        lines.append(f"| {name} | {s['documents']} | {s['true_fields']} | {_pct(s['micro_accuracy'])} | "
                     f"{_pct(s['core_accuracy'])} | {_pct(s['invoice_number'])} | {_pct(s['accepted_share_of_true'])} | "
                     f"{_pct(s['accepted_precision'])} ({s['accepted_right']}/{s['accepted']}) |")
    fields = sorted({k for s in report["per_producer"].values() for k in s["per_field"]})
    lines += ["", "Per field (accuracy %, true fields):", "", "| field | " + " | ".join(report["per_producer"]) + " | all |",
              "|---|" + "---:|" * (len(report["per_producer"]) + 1)]
    for field in fields:
        cells = [f"{_pct(s['per_field'][field]['accuracy'])} ({s['per_field'][field]['n']})" if field in s["per_field"]
                 else "" for s in report["per_producer"].values()]
        total = report["micro"]["per_field"].get(field)
        lines.append(f"| {field} | " + " | ".join(cells) + f" | {_pct(total['accuracy'])} ({total['n']}) |")
    return "\n".join(lines) + "\n"


def _scorer_options(p) -> None:
    """The candidate-scorer options ``measure`` and ``calibrate`` share."""
    p.add_argument("--scorer", choices=("model", "lopo"), default="model",
                   help="model: the model's own candidate scorer (if any); lopo: one fitted per fold on the other folds")
    p.add_argument("--scorer-extra", action="append", default=[],
                   help="labelled JSONL of other producers (rendered invoices) whose synthetic-content documents the "
                        "scorer also learns from, tagged by each fold's model")
    p.add_argument("--scorer-extra-per-producer", type=int, default=8)
    p.add_argument("--scorer-c", type=float, default=0.3)
    p.add_argument("--scorer-min", type=float, default=0.2)
    p.add_argument("--scans", action="store_true", help="read the held-out documents' scans too (`lopo.py scans`)")
    p.add_argument("--scan-lang", default=SCAN_LANG, help="Tesseract languages for the scans")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--work", required=True)
    p.add_argument("--real", required=True, help="labelled real e-invoices (docextract convert einvoice)")
    p.add_argument("--synth", required=True, help="synthetic training invoices (docextract synth .../labels.jsonl)")
    p.add_argument("--sroie", required=True, help="SROIE training receipts (docextract convert sroie --split train)")
    p.add_argument("--extra", action="append", default=[], help="more labelled producers (records with `producer`)")
    p.add_argument("--folds", help="producers to hold out, comma-separated (default: the four e-invoice producers)")
    p.add_argument("--extra-per-producer", type=int, help="train on at most this many --extra records per producer")
    p = sub.add_parser("train")
    p.add_argument("--work", required=True)
    p.add_argument("--fold")
    p.add_argument("--threads", type=int)
    p.add_argument("--variant", default="run", help="the output folder under each fold (default run: the plain recipe)")
    p.add_argument("--finetune-option", action="append", default=[],
                   help="an option added to the recipe's finetune, e.g. --finetune-option=--augment "
                        "--finetune-option=global-shuffle (with --variant)")
    p.add_argument("--with-scans", action="store_true",
                   help="train on the training invoices' scans too (`lopo.py scan-copies` first; with --variant)")
    p = sub.add_parser("scans")
    p.add_argument("--work", required=True)
    p.add_argument("--fold")
    p.add_argument("--dpi", type=float, default=150)
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("scan-copies", help="each fold's real training invoices' scans, labelled (train --with-scans)")
    p.add_argument("--work", required=True)
    p.add_argument("--fold")
    p.add_argument("--scan-lang", default=SCAN_LANG, help="Tesseract languages (as measure's, to reuse its readings)")
    p = sub.add_parser("measure")
    p.add_argument("--work", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--fold", help="the folds to measure, comma-separated (default: all; the scorer of --scorer lopo "
                                  "is then fitted on these folds alone)")
    p.add_argument("--fold-model", default=FOLD_MODEL,
                   help="each fold's model, under WORK/FOLD (e.g. student3/model: a student of the fold model)")
    p.add_argument("--model", help="measure this model on every fold instead of the fold models")
    p.add_argument("--no-cache", action="store_true")
    _scorer_options(p)
    p.add_argument("--save-scorer", help="with --scorer lopo: write the scorer fitted on every fold here (JSON)")
    p.add_argument("--scorer-into", help="with --scorer lopo: write that scorer into this model folder's config.json")
    p = sub.add_parser("calibrate")
    p.add_argument("--work", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--fold", help="the folds to judge, comma-separated (default: all)")
    p.add_argument("--fold-model", default=FOLD_MODEL,
                   help="each fold's model, under WORK/FOLD (e.g. student3/model: a student of the fold model)")
    p.add_argument("--model", help="judge this model on every fold instead of the fold models")
    p.add_argument("--no-cache", action="store_true")
    _scorer_options(p)
    p.add_argument("--precision", type=float, default=0.99)
    p.add_argument("--calibrate-extra", action="store_true",
                   help="judge the --scorer-extra documents too, each renderer a producer of its own, for the fit")
    p.add_argument("--into", help="write the fitted calibration, policy (and scorer) into this model folder")
    args = parser.parse_args()
    {"prepare": prepare, "train": train, "scans": make_scans, "scan-copies": scan_copies, "measure": measure, "calibrate": calibrate}[args.step](args)


if __name__ == "__main__":
    main()
