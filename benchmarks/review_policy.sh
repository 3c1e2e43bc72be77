#!/usr/bin/env bash
# Field confidence and the review policy of the invoice model, fitted on one set and measured on another it never
# saw (the fits and reports go to $WORK/results). The shipped model is never changed: the fits go to copies in $WORK.
#   A. synthetic invoices of the 4 layout families the model never trained on: fit on seed 4, measure on seed 3;
#   B. real receipts (SROIE, the invoice model under SROIE's label names): fit on the train split, measure on test;
#   C. the synthetic fit of A measured on the real receipts of B.
# Usage: benchmarks/review_policy.sh [WORK]   (about 40 minutes on the 2-core machine)
set -euo pipefail
WORK=${1:-/tmp/docextract-review-policy}
SROIE=${SROIE:-../shared/data/sroie}
HOLD=statement,sidebar,window_right,quantity_first
MAP=company=vendor_name,date=invoice_date,address=vendor_address,total=total
R=$WORK/results
mkdir -p "$R"
[ -f "$WORK/cal/labels.jsonl" ] || docextract synth "$WORK/cal" --count 150 --seed 4 --families $HOLD --scan-fraction 0.15 --pages-max 3
[ -f "$WORK/heldout/labels.jsonl" ] || docextract synth "$WORK/heldout" --count 100 --seed 3 --families $HOLD --scan-fraction 0.15 --pages-max 3
[ -f "$WORK/sroie_train.jsonl" ] || docextract convert sroie "$SROIE" "$WORK/sroie_train.jsonl" --split train
[ -f "$WORK/sroie_test.jsonl" ] || docextract convert sroie "$SROIE" "$WORK/sroie_test.jsonl" --split test
rm -rf "$WORK/invoice-ev" "$WORK/invoice-sroie-ev"

# A
docextract evaluate invoice "$WORK/heldout/labels.jsonl" --report "$R/heldout_before.json" --plot "$R/heldout_before.png"
docextract calibrate invoice "$WORK/cal/labels.jsonl" --fields --out "$WORK/invoice-ev" > "$R/fit_synthetic.json"
docextract evaluate "$WORK/invoice-ev" "$WORK/heldout/labels.jsonl" --report "$R/heldout_after.json" --plot "$R/heldout_after.png"
# B
docextract evaluate invoice "$WORK/sroie_test.jsonl" --label-map $MAP --report "$R/sroie_before.json" --plot "$R/sroie_before.png"
docextract calibrate invoice "$WORK/sroie_train.jsonl" --fields --label-map $MAP --out "$WORK/invoice-sroie-ev" > "$R/fit_sroie.json"
docextract evaluate "$WORK/invoice-sroie-ev" "$WORK/sroie_test.jsonl" --label-map $MAP --report "$R/sroie_after.json" --plot "$R/sroie_after.png"
# C
docextract evaluate "$WORK/invoice-ev" "$WORK/sroie_test.jsonl" --label-map $MAP --report "$R/sroie_transfer.json"
