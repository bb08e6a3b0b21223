#!/bin/bash
# Speed of the timing model (issue 9 item 7, docs/timing.md): simulated cycles per host second on a fixed
# workload (one OpenArena frame), one GPU and 16 GPUs, against Multi-GPU-ATTILA's 4-20 k cycles/s (one GPU) and
# ~150 cycles/s (16 GPUs) on this kind of machine; the cost of timing over the functional model; peak memory of
# 64 GPUs of gpupd-ra (goal < 1 GB); the CPU time of the sweep of one frame (6 schemes x N = 1..16). Rates use
# CPU seconds (user + sys), so that a shared machine does not distort them; wall seconds are printed too.
# Printed, not asserted.
# usage: tests/timing/bench_timing.sh build/bin/gpupd-sim OUTDIR [TRACE]
set -euo pipefail
SIM=$1
D=$2
T=${3:-traces/oa-dm4-f109.gpt}
mkdir -p "$D"
PY=/usr/bin/python3
run() {   # scheme gpus extra... -> "cpu_s rss_kb cycles wall_s" (best CPU of 2)
  local sc=$1 n=$2; shift 2
  local best="" u sy m w c
  for rep in 1 2; do
    /usr/bin/time -f "%U %S %M %e" -o "$D/time.txt" "$SIM" render --trace "$T" --scheme "$sc" --gpus "$n" --no-check-masks \
      --stats "$D/s.json" -q "$@" > /dev/null
    read -r u sy m w < "$D/time.txt"
    c=$(awk -v u="$u" -v s="$sy" 'BEGIN{printf "%.2f", u + s}')
    if [ -z "$best" ] || awk -v a="$c" -v b="${best%% *}" 'BEGIN{exit !(a < b)}'; then best="$c $m $w"; fi
  done
  local cyc
  cyc=$($PY -c "import json,sys; c=json.load(open(sys.argv[1]))['cycles']; print(c if c is not None else 0)" "$D/s.json")
  set -- $best
  echo "$1 $2 $cyc $3"
}
echo "bench-timing: $(basename "$T"), best of 2, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf "%-12s %4s %12s %7s %7s %12s %14s %10s %11s\n" scheme gpus frame_cycles cpu_s wall_s cycles/s gpu-cycles/s vs_ATTILA untimed_cpu
for cfg in "single 1" "dup 4" "gpupd-ra 4" "dup 16" "gpupd-ra 16"; do
  set -- $cfg
  read -r w m c wall <<< "$(run "$1" "$2")"
  read -r wu mu cu wallu <<< "$(run "$1" "$2" --timing off)"
  $PY -c '
import sys
sc, n, c, w, wu, wall = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
cps = c / w if w > 0 else 0
ref = 20000.0 if n == 1 else (150.0 if n == 16 else None)
vs = "%.0fx" % (cps / ref) if ref else "-"
print("%-12s %4d %12d %7.2f %7.2f %12.3g %14.3g %10s %11.2f" % (sc, n, c, w, wall, cps, cps * n, vs, wu))
' "$1" "$2" "$c" "$w" "$wu" "$wall"
done
read -r w m c wall <<< "$(run gpupd-ra 64)"
echo "memory: gpupd-ra with 64 GPUs: peak RSS $((m / 1024)) MB (goal < 1024 MB), $c cycles, $w CPU s"
tot=0
for sc in single dup gpupd gpupd-batch gpupd-ra afr; do
  for n in 1 2 4 8 16; do
    [ $sc = single ] && [ $n != 1 ] && continue
    /usr/bin/time -f "%U %S" -o "$D/t1.txt" "$SIM" render --trace "$T" --scheme $sc --gpus $n --no-check-masks -q > /dev/null
    tot=$(awk -v t="$tot" '{printf "%.2f", t + $1 + $2}' "$D/t1.txt")
  done
done
echo "sweep of one frame (26 runs: 6 schemes x N = 1, 2, 4, 8, 16): $tot CPU s -> $(awk -v t="$tot" 'BEGIN{printf "%.1f", t / 2}') s on 2 idle cores (goal <= 60 s)"
echo "(vs_ATTILA: frame cycles per CPU second over Multi-GPU-ATTILA's best 20 k cycles/s for one GPU and 150 cycles/s"
echo " at 16 GPUs; the time includes the functional model: untimed_cpu is the same run with --timing off)"
