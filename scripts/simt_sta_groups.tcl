# OpenSTA: the worst setup path ending in each part of the SIMT core (scripts/simt_synth.sh sta; docs/simt.md).
# Env: STA_LIB, STA_EXTRA_LIB, STA_NETLIST, STA_TOP, STA_SDC. Lines "SIMT_GROUP <name> <endpoints> <slack>".
read_liberty $::env(STA_LIB)
read_liberty $::env(STA_EXTRA_LIB)
read_verilog $::env(STA_NETLIST)
link_design $::env(STA_TOP)
read_sdc $::env(STA_SDC)
set groups {sfu "g_sfu*" fpu "*u_fpu/*" warp "g_warp*" lane "g_lane*"}
set seen {}
foreach {name pat} $groups {
  set regs {}
  foreach r [all_registers -data_pins] {
    set n [get_full_name $r]
    if {[string match $pat $n] && !($name eq "lane" && [string match "*u_fpu/*" $n])} { lappend regs $r }
  }
  if {[llength $regs] == 0} { continue }
  set p [find_timing_paths -path_delay max -to $regs]
  set sl [get_property [lindex $p 0] slack]
  puts "SIMT_GROUP $name [llength $regs] $sl"
  report_checks -path_delay max -to $regs -digits 3
}
# the core's own registers (result pipeline, S0/S1, fetch)
set regs {}
foreach r [all_registers -data_pins] { if {![string match "g_*" [get_full_name $r]]} { lappend regs $r } }
set p [find_timing_paths -path_delay max -to $regs]
puts "SIMT_GROUP core [llength $regs] [get_property [lindex $p 0] slack]"
report_checks -path_delay max -to $regs -digits 3
