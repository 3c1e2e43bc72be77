#!/usr/bin/env bash
# Does pretraining on unlabelled documents move FUNSD F1?
# 1. `pretrain` lspe-layoutlm (MiniLM text weights, fresh layout embeddings) with masked LM (30%) and
#    1D local order prediction (LSPE's 1-LOP) on unlabelled real documents, read by our own pipeline:
#      CORPUS=kleister100 (default): the first $DOCS Kleister-NDA contracts (the recorded 2025 comparison);
#      CORPUS=all: everything unlabelled the shared data gives without touching a test split: all 254
#        Kleister-NDA contracts, the 134 real e-invoices, the odd PDFs of pdfs/, SROIE's 626 training
#        receipts and FUNSD's training forms minus its validation forms (labels dropped, test forms never read).
# 2. examples/train_funsd.sh (same data split, recipe and seed), started from the pretrained model instead of
#    the preset. Compare its test F1 (and its shuffled-order robustness) with train_funsd.sh's.
set -euo pipefail
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/docextract-pretrain}
CORPUS=${CORPUS:-kleister100}
DOCS=${DOCS:-100}
PRETRAIN_EPOCHS=${PRETRAIN_EPOCHS:-3}
THREADS=${THREADS:-}  # e.g. THREADS=1 when another training shares the CPU
THREAD_ARGS=(${THREADS:+--threads "$THREADS"})
mkdir -p "$WORK"
case "$CORPUS" in
    kleister100)
        docextract pretrain "$DATA/kleister-nda/train/documents" --output "$WORK/kleister" --model lspe-layoutlm \
            --limit "$DOCS" --heldout 5 --epochs "$PRETRAIN_EPOCHS" --lr 1e-4 --batch-size 8 --seed 42 "${THREAD_ARGS[@]}"
        # the recipe of the recorded comparison (before the sweep of README "Training on public data"): 20 epochs,
        # batch 8, the rate decaying to 0, no early stop
        WORK="$WORK" RUN="$WORK/funsd" EPOCHS=${EPOCHS:-20} BATCH=8 LR_FLOOR=0 PATIENCE= THREADS="$THREADS" \
            "$(dirname "$0")/train_funsd.sh" "$WORK/kleister/model" ;;
    all)
        [ -f "$WORK/kleister.jsonl" ] || docextract convert kleister "$DATA/kleister-nda" "$WORK/kleister.jsonl"
        [ -f "$WORK/einvoices.jsonl" ] || { docextract convert einvoice "$DATA/einvoices" "$WORK/einvoices1.jsonl" &&
            docextract convert einvoice "$DATA/einvoices-more" "$WORK/einvoices2.jsonl" &&
            cat "$WORK/einvoices1.jsonl" "$WORK/einvoices2.jsonl" > "$WORK/einvoices.jsonl"; }
        [ -f "$WORK/sroie_train.jsonl" ] || docextract convert sroie "$DATA/sroie" "$WORK/sroie_train.jsonl" --split train
        if [ ! -f "$WORK/funsd_train.jsonl" ]; then  # train_funsd.sh's own split: its validation forms stay unseen
            docextract convert funsd "$DATA/funsd" "$WORK/funsd_train_all.jsonl" --split train
            docextract split "$WORK/funsd_train_all.jsonl" "$WORK/funsd_train.jsonl" "$WORK/funsd_val.jsonl" --every 10
        fi
        # held out (--heldout 5, the masked-LM/1-LOP figures): the last five Kleister contracts
        docextract pretrain "$WORK/funsd_train.jsonl" "$WORK/sroie_train.jsonl" "$DATA/pdfs" "$WORK/einvoices.jsonl" \
            "$WORK/kleister.jsonl" --output "$WORK/all" --model lspe-layoutlm --heldout 5 \
            --epochs "$PRETRAIN_EPOCHS" --lr 1e-4 --batch-size 8 --seed 42 "${THREAD_ARGS[@]}"
        # the finetune: train_funsd.sh's own recipe (40 epochs at most, patience 8, batch 4, floor 0.1), the one of
        # the 48.7 row for the preset
        WORK="$WORK" RUN="$WORK/funsd-all" THREADS="$THREADS" "$(dirname "$0")/train_funsd.sh" "$WORK/all/model" ;;
    *) echo "CORPUS is kleister100 or all" >&2; exit 2 ;;
esac
