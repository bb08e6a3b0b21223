#!/usr/bin/env bash
# The saved GTKWave view must keep working: write a fresh waveform with the lockstep harness, then
# tests/common/check_gtkw_view.sh loads the view on it headless and checks every signal and the screenshot.
# Usage: tests/pe/test_waves.sh build/cosim/pe_64_8_8/cosim-pe tb/pe/pe.gtkw OUTDIR
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --seed 5 --scenario 10 --gpus 1,2,3,16 --size 400 --waves "$OUT/pe.fst" --gtkw "$VIEW" >"$OUT/cosim.out" || { echo "FAIL: cosim (log $OUT/cosim.out)"; exit 1; }
exec "$(dirname "$0")/../common/check_gtkw_view.sh" "$OUT" "$OUT/pe.fst" "$OUT/pe.fst.gtkw" "$VIEW" '^pe_exchanger\.' 0.14 0.30 25
