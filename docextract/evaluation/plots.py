"""The picture of a confidence report (`docextract evaluate --plot FILE.png`), drawn with matplotlib.

Three panels: the reliability diagram (accuracy of the fields in each confidence bin against the bin's mean
confidence: on the diagonal when calibrated), the risk-coverage curve (precision of the accepted fields against
the share accepted, with the straight-through points at 99% and 95% and the model's own review policy), and the
straight-through rate per field. matplotlib is an optional dependency (``pip install 'docextract[plots]'``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Mapping

from docextract.errors import MissingDependencyError
from docextract.files import write_bytes_atomic

TARGET_COLOURS = {"0.99": "#1b7837", "0.95": "#e08214"}


def require_matplotlib(path: Path) -> None:
    """Fail now, before a long evaluation, when the plot cannot be drawn (exit 3)."""
    _pyplot(path)


def _pyplot(path: Path):
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, never a window
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise MissingDependencyError(
            "--plot needs matplotlib, which is not installed: pip install 'docextract[plots]'", path=str(path),
        ) from error
    return plt


def plot_confidence(report: Mapping[str, Any], path: Path, title: str) -> None:
    """Write the PNG of one ``report["confidence"]`` (:func:`docextract.evaluation.risk_coverage.confidence_report`)."""
    plt = _pyplot(path)
    overall = report["overall"]
    fig, (reliability, curve, per_field) = plt.subplots(
        1, 3, figsize=(17, 6.6), gridspec_kw={"width_ratios": [1, 1.15, 1]}, constrained_layout=True)
    fig.suptitle(title, fontsize=13)
    _reliability(reliability, overall)
    _risk_coverage(curve, overall)
    _per_field(per_field, report["per_field"])
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    write_bytes_atomic(path, buffer.getvalue())


def _reliability(ax, overall: Mapping[str, Any]) -> None:
    rows = [r for r in overall.get("reliability", []) if r["count"]]
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="calibrated")
    ax.bar([(r["low"] + r["high"]) / 2 for r in rows], [r["accuracy"] for r in rows], width=0.095,
           color="#4393c3", edgecolor="#2166ac", alpha=0.85, label="share right in the bin")
    ax.plot([r["mean_confidence"] for r in rows], [r["accuracy"] for r in rows], "o", color="#053061", markersize=4,
            label="at the bin's mean confidence")
    for r in rows:  # how many fields each bar stands for, inside the top of tall bars
        inside = r["accuracy"] > 0.9
        ax.annotate(str(r["count"]), ((r["low"] + r["high"]) / 2, r["accuracy"] - 0.05 if inside else r["accuracy"] + 0.02),
                    ha="center", fontsize=8, color="white" if inside else "#333333",
                    fontweight="bold" if inside else "normal")
    ece = overall.get("ece")
    ax.set_title(f"Reliability: ECE {ece:.3f}" if ece is not None else "Reliability")
    ax.set_xlabel("confidence (bins; the number of fields above each bar)")
    ax.set_ylabel("share of fields right")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)


def _risk_coverage(ax, overall: Mapping[str, Any]) -> None:
    points = overall.get("curve", [])
    coverage = [0.0] + [c for _, c, _ in points]
    precision = [points[0][2] if points else 1.0] + [p for _, _, p in points]
    ax.step(coverage, precision, where="post", color="#2166ac", linewidth=2, label="accepting fields above a threshold")
    lowest = min(precision + [0.9])
    for target, point in overall["straight_through"].items():
        colour = TARGET_COLOURS.get(target, "black")
        ax.axhline(float(target), color=colour, linestyle=":", linewidth=1)
        ax.plot([point["coverage"]], [float(target) if point["precision"] is None else point["precision"]], "o",
                color=colour, markersize=8,
                label=f"one threshold for all fields, {float(target):.0%} precision: {point['coverage']:.0%} straight through")
    for target, point in overall.get("straight_through_per_field", {}).items():
        if point["accepted"]:
            ax.plot([point["coverage"]], [point["precision"]], "D", color=TARGET_COLOURS.get(target, "black"),
                    markersize=7, markerfacecolor="white", markeredgewidth=2,
                    label=f"each field at its own {float(target):.0%} threshold: {point['coverage']:.0%}")
    policy = overall.get("policy")
    if policy:
        right = "" if policy["precision"] is None else f", {policy['precision']:.1%} right"
        ax.plot([policy["coverage"]], [1.0 if policy["precision"] is None else policy["precision"]], "*",
                color="#b2182b", markersize=14,
                label=f"the model's review policy: {policy['coverage']:.0%} accepted ({policy['accepted']}){right}")
    auroc = overall.get("auroc")
    ax.set_title(f"Risk-coverage over {overall['fields']} true fields"
                 + (f" (AUROC {auroc:.2f})" if auroc is not None else ""))
    ax.set_xlabel("share of true fields accepted without review (coverage)")
    ax.set_ylabel("share of accepted fields that are right (precision)")
    ax.set_xlim(0, 1)
    ax.set_ylim(max(0.0, lowest - 0.03), 1.005)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=8, frameon=False)  # below: never over the curve
    ax.grid(alpha=0.3)


def _per_field(ax, per_field: Mapping[str, Mapping[str, Any]]) -> None:
    keys = sorted(per_field, key=lambda k: per_field[k]["straight_through"].get("0.99", {}).get("coverage", 0.0))
    height = 0.4
    for offset, target in ((-height / 2, "0.99"), (height / 2, "0.95")):
        values = [per_field[k]["straight_through"].get(target, {}).get("coverage", 0.0) for k in keys]
        ax.barh([i + offset for i in range(len(keys))], values, height=height, color=TARGET_COLOURS[target],
                label=f"at {float(target):.0%} precision")
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels([f"{k} ({per_field[k]['fields']})" for k in keys], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the field accepted without review")
    ax.set_title("Straight through, per field (true fields)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
