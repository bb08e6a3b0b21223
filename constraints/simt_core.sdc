# Timing constraints of the SIMT core (rtl/simt_core.v) for the OSU 0.18 um flow (docs/simt.md, synthesis).
# Units are those of the liberty file: ns and pF.
#
# Target clock 200 MHz (the issue's goal for the default configuration). The storage arrays (simt_ram:
# register banks, per-thread memories, constants, instructions) and the SFU table are macros: Liberty models
# written by scripts/simt_sram_lib.py (scripts/simt_synth.sh), with a read access time and input setup of 0 ns by
# default, so paths into and out of them are timed up to the macro pins and the STA reports the slack that is
# left for the macros' own timing (docs/simt.md, synthesis).
create_clock -name clk -period 5.0 [get_ports clk_i]

set_input_delay  0.5 -clock clk [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]]
set_output_delay 0.5 -clock clk [all_outputs]
set_driving_cell -lib_cell BUFX2 -pin Y [delete_from_list [all_inputs] [get_ports {clk_i}]]
set_load 0.01 [all_outputs]
set_false_path -from [get_ports rst_ni]
