# OpenSTA: worst setup path launched by each class of SIMT storage macro (register-bank copies u_rf_*, per-thread
# memories u_attr/u_local/u_const, special registers u_srv/u_srp, instruction memory u_imem) and the worst path into
# each class's inputs: the read access time / input setup an SRAM macro of that class may take (docs/simt.md
# section 6). Same environment as scripts/synth_sta.tcl (STA_LIB, STA_EXTRA_LIB, STA_NETLIST, STA_TOP, STA_SDC).
read_liberty $::env(STA_LIB)
read_liberty $::env(STA_EXTRA_LIB)
read_verilog $::env(STA_NETLIST)
link_design $::env(STA_TOP)
read_sdc $::env(STA_SDC)
foreach {name pat} {regbank *u_rf_* memory {*u_attr* *u_local* *u_out* *u_const*} sreg {*u_srv* *u_srp*} imem *u_imem*} {
  set from {}
  set to {}
  foreach p $pat {
    set from [concat $from [get_pins -hierarchical -quiet $p*u_macro/clk_i]]
    set to [concat $to [get_pins -hierarchical -quiet "$p*u_macro/raddr_i* $p*u_macro/waddr_i* $p*u_macro/wdata_i* $p*u_macro/we_i"]]
  }
  if {[llength $from] > 0} {
    set pf [find_timing_paths -from $from -path_delay max -group_count 1]
    foreach pe $pf { puts "SIMT_MACRO $name from [get_property $pe slack]" }
  }
  if {[llength $to] > 0} {
    set pt [find_timing_paths -to $to -path_delay max -group_count 1]
    foreach pe $pt { puts "SIMT_MACRO $name to [get_property $pe slack]" }
  }
}
