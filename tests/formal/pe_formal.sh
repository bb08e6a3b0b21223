#!/usr/bin/env bash
# Bounded proofs of the primitive exchanger: tests/formal/pe_formal.sv (properties F1..F5, see its header)
# around the unchanged rtl/pe_exchanger.v, with Yosys (read, flatten, probe wiring, SMT-LIBv2) and
# yosys-smtbmc + z3 (BMC to DEPTH cycles after reset). Also checks that the properties are not vacuous:
# a mutated copy of the RTL (the turn engine ignores LAST markers) must FAIL the proof.
# Usage: tests/formal/pe_formal.sh OUTDIR [DEPTH] [MAX_GPUS LQ_DEPTH RQ_DEPTH]
# Environment: YOSYS, SMTBMC (default yosys, yosys-smtbmc), SOLVER (default z3), GEN (default build/gen).
set -euo pipefail
OUT=${1:?output dir}; DEPTH=${2:-20}; MG=${3:-3}; LQ=${4:-2}; RQ=${5:-2}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}; GEN=${GEN:-build/gen}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
RTL="$ROOT/rtl/pe_fifo.v $ROOT/rtl/pe_lowbit.v"

# probe wire <- internal signal of the flattened design
PROBES="p_lq_push=dut.lq_push p_lq_pop=dut.lq_pop p_lq_cnt=dut.lq_cnt p_bk0_push=dut.bk0_push p_bk0_pop=dut.u_bk0.pop_i
p_bk1_push=dut.bk1_push p_bk1_pop=dut.u_bk1.pop_i p_bk0_cnt=dut.bk0_cnt p_bk1_cnt=dut.bk1_cnt p_prim0=dut.prim0
p_prim1=dut.prim1 p_last0=dut.last0 p_last1=dut.last1 p_keep=dut.keep p_entry_pop=dut.entry_pop p_end_pop=dut.end_pop
p_head_end=dut.head_end p_t0=dut.t0 p_t1=dut.t1 p_head_mask=dut.head_mask p_head_tag=dut.head_tag p_head_id=dut.head_id
p_ob=dut.ob_q p_in_b=dut.in_b_q p_cur=dut.cur_q p_turn_done=dut.turn_done_q"

prove() { # name exchanger.v -> 0 if the proof passed
  local name=$1 exch=$2 conn=""
  for p in $PROBES; do conn+="connect -set ${p%%=*} ${p#*=}; "; done
  "$YOSYS" -q -l "$OUT/$name.yosys.log" -p "read_verilog -I$ROOT/$GEN $RTL $exch; \
    read_verilog -formal -sv $HERE/pe_formal.sv; \
    chparam -set MAX_GPUS $MG -set LQ_DEPTH $LQ -set RQ_DEPTH $RQ pe_formal; \
    hierarchy -check -top pe_formal; proc; opt_clean; flatten; $conn opt_clean; \
    check -assert; async2sync; dffunmap; write_smt2 -wires $OUT/$name.smt2" >/dev/null
  "$SMTBMC" -s "$SOLVER" --unroll -t "$DEPTH" --dump-vcd "$OUT/$name.vcd" "$OUT/$name.smt2" >"$OUT/$name.log" 2>&1
}

t0=$(date +%s)
if prove pe "$ROOT/rtl/pe_exchanger.v"; then
  echo "pe_formal: PASS: F1..F5 hold for $DEPTH cycles after reset (MAX_GPUS=$MG LQ_DEPTH=$LQ RQ_DEPTH=$RQ, $(grep -c 'assert (' $HERE/pe_formal.sv) assertions, solver $SOLVER, $(( $(date +%s) - t0 )) s)"
else
  echo "pe_formal: FAIL: a property fails (trace $OUT/pe.vcd):"; grep -E 'Assert failed|failed|Error' "$OUT/pe.log" | head -5
  echo "  reproduce: $0 $OUT $DEPTH $MG $LQ $RQ"
  exit 1
fi
# Non-vacuity: the mutant takes its turn without waiting for the LAST markers of the GPUs before it.
sed 's/((lasts_cur \& below_m) == below_m)/1'"'"'b1/' "$ROOT/rtl/pe_exchanger.v" > "$OUT/pe_exchanger_mutant.v"
grep -q "1'b1;" "$OUT/pe_exchanger_mutant.v" && ! cmp -s "$OUT/pe_exchanger_mutant.v" "$ROOT/rtl/pe_exchanger.v" || { echo "pe_formal: FAIL: mutation not applied"; exit 1; }
if prove mutant "$OUT/pe_exchanger_mutant.v"; then
  echo "pe_formal: FAIL: the mutant that ignores LAST markers passed the proof (vacuous properties?)"; exit 1
fi
echo "pe_formal: mutant (turn without LAST markers) caught: $(grep -m1 'Assert failed' "$OUT/mutant.log" | sed 's/.*Assert failed in //')"
