#!/bin/bash
# Speed of the timing model (issue 9 item 7, docs/timing.md): simulated cycles per host second on a fixed
# workload (one OpenArena frame), one GPU and 16 GPUs, against Multi-GPU-ATTILA's 4-20 k cycles/s (one GPU) and
# ~150 cycles/s (16 GPUs) on this kind of machine; the cost of timing over the functional model; peak memory of
# 64 GPUs of gpupd-ra (goal < 1 GB). Printed, not asserted.
# usage: tests/timing/bench_timing.sh build/bin/gpupd-sim OUTDIR [TRACE]
set -euo pipefail
SIM=$1
D=$2
T=${3:-traces/oa-dm4-f109.gpt}
mkdir -p "$D"
PY=/usr/bin/python3
run() {   # scheme gpus extra... -> "wall_s rss_kb cycles"
  local sc=$1 n=$2; shift 2
  local best=""
  for rep in 1 2; do
    /usr/bin/time -f "%e %M" -o "$D/time.txt" "$SIM" render --trace "$T" --scheme "$sc" --gpus "$n" --no-check-masks --stats "$D/s.json" -q "$@" > /dev/null
    read -r w m < "$D/time.txt"
    if [ -z "$best" ] || awk "BEGIN{exit !($w < ${best%% *})}"; then best="$w $m"; fi
  done
  local cyc
  cyc=$($PY -c "import json,sys; c=json.load(open(sys.argv[1]))['cycles']; print(c if c is not None else 0)" "$D/s.json")
  echo "$best $cyc"
}
echo "bench-timing: $(basename "$T"), best of 2, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf "%-12s %4s %12s %9s %14s %16s %10s %10s\n" scheme gpus frame_cycles wall_s cycles/s gpu-cycles/s vs_ATTILA untimed_s
for cfg in "single 1" "dup 4" "gpupd-ra 4" "dup 16" "gpupd-ra 16"; do
  set -- $cfg
  read -r w m c <<< "$(run "$1" "$2")"
  read -r wu mu cu <<< "$(run "$1" "$2" --timing off)"
  $PY - "$1" "$2" "$c" "$w" "$wu" <<'EOF'
import sys
sc, n, c, w, wu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
cps = c / w if w > 0 else 0
ref = 20000.0 if n == 1 else (150.0 if n == 16 else None)
vs = "%.0fx" % (cps / ref) if ref else "-"
print("%-12s %4d %12d %9.2f %14.3g %16.3g %10s %10.2f" % (sc, n, c, w, cps, cps * n, vs, wu))
EOF
done
read -r w m c <<< "$(run gpupd-ra 64)"
echo "memory: gpupd-ra with 64 GPUs: peak RSS $((m / 1024)) MB (goal < 1024 MB), $c cycles, ${w} s"
echo "(vs_ATTILA: frame cycles/s over Multi-GPU-ATTILA's best 20 k cycles/s for one GPU and 150 cycles/s at 16 GPUs;"
echo " the wall time includes the functional model: untimed_s is the same run with --timing off)"
