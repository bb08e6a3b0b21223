#!/usr/bin/env bash
# Unbounded proofs of the primitive exchanger by k-induction, and cover properties (docs/pe.md 4.5).
# tests/formal/pe_formal.sv (F1 queues, F2 TX/link, F3 exactly once per destination, F4 turn order, F5 in-order
# output with its tags, err_o = 0 on legal traffic, and the invariants I1..I9 that make them inductive) around
# the unchanged RTL (tests/formal/pe_flow.sh); yosys-smtbmc --unroll -i (z3) proves the base case (BMC to K
# cycles after reset) and the induction step (any K consecutive states satisfying the assertions are followed
# by one that does) for each MAX_GPUS:LQ_DEPTH:RQ_DEPTH of PE_IND_CONFIGS (every N <= MAX_GPUS, every
# position, both topologies, runahead on/off, any number of batches). Then every cover statement (C1..C11)
# must be reached within COVER_DEPTH cycles after reset (yosys-smtbmc -c), and a mutant that breaks an
# invariant must fail the induction.
# Usage: tests/formal/pe_induct.sh OUTDIR [K] [COVER_DEPTH]
# Environment: YOSYS, SMTBMC, SOLVER (z3), GEN (build/gen), PE_IND_CONFIGS (default "2:2:2"), PE_IND_MUTANTS (1: run
# the two non-vacuity mutants, the default; 0: skip them).
set -euo pipefail
OUT=${1:?output dir}; K=${2:-1}; CD=${3:-8}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}; GEN=${GEN:-build/gen}
CONFIGS=${PE_IND_CONFIGS:-"2:2:2"}
MUTANTS=${PE_IND_MUTANTS:-1}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
source "$HERE/pe_flow.sh"
smt() { pe_smt2 "$OUT" "$@"; }   # name exchanger.v MG LQ RQ

t0=$(date +%s)
for c in $CONFIGS; do
  IFS=: read -r mg lq rq <<<"$c"; n=ind_${mg}_${lq}_${rq}
  smt "$n" "$ROOT/rtl/pe_exchanger.v" "$mg" "$lq" "$rq"
  if ! "$SMTBMC" -s "$SOLVER" --unroll -t "$K" --dump-vcd "$OUT/$n-base.vcd" "$OUT/$n.smt2" >"$OUT/$n-base.log" 2>&1; then
    echo "pe_induct: FAIL: base case: a property fails within $K cycles of reset (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq;" \
      "trace $OUT/$n-base.vcd)"; tr '\r' '\n' < "$OUT/$n-base.log" | grep -aE 'Assert failed' | head -3
    echo "  reproduce: PE_IND_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
  if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" --dump-vcd "$OUT/$n.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1; then
    echo "pe_induct: PASS: base case and induction step at depth $K (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq)"
  else
    echo "pe_induct: FAIL: the induction does not close (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq; counterexample $OUT/$n.vcd):"
    tr '\r' '\n' < "$OUT/$n.log" | grep -aE 'Assert failed|Error' | head -3
    echo "  reproduce: PE_IND_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
done
# covers at the first configuration (reachability from reset); COVER_DEPTH 0 skips them
if [ "$CD" -gt 0 ]; then
  IFS=: read -r mg lq rq <<<"${CONFIGS%% *}"; n=cover_${mg}_${lq}_${rq}
  # reachability only depends on the assumptions (yosys-smtbmc -c never assumes the assertions), so the cover
  # model drops the assertions and the shadow logic only they read: the same reachable states, a far smaller
  # problem (at 3:3:3 about 35 s of CPU instead of more than 7 min; the induction above proves the assertions)
  PE_FLOW_FORMAL="chformal -assert -remove;" smt "$n" "$ROOT/rtl/pe_exchanger.v" "$mg" "$lq" "$rq"
  "$SMTBMC" -s "$SOLVER" --unroll -c -t "$CD" --dump-vcd "$OUT/$n-%.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1 || true
  want=$(grep -c '      cover (' "$HERE/pe_formal.sv"); got=$(grep -c 'Reached cover statement' "$OUT/$n.log" || true)
  if [ "$got" -ne "$want" ] || grep -q 'Unreached cover' "$OUT/$n.log"; then
    echo "pe_induct: FAIL: $got of $want cover statements reached within $CD cycles (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq):"
    grep -E 'Unreached|cover' "$OUT/$n.log" | grep -v seconds | tail -5
    echo "  reproduce: $0 $OUT $K $CD"; exit 1
  fi
  echo "pe_induct: all $want cover statements reached (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq), at steps" \
    "$(grep 'Reached cover' "$OUT/$n.log" | sed 's/.*in step \([0-9]*\).*/\1/' | sort -n | uniq -c | awk '{printf "%s%sx%s", s, $1, $2; s=" "}')"
else
  echo "pe_induct: cover statements not run (COVER_DEPTH 0)"
fi
# non-vacuity: two mutants must fail the induction: the input batch counter advances on every beat instead of
# on END beats (breaks I1), and the turn is taken without the LAST markers of the GPUs before this one (F4)
mutant() { # name description sed-expression
  sed "$3" "$ROOT/rtl/pe_exchanger.v" > "$OUT/$1.v"
  ! cmp -s "$OUT/$1.v" "$ROOT/rtl/pe_exchanger.v" || { echo "pe_induct: FAIL: mutation not applied ($2)"; exit 1; }
  smt "$1" "$OUT/$1.v" 2 2 2
  if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" "$OUT/$1.smt2" >"$OUT/$1.log" 2>&1; then
    echo "pe_induct: FAIL: the mutant ($2) passed the induction"; exit 1
  fi
  echo "pe_induct: mutant ($2) fails the induction"
}
if [ "$MUTANTS" = 1 ]; then
  mutant mutant_inb "input batch counter on every beat" 's/if (lq_push \&\& in_end_i) in_b_q <= in_b_q + 16'"'"'d1;/if (lq_push) in_b_q <= in_b_q + 16'"'"'d1;/'
  mutant mutant_turn "turn without LAST markers" 's/((lasts_cur \& below_m) == below_m)/1'"'"'b1/'
else
  echo "pe_induct: mutants not run (PE_IND_MUTANTS=0; make test-long-pe-induct runs them)"
fi
echo "pe_induct: $(( $(date +%s) - t0 )) s"
