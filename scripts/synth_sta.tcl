# OpenSTA script of the OSU 0.18 um flow (docs/synthesis.md), run by scripts/synth_flow.sh sta.
# Inputs from the environment: STA_LIB (liberty), STA_NETLIST (mapped Verilog), STA_TOP, STA_SDC.
# Written for the Debian 12 OpenSTA (2019 snapshot): no report_clock_min_period, so the flow reports the worst
# setup slack and computes Fmax = 1 / (period - WNS) from it (scripts/synth_report.py).
# Lines starting with "SYNTH_STA " are parsed by scripts/synth_report.py.
read_liberty $::env(STA_LIB)
# Optional second library (black-box macro cells, e.g. the SIMT core's SRAM models: scripts/simt_sram_lib.py).
if {[info exists ::env(STA_EXTRA_LIB)]} { read_liberty $::env(STA_EXTRA_LIB) }
read_verilog $::env(STA_NETLIST)
link_design $::env(STA_TOP)
read_sdc $::env(STA_SDC)

# Everything unconstrained would silently pass: make sure the SDC clock exists.
set clks [all_clocks]
if {[llength $clks] != 1} { puts "Error: expected exactly one clock in $::env(STA_SDC), got [llength $clks]"; exit 1 }
set clk [lindex $clks 0]
puts "SYNTH_STA clock [get_full_name $clk] period [get_property $clk period]"
puts "SYNTH_STA worst_slack_max [sta::worst_slack -max]"
puts "SYNTH_STA worst_slack_min [sta::worst_slack -min]"
puts "SYNTH_STA tns_max [sta::total_negative_slack -max]"
report_wns
report_tns
# Critical setup path (the report lists startpoint and endpoint), then the worst hold path.
report_checks -path_delay max -digits 3
report_checks -path_delay min -digits 3
# Paths that end at registers only (input/output delays excluded): the internal register-to-register limit.
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_registers -data_pins] -digits 3
# Optional (STA_MACRO_PATHS=1): the worst path launched by a macro read (SIMT SRAM cells, scripts/simt_sram_lib.py)
# and the worst path into a macro input; their slacks are the read access / input setup time a macro may take at
# this clock (the models have 0 / 0 by default). Also the worst path through a ROM macro (SIMT_SFU_ROM) if any.
if {[info exists ::env(STA_MACRO_PATHS)]} {
  set mo [get_pins -hierarchical -quiet *u_macro/clk_i]
  set mi [get_pins -hierarchical -quiet {*u_macro/raddr_i* *u_macro/waddr_i* *u_macro/wdata_i* *u_macro/we_i}]
  set mr [get_pins -hierarchical -quiet *u_macro/data_o*]
  puts "SYNTH_STA macro_clock_pins [llength $mo] macro_input_pins [llength $mi] rom_output_pins [llength $mr]"
  if {[llength $mo] > 0} { report_checks -path_delay max -from $mo -digits 3 }
  if {[llength $mi] > 0} { report_checks -path_delay max -to $mi -digits 3 }
  if {[llength $mr] > 0} { report_checks -path_delay max -through $mr -digits 3 }
}
