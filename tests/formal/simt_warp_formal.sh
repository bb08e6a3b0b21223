#!/usr/bin/env bash
# Proofs of the warp's scoreboard and reconvergence stack (tests/formal/simt_warp_formal.sv, properties W1..W3,
# S1..S3 in its header; docs/simt.md section 3) around the unchanged rtl/simt_warp.v: Yosys (flatten, memories
# to registers, probe wiring, SMT-LIBv2), then yosys-smtbmc + z3: the base case (BMC to K cycles after reset)
# and the induction step at depth K (--unroll -i) for each STACK_DEPTH:TIMING_REGS of SIMT_WARP_CONFIGS, the
# covers (each reached within COVER_DEPTH cycles; 0 skips them and says so), and a mutant that must fail
# (non-vacuity).
# Usage: tests/formal/simt_warp_formal.sh OUTDIR [K] [COVER_DEPTH]
# Environment: YOSYS, SMTBMC, SOLVER (z3), GEN (build/gen, needs isa_defs.vh), SIMT_WARP_CONFIGS ("4:1"),
# SIMT_WARP_INDUCT (0, default: the base case only; 1: also the induction step and the mutant, docs/simt.md).
set -euo pipefail
OUT=${1:?output dir}; K=${2:-3}; CD=${3:-0}
YOSYS=${YOSYS:-yosys}; SMTBMC=${SMTBMC:-yosys-smtbmc}; SOLVER=${SOLVER:-z3}; GEN=${GEN:-build/gen}
CONFIGS=${SIMT_WARP_CONFIGS:-"4:1"}; INDUCT=${SIMT_WARP_INDUCT:-0}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
PROBES="p_settled=dut.settled_q p_ibuf_v=dut.ibuf_v_q p_hazard=dut.hazard p_split=dut.split p_ovf=dut.ovf
p_same_rpc=dut.same_rpc p_pw_v=dut.pw_v p_ps_v=dut.ps_v p_exited=dut.exited_q p_top_mask=dut.top_mask p_fall=dut.fall
p_gval=dut.gval p_top_pc=dut.top_pc p_top_rpc=dut.top_rpc p_chk_reg=dut.chk_reg p_ps_reg=dut.ps_reg
p_chk_pred=dut.chk_pred p_ps_pred=dut.ps_pred p_sb_pred=dut.sb_pred_q p_pw_case=dut.pw_case p_pw_top=dut.pw_top
p_pw_pc0=dut.pw_pc0 p_pw_pc1=dut.pw_pc1 p_pw_npc=dut.pw_npc p_pw_rpc=dut.pw_rpc p_pw_ex=dut.pw_ex p_pw_fall=dut.pw_fall"

smt() { # name warp.v STACK_DEPTH TIMING_REGS
  local name=$1 warp=$2 sd=$3 tr=$4 conn="" mconn="" p i
  for p in $PROBES; do conn+="connect -set ${p%%=*} ${p#*=}; "; done
  for (( i = 0; i < sd; i++ )); do
    mconn+="connect -set p_smask[$(( 32 * i + 31 )):$(( 32 * i ))] dut.smask_q[$i]; "
    mconn+="connect -set p_spc[$(( 16 * i + 15 )):$(( 16 * i ))] dut.spc_q[$i]; "
    mconn+="connect -set p_srpc[$(( 17 * i + 16 )):$(( 17 * i ))] dut.srpc_q[$i]; "
  done
  "$YOSYS" -q -l "$OUT/$name.yosys.log" -p "read_verilog -I$ROOT/$GEN $warp $ROOT/rtl/simt_decode.v; \
    read_verilog -I$ROOT/$GEN -formal -sv $HERE/simt_warp_formal.sv; \
    chparam -set STACK_DEPTH $sd -set TIMING_REGS $tr simt_warp_formal; \
    hierarchy -check -top simt_warp_formal; proc; opt_clean; flatten; $conn memory_map; $mconn opt_clean; setundef -undriven -anyseq w:*pred_q\$rdmux*; \
    check -assert; async2sync; dffunmap; write_smt2 -wires $OUT/$name.smt2" >/dev/null
}

t0=$(date +%s)
for c in $CONFIGS; do
  IFS=: read -r sd tr <<<"$c"; n=warp_${sd}_${tr}
  smt "$n" "$ROOT/rtl/simt_warp.v" "$sd" "$tr"
  if ! "$SMTBMC" -s "$SOLVER" --unroll -t "$K" --dump-vcd "$OUT/$n-base.vcd" "$OUT/$n.smt2" >"$OUT/$n-base.log" 2>&1; then
    echo "simt_warp_formal: FAIL: base case: a property fails within $K cycles of reset (STACK_DEPTH=$sd TIMING_REGS=$tr;" \
      "trace $OUT/$n-base.vcd)"; tr '\r' '\n' < "$OUT/$n-base.log" | grep -E 'Assert failed' | head -3
    echo "  reproduce: SIMT_WARP_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
  if [ "$INDUCT" = 0 ]; then
    echo "simt_warp_formal: PASS: every property holds for $K cycles after reset (STACK_DEPTH=$sd TIMING_REGS=$tr;" \
      "induction step not run: SIMT_WARP_INDUCT=0)"
  elif "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" --dump-vcd "$OUT/$n.vcd" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1; then
    echo "simt_warp_formal: PASS: base case and induction step at depth $K (STACK_DEPTH=$sd TIMING_REGS=$tr)"
  else
    echo "simt_warp_formal: FAIL: the induction does not close (STACK_DEPTH=$sd TIMING_REGS=$tr; counterexample $OUT/$n.vcd):"
    tr '\r' '\n' < "$OUT/$n.log" | grep -E 'Assert failed|Error' | head -3
    echo "  reproduce: SIMT_WARP_CONFIGS=$c $0 $OUT $K $CD"; exit 1
  fi
done
IFS=: read -r sd tr <<<"${CONFIGS%% *}"; n=cover_${sd}_${tr}
if [ "$CD" -gt 0 ]; then
  smt "$n" "$ROOT/rtl/simt_warp.v" "$sd" "$tr"
  "$SMTBMC" -s "$SOLVER" --unroll -c -t "$CD" "$OUT/$n.smt2" >"$OUT/$n.log" 2>&1 || true
  want=$(grep -c '            cover (' "$HERE/simt_warp_formal.sv"); got=$(tr '\r' '\n' < "$OUT/$n.log" | grep -ac 'Reached cover statement' || true)
  if [ "$got" -ne "$want" ]; then
    echo "simt_warp_formal: FAIL: $got of $want cover statements reached within $CD cycles (STACK_DEPTH=$sd TIMING_REGS=$tr)"
    echo "  reproduce: $0 $OUT $K $CD"; exit 1
  fi
  echo "simt_warp_formal: all $want cover statements reached within $CD cycles (STACK_DEPTH=$sd TIMING_REGS=$tr)"
else
  echo "simt_warp_formal: cover statements not run (COVER_DEPTH 0)"
fi
[ "$INDUCT" = 0 ] && { echo "simt_warp_formal: mutant not run (it is checked against the induction step: SIMT_WARP_INDUCT=1)"; exit 0; }
# non-vacuity: the scoreboard ignores the third source (fmad's C operand)
sed 's/({63'"'"'d0, f_use_rc} << f_rc) | //' "$ROOT/rtl/simt_warp.v" > "$OUT/simt_warp_mutant.v"
! cmp -s "$OUT/simt_warp_mutant.v" "$ROOT/rtl/simt_warp.v" || { echo "simt_warp_formal: FAIL: mutation not applied"; exit 1; }
smt mutant "$OUT/simt_warp_mutant.v" 4 1
# (the induction step: from reset a dependent fmad issues later than any small K)
if "$SMTBMC" -s "$SOLVER" --unroll -i -t "$K" "$OUT/mutant.smt2" >"$OUT/mutant.log" 2>&1; then
  echo "simt_warp_formal: FAIL: the mutant (no hazard check of the C operand) passed the induction"; exit 1
fi
echo "simt_warp_formal: mutant (no hazard check of the C operand) fails the induction; $(( $(date +%s) - t0 )) s"
