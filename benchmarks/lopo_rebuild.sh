#!/usr/bin/env bash
# The leave-one-producer-out yardstick (benchmarks/lopo.py) rebuilt from nothing on a bare machine: its data, the four
# fold models, the scans of the held-out documents and the twelve renderers' invoices the candidate scorer also fits
# on. Every step is skipped where its output exists, so a run cut short goes on where it stopped.
#   WORK: the folder (outside the repository) that measure/calibrate then read as --work and --scorer-extra.
#   About three hours on the 2-core machine (stop 46): the folds train two at a time on one thread each (29-55
#   minutes each); rendering runs beside them. Run from the repository root, after scripts/setup.sh and, for the
#   renderers, scripts/setup-render.sh.
# Usage: benchmarks/lopo_rebuild.sh [WORK]
# Then: PYTHONPATH=$PWD .venv/bin/python benchmarks/lopo.py measure --work WORK --name NAME --scorer lopo --scans \
#           --scan-lang auto $(for f in WORK/render/*.jsonl; do echo --scorer-extra $f; done)
set -euo pipefail
WORK=$(realpath -m "${1:-../gen/lopo}")
DATA=$(realpath "${DATA:-../shared/data}")
PY=(env PYTHONPATH="$PWD" "$PWD/.venv/bin/python")
DOCEXTRACT=.venv/bin/docextract
RENDERED_PER_RENDERER=${RENDERED_PER_RENDERER:-10}  # the scorer samples 8 of each renderer's synthetic invoices
mkdir -p "$WORK/real" "$WORK/render"

# the data: the shared e-invoices (sources written relative to DATA's parent, where prepare resolves them), 300
# synthetic invoices and SROIE's training receipts (lopo.py's RECIPE)
for folder in einvoices einvoices-more; do
    [ -f "$WORK/real/$folder.jsonl" ] || (cd "$DATA/.." && "$OLDPWD/$DOCEXTRACT" convert einvoice "data/$folder" "$WORK/real/$folder.jsonl")
done
cat "$WORK/real/einvoices.jsonl" "$WORK/real/einvoices-more.jsonl" > "$WORK/real/einvoice_all.jsonl"
[ -f "$WORK/synth/labels.jsonl" ] || $DOCEXTRACT synth "$WORK/synth" --count 300 --seed 1 --scan-fraction 0.15 --pages-max 3
[ -f "$WORK/sroie_train.jsonl" ] || $DOCEXTRACT convert sroie "$DATA/sroie" "$WORK/sroie_train.jsonl" --split train
[ -f "$WORK/plan.json" ] || (cd "$DATA/.." && "${PY[@]}" "$OLDPWD/benchmarks/lopo.py" prepare --work "$WORK" \
    --real "$WORK/real/einvoice_all.jsonl" --synth "$WORK/synth/labels.jsonl" --sroie "$WORK/sroie_train.jsonl")
"${PY[@]}" benchmarks/lopo.py scans --work "$WORK"

# the fold models, two lanes of one thread each (lopo.py train skips a fold whose model exists)
lane() { for fold in "$@"; do "${PY[@]}" benchmarks/lopo.py train --work "$WORK" --fold "$fold" --threads 1; done; }
lane ferd-visualisation factur-x-kit > "$WORK/lane1.log" 2>&1 &
lane zugferd-stylesheet zugferd1-samples > "$WORK/lane2.log" 2>&1 &

# the renderers' invoices (every installed renderer; skipped once their files exist)
if ! ls "$WORK"/render/*.jsonl > /dev/null 2>&1; then
    nice $DOCEXTRACT render "$WORK/render" --count "$RENDERED_PER_RENDERER" --seed 0 > "$WORK/render.log" 2>&1 || \
        echo "lopo_rebuild: rendering failed (see $WORK/render.log); measure without --scorer-extra" >&2
fi
wait
ls "$WORK"/*/run/model/config.json
