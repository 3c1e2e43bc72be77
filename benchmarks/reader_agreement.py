"""Does PDFium's text page give the same words and boxes as pdfplumber? Measured page by page on real PDFs.

For every page of every PDF under the given folders (default: the shared odd-PDF corpus and the 134
e-invoices), the words of the text layer are read both ways: pdfplumber's characters (what docextract
always used) and PDFium's (docextract/readers/pdfium_text.py), each grouped into words by the same
pdfplumber ``extract_words`` call. A page counts as **eligible** when the PDFium reader accepts it (plain
page, upright text, known fonts, every character mapped); on eligible pages the two word lists are compared:

* ``same_words``: the same texts in the same order;
* ``same_grid_boxes``: and every word's box on the 0..1000 model grid equal (what the model reads);
* ``max_box_diff_pt``: the largest difference of any box edge, in points.

An eligible page where they differ is listed with the first differing word: the reader rule must then
exclude such pages (the README states the outcome). Also times each reader per page (characters to
words included; pdfplumber's includes its content-stream parse). Ineligible pages are counted per reason.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reader_agreement.py [FOLDER ...] [--synth 60] [--output FILE]

Writes benchmarks/results/reader_agreement.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SHARED = REPO.parent / "shared" / "data"
DEFAULT_FOLDERS = (SHARED / "pdfs", SHARED / "einvoices", SHARED / "einvoices-more")
RESULTS = REPO / "benchmarks" / "results" / "reader_agreement.json"


def compare_file(path: Path) -> list[dict]:
    import pdfplumber
    import pypdfium2 as pdfium

    from docextract.readers.pdfium_text import NotEquivalent, page_chars
    from docextract.readers.text_layer import chars_to_words, page_words

    try:
        document = pdfium.PdfDocument(str(path))
        plumber = pdfplumber.open(str(path))
        plumber_pages = list(plumber.pages)
    except Exception as error:  # noqa: BLE001 - the corpus holds broken and encrypted files on purpose
        return [{"file": str(path), "page": None, "status": f"unopened: {type(error).__name__}"}]
    rows = []
    doctop = 0.0
    try:
        for index in range(min(len(document), len(plumber_pages))):
            row = {"file": str(path), "page": index + 1}
            start = time.perf_counter()
            try:
                reference = page_words(plumber_pages[index])
            except Exception as error:  # noqa: BLE001
                rows.append({**row, "status": f"pdfplumber failed: {type(error).__name__}"})
                continue
            row["pdfplumber_s"] = time.perf_counter() - start
            start = time.perf_counter()
            page = document[index]
            try:
                chars, width, height = page_chars(page, doctop)
                candidate = chars_to_words(chars, width, height)
            except NotEquivalent as reason:
                rows.append({**row, "status": "ineligible", "reason": str(reason), "words": len(reference.words)})
                continue
            finally:
                doctop += float(plumber_pages[index].height)
            row["pdfium_s"] = time.perf_counter() - start
            rows.append({**row, **_agreement(reference, candidate)})
    finally:
        plumber.close()
        document.close()
    return rows


def _agreement(reference, candidate) -> dict:
    a, b = reference.words, candidate.words
    result = {"status": "eligible", "words": len(a), "size_equal": (reference.width, reference.height) == (candidate.width, candidate.height)}
    result["same_words"] = [w.text for w in a] == [w.text for w in b]
    if not result["same_words"]:
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x.text != y.text), min(len(a), len(b)))
        result["first_difference"] = {"index": first, "pdfplumber": a[first].text if first < len(a) else None,
                                      "pdfium": b[first].text if first < len(b) else None, "counts": [len(a), len(b)]}
        result["same_grid_boxes"] = False
        return result
    diffs = [max(abs(x.box.x0 - y.box.x0), abs(x.box.top - y.box.top), abs(x.box.x1 - y.box.x1),
                 abs(x.box.bottom - y.box.bottom)) for x, y in zip(a, b)]
    result["max_box_diff_pt"] = max(diffs, default=0.0)
    grid = [x.box.to_grid(reference.width, reference.height) == y.box.to_grid(candidate.width, candidate.height)
            for x, y in zip(a, b)]
    result["same_grid_boxes"] = all(grid) and result["size_equal"]
    if not all(grid):
        result["grid_differences"] = grid.count(False)
    return result


def summarise(rows: list[dict]) -> dict:
    pages = [r for r in rows if r.get("page") is not None and r["status"] in ("eligible", "ineligible")]
    eligible = [r for r in pages if r["status"] == "eligible"]
    with_words = [r for r in eligible if r["words"]]
    agree = [r for r in with_words if r["same_words"] and r["same_grid_boxes"]]
    timed = [r for r in eligible if "pdfium_s" in r]
    return {
        "files": len({r["file"] for r in rows}),
        "pages_read": len(pages),
        "pages_with_words": sum(1 for r in pages if r["words"]),
        "eligible_pages_with_words": len(with_words),
        "eligible_and_identical": len(agree),
        "eligible_but_different": [{k: r.get(k) for k in ("file", "page", "same_words", "first_difference",
                                                           "max_box_diff_pt", "grid_differences", "size_equal")}
                                   for r in with_words if r not in agree],
        "max_box_diff_pt_on_identical_pages": max((r["max_box_diff_pt"] for r in agree), default=None),
        "ineligible_reasons": dict(Counter(r["reason"] for r in pages if r["status"] == "ineligible" and r["words"])),
        "other": dict(Counter(r["status"] for r in rows if r["status"] not in ("eligible", "ineligible"))),
        "seconds_per_page_on_eligible": {
            "pdfplumber": round(sum(r["pdfplumber_s"] for r in timed) / max(1, len(timed)), 4),
            "pdfium": round(sum(r["pdfium_s"] for r in timed) / max(1, len(timed)), 4),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", type=Path, default=list(DEFAULT_FOLDERS))
    parser.add_argument("--synth", type=int, default=60, metavar="N",
                        help="also N synthetic digital invoices (docextract synth, all families, seed 16; 0: none)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    import pdfplumber
    import pypdfium2

    result = {"command": "PYTHONPATH=$PWD .venv/bin/python benchmarks/reader_agreement.py " + " ".join(sys.argv[1:]),
              "versions": {"pdfplumber": pdfplumber.__version__, "pypdfium2": pypdfium2.version.PYPDFIUM_INFO.api_tag
                           if hasattr(pypdfium2, "version") else None, "python": platform.python_version()},
              "folders": {}}
    import tempfile

    with tempfile.TemporaryDirectory(prefix="reader_agreement_") as tmp:
        folders = list(args.folders)
        if args.synth:
            from docextract.synth.generate import SynthOptions, generate_invoice
            from docextract.synth.layouts import FAMILY_NAMES

            options = SynthOptions(families=tuple(FAMILY_NAMES), pages_max=3, scan_fraction=0.0)
            for index in range(args.synth):
                generate_invoice(16, index, options, Path(tmp))
            folders.append(Path(tmp))
        for folder in folders:
            rows = [row for path in sorted(folder.rglob("*.pdf")) for row in compare_file(path)]
            if folder == Path(tmp):
                name = f"synthetic ({args.synth} digital invoices: docextract synth, all families, seed 16)"
            else:
                try:
                    name = str(folder.relative_to(SHARED))
                except ValueError:
                    name = str(folder)
            result["folders"][name] = summarise(rows)
            print(name, json.dumps({k: v for k, v in result["folders"][name].items() if k != "eligible_but_different"}),
                  flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"written: {args.output}")


if __name__ == "__main__":
    main()
