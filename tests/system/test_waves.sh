#!/usr/bin/env bash
# The saved GTKWave views must keep working: write a fresh waveform with the lockstep harness, then
# tests/common/check_gtkw_view.sh loads the view on it headless and checks every signal and the screenshot.
# Usage: tests/system/test_waves.sh build/cosim/system_16_2_8_8/cosim-system tb/system/system.gtkw OUTDIR [cosim args]
#        (the view shows GPUs 0..2; a stream build takes --scheme gpupd-stream and tb/system/system_stream.gtkw)
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}; shift 3
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --trace traces/glmark2-shadow.gpt --gpus 3 "$@" --waves "$OUT/system.fst" --gtkw "$VIEW" --quiet >"$OUT/cosim.out" || { echo "FAIL: cosim (log $OUT/cosim.out)"; exit 1; }
exec "$(dirname "$0")/../common/check_gtkw_view.sh" "$OUT" "$OUT/system.fst" "$OUT/system.fst.gtkw" "$VIEW" '^gpu[0-9]*\.' 0.30 0.47 25
