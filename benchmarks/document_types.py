"""How `docextract/extraction/doctype.py` types the documents of every kind the shared data holds.

Sources (read as `run` reads them, no model involved):
* invoices: the real e-invoices (`docextract convert einvoice` JSONL: their words and layout), synthetic invoices
  (`docextract synth` labels.jsonl), and any rendered invoices (`--labelled NAME=FILE`, e.g. other people's renderers);
* receipts: SROIE test receipts (`docextract convert sroie --split test`);
* contracts: Kleister-NDA training PDFs with a text layer (scans skipped: no OCR here, to keep it fast);
* other: the odd PDFs of the shared data (papers, forms, letters, samples: pdfplumber's and py-pdf's test files)
  and FUNSD's 50 test forms (their words).

Prints and writes benchmarks/results/document_types.{json,md}: per source, how many documents got each type, and
the share of non-invoices typed as an invoice, credit note or receipt (those are the ones whose fields an invoice
model could accept).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/document_types.py --einvoices E.jsonl --synth S/labels.jsonl \
        --sroie SROIE_TEST.jsonl [--labelled renderers=R.jsonl ...] [--kleister-limit 60]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
SHARED = REPO.parent / "shared" / "data"
RESULTS = REPO / "benchmarks" / "results"
EXPECTED = {"einvoices": "invoice", "synth": "invoice", "sroie": "receipt", "kleister": "contract",
            "odd_pdfs": "other", "funsd": "other"}


def _labelled_documents(path: Path, limit: int | None):
    from docextract.data.labelled import read_jsonl
    from docextract.layout import analyze_layout

    for n, ldoc in enumerate(read_jsonl(path)):
        if limit is not None and n >= limit:
            break
        doc = ldoc.document
        yield ldoc.id, doc if any(p.lines for p in doc.pages) else analyze_layout(doc)


def _pdfs(paths, ocr: str = "never", min_words: int = 0):
    from docextract.errors import DocextractError
    from docextract.layout import analyze_layout
    from docextract.readers import read_document

    for path in paths:
        try:
            doc = analyze_layout(read_document(path, ocr=ocr))
        except DocextractError:
            continue  # encrypted, broken: `run` refuses them before any typing
        if sum(len(p.words) for p in doc.pages) >= min_words:
            yield str(path.relative_to(SHARED)), doc


def _funsd(limit: int | None):
    from docextract.data.funsd import convert_funsd

    documents, _ = convert_funsd(SHARED / "funsd", "test", limit)
    from docextract.layout import analyze_layout

    for ldoc in documents:
        yield ldoc.id, analyze_layout(ldoc.document)


def main() -> None:
    from docextract.extraction.doctype import INVOICE_TYPES, document_type

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--einvoices", type=Path)
    parser.add_argument("--synth", type=Path)
    parser.add_argument("--synth-limit", type=int, default=100)
    parser.add_argument("--sroie", type=Path)
    parser.add_argument("--labelled", action="append", default=[], help="NAME=FILE: more invoices (labelled JSONL)")
    parser.add_argument("--kleister-limit", type=int, default=60)
    args = parser.parse_args()

    sources = {}
    if args.einvoices:
        sources["einvoices"] = _labelled_documents(args.einvoices, None)
    if args.synth:
        sources["synth"] = _labelled_documents(args.synth, args.synth_limit)
    for item in args.labelled:
        name, path = item.split("=", 1)
        EXPECTED[name] = "invoice"
        sources[name] = _labelled_documents(Path(path), None)
    if args.sroie:
        sources["sroie"] = _labelled_documents(args.sroie, None)
    kleister = sorted((SHARED / "kleister-nda" / "train" / "documents").glob("*.pdf"))[:args.kleister_limit]
    sources["kleister"] = _pdfs(kleister, min_words=200)
    sources["odd_pdfs"] = _pdfs(sorted((SHARED / "pdfs").rglob("*.pdf")))
    sources["funsd"] = _funsd(None)

    start = time.perf_counter()
    report = {"command": "PYTHONPATH=$PWD .venv/bin/python " + shlex.join(["benchmarks/document_types.py", *sys.argv[1:]]),
              "sources": {}}
    for name, documents in sources.items():
        counts: Counter = Counter()
        invoice_like = []
        for doc_id, doc in documents:
            decided = document_type(doc)
            counts[decided.type] += 1
            if EXPECTED[name] not in INVOICE_TYPES and decided.type in INVOICE_TYPES:
                invoice_like.append({"id": doc_id, "type": decided.type, "reasons": list(decided.reasons)})
        report["sources"][name] = {"expected": EXPECTED[name], "documents": sum(counts.values()), "types": dict(counts),
                                   "typed_as_expected": counts[EXPECTED[name]] / max(1, sum(counts.values())),
                                   "non_invoices_typed_invoice_like": invoice_like}
        print(f"{name}: {dict(counts)}", file=sys.stderr)
    report["seconds"] = round(time.perf_counter() - start, 1)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "document_types.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = ["# Document types", "", f"`{report['command']}`", "",
             "| source | expected | documents | " + " | ".join(("invoice", "credit_note", "receipt", "contract", "other"))
             + " | typed as expected |", "|---|---|---:|" + "---:|" * 6]
    for name, s in report["sources"].items():
        lines.append(f"| {name} | {s['expected']} | {s['documents']} | "
                     + " | ".join(str(s["types"].get(t, 0)) for t in ("invoice", "credit_note", "receipt", "contract", "other"))
                     + f" | {100 * s['typed_as_expected']:.1f}% |")
    (RESULTS / "document_types.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
