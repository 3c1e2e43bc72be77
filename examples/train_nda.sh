#!/usr/bin/env bash
# Kleister-NDA (real SEC contracts; effective_date, jurisdiction, party, term), trained here on the CPU.
# Only the 254 training contracts have answers, so validation = every 5th of them (`docextract split
# --every 5`: 204 train, 50 validation); nothing else is held out and no test set is used.
#   split-page:   lspe-layoutlm reads 510-token windows cut at page boundaries (SplitPage): models/nda
#   local:        layout-cosformer-local reads each contract whole (up to 16382 tokens, pages embedded):
#                 softmax inside 512-token blocks plus a gated global cosFormer term
#   cosformer:    layout-cosformer reads each contract whole with linear attention only; DISTIL=1 first
#                 adapts it to its softmax twin on the training contracts (`pretrain --objective distill`)
#   hybrid:       the split-page model made whole-document (scripts/long_range_start.py: its weights and head,
#                 softmax inside 512-token blocks with positions restarting in each, a gated global cosFormer term
#                 and page embeddings starting at 0), finetuned on whole contracts until validation stops rising:
#                 the shipped models/nda. Run split-page first. Trained on an H100 (5 epochs in 195 s with
#                 DEVICE=cuda); on the CPU expect several hours
# Which parties are kept (at most two, named on the first two pages) is the value policy's rule, chosen by
# cross-validation: benchmarks/nda_party_rules.py VAL.jsonl --model RUN/model.
set -euo pipefail
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/docextract-nda}
WHICH=${1:-split-page}  # split-page | local | cosformer | hybrid
THREADS=(${THREADS:+--threads "$THREADS"})  # e.g. THREADS=1 when another training shares the CPU
mkdir -p "$WORK"
[ -f "$WORK/all.jsonl" ] || docextract convert kleister "$DATA/kleister-nda" "$WORK/all.jsonl"   # reads the 254 PDFs (~10-20 min)
[ -f "$WORK/val.jsonl" ] || docextract split "$WORK/all.jsonl" "$WORK/train.jsonl" "$WORK/val.jsonl" --every 5
case "$WHICH" in
    split-page)
        docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/lspe" "${THREADS[@]}" \
            --model lspe-layoutlm --negative-windows 0.2 --entity-weight 5 --epochs 3 --lr 1e-4 --batch-size 8 --seed 42
        RUN=$WORK/lspe ;;
    local)
        docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/local" "${THREADS[@]}" \
            --model layout-cosformer-local --cross-pages --max-positions 16384 --epochs 2 --lr 1e-4 --batch-size 1 \
            --entity-weight 10 --seed 42
        RUN=$WORK/local ;;
    cosformer)
        START=layout-cosformer
        POSITIONS=(--max-positions 16384)
        if [ "${DISTIL:-0}" = 1 ]; then
            docextract pretrain "$WORK/train.jsonl" --objective distill --model layout-cosformer --max-positions 16384 \
                --output "$WORK/distil" --epochs 1 --heldout 5 --lr 2e-4 --batch-size 8 "${THREADS[@]}"
            START=$WORK/distil/model
            POSITIONS=()  # the distilled model has its 16384 positions
        fi
        docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/cosformer" "${THREADS[@]}" \
            --model "$START" "${POSITIONS[@]}" --cross-pages --epochs 2 --lr 2e-4 --batch-size 1 --entity-weight 10 --seed 42
        RUN=$WORK/cosformer ;;
    hybrid)
        [ -d "$WORK/lspe/model" ] || { echo "train the split-page model first: $0 split-page" >&2; exit 2; }
        "${PYTHON:-python}" scripts/long_range_start.py "$WORK/lspe/model" "$WORK/hybrid-start"
        docextract finetune "$WORK/train.jsonl" --eval "$WORK/val.jsonl" --output "$WORK/hybrid" "${THREADS[@]}" \
            --model "$WORK/hybrid-start" --cross-pages --max-tokens 16382 --epochs 12 --patience 2 --lr 5e-5 \
            --batch-size 1 --entity-weight 5 --seed 42 --device "${DEVICE:-auto}"
        RUN=$WORK/hybrid ;;
    *) echo "usage: $0 [split-page|local|cosformer|hybrid]" >&2; exit 2 ;;
esac
docextract evaluate "$RUN/model" "$WORK/val.jsonl" --report "$RUN/val_report.json" "${THREADS[@]}"
