#!/usr/bin/env bash
# Bounded proof of the stream PE's properties alone: tests/formal/sx_formal.sv (S1..S5 and the local progress
# properties P; the invariants I1..I6 left out with SX_NO_INV) around the unchanged rtl/sx_pe.v
# (tests/formal/sx_flow.sh), yosys-smtbmc --unroll + z3, BMC to DEPTH cycles after reset at MAX_GPUS:FIFO_DEPTH
# (default 3:2: every N <= 3, position, topology). The unbounded proofs, the covers and the mutants are
# tests/formal/sx_induct.sh (docs/sx.md 4.5).
# Usage: tests/formal/sx_formal.sh OUTDIR [DEPTH] [MAX_GPUS:FIFO_DEPTH]
# Environment: YOSYS, SMTBMC (default yosys, yosys-smtbmc), SOLVER (default z3).
set -euo pipefail
OUT=${1:?output dir}; DEPTH=${2:-5}; CONF=${3:-3:2}
SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
source "$HERE/sx_flow.sh"
IFS=: read -r mg dp <<<"$CONF"
t0=$(date +%s)
sx_smt2 "$OUT" bmc "$ROOT/rtl/sx_pe.v" "$mg" "$dp" -DSX_NO_INV
if "$SMTBMC" -s "$SOLVER" --unroll -t "$DEPTH" --dump-vcd "$OUT/bmc.vcd" "$OUT/bmc.smt2" >"$OUT/bmc.log" 2>&1; then
  echo "sx_formal: PASS: S1..S5 and P hold for $DEPTH cycles after reset (MAX_GPUS=$mg K=1 DEPTH=$dp, every N <= $mg," \
    "position, topology; $SOLVER, $(( $(date +%s) - t0 )) s)"
else
  echo "sx_formal: FAIL: a property fails (trace $OUT/bmc.vcd):"
  tr '\r' '\n' < "$OUT/bmc.log" | grep -aE 'Assert failed|Error' | sed 's/.*Assert failed in //' | head -5
  echo "  reproduce: $0 $OUT $DEPTH $CONF"
  exit 1
fi
