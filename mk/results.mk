# Stored result set (issue 23): every bundled trace rendered under a fixed set of schemes, GPU counts and
# topologies; the frame (pixel rows), the stats JSON (bytes) and the cycle count of every run must equal
# tests/results/{quick,full}.txt. A regression baseline of the simulator's own behaviour (docs/testing.md):
# changes meant to keep results (speed work) must pass it unchanged; changes meant to alter results regenerate
# it in the same commit (make update-results; make update-results-long for the full set).
RESULTS_CHECK := $(PYTHON) scripts/results_check.py --sim $(SIM_TOOL) --trace-tool $(BUILD)/bin/gpupd-trace
# runs at once for the full set (the quick set runs one at a time beside the other make test targets)
RESULTS_LONG_JOBS ?= 2
# RESULTS_ONLY=REGEX: check or update only the cases whose key matches (update keeps every other stored line), e.g.
# make update-results-long RESULTS_ONLY=scheme=gpupd-stream after a change that alters only that scheme's results
RESULTS_ONLY_ARG = $(if $(RESULTS_ONLY),--only '$(RESULTS_ONLY)')

.PHONY: test-results-identical test-long-results update-results update-results-long
test-results-identical: $(SIM_TOOL) $(BUILD)/bin/gpupd-trace
	@$(RESULTS_CHECK) check --set quick $(RESULTS_ONLY_ARG)
TEST_TARGETS += test-results-identical

test-long-results: $(SIM_TOOL) $(BUILD)/bin/gpupd-trace
	@$(RESULTS_CHECK) check --set full --jobs $(RESULTS_LONG_JOBS) $(RESULTS_ONLY_ARG)
test-long: test-long-results

update-results: $(SIM_TOOL) $(BUILD)/bin/gpupd-trace
	@$(RESULTS_CHECK) update --set quick $(RESULTS_ONLY_ARG)

update-results-long: $(SIM_TOOL) $(BUILD)/bin/gpupd-trace
	@$(RESULTS_CHECK) update --set full --jobs $(RESULTS_LONG_JOBS) $(RESULTS_ONLY_ARG)

# Replayed runs equal executed runs (issue 23; docs/timing.md, "Functional work once per frame"): every case of
# the quick set (and a few more) on the traces of TRACES_TEST (Makefile: the 1920x1080 frames sampled) rendered
# executing the model and replaying frame records from a fresh --replay-cache; the stats JSON and the frame hash must be identical; chopin and -o runs must execute.
.PHONY: test-replay
test-replay: $(SIM_TOOL) $(BUILD)/bin/gpupd-trace
	@$(PYTHON) tests/timing/test_replay.py --sim $(SIM_TOOL) --trace-tool $(BUILD)/bin/gpupd-trace --traces "$(TRACES_TEST)"
TEST_TARGETS += test-replay

# The GPUs on threads give the results of one thread (issue 23; docs/timing.md item 6): small traces through every
# threaded path at --threads 1, 2 and 4, stats JSON and frame hash compared (about 5 CPU s).
.PHONY: test-threads
test-threads: $(SIM_TOOL)
	@$(PYTHON) tests/timing/test_threads.py --sim $(SIM_TOOL)
TEST_TARGETS += test-threads

# Simulator speed (issue 23; docs/timing.md section 10): rates on oa-dm4-f215 and glmark2-terrain at 1 and 16
# GPUs against Multi-GPU-ATTILA's published rates. Printed (and out/bench/speed.md), not asserted.
.PHONY: bench-speed
bench-speed: $(SIM_TOOL)
	@$(PYTHON) scripts/bench_speed.py --sim $(SIM_TOOL) --out out/bench/speed.md
BENCH_TARGETS += bench-speed
# The same table with issue 23's baseline re-measured side by side: the simulator of commit 0955ebd (before the
# speed work) built from git in a scratch directory (not in BENCH_TARGETS: it compiles an old tree).
SPEED_BASELINE_DIR ?= $(BUILD)/speed-baseline
.PHONY: bench-speed-baseline
bench-speed-baseline: $(SIM_TOOL)
	@rm -rf $(SPEED_BASELINE_DIR) && mkdir -p $(SPEED_BASELINE_DIR) && git archive 0955ebd | tar -x -C $(SPEED_BASELINE_DIR)
	@$(MAKE) --no-print-directory -C $(SPEED_BASELINE_DIR) build/bin/gpupd-sim >/dev/null
	@$(PYTHON) scripts/bench_speed.py --sim $(SIM_TOOL) --baseline-sim $(SPEED_BASELINE_DIR)/build/bin/gpupd-sim \
	  --repeat 3 --out out/bench/speed-baseline.md
