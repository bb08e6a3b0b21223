# Shared Yosys flow of the PE proofs (sourced by pe_formal.sh and pe_induct.sh): the unchanged RTL inside
# tests/formal/pe_formal.sv, memories mapped to registers (the invariants read the queue words), the wrapper's
# probe wires connected to internal signals after `flatten` (Yosys 0.23 has no `bind`), SMT-LIBv2 out. A read
# of a FIFO word past a depth that is not a power of two (pointer value >= depth, excluded by invariant I7) is
# left free (setundef -anyseq): an over-approximation.
# pe_smt2 OUTDIR NAME EXCHANGER.v MAX_GPUS LQ_DEPTH RQ_DEPTH
# Environment: YOSYS (yosys), GEN (build/gen), PE_FLOW_FORMAL (Yosys commands run after proc, e.g. the cover run's
# "chformal -assert -remove;"); ROOT and HERE set by the caller.

# probe wire <- internal signal of the flattened design
PE_PROBES="p_lq_push=dut.lq_push p_lq_pop=dut.lq_pop p_lq_cnt=dut.lq_cnt p_bk0_push=dut.bk0_push p_bk0_pop=dut.u_bk0.pop_i
p_bk1_push=dut.bk1_push p_bk1_pop=dut.u_bk1.pop_i p_bk0_cnt=dut.bk0_cnt p_bk1_cnt=dut.bk1_cnt p_prim0=dut.prim0
p_prim1=dut.prim1 p_last0=dut.last0 p_last1=dut.last1 p_keep=dut.keep p_entry_pop=dut.entry_pop p_end_pop=dut.end_pop
p_head_end=dut.head_end p_t0=dut.t0 p_t1=dut.t1 p_head_mask=dut.head_mask p_head_tag=dut.head_tag p_head_id=dut.head_id
p_ob=dut.ob_q p_in_b=dut.in_b_q p_cur=dut.cur_q p_turn_done=dut.turn_done_q p_rem_v=dut.rem_v_q p_rem=dut.rem_q
p_lasts0=dut.lasts0_q p_lasts1=dut.lasts1_q p_last_sent=dut.last_sent_q p_lq_rp=dut.u_lq.rp_q p_lq_wp=dut.u_lq.wp_q
p_bk0_rp=dut.u_bk0.rp_q p_bk0_wp=dut.u_bk0.wp_q p_bk1_rp=dut.u_bk1.rp_q p_bk1_wp=dut.u_bk1.wp_q"

# connect probe $1 word by word to the words of FIFO instance $2 (depth $3, word width $4)
pe_words() { local i; for (( i = 0; i < $3; i++ )); do echo -n "connect -set $1[$(( (i + 1) * $4 - 1 )):$(( i * $4 ))] dut.$2.mem_q[$i]; "; done; }

pe_smt2() {
  local out=$1 name=$2 exch=$3 mg=$4 lq=$5 rq=$6 conn="" mconn p
  for p in $PE_PROBES; do conn+="connect -set ${p%%=*} ${p#*=}; "; done
  mconn="$(pe_words p_lqm u_lq "$lq" $(( 49 + mg )))$(pe_words p_bk0m u_bk0 "$rq" 32)$(pe_words p_bk1m u_bk1 "$rq" 32)"
  "${YOSYS:-yosys}" -q -l "$out/$name.yosys.log" -p "read_verilog -I$ROOT/${GEN:-build/gen} $ROOT/rtl/pe_fifo.v $ROOT/rtl/pe_lowbit.v $exch; \
    read_verilog -formal -sv $HERE/pe_formal.sv; \
    chparam -set MAX_GPUS $mg -set LQ_DEPTH $lq -set RQ_DEPTH $rq pe_formal; \
    hierarchy -check -top pe_formal; proc; ${PE_FLOW_FORMAL:-} opt_clean; flatten; $conn memory_map; $mconn opt_clean; setundef -undriven -anyseq w:*mem_q\$rdmux*; \
    check -assert; async2sync; dffunmap; write_smt2 -wires $out/$name.smt2" >/dev/null
}
