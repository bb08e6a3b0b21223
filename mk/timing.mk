# Timing model (issue 9): cycle timing of the functional units (cmodel/gpu/gpu_timing.*, gpu.c), the timed
# network (cmodel/link/net.c), the P2G cycle model in the CP phase and the exchange (cmodel/sys/scheme_gpupd.c, gpupd_cdsys.c).
# docs/timing.md. Unit tests: tests/unit/test_timing.c, test_net_timed.c (part of test-unit).

TIMING_OUT := $(BUILD)/timing

# stats JSON keys, option errors, untimed runs, timeline CSV + plot, docs table == timing-config
.PHONY: test-timing-cli
test-timing-cli: $(SIM_TOOL)
	@tests/timing/test_timing_cli.sh $(SIM_TOOL) $(TIMING_OUT)/cli
TEST_TARGETS += test-timing-cli

# simulated cycles per second (1 and 16 GPUs), timing overhead, memory of 64 GPUs
.PHONY: bench-timing
bench-timing: $(SIM_TOOL)
	@tests/timing/bench_timing.sh $(SIM_TOOL) $(TIMING_OUT)/bench
BENCH_TARGETS += bench-timing

# the paper's validation point (2-GPU SFR "reduces single-frame latency by 60.4 % on geomean") against our
# dup on every bundled trace; docs/timing.md section "Calibration" shows the result
.PHONY: calibrate-timing
calibrate-timing: $(SIM_TOOL)
	@tests/timing/calibrate.sh $(SIM_TOOL) $(TIMING_OUT)/calibrate
