#!/usr/bin/env bash
# FUNSD entity extraction (header/question/answer), trained here on the CPU.
# The validation split is a fixed rule over FUNSD's *training* forms (every 10th by id); the 50 test
# forms are used once, at the end, by `evaluate`. Word-level boxes, never gold entity boxes.
set -euo pipefail
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/docextract-funsd}
PRESET=${1:-lspe-layoutlm}  # or a model folder, e.g. from `docextract pretrain`
RUN=${RUN:-$WORK/$PRESET}  # the finetune output folder
THREADS=(${THREADS:+--threads "$THREADS"})  # e.g. THREADS=1 when another training shares the CPU
EPOCHS=${EPOCHS:-20}
mkdir -p "$WORK"
docextract convert funsd "$DATA/funsd" "$WORK/train_all.jsonl" --split train
docextract convert funsd "$DATA/funsd" "$WORK/test.jsonl" --split test
docextract split "$WORK/train_all.jsonl" "$WORK/train.jsonl" "$WORK/val.jsonl" --every 10
docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$RUN" \
    --model "$PRESET" --epochs "$EPOCHS" --lr 1e-4 --batch-size 8 --seed 42 "${THREADS[@]}"
docextract evaluate "$RUN/model" "$WORK/test.jsonl" --robustness all --report "$RUN/test_report.json" "${THREADS[@]}"
