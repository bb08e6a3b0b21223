#!/usr/bin/env bash
# Unbounded proofs of the stream PE by k-induction, cover properties and mutants (docs/sx.md 4.5).
# tests/formal/sx_formal.sv (S1..S5, the local progress properties P and the invariants I1..I6 that make them
# inductive) around the unchanged rtl/sx_pe.v (tests/formal/sx_flow.sh); yosys-smtbmc --unroll (z3) proves the
# base case (BMC to K cycles after reset) and the induction step (-i: any K consecutive states satisfying the
# assertions are followed by one that does) for each MAX_GPUS:DEPTH of SX_IND_CONFIGS (K = 1 lane; every
# N <= MAX_GPUS, every position, both topologies, any number of batches). Then every cover must be reached
# within COVER_DEPTH cycles after reset (one BMC query each, below): C1..C10 at SX_COVER_CONFIG, C11 at
# SX_LIVE_CONFIG; and each mutant (a bug put into a copy of the RTL) must fail the induction.
# Usage: tests/formal/sx_induct.sh OUTDIR [K] [COVER_DEPTH]
# Environment: YOSYS, SMTBMC, SOLVER (z3), SX_IND_CONFIGS (default "2:2"; empty: none), SX_COVER_CONFIG (default "3:2"),
# SX_LIVE_CONFIG (default "2:4"),
# SX_IND_MUTANTS (1: run the mutants, the default; 0: skip them), SX_IND_MUTANT_CONFIG (default "2:2").
set -euo pipefail
OUT=${1:?output dir}; K=${2:-1}; CD=${3:-0}
SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}
CONFIGS=${SX_IND_CONFIGS-"2:2"}; CCONF=${SX_COVER_CONFIG:-"3:2"}; LCONF=${SX_LIVE_CONFIG:-"2:4"}
MUTANTS=${SX_IND_MUTANTS:-1}; MCONF=${SX_IND_MUTANT_CONFIG:-"2:2"}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
source "$HERE/sx_flow.sh"
asserts() { tr '\r' '\n' < "$1" | grep -aE 'Assert failed|Error' | sed 's/.*Assert failed in //' | head -3; }

t0=$(date +%s)
for c in $CONFIGS; do
  IFS=: read -r mg dp <<<"$c"; n=ind_${mg}_${dp}; t1=$(date +%s)
  sx_smt2 "$OUT" "$n" "$ROOT/rtl/sx_pe.v" "$mg" "$dp"
  if ! "$SMTBMC" -s "$SOLVER" --unroll -t "$K" --dump-vcd "$OUT/$n-base.vcd" "$OUT/$n.smt2" >"$OUT/$n-base.log" 2>&1; then
    echo "sx_induct: FAIL: base case: a property fails within $K cycles of reset (MAX_GPUS=$mg DEPTH=$dp;" \
      "trace $OUT/$n-base.vcd)"; asserts "$OUT/$n-base.log"
    echo "  reproduce: SX_IND_CONFIGS=$c SX_IND_MUTANTS=0 $0 $OUT $K 0"; exit 1
  fi
  if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" --dump-vcd "$OUT/$n.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1; then
    echo "sx_induct: PASS: base case and induction step at depth $K (MAX_GPUS=$mg DEPTH=$dp, every N <= $mg;" \
      "$(grep -c 'assert (' "$HERE/sx_formal.sv") assertion sites; $(( $(date +%s) - t1 )) s)"
  else
    echo "sx_induct: FAIL: the induction does not close (MAX_GPUS=$mg DEPTH=$dp; counterexample $OUT/$n.vcd):"
    asserts "$OUT/$n.log"
    echo "  reproduce: SX_IND_CONFIGS=$c SX_IND_MUTANTS=0 $0 $OUT $K 0"; exit 1
  fi
done
# covers: reachability from reset (COVER_DEPTH 0 skips them): C1..C10 at SX_COVER_CONFIG, C11 (4 live batches,
# needs DEPTH >= 4 at a source) at SX_LIVE_CONFIG. One query per cover (sx_formal.sv SX_COVER_AT=i): a model whose
# only assertion is the cover's negation (no invariants, no properties: the reachable states are the same, since
# the solver never assumes assertions), and one BMC check over the whole window of steps 0..COVER_DEPTH-1
# (-t 0:CD:CD): a satisfying trace (the "failure") reaches the cover; cheaper than yosys-smtbmc -c, which proves
# every step before the cover's unreachable in turn.
cover() { # config define index
  local mg dp n t1; IFS=: read -r mg dp <<<"$1"; n=cover_c$3_${mg}_${dp}; t1=$(date +%s)
  sx_smt2 "$OUT" "$n" "$ROOT/rtl/sx_pe.v" "$mg" "$dp" "-D$2 -DSX_NO_INV -DSX_COVER_AT=$3"
  if "$SMTBMC" -s "$SOLVER" --unroll -t "0:$CD:$CD" --dump-vcd "$OUT/$n.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1; then
    echo "sx_induct: FAIL: cover C$3 ($2) not reached within $CD cycles (MAX_GPUS=$mg DEPTH=$dp; $OUT/$n.log)"
    echo "  reproduce: SX_IND_CONFIGS= SX_COVER_CONFIG=$CCONF SX_LIVE_CONFIG=$LCONF SX_IND_MUTANTS=0 $0 $OUT $K $CD"; exit 1
  elif ! tr '\r' '\n' < "$OUT/$n.log" | grep -aq 'Assert failed'; then
    echo "sx_induct: FAIL: cover C$3 query did not run ($OUT/$n.log):"; tail -3 "$OUT/$n.log"; exit 1
  fi
  covered+=" C$3"; echo "sx_induct: cover C$3 reached within $CD cycles (MAX_GPUS=$mg DEPTH=$dp; $(( $(date +%s) - t1 )) s; trace $OUT/$n.vcd)"
}
if [ "$CD" -gt 0 ]; then
  covered=""
  want=$(grep -o '`SX_COV([0-9]*' "$HERE/sx_formal.sv" | wc -l)
  for i in 1 2 3 4 5 6 7 8 9 10; do cover "$CCONF" SX_COVER $i; done
  cover "$LCONF" SX_COVER_LIVE 11
  [ "$(wc -w <<<"$covered")" -eq "$want" ] || { echo "sx_induct: FAIL: $want cover statements in sx_formal.sv, queried:$covered"; exit 1; }
  echo "sx_induct: all $want covers reached within $CD cycles:$covered"
else
  echo "sx_induct: cover statements not run (COVER_DEPTH 0)"
fi
# non-vacuity: each mutant must fail the induction (base case or step); a sed script may hold the same change for
# two spellings of the RTL line
mutant() { # name description sed-expression
  local mg dp; IFS=: read -r mg dp <<<"$MCONF"
  sed "$3" "$ROOT/rtl/sx_pe.v" > "$OUT/$1.v"
  ! cmp -s "$OUT/$1.v" "$ROOT/rtl/sx_pe.v" || { echo "sx_induct: FAIL: mutation not applied ($2)"; exit 1; }
  sx_smt2 "$OUT" "$1" "$OUT/$1.v" "$mg" "$dp"
  if "$SMTBMC" -s "$SOLVER" --unroll -t "$K" "$OUT/$1.smt2" >"$OUT/$1-base.log" 2>&1 &&
     "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" --dump-vcd "$OUT/$1.vcd" "$OUT/$1.smt2" >"$OUT/$1.log" 2>&1; then
    echo "sx_induct: FAIL: the mutant ($2) passed the induction"; exit 1
  fi
  echo "sx_induct: mutant ($2) fails the induction: $(cat "$OUT/$1-base.log" "$OUT/$1.log" 2>/dev/null | tr '\r' '\n' | grep -am1 'Assert failed' | sed 's/.*Assert failed in //')"
}
if [ "$MUTANTS" = 1 ]; then
  mutant mut_credit "the walk ignores the credits of port 0" 's/sm0 = m0 \& side0_m \& cok_m;/sm0 = m0 \& side0_m;/'
  mutant mut_last_credit "LAST leaves port 0 without a credit at every receiver" 's/s0 = need0 \&\& !last_sent_q\[0\] \&\& data_ok0 \&\& ((side0_m \& ~cok_m) == {M{1.b0}});/s0 = need0 \&\& !last_sent_q[0] \&\& data_ok0;/'
  mutant mut_final "the end of batch one source early" 's/final_s = ({1.b0, rs_q} + 7.d1) >= n_eff;/final_s = ({1'"'"'b0, rs_q} + 7'"'"'d2) >= n_eff;/'
  mutant mut_keep "the keep is not cleared from the remaining mask" 's/mn = mn \& ~gbit_m;/mn = mn;/'
  mutant mut_pend_self "pops of the self FIFO become pending credits" 's/if (f\[5:0\] != cfg_gpu_id_i) c_n = c_n + pops_s;/c_n = c_n + pops_s;/; s/= self_f ? pq : pq + pops;/= pq + pops;/; s/= (rs_q != F || self_f) ? pq/= (rs_q != F) ? pq/'
else
  echo "sx_induct: mutants not run (SX_IND_MUTANTS=0; make test-long-sx-induct runs them)"
fi
echo "sx_induct: $(( $(date +%s) - t0 )) s"
