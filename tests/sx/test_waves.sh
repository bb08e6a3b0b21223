#!/usr/bin/env bash
# The saved GTKWave view must keep working: write a fresh waveform with the lockstep harness, then
# tests/common/check_gtkw_view.sh loads the view on it headless and checks every signal and the screenshot.
# Usage: tests/sx/test_waves.sh build/cosim/sx_8_8_12/cosim-sx tb/sx/sx.gtkw OUTDIR
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --seed 5 --scenario 7 --gpus 1,2,3,8 --size 200 --waves "$OUT/sx.fst" --gtkw "$VIEW" >"$OUT/cosim.out" || { echo "FAIL: cosim (log $OUT/cosim.out)"; exit 1; }
exec "$(dirname "$0")/../common/check_gtkw_view.sh" "$OUT" "$OUT/sx.fst" "$OUT/sx.fst.gtkw" "$VIEW" '^sx_pe\.' 0.14 0.30 25
