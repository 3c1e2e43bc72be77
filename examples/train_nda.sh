#!/usr/bin/env bash
# Kleister-NDA (real SEC contracts; effective_date, jurisdiction, party, term), trained here on the CPU.
# Only the 254 training contracts have answers, so validation = every 5th of them (`docextract split
# --every 5`: 204 train, 50 validation); nothing else is held out and no test set is used.
#   long-range:  layout-cosformer reads each contract whole (up to 16382 tokens, pages embedded)
#   split-page:  lspe-layoutlm reads 510-token windows cut at page boundaries (SplitPage)
set -euo pipefail
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/docextract-nda}
mkdir -p "$WORK"
docextract convert kleister "$DATA/kleister-nda" "$WORK/all.jsonl"   # reads the 254 PDFs (~10-20 min)
docextract split "$WORK/all.jsonl" "$WORK/train.jsonl" "$WORK/val.jsonl" --every 5
docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/cosformer" \
    --model layout-cosformer --cross-pages --max-positions 16384 --epochs 2 --lr 2e-4 --batch-size 1 --entity-weight 10 --seed 42
docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/lspe" \
    --model lspe-layoutlm --negative-windows 0.2 --entity-weight 5 --epochs 3 --lr 1e-4 --batch-size 8 --seed 42
for M in cosformer lspe; do
    docextract evaluate "$WORK/$M/model" "$WORK/val.jsonl" --report "$WORK/$M/val_report.json"
done
