"""Forward time and peak memory of every preset at 512..16384 tokens on this CPU (batch 1, no grad).

Each (preset, length) runs in a fresh subprocess, so its peak RSS is its own: ``peak_mb`` is the peak
resident memory during the forward passes minus the resident memory just before them (model and
inputs already built), i.e. the memory the forward itself needs. Softmax presets stop at the first
length whose projected memory (4x the previous length's, quadratic attention) passes the budget.
Weights are random (timing does not depend on them); dimensions are MiniLM-L6's. Learned 1D tables
are extended to the longest length (tiling strategy), so every preset can take every length.

    PYTHONPATH=$PWD python benchmarks/model_speed.py            # writes benchmarks/results/model_speed.{json,md}
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

LENGTHS = (512, 1024, 2048, 4096, 8192, 16384)  # tokens
MEMORY_BUDGET_MB = 6 * 1024  # softmax presets stop before a length projected to need more
TIME_BUDGET_S = 60.0  # ... or one projected to take longer than this per forward (shared 2-core machine)
QUADRATIC_GROWTH = 4.0  # doubling the length of softmax attention: ~4x memory and time
SHORT_LENGTH_REPEATS = 3  # median of 3 forwards up to 2048 tokens
LONG_LENGTH_REPEATS = 1
SUBPROCESS_TIMEOUT_S = 900
THREADS = 2
LINEAR_PRESETS = ("layout-cosformer", "layout-linformer")
SOFTMAX_REFERENCE = "layoutlm"  # plain SDPA softmax: the denominator of the ratios
RESULTS = Path(__file__).resolve().parent / "results"


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure_one(preset: str, length: int, repeats: int) -> dict:
    """Build the preset, run ``repeats`` forwards of one random document of ``length`` tokens."""
    import torch

    from docextract.modeling import LayoutEncoder, preset_config
    from docextract.modeling.presets import minilm_dimensions

    torch.set_num_threads(THREADS)
    torch.manual_seed(0)
    config = preset_config(preset, **{**minilm_dimensions(), "max_position_embeddings": max(LENGTHS)})
    model = LayoutEncoder(config).eval()
    ids = torch.randint(1000, 30000, (1, length))
    x0 = torch.randint(0, 900, (1, length))
    y0 = torch.randint(0, 980, (1, length))
    bbox = torch.stack((x0, y0, x0 + torch.randint(5, 100, (1, length)), y0 + 15), -1)  # (1, S, 4)
    pages = (torch.arange(length) // 512).clamp(max=config.max_pages - 1).unsqueeze(0)  # ~512 tokens a page
    inputs = dict(input_ids=ids, attention_mask=torch.ones_like(ids), bbox=bbox, page_ids=pages)
    warmup = {key: value[:, :128] for key, value in inputs.items()}  # first-call overheads, not the length's cost
    times = []
    with torch.inference_mode():
        model(**warmup)
        before = rss_mb()
        for _ in range(repeats):
            start = time.perf_counter()
            model(**inputs)
            times.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB -> MB (Linux)
    return {"preset": preset, "length": length, "time_s": statistics.median(times), "repeats": repeats,
            "peak_mb": round(peak - before, 1), "status": "ok"}


def run_one(preset: str, length: int) -> dict:
    repeats = SHORT_LENGTH_REPEATS if length <= 2048 else LONG_LENGTH_REPEATS
    command = [sys.executable, __file__, "--one", preset, str(length), str(repeats)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"preset": preset, "length": length, "status": f"timeout>{SUBPROCESS_TIMEOUT_S}s"}
    if done.returncode != 0:
        return {"preset": preset, "length": length, "status": f"failed: {done.stderr.strip().splitlines()[-1:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_all(presets: list[str]) -> list[dict]:
    results = []
    for preset in presets:
        previous = None
        for length in LENGTHS:
            quadratic = preset not in LINEAR_PRESETS
            if quadratic and previous is not None and previous.get("status") == "ok":
                projected_mb = previous["peak_mb"] * QUADRATIC_GROWTH
                projected_s = previous["time_s"] * QUADRATIC_GROWTH
                if projected_mb > MEMORY_BUDGET_MB or projected_s > TIME_BUDGET_S:
                    results.append({"preset": preset, "length": length, "status": "over budget",
                                    "projected_mb": round(projected_mb), "projected_s": round(projected_s, 1)})
                    previous = results[-1]
                    continue
            elif previous is not None and previous.get("status") != "ok":
                results.append({"preset": preset, "length": length, "status": "over budget"})
                continue
            previous = run_one(preset, length)
            results.append(previous)
            print(json.dumps(previous), flush=True)
    return results


def markdown(results: list[dict]) -> str:
    by_key = {(r["preset"], r["length"]): r for r in results}
    presets = list(dict.fromkeys(r["preset"] for r in results))
    lines = [
        "Forward pass, batch 1, no grad, MiniLM-L6 dimensions, "
        f"{THREADS} threads; time s / peak extra memory MB (time ratio vs `{SOFTMAX_REFERENCE}` softmax at the same length).",
        "",
        "| preset | " + " | ".join(str(n) for n in LENGTHS) + " | t(16384)/t(1024) |",
        "|---|" + "---|" * (len(LENGTHS) + 1),
    ]
    for preset in presets:
        cells = []
        for length in LENGTHS:
            r = by_key.get((preset, length), {"status": "-"})
            ref = by_key.get((SOFTMAX_REFERENCE, length), {})
            if r.get("status") != "ok":
                cells.append(r.get("status", "-"))
                continue
            ratio = f" ({r['time_s'] / ref['time_s']:.2f}x)" if ref.get("status") == "ok" else ""
            cells.append(f"{r['time_s']:.2f} s / {r['peak_mb']:.0f} MB{ratio}")
        first, last = by_key.get((preset, 1024), {}), by_key.get((preset, 16384), {})
        scale = f"{last['time_s'] / first['time_s']:.1f}x" if first.get("status") == last.get("status") == "ok" else "-"
        lines.append(f"| {preset} | " + " | ".join(cells) + f" | {scale} |")
    lines += ["", "Timings come from one run on a shared 2-core machine (other jobs running): short lengths are the "
              "noisiest; re-run before quoting a single cell. Softmax uses PyTorch SDPA's fused CPU kernel, so "
              "`layoutlm`'s memory grows linearly; the bias presets materialise (B, H, S, S) scores."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=3, metavar=("PRESET", "LENGTH", "REPEATS"), help=argparse.SUPPRESS)
    parser.add_argument("--presets", nargs="*", default=None)
    args = parser.parse_args()
    if args.one:
        preset, length, repeats = args.one
        print(json.dumps(measure_one(preset, int(length), int(repeats))))
        return
    from docextract.modeling import PRESETS

    presets = args.presets or [SOFTMAX_REFERENCE] + [p for p in PRESETS if p != SOFTMAX_REFERENCE]
    started = time.time()
    results = run_all(presets)
    RESULTS.mkdir(parents=True, exist_ok=True)
    meta = {"machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(), "threads": THREADS,
            "memory_budget_mb": MEMORY_BUDGET_MB, "time_budget_s": TIME_BUDGET_S, "lengths": LENGTHS,
            "wall_s": round(time.time() - started), "command": "PYTHONPATH=$PWD python benchmarks/model_speed.py"}
    (RESULTS / "model_speed.json").write_text(json.dumps({"meta": meta, "results": results}, indent=1) + "\n")
    (RESULTS / "model_speed.md").write_text(markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
