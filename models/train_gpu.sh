#!/usr/bin/env bash
# One prepared training run on a GPU machine (how models/cueref-detector.onnx was made).
#
#   bash models/train_gpu.sh OUT_DIR [TRAIN_HOURS] [EXTRA_IMAGES] [FIRST_VENUE]
#
# Renders up to EXTRA_IMAGES more views (for at most RENDER_S seconds) into build/dataset,
# continuing after FIRST_VENUE (the views already there, from
# `cueref dataset build/dataset --images 1500 --seed 1`, stay), trains for TRAIN_HOURS on
# GPU 0 (from INIT weights when set: a checkpoint of an earlier run of this recipe, or the
# ONNX file one exported, such as models/cueref-detector.onnx) and
# writes the ONNX model, its metrics and the checkpoints into OUT_DIR as it goes, so a run
# cut short still leaves its last checkpoint. Needs python3 with torch, opencv and
# ultralytics importable.
set -euo pipefail
out=${1:?usage: train_gpu.sh OUT_DIR [TRAIN_HOURS] [EXTRA_IMAGES] [FIRST_VENUE]}
hours=${2:-0.085}
extra=${3:-3600}
first=${4:-92}
jobs=${JOBS:-$(nproc)}
data=${DATA:-build/dataset}
device=${DEVICE:-0}
batch=${BATCH:-32}
render_s=${RENDER_S:-120}
lr=${LR:-0.002}
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$out"
OMP_NUM_THREADS=1 python3 - "$extra" "$first" "$jobs" "$data" "$render_s" <<'PY'
import sys, time
from pathlib import Path
from simulation.dataset import write_dataset
extra, first, jobs = (int(a) for a in sys.argv[1:4])
t = time.time()
m = write_dataset(Path(sys.argv[4]), images=extra, seed=1, workers=jobs,
                  first_venue=first, deadline_s=float(sys.argv[5]))
print(f"rendered {m['images']} views in {time.time() - t:.0f} s with {jobs} workers", flush=True)
PY
cp "$data/manifest.json" "$out/dataset-manifest.json"
echo "train images: $(ls $data/images/train | wc -l), val: $(ls $data/images/val | wc -l)"
python3 models/train.py --data "$data" --hours "$hours" --device "$device" --batch "$batch" \
  --workers "$((jobs > 2 ? jobs - 2 : 1))" --build "$out/train" --lr "$lr" \
  ${INIT:+--init "$INIT"} --export "$out/cueref-detector.onnx"
