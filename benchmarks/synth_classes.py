"""What `docextract synth` draws, counted per error class of real invoices (issue 13).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/synth_classes.py [--count 400] [--seed 0]
        [--holdout-families statement,sidebar,window_right,quantity_first | --families a,b] [--output FILE]

Each document is planned and drawn exactly as `docextract synth` does (same seed, same index, pages up to
3), but no PDF is written and no words are extracted, so it is fast. Counted per document:

* content traits (`synth.traits` in labels.jsonl): credit notes, several VAT rates, discounts/charges,
  prepaid and rounding rows, other numbers and dates (customer number, GLN, delivery/service dates), a due
  date only in a payment sentence, labelled values inside notes, 4-decimal prices, fixed-decimal
  quantities, GTIN/packaging lines, article numbers, vendors without a legal suffix or in capitals,
  country lines, trailing-minus negatives;
* layout classes, read from the drawn runs: the invoice number followed on its line by a key word and
  another field (inline keys: "Rechnung Nr. X vom DATE", "Invoice # 1234 · Date: ..."), the issuer's
  address only in the footer and its name only there or in the top 110 pt (a logo line), small print
  (labelled values at 7.5 pt or less), key/value viewer sections (family kv_viewer), several pages;
* locales and families.

Writes benchmarks/results/synth_classes.json (default) and prints it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results" / "synth_classes.json"
RUN_HEIGHT_PER_POINT = 1.05  # a drawn run's box is 0.80 + 0.25 font sizes tall (canvas.py)
SMALL_PRINT_POINTS = 7.5
LOGO_BAND, FOOTER_BAND = 110.0, 80.0  # points from the top and the bottom of page one


def _centre_y(region) -> float:
    return (region.box.top + region.box.bottom) / 2


def layout_classes(rendered) -> list[str]:
    """Classes of how this document shows its fields, from the drawn runs (see module doc)."""
    from docextract.synth.canvas import PAGE_FORMATS

    regions = rendered.regions
    out = []
    for number in (r for r in regions if r.label == "invoice_number"):
        line = sorted((r for r in regions if r.page == number.page and abs(_centre_y(r) - _centre_y(number)) < 1.0),
                      key=lambda r: r.box.x0)
        i = line.index(number)
        after = line[i + 1:i + 4]  # "Nr. 471102 vom 05.03.2018", "Invoice # 1234 · Date: 05.03.2024"
        if any(r.label and not r.label.startswith("line_item") for r in after[1:]) and after[0].label is None:
            out.append("number_inline_with_other_fields")
            break
    page_height = PAGE_FORMATS[rendered.family.page_format][1]
    names = [r for r in regions if r.page == 1 and r.label == "vendor_name"]
    addresses = [r for r in regions if r.page == 1 and r.label == "vendor_address"]
    if addresses and all(r.box.top > page_height - FOOTER_BAND for r in addresses) and all(
            r.box.bottom < LOGO_BAND or r.box.top > page_height - FOOTER_BAND for r in names):
        out.append("issuer_address_only_in_footer")
    sizes = [(r.box.bottom - r.box.top) / RUN_HEIGHT_PER_POINT for r in regions if r.label]
    if sizes and statistics.median(sizes) <= SMALL_PRINT_POINTS + 0.01:
        out.append("small_print")
    if rendered.family.name == "kv_viewer":
        out.append("key_value_sections")
    if rendered.page_count > 1:
        out.append("several_pages")
    return out


def count(seed: int, n: int, families: tuple[str, ...]) -> dict:
    from docextract.synth import content as content_module
    from docextract.synth.generate import SynthOptions, render_fitting

    traits_of = getattr(content_module, "content_traits", None)  # absent before issue 13
    options = SynthOptions(families, pages_max=3)
    traits, layouts, locales, family_counts = Counter(), Counter(), Counter(), Counter()
    start = time.perf_counter()
    for index in range(n):
        rendered = render_fitting(seed, index, options)
        if traits_of:
            traits.update(traits_of(rendered.content))
        layouts.update(layout_classes(rendered))
        locales[rendered.content.locale] += 1
        family_counts[rendered.family.name] += 1
    return {"documents": n, "seconds": round(time.perf_counter() - start, 1),
            "content_traits": dict(traits.most_common()), "layout_classes": dict(layouts.most_common()),
            "locales": dict(locales.most_common()), "families": dict(sorted(family_counts.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--families", default=None)
    parser.add_argument("--holdout-families", default=None)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    from docextract.commands.synth_cmd import select_families

    families = select_families(args.families, args.holdout_families)
    result = {"command": " ".join(["benchmarks/synth_classes.py"] + sys.argv[1:]), "seed": args.seed,
              "families_used": list(families), **count(args.seed, args.count, families)}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
