"""Collect a finetune + evaluate run into a results file, and rebuild the training table.

    python benchmarks/training_results.py RUN_DIR --dataset funsd --command "docextract finetune ..." \
        --command "docextract evaluate ..."

RUN_DIR is a `finetune --output` folder holding the test reports as test_*.json, from
`docextract evaluate RUN_DIR/model TEST.jsonl [--robustness MODE|all] --report RUN_DIR/test_NAME.json`.
Writes benchmarks/results/train_<dataset>_<preset>.json, then benchmarks/results/training_table.md
from every train_*.json there.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
MODES = ("none", "global-shuffle", "neighbour-swap", "drop-1d")


def headline(report: dict) -> dict:
    """Entity F1 (seqeval) and, for key-value data, document-level field F1 of one test report."""
    out = {"entity_f1": report["f1"], "entity_precision": report["precision"], "entity_recall": report["recall"],
           "per_label_f1": {k: v["f1"] for k, v in report["per_label"].items()}}
    if "fields" in report:
        out["field_f1"] = report["fields"]["micro"]["f1"]
        out["per_field_f1"] = {k: v["f1"] for k, v in report["fields"]["per_key"].items()}
    return out


def collect(run_dir: Path, dataset: str, commands: list[str]) -> dict:
    training = json.loads((run_dir / "model" / "training.json").read_text())
    history = json.loads((run_dir / "history.json").read_text())
    reports: dict = {}
    for path in sorted(run_dir.glob("test_*.json")):  # one `evaluate --report` file per mode, or one with all
        reports.update(json.loads(path.read_text())["reports"])
    return {
        "dataset": dataset,
        "preset": training["options"]["model"],
        "recipe": {k: training["options"].get(k) for k in ("epochs", "learning_rate", "batch_size", "max_tokens",
                                                           "scheme", "lspe_lr_scale", "augment", "seed", "lr_floor",
                                                           "patience", "warmup_ratio", "layout_lr_scale")},
        "convergence": history.get("convergence"),
        "train_documents": training["train_documents"], "eval_documents": training["eval_documents"],
        "train_seconds": history.get("train_seconds"),
        "best_validation_epoch": history["best"],
        "test_documents": reports["none"]["documents"],
        "test": {mode: headline(reports[mode]) for mode in MODES if mode in reports},
        "commands": commands,
    }


def table(results: list[dict]) -> str:
    lines = [
        "| data | preset | metric | test | global shuffle | neighbour swap | no 1D | val (best epoch) | recipe | train time |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(results, key=lambda r: (r["dataset"], r["preset"])):
        key = "field_f1" if "field_f1" in r["test"]["none"] else "entity_f1"
        metric = "field F1" if key == "field_f1" else "entity F1"
        cells = [f"{100 * r['test'][m][key]:.1f}" if m in r["test"] else "-" for m in MODES]
        best = r["best_validation_epoch"]
        val = best.get("field_f1", best["f1"]) if key == "field_f1" else best["f1"]
        threads = next((c.split("--threads ")[1].split()[0] for c in r["commands"] if "finetune" in c and "--threads " in c), "?")
        where = f"{threads} {'thread' if threads == '1' else 'threads'}"
        if any("finetune" in c and "--device cuda" in c for c in r["commands"]):
            where = "one GPU"
        minutes = f"{r['train_seconds'] / 60:.0f} min ({where})" if r.get("train_seconds") else "-"
        recipe = r["recipe"]
        ran = (r.get("convergence") or {}).get("epochs_run")
        epochs = f"{ran} of max {recipe['epochs']} epochs" if ran and ran != recipe["epochs"] else f"{recipe['epochs']} epochs"
        recipe_text = f"{epochs}, lr {recipe['learning_rate']:g}, batch {recipe['batch_size']}"
        if recipe.get("lr_floor"):
            recipe_text += f", floor {recipe['lr_floor']:g}"
        if recipe.get("patience"):
            recipe_text += f", patience {recipe['patience']}"
        if recipe.get("scheme") and recipe["scheme"] != "BIO":
            recipe_text += f", {recipe['scheme']}"
        if recipe.get("layout_lr_scale") not in (None, 1.0):
            recipe_text += f", layout lr x{recipe['layout_lr_scale']:g}"
        if recipe.get("augment") not in (None, "none"):
            recipe_text += f", augment {recipe['augment']}"
        lines.append(f"| {r['dataset']} | {r['preset']} | {metric} | **{cells[0]}** | {cells[1]} | {cells[2]} | "
                     f"{cells[3]} | {100 * val:.1f} ({best['epoch']}) | {recipe_text} | {minutes} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--command", action="append", default=[], help="a command that made the run (repeat)")
    parser.add_argument("--train-seconds", type=float, help="when the history predates train_seconds")
    parser.add_argument("--label", help="the preset column and file name for a run that started from a checkpoint "
                                        "(its --model is a folder), e.g. lspe-layoutlm+kleister-pretrain")
    args = parser.parse_args()
    result = collect(args.run_dir, args.dataset, args.command)
    if args.label:
        result["started_from"], result["preset"] = result["preset"], args.label
    if args.train_seconds:
        result["train_seconds"] = args.train_seconds
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"train_{args.dataset}_{result['preset']}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    results = [json.loads(p.read_text()) for p in sorted(RESULTS.glob("train_*.json"))]
    (RESULTS / "training_table.md").write_text(
        "Test scores of models trained here, on the CPU unless the time says a GPU (val = validation split of the training data, best "
        "epoch kept). FUNSD: entity-level seqeval F1 on the 50 test forms; SROIE: document-level field F1 "
        "(company/date/address/total) on the 347 test receipts.\n\n" + table(results))
    print(f"{out}\n{RESULTS / 'training_table.md'}")


if __name__ == "__main__":
    main()
