#!/usr/bin/env bash
# The saved GTKWave view must keep working: write a fresh waveform with the lockstep harness, then
# tests/common/check_gtkw_view.sh loads the view on it headless and checks every signal and the screenshot.
# Usage: tests/simt/test_waves.sh build/cosim/simt_8_4_8_8_4/cosim-simt tb/simt/simt.gtkw OUTDIR [cosim args]
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}; shift 3; EXTRA="$*"
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --seed 5 --programs 1 $EXTRA --waves "$OUT/simt.fst" --gtkw "$VIEW" >"$OUT/cosim.out" || { echo "FAIL: cosim (log $OUT/cosim.out)"; exit 1; }
exec "$(dirname "$0")/../common/check_gtkw_view.sh" "$OUT" "$OUT/simt.fst" "$OUT/simt.fst.gtkw" "$VIEW" '^simt_core\.' 0.14 0.30 20
