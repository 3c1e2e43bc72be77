"""Peak memory and time of one whole-document training step, with and without gradient checkpointing.

    PYTHONPATH=$PWD python benchmarks/long_training_memory.py [--tokens 2048 8192 16384] [--preset layout-cosformer]
        [--threads 2] [--name long_training_memory]

Each (length, checkpointing) pair runs in a fresh process: a full-size preset (MiniLM-L6 dimensions, positions
sized to the longest length), one generated document of that many tokens (random word pieces laid out as
lines of a page sequence, 9 BIO tags), then one AdamW step (forward, backward, update) after a warm-up step.
Children run with a fixed glibc mmap threshold (``MALLOC_MMAP_THRESHOLD_``): large tensors are then always
mapped and unmapped, so RSS follows live memory; with glibc's adaptive threshold freed activations stayed in the
heap and the same step measured 1.5 GB or 1.7 GB peak from run to run. Reported: the process's peak RSS (its high-water mark, ``ru_maxrss``), the same above the RSS measured just
before the measured step (model, optimizer state and the warm-up's freed memory included in the baseline), and
the step's seconds. Writes benchmarks/results/NAME.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
CHILD_ENV = {"MALLOC_MMAP_THRESHOLD_": "131072"}  # see the docstring: RSS that follows live tensors
LABELS = 9  # Kleister-NDA's BIO tags
PAGE_LIMIT = 1023  # the presets embed up to 1024 pages


def one_step(tokens: int, preset: str, checkpointing: bool, threads: int) -> dict:
    """Runs in the child process."""
    import resource
    import time

    import torch

    from docextract.modeling.presets import from_preset

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = from_preset(preset, num_labels=LABELS, max_position_embeddings=max(tokens, 512))
    model.layout.checkpoint_layers = checkpointing
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    words_per_line, lines_per_page = 12, 45
    index = torch.arange(tokens)
    line = index // words_per_line
    x0 = (index % words_per_line) * 80
    y0 = (line % lines_per_page) * 22
    bbox = torch.stack((x0, y0, x0 + 70, y0 + 15), -1).unsqueeze(0)  # (1, S, 4) on the 0..1000 grid
    batch = {
        "input_ids": torch.randint(1000, 30000, (1, tokens)),
        "attention_mask": torch.ones(1, tokens, dtype=torch.long),
        "bbox": bbox,
        "page_ids": (line // lines_per_page).clamp(max=PAGE_LIMIT).unsqueeze(0),
        "labels": torch.randint(0, LABELS, (1, tokens)),
    }

    def step() -> None:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    model_kb = _current_rss_kb()
    step()  # warm-up: optimizer state allocated, allocator pools filled
    before_kb = _current_rss_kb()
    start = time.perf_counter()
    step()
    seconds = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"tokens": tokens, "gradient_checkpointing": checkpointing, "seconds": round(seconds, 2),
            "peak_rss_mb": round(peak_kb / 1024, 1), "rss_before_step_mb": round(before_kb / 1024, 1),
            "rss_model_mb": round(model_kb / 1024, 1)}


def _current_rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[2048, 8192, 16384])
    parser.add_argument("--preset", default="layout-cosformer")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--name", default="long_training_memory")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)  # tokens preset checkpointing
    args = parser.parse_args()
    if args.child:
        tokens, preset, checkpointing = int(args.child[0]), args.child[1], args.child[2] == "1"
        print(json.dumps(one_step(tokens, preset, checkpointing, args.threads)))
        return
    rows = []
    for tokens in args.tokens:
        for checkpointing in (False, True):
            out = subprocess.run([sys.executable, __file__, "--threads", str(args.threads), "--child", str(tokens),
                                  args.preset, "1" if checkpointing else "0"], capture_output=True, text=True,
                                 env={**os.environ, **CHILD_ENV})
            if out.returncode != 0:
                rows.append({"tokens": tokens, "gradient_checkpointing": checkpointing,
                             "error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"})
            else:
                rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(rows[-1], file=sys.stderr)
    command = "PYTHONPATH=$PWD python benchmarks/long_training_memory.py " + " ".join(sys.argv[1:])
    result = {"command": command.strip(), "preset": args.preset, "threads": args.threads,
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count()}, "rows": rows}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [f"One training step of `{args.preset}` on one generated document (batch 1, AdamW, {args.threads} threads). "
             f"`{result['command']}`", "",
             "| tokens | gradient checkpointing | step seconds | peak RSS MB | RSS with model loaded MB | RSS before the step MB |", "|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['tokens']} | {'yes' if r['gradient_checkpointing'] else 'no'} | failed: {r['error']} | | |")
        else:
            lines.append(f"| {r['tokens']} | {'yes' if r['gradient_checkpointing'] else 'no'} | {r['seconds']} | "
                         f"{r['peak_rss_mb']} | {r['rss_model_mb']} | {r['rss_before_step_mb']} |")
    (RESULTS / f"{args.name}.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
