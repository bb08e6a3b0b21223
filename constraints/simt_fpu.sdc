# Timing constraints of simt_fpu (rtl/simt_fpu.v) for the OSU 0.18 um flow (docs/synthesis.md, docs/simt-fpu.md).
# Units are those of the liberty file: ns and pF.
#
# Target clock 200 MHz (issue 10: >= 200 MHz for the default configuration). abc takes its delay target from
# this period (scripts/synth_flow.sh); the reported Fmax = 1 / (period - WNS).
create_clock -name clk -period 5.0 [get_ports clk_i]

# Inputs come from the core's operand registers / register-file read (1 ns into the cycle); outputs go to
# the core's write-back register (needed 1 ns before the edge). Every path is single-cycle.
set_input_delay  1.0 -clock clk [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]]
set_output_delay 1.0 -clock clk [all_outputs]

# Every input is driven by a BUFX2 (as in the abc constraints file); every output drives 0.01 pF.
set_driving_cell -lib_cell BUFX2 -pin Y [delete_from_list [all_inputs] [get_ports {clk_i}]]
set_load 0.01 [all_outputs]

# The asynchronous reset (valid bits only) has its own buffered tree and is released synchronously outside.
set_false_path -from [get_ports rst_ni]
