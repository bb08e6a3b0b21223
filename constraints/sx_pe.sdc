# Timing constraints of the stream primitive exchanger (rtl/sx_pe.v) for the OSU 0.18 um flow (scripts/sx_synth.sh,
# docs/sx.md section 6; the FIFO array is a black-box macro with 0 ns read and setup in its model).
# Units are those of the liberty file: ns and pF.
#
# Target clock 250 MHz (the issue-20 target at MAX_GPUS = 16). The abc mapping step takes its delay target from
# this period (scripts/sx_synth.sh), and the reported Fmax = 1 / (period - WNS) does not depend on the target beyond what abc does with it.
create_clock -name clk -period 4.0 [get_ports clk_i]

# Inputs arrive 1 ns after the clock edge and outputs are needed 1 ns before the next one (registered on the
# other side, with some wire).
set_input_delay  1.0 -clock clk [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]]
set_output_delay 1.0 -clock clk [all_outputs]

# The configuration ports cfg_*_i are quasi-static (docs/sx.md section 2): they come from a configuration
# register outside the unit, written only while busy_o = 0 and no input is valid, and held for at least two
# cycles before the next valid input. In such an idle cycle no register of the unit depends on them (nothing is
# held, owed or pending), so their paths are two-cycle paths: launched at one edge, used at the second one.
set_multicycle_path 2 -setup -from [get_ports {cfg_n_gpus_i* cfg_gpu_id_i* cfg_topo_i}]
set_multicycle_path 1 -hold  -from [get_ports {cfg_n_gpus_i* cfg_gpu_id_i* cfg_topo_i}]

# Every input is driven by a BUFX2 (the same cell the abc constraints file names); every output drives
# 0.01 pF (about one DFF data pin plus a short wire; the abc constraints use the same 10 fF).
set_driving_cell -lib_cell BUFX2 -pin Y [delete_from_list [all_inputs] [get_ports {clk_i}]]
set_load 0.01 [all_outputs]

# The asynchronous reset is distributed by its own buffered tree (like the clock, which is ideal here) and
# released synchronously outside the unit: no timing through rst_ni.
set_false_path -from [get_ports rst_ni]
