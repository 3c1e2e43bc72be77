"""Field accuracy and accepted precision of a model through `run` on the vendor-style pages of tests/vendor_pages.py.

One-page invoices written the way telephone, electricity and water companies, hosting providers, hotels, shops, a
marketplace, tradesmen and suppliers in several countries print theirs (made-up parties and numbers; see that module: the decoding was changed after reading
its errors on them, so they flatter it). Judged as `docextract evaluate` judges a labelled document's fields
(docextract.evaluation.extraction_eval.judge_output).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/vendor_pages.py [--model invoice] [--scans] [--name NAME] [--pages NAME ...]

``--scans`` reads a scan of each page instead of its text layer: docextract's own scan simulation (150 dpi, greyscale,
skew, blur, noise, JPEG; seeded by the page's name, as `benchmarks/lopo.py scans` seeds by document) read through
Tesseract as `run` reads an image by default (``--lang auto``). ``--pages`` reads only the pages named (a new batch
at first contact, on the code before its fixes).

Writes benchmarks/results/vendor_pages[_NAME].json and .md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"


def scan_of(pdf: Path) -> Path:
    """A simulated 150-dpi scan of the one-page ``pdf`` beside it (a .jpg), seeded by the page's name."""
    import random

    from docextract.synth.scan import save_scan, scan_pdf

    return Path(save_scan(scan_pdf(pdf.read_bytes(), random.Random(f"0:{pdf.stem}"), 150), str(pdf.with_suffix(""))))


def measure(model: str, scans: bool = False, only: set[str] | None = None) -> dict:
    from docextract.evaluation.extraction_eval import judge_output
    from docextract.pipeline import RunOptions, extract_file
    from tests.vendor_pages import NO_INVOICE_KINDS, NOT_INVOICE_NAMES, PAGES, TRUTH, WHAT, draw, draw_not_invoice, truth

    options = RunOptions(model=model)
    pages = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in (n for n in PAGES if only is None or n in only):
            source = draw(name, Path(folder) / f"{name}.pdf")
            output = extract_file(str(scan_of(source) if scans else source), options)
            fields = output["documents"][0]["fields"]
            judged = [j for j in judge_output(output, truth(name)) if j.in_truth]
            pages[name] = {
                "what": WHAT[name],
                "fields": {j.key: {"truth": TRUTH[name][j.key], "value": (fields.get(j.key) or {}).get("value"),
                                   "right": j.correct, "status": (fields.get(j.key) or {}).get("status")}
                           for j in judged},
            }
        # pages that print an invoice's keys but are no invoice (a quotation, a delivery note, a reminder, a statement):
        # typed, and accepted
        not_invoices = {}
        for name in (n for n in NOT_INVOICE_NAMES if only is None or n in only):
            source = draw_not_invoice(name, Path(folder) / f"{name}.pdf")
            document = extract_file(str(scan_of(source) if scans else source), options)["documents"][0]
            not_invoices[name] = {"kind": NO_INVOICE_KINDS.get(name, "made from an invoice page"),
                                  "type": document["document_type"]["type"],
                                  "accepted": sorted(k for k, f in document["fields"].items()
                                                     if f.get("status") == "accepted")}
    every = [f for page in pages.values() for f in page["fields"].values()]
    accepted = [f for f in every if f["status"] == "accepted"]
    return {
        "model": model, "scans": scans,
        "fields": len(every), "right": sum(f["right"] for f in every),
        "accuracy": sum(f["right"] for f in every) / max(1, len(every)),
        "accepted": len(accepted), "accepted_right": sum(f["right"] for f in accepted),
        "pages": pages, "not_invoices": not_invoices,
    }


def markdown(report: dict) -> str:
    what = "their 150-dpi scans through Tesseract" if report.get("scans") else "their text layer"
    lines = [f"# Vendor-style pages, {what}: `{report['model']}`", "", f"Command: `{report['command']}`", "",
             f"**{report['right']} of {report['fields']} fields right ({100 * report['accuracy']:.1f}%)**; "
             f"{report['accepted']} accepted, {report['accepted_right']} of them right.", "",
             "| page | right | wrong (value read / truth) |", "|---|---:|---|"]
    for name, page in report["pages"].items():
        wrong = [f"{key}: {f['value']!r} / {f['truth']!r}" for key, f in page["fields"].items() if not f["right"]]
        right = sum(f["right"] for f in page["fields"].values())
        lines.append(f"| {name} | {right}/{len(page['fields'])} | {'; '.join(wrong)} |")
    others = report.get("not_invoices", {})
    if others:
        lines += ["", f"Pages that are no invoice (quotations, order confirmations, delivery notes, reminders, statements, "
                      f"pro formas, remittances, ...): {sum(o['type'] == 'other' for o in others.values())} of "
                      f"{len(others)} typed other, {sum(bool(o['accepted']) for o in others.values())} with a field "
                      f"accepted ({sum(len(o['accepted']) for o in others.values())} fields).", "",
                  "| page | what it is | type | accepted |", "|---|---|---|---|"]
        lines += [f"| {name} | {o.get('kind', '')} | {o['type']} | {', '.join(o['accepted'])} |"
                  for name, o in others.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="invoice")
    parser.add_argument("--scans", action="store_true", help="read a simulated scan of each page (OCR path)")
    parser.add_argument("--name", help="results file suffix")
    parser.add_argument("--pages", nargs="+", metavar="NAME", help="read only these pages (default: all)")
    args = parser.parse_args()
    if args.pages:
        from tests.vendor_pages import NOT_INVOICE_NAMES, PAGES

        unknown = sorted(set(args.pages) - set(PAGES) - set(NOT_INVOICE_NAMES))
        if unknown:
            parser.error(f"no such page: {', '.join(unknown)}")
    report = measure(args.model, args.scans, set(args.pages) if args.pages else None)
    report["command"] = "PYTHONPATH=$PWD .venv/bin/python " + shlex.join(["benchmarks/vendor_pages.py", *sys.argv[1:]])
    stem = "vendor_pages" + (f"_{args.name}" if args.name else "")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    (RESULTS / f"{stem}.md").write_text(markdown(report), encoding="utf-8")
    print(markdown(report))


if __name__ == "__main__":
    main()
