# OpenSTA script of the OSU 0.18 um flow (docs/synthesis.md), run by scripts/synth_flow.sh sta.
# Inputs from the environment: STA_LIB (liberty), STA_NETLIST (mapped Verilog), STA_TOP, STA_SDC.
# Written for the Debian 12 OpenSTA (2019 snapshot): no report_clock_min_period, so the flow reports the worst
# setup slack and computes Fmax = 1 / (period - WNS) from it (scripts/synth_report.py).
# Lines starting with "SYNTH_STA " are parsed by scripts/synth_report.py.
read_liberty $::env(STA_LIB)
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
