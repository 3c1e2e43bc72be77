#!/usr/bin/env bash
# Does a short pretrain on unlabelled documents move FUNSD F1?
# 1. `pretrain` lspe-layoutlm (MiniLM text weights, fresh layout embeddings) with masked LM (30%) and
#    1D local order prediction on the first $DOCS Kleister-NDA contracts: real business PDFs, read by our
#    own pipeline, no labels used, and nothing from FUNSD.
# 2. examples/train_funsd.sh (same data split, epochs, learning rate and seed), started from the
#    pretrained model instead of the preset. Compare its test F1 with train_funsd.sh's.
set -euo pipefail
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/docextract-pretrain}
DOCS=${DOCS:-100}
PRETRAIN_EPOCHS=${PRETRAIN_EPOCHS:-3}
EPOCHS=${EPOCHS:-20}
THREADS=${THREADS:-}  # e.g. THREADS=1 when another training shares the CPU
THREAD_ARGS=(${THREADS:+--threads "$THREADS"})
mkdir -p "$WORK"
docextract pretrain "$DATA/kleister-nda/train/documents" --output "$WORK/kleister" --model lspe-layoutlm \
    --limit "$DOCS" --heldout 5 --epochs "$PRETRAIN_EPOCHS" --lr 1e-4 --batch-size 8 --seed 42 "${THREAD_ARGS[@]}"
# the recipe of the recorded comparison (before the sweep of README "Training on public data"): 20 epochs,
# batch 8, the rate decaying to 0, no early stop
WORK="$WORK" RUN="$WORK/funsd" EPOCHS="$EPOCHS" BATCH=8 LR_FLOOR=0 PATIENCE= THREADS="$THREADS" \
    "$(dirname "$0")/train_funsd.sh" "$WORK/kleister/model"
