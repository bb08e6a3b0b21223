#!/usr/bin/env bash
# Unbounded proofs of the primitive exchanger by k-induction, and cover properties (docs/pe.md 4.5).
# tests/formal/pe_formal.sv with IND=1 (F1 queues, F2 TX/link exactly-once, the tags of F5, err_o = 0 on legal
# traffic, and the invariants I1, I2 they need) around the unchanged RTL; yosys-smtbmc --unroll -i (z3) proves
# the induction step at depth K for MAX_GPUS 2 and 3 (every N <= MAX_GPUS, every position, both topologies,
# runahead on/off), with LQ/RQ depth 2 and 3: the base case (BMC to K cycles after reset) and the induction step
# (any K consecutive states satisfying the assertions are followed by one that does). Then every cover statement (C1..C11) must be reached within COVER_DEPTH
# cycles after reset (yosys-smtbmc -c), and a mutant that breaks an invariant must fail the induction.
# Usage: tests/formal/pe_induct.sh OUTDIR [K] [COVER_DEPTH]
# Environment: YOSYS, SMTBMC, SOLVER (z3), GEN (build/gen), PE_IND_CONFIGS ("2:2:2 3:2:2 2:3:3 3:3:3").
set -euo pipefail
OUT=${1:?output dir}; K=${2:-4}; CD=${3:-8}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}; GEN=${GEN:-build/gen}
CONFIGS=${PE_IND_CONFIGS:-"2:2:2 3:2:2 2:3:3 3:3:3"}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
PROBES=$(sed -n '/^PROBES="/,/"$/p' "$HERE/pe_formal.sh" | tr -d '"' | sed 's/^PROBES=//')

smt() { # name exchanger.v MG LQ RQ
  local name=$1 exch=$2 conn=""
  for p in $PROBES; do conn+="connect -set ${p%%=*} ${p#*=}; "; done
  "$YOSYS" -q -l "$OUT/$name.yosys.log" -p "read_verilog -I$ROOT/$GEN $ROOT/rtl/pe_fifo.v $ROOT/rtl/pe_lowbit.v $exch; \
    read_verilog -formal -sv $HERE/pe_formal.sv; \
    chparam -set IND 1 -set MAX_GPUS $3 -set LQ_DEPTH $4 -set RQ_DEPTH $5 pe_formal; \
    hierarchy -check -top pe_formal; proc; opt_clean; flatten; $conn opt_clean; \
    check -assert; async2sync; dffunmap; write_smt2 -wires $OUT/$name.smt2" >/dev/null
}

t0=$(date +%s)
for c in $CONFIGS; do
  IFS=: read -r mg lq rq <<<"$c"; n=ind_${mg}_${lq}_${rq}
  smt "$n" "$ROOT/rtl/pe_exchanger.v" "$mg" "$lq" "$rq"
  if ! "$SMTBMC" -s "$SOLVER" --unroll -t "$K" --dump-vcd "$OUT/$n-base.vcd" "$OUT/$n.smt2" >"$OUT/$n-base.log" 2>&1; then
    echo "pe_induct: FAIL: base case: a property fails within $K cycles of reset (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq;" \
      "trace $OUT/$n-base.vcd)"; grep -E 'Assert failed' "$OUT/$n-base.log" | head -3
    echo "  reproduce: PE_IND_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
  if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" --dump-vcd "$OUT/$n.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1; then
    echo "pe_induct: PASS: base case and induction step at depth $K (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq)"
  else
    echo "pe_induct: FAIL: the induction does not close (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq; counterexample $OUT/$n.vcd):"
    grep -E 'Assert failed|Error' "$OUT/$n.log" | head -3
    echo "  reproduce: PE_IND_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
done
# covers at the first configuration (reachability from reset)
IFS=: read -r mg lq rq <<<"${CONFIGS%% *}"; n=cover_${mg}_${lq}_${rq}
smt "$n" "$ROOT/rtl/pe_exchanger.v" "$mg" "$lq" "$rq"
"$SMTBMC" -s "$SOLVER" --unroll -c -t "$CD" --dump-vcd "$OUT/$n-%.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1 || true
want=$(grep -c '      cover (' "$HERE/pe_formal.sv"); got=$(grep -c 'Reached cover statement' "$OUT/$n.log" || true)
if [ "$got" -ne "$want" ] || grep -q 'Unreached cover' "$OUT/$n.log"; then
  echo "pe_induct: FAIL: $got of $want cover statements reached within $CD cycles (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq):"
  grep -E 'Unreached|cover' "$OUT/$n.log" | grep -v seconds | tail -5
  echo "  reproduce: $0 $OUT $K $CD"; exit 1
fi
echo "pe_induct: all $want cover statements reached (MAX_GPUS=$mg LQ_DEPTH=$lq RQ_DEPTH=$rq), at steps" \
  "$(grep 'Reached cover' "$OUT/$n.log" | sed 's/.*in step \([0-9]*\).*/\1/' | sort -n | uniq -c | awk '{printf "%s%sx%s", s, $1, $2; s=" "}')"
# non-vacuity: the input batch counter advances on every beat instead of on END beats (breaks I1)
sed 's/if (lq_push \&\& in_end_i) in_b_q <= in_b_q + 16'"'"'d1;/if (lq_push) in_b_q <= in_b_q + 16'"'"'d1;/' \
  "$ROOT/rtl/pe_exchanger.v" > "$OUT/pe_exchanger_mutant.v"
! cmp -s "$OUT/pe_exchanger_mutant.v" "$ROOT/rtl/pe_exchanger.v" || { echo "pe_induct: FAIL: mutation not applied"; exit 1; }
smt mutant "$OUT/pe_exchanger_mutant.v" 2 2 2
if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" "$OUT/mutant.smt2" >"$OUT/mutant.log" 2>&1; then
  echo "pe_induct: FAIL: the mutant (input batch counter on every beat) passed the induction"; exit 1
fi
echo "pe_induct: mutant (input batch counter on every beat) fails the induction; $(( $(date +%s) - t0 )) s"
