"""Whole-document inference cost per document: pages, tokens, windows, model seconds and peak memory.

For one model folder (e.g. a long-range model from ``finetune --cross-pages``) and a labelled JSONL
file or a folder of PDFs (e.g. Kleister-NDA's contracts), every document is read and laid out first
(not timed), then its model pass is measured exactly as ``docextract run`` does it:
``pipeline.model_windows`` (the model's own window size and page crossing) + ``inference.tag_words``.

Memory. ``tracemalloc`` does not see torch's allocations and a ``ru_maxrss`` delta only ever grows
(the first big document hides every later one), so:

* the model runs in a fresh subprocess (the parent never imports torch), so nothing of the parent's
  or of another model's memory is in its numbers;
* before each document the child hands freed heap back to the kernel (``malloc_trim``) and resets
  its resident high-water mark (``/proc/self/clear_refs`` = 5, Linux >= 4.0); after the pass,
  ``VmHWM`` is that document's peak. ``peak_mb`` is that peak minus the resident size just before the
  pass (model loaded, document read): the memory the document's windows and forwards needed.
  ``peak_rss_mb`` is the absolute peak (model weights included).
* Where clear_refs cannot be written, ``memory_method`` says ``process-peak`` and ``peak_rss_mb`` is
  the process's peak so far (monotone; ``peak_mb`` is then null).

Seconds are wall time of the model pass with ``--threads`` torch threads (default 2) on a shared
machine: compare documents and models measured in the same run.

    PYTHONPATH=$PWD python benchmarks/long_document.py MODEL_DIR DATA.jsonl|PDF_DIR [--limit N] \\
        [--name NAME] [--out FILE] [--threads 2] [--ocr auto]

Writes benchmarks/results/<NAME>.json (NAME defaults to long_document_<model folder name>).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
DEFAULT_THREADS = 2
PDF_SUFFIXES = (".pdf",)
RESET_PEAK_RSS = "5"  # /proc/PID/clear_refs: reset VmHWM to the current RSS (Documentation/filesystems/proc.rst)


def _status_mb(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith(field + ":"))
    return kib / 1024


def reset_peak_rss() -> bool:
    """Return freed heap to the kernel and make VmHWM the current RSS; False where Linux does not let us."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc: only the reset below matters
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write(RESET_PEAK_RSS)
        return True
    except OSError:
        return False


def iter_documents(data: Path, limit: int | None, ocr: str):
    """(id, laid-out Document) from a labelled JSONL file or from the PDFs of a folder, sorted by name."""
    from docextract.pipeline import RunOptions, read_and_analyze
    from docextract.evaluation.evaluate import prepare_for_model
    from docextract.data.labelled import load_documents

    if data.is_dir():
        paths = sorted(p for p in data.iterdir() if p.suffix.lower() in PDF_SUFFIXES)[:limit]
        for path in paths:
            yield path.name, read_and_analyze(path, RunOptions(ocr=ocr))[0]
    else:
        for ldoc in load_documents([data], limit):
            yield ldoc.id, prepare_for_model(ldoc).document


def measure(model_dir: str, data: Path, limit: int | None, threads: int, ocr: str) -> dict:
    """The child's work: load the model once, then measure each document's model pass."""
    import torch

    from docextract.modeling.inference import tag_words
    from docextract.modeling.model_folder import model_cross_pages, model_window_size
    from docextract.pipeline import load_model, model_windows

    torch.set_num_threads(threads)
    model, tokenizer = load_model(model_dir)
    config = model.config
    documents = []
    method = "high-water-reset"
    for doc_id, doc in iter_documents(data, limit, ocr):
        can_reset = reset_peak_rss()
        method = method if can_reset else "process-peak"
        before = _status_mb("VmRSS")
        start = time.perf_counter()
        windows = model_windows(doc, model, tokenizer)
        tag_words(model, tokenizer, doc, windows)
        seconds = time.perf_counter() - start
        peak = _status_mb("VmHWM")
        documents.append({
            "id": doc_id, "pages": len(doc.pages), "words": doc.word_count,
            "tokens": _document_tokens(doc, tokenizer),
            "windows": len(windows), "longest_window_tokens": max((w.token_count for w in windows), default=0),
            "windows_spanning_pages": sum(len(w.pages) > 1 for w in windows),
            "seconds": round(seconds, 3),
            "peak_mb": round(peak - before, 1) if can_reset else None,
            "peak_rss_mb": round(peak, 1),
        })
    return {
        "model": {"path": model_dir, "preset": getattr(config, "preset", None), "attention": config.attention,
                  "max_position_embeddings": config.max_position_embeddings,
                  "window_tokens": model_window_size(model), "cross_pages": model_cross_pages(model),
                  "hidden_size": config.hidden_size, "layers": config.num_hidden_layers},
        "memory_method": method, "threads": threads, "documents": documents,
    }


def _document_tokens(doc, tokenizer) -> int:
    """Subword tokens of every word of the document (what one whole-document window would hold)."""
    from docextract.modeling.tokenizer import subword_counts

    return sum(subword_counts([doc.word(ref).text for ref in doc.ordered_words()], tokenizer))


def summary(documents: list[dict]) -> dict:
    if not documents:
        return {}
    total_seconds = sum(d["seconds"] for d in documents)
    peaks = [d["peak_mb"] for d in documents if d["peak_mb"] is not None]
    return {
        "documents": len(documents), "pages": sum(d["pages"] for d in documents),
        "tokens": sum(d["tokens"] for d in documents), "seconds": round(total_seconds, 3),
        "tokens_per_second": round(sum(d["tokens"] for d in documents) / total_seconds, 1) if total_seconds else None,
        "max_tokens": max(d["tokens"] for d in documents), "max_peak_mb": max(peaks) if peaks else None,
        "documents_in_one_window": sum(d["windows"] == 1 for d in documents),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="A model folder (e.g. OUTPUT/model of finetune --cross-pages) or shipped name.")
    parser.add_argument("data", type=Path, help="A labelled JSONL file, or a folder of PDFs.")
    parser.add_argument("--limit", type=int, default=None, help="Only the first N documents.")
    parser.add_argument("--name", default=None, help="Results file name (default long_document_<model folder>).")
    parser.add_argument("--out", type=Path, default=None, help="Write here instead of benchmarks/results/NAME.json.")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument("--ocr", default="auto", help="PDF folders: auto | always | never.")
    parser.add_argument("--note", default=None, help="A sentence about the model or data, kept in the results.")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # the measuring subprocess
    args = parser.parse_args(argv)
    if not args.data.exists():
        parser.error(f"{args.data}: no such file or folder")

    if args.child:
        json.dump(measure(args.model, args.data, args.limit, args.threads, args.ocr), sys.stdout)
        return 0

    command = [sys.executable, str(Path(__file__).resolve()), args.model, str(args.data), "--child",
               "--threads", str(args.threads), "--ocr", args.ocr] + (["--limit", str(args.limit)] if args.limit else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    child = subprocess.run(command, capture_output=True, text=True, env=env)
    if child.returncode != 0:
        sys.stderr.write(child.stderr)
        return child.returncode
    result = json.loads(child.stdout)
    name = args.name or f"long_document_{Path(args.model).name}"
    record = {
        "command": "PYTHONPATH=$PWD python benchmarks/long_document.py " + shlex.join(sys.argv[1:] if argv is None else argv),
        **({"note": args.note} if args.note else {}),
        "data": str(args.data), "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        **result, "summary": summary(result["documents"]),
        "wall_seconds_with_reading": round(time.perf_counter() - start, 1),
    }
    out = args.out or RESULTS / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    for d in result["documents"]:
        print(f"{d['id']}: {d['pages']} pages, {d['tokens']} tokens, {d['windows']} window(s), "
              f"{d['seconds']:.2f} s, peak {d['peak_mb']} MB", file=sys.stderr)
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
