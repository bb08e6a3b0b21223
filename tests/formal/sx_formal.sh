#!/usr/bin/env bash
# Bounded proofs of the stream PE: tests/formal/sx_formal.sv (S1..S5, see its header) around the unchanged
# rtl/sx_pe.v, with Yosys (read, flatten, SMT-LIBv2) and yosys-smtbmc + z3 (BMC to DEPTH cycles after reset), the
# cover (a whole 3-GPU batch released with a FIFO full on the way), and two mutants that must FAIL the proof
# (non-vacuity): the walk ignores credits; the release skips the LAST check.
# Usage: tests/formal/sx_formal.sh OUTDIR [DEPTH] [COVER_DEPTH] [MUTANT_DEPTH]
# (the no-credit mutant needs three PRIMs to one receiver on the wire: MUTANT_DEPTH, default DEPTH + 3)
# Environment: YOSYS, SMTBMC (default yosys, yosys-smtbmc), SOLVER (default z3).
set -euo pipefail
OUT=${1:?output dir}; DEPTH=${2:-12}; CDEPTH=${3:-20}; MDEPTH=${4:-$((DEPTH + 3))}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"

build() { # name rtl.v
  "$YOSYS" -q -l "$OUT/$1.yosys.log" -p "read_verilog -I$ROOT/rtl $2 $ROOT/rtl/sx_fifo_ram.v; read_verilog -formal -sv $HERE/sx_formal.sv; \
    hierarchy -check -top sx_formal; proc; opt_clean; flatten; connect -set p_self_n dut.self_n; opt_clean; check -assert; async2sync; dffunmap; \
    write_smt2 -wires $OUT/$1.smt2" >/dev/null
}
prove() { # name rtl.v [depth] -> 0 if the proof passed
  build "$1" "$2"
  "$SMTBMC" -s "$SOLVER" --unroll -t "${3:-$DEPTH}" --dump-vcd "$OUT/$1.vcd" "$OUT/$1.smt2" >"$OUT/$1.log" 2>&1
}

t0=$(date +%s)
if prove sx "$ROOT/rtl/sx_pe.v"; then
  echo "sx_formal: PASS: S1..S5 hold for $DEPTH cycles after reset (MAX_GPUS=3 K=1 DEPTH=2, every N <= 3, position, topology; $(grep -c 'assert (' $HERE/sx_formal.sv) assertions, $SOLVER, $(( $(date +%s) - t0 )) s)"
else
  echo "sx_formal: FAIL: a property fails (trace $OUT/sx.vcd):"; grep -E 'Assert failed|failed|Error' "$OUT/sx.log" | head -5
  echo "  reproduce: $0 $OUT $DEPTH $CDEPTH"
  exit 1
fi
t0=$(date +%s)
if "$SMTBMC" -s "$SOLVER" --unroll -c -t "$CDEPTH" --dump-vcd "$OUT/cover.vcd" "$OUT/sx.smt2" >"$OUT/cover.log" 2>&1 &&
   grep -q 'Reached cover statement' "$OUT/cover.log"; then
  echo "sx_formal: cover reached: N=3, a FIFO full, end of batch 0 released ($(grep -o 'Reached cover statement.* in step [0-9]*' "$OUT/cover.log" | sed 's/.* in step/step/'); $(( $(date +%s) - t0 )) s; trace $OUT/cover.vcd)"
else
  echo "sx_formal: FAIL: cover (a whole 3-GPU batch with a full FIFO) not reached in $CDEPTH cycles"; tail -3 "$OUT/cover.log"; exit 1
fi
# Non-vacuity: each mutant must fail the proof.
mutate() { # name sed-expression
  sed "$2" "$ROOT/rtl/sx_pe.v" > "$OUT/$1.v"
  ! cmp -s "$OUT/$1.v" "$ROOT/rtl/sx_pe.v" || { echo "sx_formal: FAIL: mutation $1 not applied"; exit 1; }
  if prove "$1" "$OUT/$1.v" "$MDEPTH"; then echo "sx_formal: FAIL: mutant $1 passed the proof (vacuous properties?)"; exit 1; fi
  echo "sx_formal: mutant $1 caught: $(grep -m1 'Assert failed' "$OUT/$1.log" | sed 's/.*Assert failed in //')"
}
mutate no_credit 's/sm0 = m0 \& side0_m \& cok_m;/sm0 = m0 \& side0_m;/'
mutate last_early 's/if (r\[3:0\] == nprim \&\& r\[3:0\] < lim \&\& rslot\[r\*SW+SW-1\]) last_at = 1.b1;/if (r[3:0] == nprim \&\& r[3:0] < lim) last_at = 1'"'"'b1;/'
