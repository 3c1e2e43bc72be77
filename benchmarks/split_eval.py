"""How often `run` splits a stack of invoices into exactly the right documents (page ranges).

    PYTHONPATH=$PWD python benchmarks/split_eval.py [--data ../shared/data] [--synth 60] [--real-stacks 40]

Stacks are built at run time in a temporary folder (nothing is kept): synthetic invoices (`docextract synth`,
1-3 pages each, every layout family and locale) and the real e-invoices of einvoices/ and einvoices-more/
(ZUGFeRD, Factur-X and XRechnung renderings, most of them 2-4 pages), 2-4 invoices per stack, never two
with the same invoice number in one stack (the same invoice in another profile is a duplicate, not a stack).
Every invoice alone is run too: a single invoice of several pages must stay one document.

What is scored is what `run` prints: the documents' page ranges come from
`docextract.extraction.segments.split_documents` on the document `run` reads (text layer, lines, blocks),
which is all `build_output` uses to split (the model's tags are not used to place boundaries), so the model
is not run here. Reported: stacks split exactly right (every page range), invoices whose page range is found
exactly, boundary precision and recall, and single invoices kept whole. Writes
benchmarks/results/split_eval.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from docextract.extraction.segments import split_documents
from docextract.pipeline import RunOptions, read_and_analyze
from docextract.synth.stacks import stack_pdfs

RESULTS = Path(__file__).parent / "results" / "split_eval.json"
FOLDERS = ("einvoices", "einvoices-more")


def predicted_ranges(path: Path) -> list[tuple[int, int]]:
    doc, _ = read_and_analyze(path, RunOptions(ocr="never"))
    return [(doc.pages[s.start].number, doc.pages[s.end - 1].number) for s in split_documents(doc)]


def score(cases: list[tuple[Path, list[tuple[int, int]]]]) -> dict:
    exact = found = true_docs = 0
    boundaries = Counter()
    errors = []
    for path, truth in cases:
        predicted = predicted_ranges(path)
        exact += predicted == truth
        found += len(set(predicted) & set(truth))
        true_docs += len(truth)
        true_starts = {a for a, _ in truth[1:]}
        starts = {a for a, _ in predicted[1:]}
        boundaries["tp"] += len(starts & true_starts)
        boundaries["fp"] += len(starts - true_starts)
        boundaries["fn"] += len(true_starts - starts)
        if predicted != truth:
            errors.append({"file": path.name, "truth": truth, "predicted": predicted})
    tp = boundaries["tp"]
    return {
        "files": len(cases),
        "exact": exact, "exact_rate": round(exact / max(1, len(cases)), 3),
        "documents": true_docs, "documents_exact": found, "documents_exact_rate": round(found / max(1, true_docs), 3),
        "boundaries": tp + boundaries["fn"], "boundaries_predicted": tp + boundaries["fp"],
        "boundary_precision": round(tp / (tp + boundaries["fp"]), 3) if tp + boundaries["fp"] else None,
        "boundary_recall": round(tp / (tp + boundaries["fn"]), 3) if tp + boundaries["fn"] else None,
        "errors": errors,
    }


def make_stacks(sources: list[tuple[Path, str, int]], count: int, rng: random.Random, folder: Path, name: str
                ) -> list[tuple[Path, list[tuple[int, int]]]]:
    """``count`` stacks of 2-4 of ``sources`` ((path, invoice number, pages)), no number twice in a stack."""
    stacks = []
    for n in range(count):
        size = rng.randint(2, 4)
        chosen: list[tuple[Path, str, int]] = []
        for path, number, pages in rng.sample(sources, len(sources)):
            if number not in {c[1] for c in chosen}:
                chosen.append((path, number, pages))
            if len(chosen) == size:
                break
        out = folder / f"{name}-{n:03d}.pdf"
        stacks.append((out, stack_pdfs([c[0] for c in chosen], out)))
    return stacks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--synth", type=int, default=60, help="synthetic invoices to stack")
    parser.add_argument("--synth-stacks", type=int, default=40)
    parser.add_argument("--real-stacks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=RESULTS, help="the results file")
    args = parser.parse_args()
    from docextract.readers.einvoice import read_embedded_invoice
    from docextract.synth.generate import SynthOptions, generate_invoice
    from docextract.synth.layouts import FAMILY_NAMES

    rng = random.Random(args.seed)
    report: dict = {"command": " ".join(["PYTHONPATH=$PWD python benchmarks/split_eval.py", *sys.argv[1:]])}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        options = SynthOptions(FAMILY_NAMES, pages_max=3, pages_min=1)
        synth = []
        for index in range(args.synth):
            record = generate_invoice(args.seed, index, options, folder)
            synth.append((folder / record["source"], record["fields"]["invoice_number"][0], len(record["pages"])))
        report["synthetic_pages_per_invoice"] = dict(sorted(Counter(p for _, _, p in synth).items()))
        report["synthetic_singles"] = score([(p, [(1, n)]) for p, _, n in synth])
        report["synthetic_stacks"] = score(make_stacks(synth, args.synth_stacks, rng, folder, "synth"))
        real = []
        for pdf in sorted(p for name in FOLDERS for p in (args.data / name).rglob("*.pdf")):
            invoice = read_embedded_invoice(pdf)
            if invoice is not None and invoice.invoice_number:
                doc, _ = read_and_analyze(pdf, RunOptions(ocr="never"))
                real.append((pdf, str(invoice.invoice_number), len(doc.pages)))
        if real:
            report["real_pages_per_invoice"] = dict(sorted(Counter(p for _, _, p in real).items()))
            report["real_singles"] = score([(p, [(1, n)]) for p, _, n in real])
            report["real_stacks"] = score(make_stacks(real, args.real_stacks, rng, folder, "real"))
    args.out.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(json.dumps({k: {m: v[m] for m in ("files", "exact_rate", "documents_exact_rate", "boundary_precision",
                                            "boundary_recall")} if isinstance(v, dict) and "files" in v else v
                      for k, v in report.items()}, indent=1))


if __name__ == "__main__":
    main()
