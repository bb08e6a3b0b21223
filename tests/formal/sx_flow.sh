# Shared Yosys flow of the stream PE proofs (sourced by sx_formal.sh and sx_induct.sh): the unchanged RTL inside
# tests/formal/sx_formal.sv, the FIFO array mapped to registers (the invariants read its words), the wrapper's
# probe wires connected to internal signals after `flatten` (Yosys 0.23 has no `bind`), SMT-LIBv2 out. A read of
# the array past MAX_GPUS * DEPTH words (a depth that is not a power of two; never a slot that a count covers) is
# left free (setundef -anyseq): an over-approximation.
# sx_smt2 OUTDIR NAME SX_PE.v MAX_GPUS DEPTH [yosys read_verilog defines, e.g. -DSX_COVER]
# Environment: YOSYS (yosys), SX_FLOW_FORMAL (Yosys commands run after proc, e.g. the cover run's
# "chformal -assert -remove;"); ROOT and HERE set by the caller.

# probe wire <- internal signal of the flattened design
SX_PROBES="p_self_n=dut.self_n p_rp=dut.rp_q p_wp=dut.wp_q p_cnt_q=dut.cnt_q p_pend=dut.pend_q p_credit=dut.credit_q
p_rx_b=dut.rx_b_q p_in_b=dut.in_b_q p_rb=dut.rb_q p_rs=dut.rs_q p_rem_v=dut.rem_v_q p_rem=dut.rem_q
p_last_sent=dut.last_sent_q"

sx_smt2() {
  local out=$1 name=$2 pe=$3 mg=$4 dp=$5 defs=${6:-} conn="" p i
  for p in $SX_PROBES; do conn+="connect -set ${p%%=*} ${p#*=}; "; done
  for (( i = 0; i < mg * dp; i++ )); do conn+="connect -set p_mem[$(( (i + 1) * 33 - 1 )):$(( i * 33 ))] dut.u_ram.mem_q[$i]; "; done
  # a copy of the read pointer of FIFO[rs_q] (rrp_q), where the RTL keeps one: invariant I1 covers it too
  if grep -q '\<rrp_q\>' "$pe"; then conn+="connect -set p_rrp dut.rrp_q; "; defs+=" -DSX_RRP"; fi
  "${YOSYS:-yosys}" -q -l "$out/$name.yosys.log" -p "read_verilog -I$ROOT/rtl $pe $ROOT/rtl/sx_fifo_ram.v; \
    read_verilog -formal -sv $defs $HERE/sx_formal.sv; \
    chparam -set MAX_GPUS $mg -set DEPTH $dp sx_formal; \
    hierarchy -check -top sx_formal; proc; ${SX_FLOW_FORMAL:-} opt_clean; flatten; memory_map; $conn opt_clean; \
    setundef -undriven -anyseq w:*mem_q\$rdmux*; check -assert; async2sync; dffunmap; \
    write_smt2 -wires $out/$name.smt2" >/dev/null 2>&1 || { echo "sx_flow: yosys failed ($out/$name.yosys.log):"; tail -5 "$out/$name.yosys.log"; return 1; }
}
