#!/usr/bin/env bash
# The saved GTKWave view must keep working: write a fresh waveform with the lockstep harness, then
# tests/common/check_gtkw_view.sh loads the view on it headless and checks every signal and the screenshot.
# Usage: tests/p2g/test_waves.sh build/cosim/p2g_16_2/cosim-p2g tb/p2g/p2g_mapper.gtkw OUTDIR
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --seed 5 --prims 300 --configs 2 --gpus 3 --waves "$OUT/p2g.fst" --gtkw "$VIEW" >"$OUT/cosim.out" || { echo "FAIL: cosim (log $OUT/cosim.out)"; exit 1; }
exec "$(dirname "$0")/../common/check_gtkw_view.sh" "$OUT" "$OUT/p2g.fst" "$OUT/p2g.fst.gtkw" "$VIEW" '^p2g_mapper\.' 0.14 0.30 25
