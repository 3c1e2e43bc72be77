"""The model's arithmetic side by side: torch float32 / int8-linear against ONNX Runtime float32 / int8, on real pages.

The windows are those `docextract run` builds for real e-invoices (read, laid out and windowed by the pipeline, then
encoded and batched as inference batches them); every compute tags the same batches. Reported per compute and thread
count (each thread count in a fresh process with ``OMP_NUM_THREADS`` set, which both torch and the ONNX session
follow): milliseconds of model per page (median of ``--repeats`` passes over all batches), the speed-up over torch
float32, and agreement with torch float32 (largest logit difference; share of words whose best tag is the same).
Field accuracy is not measured here: benchmarks/arithmetic_gate.py and benchmarks/lopo.py do that.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/onnx_runtime.py [--model models/invoice] [--files 12] \
        [--threads 1,2] [--repeats 3] [--computes float32,int8-linear,onnx,onnx-int8]

Writes benchmarks/results/onnx_runtime.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results" / "onnx_runtime.json"
REAL = REPO.parent / "shared" / "data" / "einvoices"


def real_files(count: int) -> list[Path]:
    """Every n-th PDF of the shared e-invoices (sorted), ``count`` of them: producers and lengths mixed."""
    files = sorted(REAL.rglob("*.pdf"))
    if not files:
        raise SystemExit(f"no PDFs under {REAL}: the shared e-invoices are needed")
    step = max(1, len(files) // count)
    return files[::step][:count]


def batches_of(files: list[Path], model_name: str):
    """(batches as inference builds them, pages) for ``files`` through the pipeline's reading and windowing."""
    from docextract.modeling.batching import collate, encode_words
    from docextract.modeling.inference import token_budget_batches
    from docextract.pipeline import RunOptions, load_model, model_windows, read_and_analyze

    options = RunOptions(model=model_name)
    model, tokenizer = load_model(model_name)
    batches, pages = [], 0
    for file in files:
        doc, _ = read_and_analyze(str(file), options)
        pages += len(doc.pages)
        encoded = [encode_words(doc, window, tokenizer) for window in model_windows(doc, model, tokenizer, options)]
        for run in token_budget_batches([len(e["input_ids"]) for e in encoded]):
            batch = collate(encoded[run.start:run.stop])
            batch.pop("labels", None)
            batches.append(batch)
    return batches, pages


def measure_one(model_name: str, files: list[Path], computes: list[str], repeats: int) -> dict:
    """In this process (threads from OMP_NUM_THREADS): each compute's time and agreement with torch float32."""
    import torch

    from docextract.modeling.runtime import load_runtime_model
    from docextract.modeling.store import resolve_model

    batches, pages = batches_of(files, model_name)
    folder = resolve_model(model_name)
    out, reference = {}, None
    for compute in computes:
        model = load_runtime_model(folder, compute=compute)
        with torch.inference_mode():
            logits = [model(**batch).logits for batch in batches]  # warm-up and the values compared
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for batch in batches:
                    model(**batch)
                times.append(time.perf_counter() - start)
        row = {"ms_per_page": round(1000 * statistics.median(times) / pages, 1)}
        if compute == "float32":
            reference = logits
        elif reference is not None:
            words = [(b["attention_mask"] > 0) for b in batches]
            diffs = [float((g - r).abs().max()) for g, r in zip(logits, reference)]
            same = sum(int(((g.argmax(-1) == r.argmax(-1)) & w).sum()) for g, r, w in zip(logits, reference, words))
            row.update(max_logit_difference=round(max(diffs), 4),
                       same_best_tag=round(same / sum(int(w.sum()) for w in words), 5))
        out[compute] = row
    if "float32" in out:
        for row in out.values():
            row["speedup_over_torch_float32"] = round(out["float32"]["ms_per_page"] / row["ms_per_page"], 2)
    return {"pages": pages, "batches": len(batches), "computes": out}


def cpu_model() -> dict:
    """The CPU's name and whether it has VNNI: int8 runs 3x faster with it (README "Stop 64"), so a timing without
    them says little."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return {"cpu": platform.processor() or platform.machine()}
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    return {"cpu": name, "vnni": any(flag in flags for flag in ("avx512_vnni", "avx_vnni", "amx_int8")),
            "avx512": "avx512f" in flags}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="models/invoice")
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--computes", default="float32,int8-linear,onnx,onnx-int8")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    files = real_files(args.files)
    computes = args.computes.split(",")
    if args.one:
        print(json.dumps(measure_one(args.model, files, computes, args.repeats)))
        return
    by_threads = {}
    for threads in args.threads.split(","):
        env = {**os.environ, "OMP_NUM_THREADS": threads}
        done = subprocess.run([sys.executable, __file__, "--one", "--model", args.model, "--files", str(args.files),
                               "--repeats", str(args.repeats), "--computes", args.computes],
                              env=env, capture_output=True, text=True, check=True)
        by_threads[threads] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{threads} thread(s):", json.dumps(by_threads[threads]["computes"]))
    result = {
        "command": "PYTHONPATH=$PWD .venv/bin/python benchmarks/onnx_runtime.py " + " ".join(sys.argv[1:]),
        "model": args.model,
        "files": [str(f.relative_to(REAL.parent)) for f in files],
        "machine": {"cpus": os.cpu_count(), **cpu_model(), "load_average_before": os.getloadavg(),
                    "python": platform.python_version()},
        "threads": by_threads,
    }
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
