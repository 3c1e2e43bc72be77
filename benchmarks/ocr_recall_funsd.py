"""OCR word recall of docextract's reader on the FUNSD test forms, and seconds per page.

Each FUNSD test image goes through ``read_document`` (the OCR path: Tesseract, orientation check,
pixels -> points). Recall = gold words matched one-to-one by text (case-insensitive, surrounding
whitespace stripped) among the words read from the same page, over all gold words; empty gold
words are skipped. Box positions are not scored (the text match is the recall the models see). A secondary
``word_recall_alnum_micro`` compares only letters and digits (lower-cased; gold words that are
pure punctuation are skipped), which forgives "TAMPA." vs "TAMPA" but not FUNSD's own tokenisation
("R.W.Caldarella" read as one word is still three gold words).

    PYTHONPATH=$PWD python benchmarks/ocr_recall_funsd.py [--limit N] [--data ../shared/data/funsd/testing_data]

Writes benchmarks/results/ocr_recall_funsd.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from docextract.readers import read_document

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "funsd" / "testing_data"
RESULTS = REPO / "benchmarks" / "results" / "ocr_recall_funsd.json"


def gold_words(annotation: Path) -> list[str]:
    form = json.loads(annotation.read_text())["form"]
    return [w["text"].strip() for entity in form for w in entity["words"] if w["text"].strip()]


def alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def matched(gold: list[str], found: list[str], key=str.lower) -> int:
    """How many gold words find a distinct read word with the same ``key`` (default: case-insensitive text)."""
    pool = Counter(key(w) for w in found)
    hits = 0
    for word in gold:
        key_ = key(word)
        if pool[key_] > 0:
            pool[key_] -= 1
            hits += 1
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=None, help="only the first N forms (sorted by name)")
    parser.add_argument("--lang", default="eng")
    args = parser.parse_args()

    images = sorted((args.data / "images").glob("*.png"))[: args.limit]
    per_form = []
    for image in images:
        gold = gold_words(args.data / "annotations" / (image.stem + ".json"))
        start = time.perf_counter()
        document = read_document(image, ocr="auto", lang=args.lang)
        seconds = time.perf_counter() - start
        found = [w.text for page in document.pages for w in page.words]
        hits = matched(gold, found)
        gold_alnum = [alnum(w) for w in gold if alnum(w)]
        hits_alnum = matched(gold_alnum, [alnum(w) for w in found], key=lambda w: w)
        per_form.append({"form": image.stem, "gold_words": len(gold), "read_words": len(found), "matched": hits,
                         "gold_words_alnum": len(gold_alnum), "matched_alnum": hits_alnum,
                         "recall": hits / len(gold) if gold else None, "seconds": round(seconds, 3),
                         "rotation_applied": document.pages[0].rotation_applied})
        print(f"{image.stem}: recall {hits}/{len(gold)} = {hits / max(1, len(gold)):.3f}, {seconds:.2f} s", flush=True)

    total_gold = sum(f["gold_words"] for f in per_form)
    total_hits = sum(f["matched"] for f in per_form)
    seconds = [f["seconds"] for f in per_form]
    summary = {
        "benchmark": "OCR word recall on FUNSD testing_data (case-insensitive text, one-to-one)",
        "command": "PYTHONPATH=$PWD python benchmarks/ocr_recall_funsd.py" + (f" --limit {args.limit}" if args.limit else ""),
        "forms": len(per_form),
        "gold_words": total_gold,
        "matched_words": total_hits,
        "word_recall_micro": round(total_hits / total_gold, 4) if total_gold else None,
        "word_recall_alnum_micro": round(sum(f["matched_alnum"] for f in per_form)
                                         / max(1, sum(f["gold_words_alnum"] for f in per_form)), 4),
        "word_recall_macro": round(statistics.mean(f["recall"] for f in per_form if f["recall"] is not None), 4),
        "seconds_per_page_median": round(statistics.median(seconds), 3),
        "seconds_per_page_mean": round(statistics.mean(seconds), 3),
        "settings": {"ocr": "auto", "lang": args.lang, "image_dpi": "from file, else 300 (FUNSD PNGs carry none)",
                     "OMP_THREAD_LIMIT": "1"},
        "machine": {"python": platform.python_version(), "cpu_count_note": "shared 2-core machine, other jobs running"},
        "per_form": per_form,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_form"}, indent=1))


if __name__ == "__main__":
    main()
