#!/usr/bin/env bash
# Bounded proofs of the primitive exchanger: tests/formal/pe_formal.sv (properties F1..F5 and the invariants
# I1..I9, see its header) around the unchanged rtl/pe_exchanger.v, with Yosys (tests/formal/pe_flow.sh) and
# yosys-smtbmc + z3 (BMC to DEPTH cycles after reset). Also checks that the properties are not vacuous:
# a mutated copy of the RTL (the turn engine ignores LAST markers) must FAIL the proof.
# Usage: tests/formal/pe_formal.sh OUTDIR [DEPTH] [MAX_GPUS LQ_DEPTH RQ_DEPTH]
# Environment: YOSYS, SMTBMC (default yosys, yosys-smtbmc), SOLVER (default z3), GEN (default build/gen).
set -euo pipefail
OUT=${1:?output dir}; DEPTH=${2:-20}; MG=${3:-3}; LQ=${4:-2}; RQ=${5:-2}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}; GEN=${GEN:-build/gen}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
source "$HERE/pe_flow.sh"

prove() { # name exchanger.v -> 0 if the proof passed
  pe_smt2 "$OUT" "$1" "$2" "$MG" "$LQ" "$RQ"
  "$SMTBMC" -s "$SOLVER" --unroll -t "$DEPTH" --dump-vcd "$OUT/$1.vcd" "$OUT/$1.smt2" >"$OUT/$1.log" 2>&1
}

t0=$(date +%s)
if prove pe "$ROOT/rtl/pe_exchanger.v"; then
  echo "pe_formal: PASS: F1..F5 hold for $DEPTH cycles after reset (MAX_GPUS=$MG LQ_DEPTH=$LQ RQ_DEPTH=$RQ, $(grep -c 'assert (' $HERE/pe_formal.sv) assertions, solver $SOLVER, $(( $(date +%s) - t0 )) s)"
else
  echo "pe_formal: FAIL: a property fails (trace $OUT/pe.vcd):";  tr '\r' '\n' < "$OUT/pe.log" | grep -aE 'Assert failed|Error' | head -5
  echo "  reproduce: $0 $OUT $DEPTH $MG $LQ $RQ"
  exit 1
fi
# Non-vacuity: the mutant takes its turn without waiting for the LAST markers of the GPUs before it.
sed 's/((lasts_cur \& below_m) == below_m)/1'"'"'b1/' "$ROOT/rtl/pe_exchanger.v" > "$OUT/pe_exchanger_mutant.v"
grep -q "1'b1;" "$OUT/pe_exchanger_mutant.v" && ! cmp -s "$OUT/pe_exchanger_mutant.v" "$ROOT/rtl/pe_exchanger.v" || { echo "pe_formal: FAIL: mutation not applied"; exit 1; }
if prove mutant "$OUT/pe_exchanger_mutant.v"; then
  echo "pe_formal: FAIL: the mutant that ignores LAST markers passed the proof (vacuous properties?)"; exit 1
fi
echo "pe_formal: mutant (turn without LAST markers) caught: $(tr '\r' '\n' < "$OUT/mutant.log" | grep -a -m1 'Assert failed' | sed 's/.*Assert failed in //')"
