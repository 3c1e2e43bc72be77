"""Record one run of a recipe sweep (validation only, unless the run is a final recipe measured on test once),
and rebuild the sweep table.

    python benchmarks/training_sweep.py RUN_DIR --name f01 --dataset funsd --lever "batch 4, lr floor 0.1" \
        --command "docextract finetune ..." [--command "docextract evaluate ..."]

RUN_DIR is a `finetune --output` folder (its history.json; test_*.json reports from `evaluate --report` if the
run was measured on test). Writes benchmarks/results/sweep/<dataset>_<name>.json and
benchmarks/results/sweep/sweep_table.md from every JSON there. Validation picks epochs and levers; the test
column is filled only for the recipes that were measured once at the end.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

SWEEP = Path(__file__).parent / "results" / "sweep"
RECIPE_KEYS = ("model", "epochs", "learning_rate", "batch_size", "warmup_ratio", "lr_floor", "patience", "scheme",
               "lspe_lr_scale", "layout_lr_scale", "augment", "seed")


def collect(run_dir: Path, name: str, dataset: str, lever: str, commands: list[str]) -> dict:
    history = json.loads((run_dir / "history.json").read_text())
    training = json.loads((run_dir / "model" / "training.json").read_text())
    options = training["options"]
    reports: dict = {}
    for path in sorted(run_dir.glob("test_*.json")):
        reports.update(json.loads(path.read_text())["reports"])
    best = history["best"]
    result = {
        "name": name, "dataset": dataset, "lever": lever,
        "recipe": {k: options.get(k) for k in RECIPE_KEYS},
        "train_windows": training["train_windows"],
        "train_seconds": history.get("train_seconds"),
        "convergence": history.get("convergence"),
        "best_validation_epoch": best,
        "validation_curve": [{k: e.get(k) for k in ("epoch", "step", "lr", "train_loss", "f1", "field_f1") if k in e}
                             for e in history["epochs"]],
        "commands": commands,
    }
    if "none" in reports:
        test = reports["none"]
        result["test"] = {"entity_f1": test["f1"], "entity_precision": test["precision"],
                          "entity_recall": test["recall"], "documents": test["documents"]}
        if "fields" in test:
            result["test"]["field_f1"] = test["fields"]["micro"]["f1"]
    return result


def _metric(dataset: str) -> str:
    return "field_f1" if dataset == "sroie" else "f1"


def table(results: list[dict]) -> str:
    lines = ["| run | data | preset | lever | val (best epoch) | epochs run, stop | steps | lr at the end | "
             "test | train time |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: (r["dataset"], r["name"])):
        key = _metric(r["dataset"])
        best, end = r["best_validation_epoch"], r["convergence"] or {}
        test = r.get("test", {})
        test_cell = f"**{100 * test['field_f1' if key == 'field_f1' else 'entity_f1']:.1f}**" if test else "-"
        stop = end.get("stopped_by", "?") + (", still improving" if end.get("still_improving") else "")
        minutes = f"{r['train_seconds'] / 60:.0f} min" if r.get("train_seconds") else "-"
        lines.append(f"| {r['name']} | {r['dataset']} | {r['recipe']['model']} | {r['lever']} | "
                     f"{100 * best[key]:.1f} ({best['epoch']}) | {end.get('epochs_run', '?')}, {stop} | "
                     f"{end.get('steps', '?')} | {end.get('final_lr', 0):.2g} | {test_cell} | {minutes} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--name", required=True, help="the run's short name (file name and table row)")
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--lever", required=True, help="what this run changes against the recipe it is compared to")
    parser.add_argument("--command", action="append", default=[], help="a command that made the run (repeat)")
    parser.add_argument("--preset", help="the preset column when the run's --model was a folder made from a preset "
                                         "(scripts/preset_start.py)")
    args = parser.parse_args()
    result = collect(args.run_dir, args.name, args.dataset, args.lever, args.command)
    if args.preset:
        result["recipe"]["started_from"], result["recipe"]["model"] = result["recipe"]["model"], args.preset
    SWEEP.mkdir(parents=True, exist_ok=True)
    out = SWEEP / f"{args.dataset}_{args.name}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    results = [json.loads(p.read_text()) for p in sorted(SWEEP.glob("*.json"))]
    (SWEEP / "sweep_table.md").write_text(
        "Recipe sweeps on the CPU, one thread per run beside other jobs on a 2-core machine (so wall times are "
        "upper bounds), except the gpu_ runs: one H100 (rounds 1-3) or H200 (rounds 4-5), six to eight runs at once "
        "(benchmarks/lagabi_gpu_sweep.sh). "
        "val: FUNSD entity F1 / SROIE field F1 on the validation split (every 10th training document), which "
        "picked the epoch; test: measured once, for the final recipes only (gpu_ runs: every run, the recipe still "
        "chosen by val).\n\n" + table(results))
    print(f"{out}\n{SWEEP / 'sweep_table.md'}")


if __name__ == "__main__":
    main()
