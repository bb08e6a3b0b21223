# P2G mapper: functional definition (cmodel/p2g), RTL (rtl/p2g_*.v), Icarus testbench (tb/p2g), Verilator lockstep
# co-simulation (sim/p2g), coverage, waves, synthesis (constraints/). See docs/p2g.md.

P2G_RTL      := rtl/p2g_range_mask.v rtl/p2g_add_tree.v rtl/p2g_mapper.v
comma := ,
space := $(empty) $(empty)
P2G_OBJS     := $(patsubst %.c,$(BUILD)/lib/obj/%.o,$(wildcard cmodel/p2g/*.c))
# Parameter sets co-simulated: MAX_GPUS_ROWS (defs/cfg_p2g.tbl, use cosim)
P2G_VARIANTS := $(P2G_CFG_USE_cosim)
P2G_SEED     ?= 0x5eed
# Test run: 1.7M primitives per GPU count: 5.1M on the 16-GPU build (N = 1, 3, 16) and 6.8M on the 64-GPU
# build (N = 1, 5, 33, 64), 11.9M in all
P2G_TEST_PRIMS ?= 1700000

p2g_mg   = $(call p2g_cfg_MAX_GPUS,$1)
p2g_rows = $(call p2g_cfg_ROWS,$1)

$(BUILD)/cosim/obj/cosim_p2g.o: sim/p2g/cosim_p2g.c sim/p2g/p2g_dut.h sim/common/gtkw_view.h sim/common/lockstep.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/p2g -c $< -o $@

# One verilated co-simulation binary per parameter set (FST tracing compiled in, used only on demand):
# mk/verilator.mk's VL_MODEL. $(1): the parameter set, $(2): the build directory, $(3): the flavour.
P2G_LINK = $(BUILD)/cosim/obj/cosim_p2g.o $(LOCKSTEP_OBJ) $(P2G_OBJS)
define P2G_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(2),$(2)/cosim-p2g,p2g_mapper,$(3),$(call p2g_cfg_vflags,$(1)),\
  rtl/lint.vlt $(P2G_RTL),-I$(abspath cmodel) -I$(abspath sim/p2g) -I$(abspath sim/common) $(call p2g_cfg_dflags,$(1)),\
  sim/p2g/p2g_dut.cpp,$(P2G_LINK),mk/p2g.mk,$(VL_OPT_MK)))
endef
$(foreach v,$(P2G_VARIANTS),$(eval $(call P2G_VARIANT_RULES,$(v),$(BUILD)/cosim/p2g_$(v),fst)))

P2G_COSIM_BINS := $(foreach v,$(P2G_VARIANTS),$(BUILD)/cosim/p2g_$(v)/cosim-p2g)
.PHONY: cosim-p2g-build cosim-p2g
cosim-p2g-build: $(P2G_COSIM_BINS)

# Interactive/default run: SEED=random explores new seeds (the seed is printed for replay).
SEED ?= $(P2G_SEED)
cosim-p2g: $(P2G_COSIM_BINS)
	$(BUILD)/cosim/p2g_16_2/cosim-p2g --seed $(SEED) --prims 200000 --gpus 1,3,16
	$(BUILD)/cosim/p2g_64_4/cosim-p2g --seed $(SEED) --prims 200000 --gpus 1,5,33,64

# ------------------------------------------------------------------ P P2G mappers merged in order (rtl/p2g_merge.v)
# Lockstep against cmodel/p2g/p2g_merge_hw.c (the front-end rate fe_rate = P of the timing model, docs/p2g.md
# section 6). Parameter sets P_MAX_GPUS_ROWS: P = 4 (the GP104-like front end) and P = 3 (pointer wrap-around
# at a P that is not a power of two).
P2G_MERGE_RTL      := $(P2G_RTL) rtl/p2g_merge.v
P2G_MERGE_VARIANTS := 4_16_2 3_16_2
P2G_MERGE_PRIMS    ?= 300000
p2gm_p    = $(word 1,$(subst _, ,$1))
p2gm_mg   = $(word 2,$(subst _, ,$1))
p2gm_rows = $(word 3,$(subst _, ,$1))

$(BUILD)/cosim/obj/cosim_p2g_merge.o: sim/p2g/cosim_p2g_merge.c sim/p2g/p2g_merge_dut.h sim/common/lockstep.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/p2g -Isim/common -c $< -o $@

P2G_MERGE_LINK = $(BUILD)/cosim/obj/cosim_p2g_merge.o $(LOCKSTEP_OBJ) $(P2G_OBJS)
define P2G_MERGE_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(2),$(2)/cosim-p2g-merge,p2g_merge,$(3),-GP=$(call p2gm_p,$(1)) -GMAX_GPUS=$(call p2gm_mg,$(1)) -GROWS=$(call p2gm_rows,$(1)),\
  rtl/lint.vlt $(P2G_MERGE_RTL),-I$(abspath cmodel) -I$(abspath sim/p2g) -I$(abspath sim/common) -DP2G_MERGE_DUT_P=$(call p2gm_p,$(1)) -DP2G_DUT_MAX_GPUS=$(call p2gm_mg,$(1)) -DP2G_DUT_ROWS=$(call p2gm_rows,$(1)),\
  sim/p2g/p2g_merge_dut.cpp,$(P2G_MERGE_LINK),mk/p2g.mk,$(VL_OPT_MK)))
endef
$(foreach v,$(P2G_MERGE_VARIANTS),$(eval $(call P2G_MERGE_VARIANT_RULES,$(v),$(BUILD)/cosim/p2g_merge_$(v),fst)))
P2G_MERGE_BINS := $(foreach v,$(P2G_MERGE_VARIANTS),$(BUILD)/cosim/p2g_merge_$(v)/cosim-p2g-merge)

.PHONY: test-p2g-merge-cosim sim-p2g-merge lint-p2g-merge
# make test: P = 4 (the GP104-like front end); test-long adds P = 3 (not a power of two).
P2G_MERGE_TEST_BINS := $(BUILD)/cosim/p2g_merge_4_16_2/cosim-p2g-merge
.PHONY: test-long-p2g-merge-cosim
test-long-p2g-merge-cosim: $(P2G_MERGE_BINS)
	@for b in $(P2G_MERGE_BINS); do $$b --seed $(SEED) --prims $(P2G_MERGE_PRIMS) --configs 40 --quiet || exit 1; done
test-long: test-long-p2g-merge-cosim
test-p2g-merge-cosim: $(P2G_MERGE_TEST_BINS)
	@for b in $(P2G_MERGE_TEST_BINS); do $$b --seed $(SEED) --prims $(P2G_MERGE_PRIMS) --configs 40 --quiet || exit 1; done

# Icarus: the P2G testbench's vectors (stimulus + expected masks from the definition) through P = 4 merged units,
# 0..4 primitives offered per cycle, output stalls; masks must come out in input order.
$(BUILD)/tb/tb_p2g_merge.vvp: tb/p2g/tb_p2g_merge.v $(P2G_MERGE_RTL)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -o $@ -s tb_p2g_merge $^
sim-p2g-merge: $(BUILD)/tb/p2g-vectors $(BUILD)/tb/tb_p2g_merge.vvp
	@mkdir -p $(BUILD)/tb
	$(BUILD)/tb/p2g-vectors --max-gpus 16 --gpus 1,3,16 --configs 10 --prims 3000 --seed $(SEED) -o $(BUILD)/tb/p2g_merge.hex
	vvp -n $(BUILD)/tb/tb_p2g_merge.vvp +vectors=$(BUILD)/tb/p2g_merge.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_merge.hex) +seed=11 | tee $(BUILD)/tb/p2g_merge.log
	@grep -q '^PASS' $(BUILD)/tb/p2g_merge.log
	@awk 'NR==40 {c=substr($$0,72,1); $$0=substr($$0,1,71) (c=="0"?"1":"0")} {print}' $(BUILD)/tb/p2g_merge.hex > $(BUILD)/tb/p2g_merge_bad.hex
	@if vvp -n $(BUILD)/tb/tb_p2g_merge.vvp +vectors=$(BUILD)/tb/p2g_merge_bad.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_merge_bad.hex) +seed=11 > $(BUILD)/tb/p2g_merge_bad.log 2>&1 \
	    || true; grep -q '^FAIL' $(BUILD)/tb/p2g_merge_bad.log && ! grep -q '^PASS' $(BUILD)/tb/p2g_merge_bad.log; then \
	  echo "sim-p2g-merge: corrupted vector caught: $$(grep -m1 '^FAIL' $(BUILD)/tb/p2g_merge_bad.log | cut -c1-120)"; \
	else echo "sim-p2g-merge: FAIL: the testbench accepted a corrupted expected mask"; exit 1; fi

lint-p2g-merge:
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_MERGE_RTL) --top-module p2g_merge
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_MERGE_RTL) --top-module p2g_merge -GP=1
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_MERGE_RTL) --top-module p2g_merge -GP=3
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_MERGE_RTL) --top-module p2g_merge -GP=8 -GMAX_GPUS=64 -GROWS=4
	iverilog -g2012 -Wall -Wno-timescale -o /dev/null -s p2g_merge $(P2G_MERGE_RTL)
	yosys -q -p "read_verilog $(P2G_MERGE_RTL); hierarchy -check -top p2g_merge; proc; check -assert"
	@echo "lint-p2g-merge: clean"
TEST_TARGETS += test-p2g-merge-cosim sim-p2g-merge lint-p2g-merge
LINT_TARGETS += lint-p2g-merge

# ------------------------------------------------------------------ Icarus self-checking testbench
$(BUILD)/tb/p2g-vectors: tb/p2g/p2g_vectors.c $(P2G_OBJS) $(BUILD)/lib/obj/cmodel/common/outfile.o
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) $< $(P2G_OBJS) $(BUILD)/lib/obj/cmodel/common/outfile.o -o $@

$(BUILD)/tb/tb_p2g_%.vvp: tb/p2g/tb_p2g_mapper.v $(P2G_RTL)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -o $@ -s tb_p2g_mapper \
	  $(call p2g_cfg_pflags,$*,tb_p2g_mapper) $^

# sim-p2g: both parameter sets, GPU counts including 1, non-powers of two, 16 and 64; 20 configurations per
# GPU count, every second one changing exactly one field (n, W, H, tile size, mode, each scissor bound in
# turn); on the 64-GPU build also N swept over 1..64 (one configuration per N, only n changing). The testbench
# checks handshake timing every cycle (phantom outputs, stability under stall, busy, rebuild timing).
P2G_SIM_PRIMS ?= 6000
.PHONY: sim-p2g
sim-p2g: $(BUILD)/tb/p2g-vectors $(BUILD)/tb/tb_p2g_16_2.vvp $(BUILD)/tb/tb_p2g_64_4.vvp
	@mkdir -p $(BUILD)/tb
	$(BUILD)/tb/p2g-vectors --max-gpus 16 --gpus 1,3,16 --configs 20 --prims $(P2G_SIM_PRIMS) --seed $(SEED) -o $(BUILD)/tb/p2g_16.hex
	vvp -n $(BUILD)/tb/tb_p2g_16_2.vvp +vectors=$(BUILD)/tb/p2g_16.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_16.hex) +seed=3 +vseed=$(SEED) | tee $(BUILD)/tb/p2g_16.log
	@grep -q '^PASS' $(BUILD)/tb/p2g_16.log
	$(BUILD)/tb/p2g-vectors --max-gpus 64 --gpus 1,5,33,64 --configs 20 --prims $(P2G_SIM_PRIMS) --seed $(SEED) -o $(BUILD)/tb/p2g_64.hex
	vvp -n $(BUILD)/tb/tb_p2g_64_4.vvp +vectors=$(BUILD)/tb/p2g_64.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_64.hex) +seed=4 +gap=50 +stall=60 +vseed=$(SEED) | tee $(BUILD)/tb/p2g_64.log
	@grep -q '^PASS' $(BUILD)/tb/p2g_64.log
	$(BUILD)/tb/p2g-vectors --max-gpus 64 --sweep-n --prims 1920 --seed $(SEED) -o $(BUILD)/tb/p2g_64_sweep.hex
	vvp -n $(BUILD)/tb/tb_p2g_64_4.vvp +vectors=$(BUILD)/tb/p2g_64_sweep.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_64_sweep.hex) +seed=5 +vseed=$(SEED) | tee $(BUILD)/tb/p2g_64_sweep.log
	@grep -q '^PASS' $(BUILD)/tb/p2g_64_sweep.log

# sim-p2g-cfg (make test, docs/configurations.md "Coverage"): the testbench at the configuration-coverage builds of
# defs/cfg_p2g.tbl (use tb-cfg: MAX_GPUS 1, 2, 3, 63, ROWS 1 and 3), GPU counts 1, 2, 3 up to MAX_GPUS and MAX_GPUS.
P2G_TB_CFG_SETS ?= $(P2G_CFG_USE_tb-cfg)
P2G_SIM_CFG_PRIMS ?= 1500
.PHONY: sim-p2g-cfg
sim-p2g-cfg: $(BUILD)/tb/p2g-vectors $(foreach v,$(P2G_TB_CFG_SETS),$(BUILD)/tb/tb_p2g_$(v).vvp)
	@set -e; for v in $(P2G_TB_CFG_SETS); do \
	  mg=$${v%%_*}; gl=$$(for n in 1 2 3 $$mg; do if [ $$n -le $$mg ]; then echo $$n; fi; done | sort -nu | paste -sd, -); \
	  $(BUILD)/tb/p2g-vectors --max-gpus $$mg --gpus $$gl --configs 10 --prims $(P2G_SIM_CFG_PRIMS) --seed $(SEED) \
	    -o $(BUILD)/tb/p2g_cfg_$$v.hex; \
	  vvp -n $(BUILD)/tb/tb_p2g_$$v.vvp +vectors=$(BUILD)/tb/p2g_cfg_$$v.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_cfg_$$v.hex) \
	    +seed=7 +vseed=$(SEED) > $(BUILD)/tb/p2g_cfg_$$v.log 2>&1 || true; \
	  if grep -q '^PASS' $(BUILD)/tb/p2g_cfg_$$v.log; then echo "sim-p2g-cfg $$v (N $$gl): $$(grep -m1 '^PASS' $(BUILD)/tb/p2g_cfg_$$v.log | cut -c1-100)"; \
	  else tail -20 $(BUILD)/tb/p2g_cfg_$$v.log; echo "sim-p2g-cfg: FAIL at $$v; reproduce: make sim-p2g-cfg P2G_TB_CFG_SETS=$$v SEED=$(SEED)"; exit 1; fi; \
	done
TEST_TARGETS += sim-p2g-cfg

# The testbench must catch a wrong mask: corrupt one expected mask and expect FAIL.
.PHONY: test-p2g-sim
test-p2g-sim: sim-p2g
	@awk 'NR==40 {c=substr($$0,72,1); $$0=substr($$0,1,71) (c=="0"?"1":"0")} {print}' $(BUILD)/tb/p2g_16.hex > $(BUILD)/tb/p2g_16_bad.hex
	@if vvp -n $(BUILD)/tb/tb_p2g_16_2.vvp +vectors=$(BUILD)/tb/p2g_16_bad.hex +nrec=$$(wc -l < $(BUILD)/tb/p2g_16_bad.hex) +seed=3 > $(BUILD)/tb/p2g_16_bad.log 2>&1 \
	    || true; grep -q '^FAIL' $(BUILD)/tb/p2g_16_bad.log && ! grep -q '^PASS' $(BUILD)/tb/p2g_16_bad.log; then \
	  echo "test-p2g-sim: corrupted vector caught: $$(grep -m1 '^FAIL' $(BUILD)/tb/p2g_16_bad.log)"; \
	else echo "test-p2g-sim: FAIL: the testbench accepted a corrupted expected mask"; exit 1; fi

# Mutation check: RTL copies with one deliberate bug each (tile size or mode left out of the table-rebuild
# key, a phantom output after reset, the output overwritten under stall) must each FAIL the testbench.
.PHONY: test-p2g-mutants
test-p2g-mutants: $(BUILD)/tb/p2g-vectors
	tests/p2g/test_mutants.sh $(BUILD)/tb/p2g-vectors $(BUILD)/p2g-mutants
TEST_TARGETS += test-p2g-mutants

# ------------------------------------------------------------------ Verilator lockstep co-simulation tests
.PHONY: test-p2g-cosim test-p2g-cosim-failure test-p2g-cli test-p2g-waves waves-p2g lint-p2g coverage-p2g
test-p2g-cosim: $(P2G_COSIM_BINS)
	$(BUILD)/cosim/p2g_16_2/cosim-p2g --seed $(SEED) --prims $(P2G_TEST_PRIMS) --configs 60 --gpus 1,3,16
	$(BUILD)/cosim/p2g_64_4/cosim-p2g --seed $(SEED) --prims $(P2G_TEST_PRIMS) --configs 60 --gpus 1,5,33,64
	$(BUILD)/cosim/p2g_64_4/cosim-p2g --seed $(SEED) --prims 128000 --sweep-n --quiet
	$(BUILD)/cosim/p2g_16_2/cosim-p2g --seed $(SEED) --prims 32000 --sweep-n --quiet

test-p2g-cosim-failure: $(BUILD)/cosim/p2g_16_2/cosim-p2g
	tests/p2g/test_cosim_failure.sh $< out/test/p2g-cosim-failure

test-p2g-cli: $(BUILD)/bin/gpupd-p2g
	tests/p2g/test_cli.sh $<

test-p2g-waves: $(BUILD)/cosim/p2g_16_2/cosim-p2g
	tests/p2g/test_waves.sh $< tb/p2g/p2g_mapper.gtkw out/test/p2g-waves

# Open GTKWave on a fresh waveform with the saved view (needs a display; headless check: test-p2g-waves).
waves-p2g: $(BUILD)/cosim/p2g_16_2/cosim-p2g
	@mkdir -p out/waves
	$< --seed $(SEED) --prims 2000 --configs 4 --gpus 3 --waves out/waves/p2g.fst --quiet
	gtkwave -a out/waves/p2g.fst.gtkw out/waves/p2g.fst

lint-p2g:
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_RTL) --top-module p2g_mapper
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_RTL) --top-module p2g_mapper -GMAX_GPUS=64 -GROWS=4
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(P2G_RTL) --top-module p2g_mapper -GMAX_GPUS=1 -GROWS=1
	iverilog -g2012 -Wall -Wno-timescale -o /dev/null -s p2g_mapper $(P2G_RTL)
	yosys -q -p "read_verilog $(P2G_RTL); hierarchy -check -top p2g_mapper; proc; check -assert"
	@echo "lint-p2g: clean (verilator -Wall at MAX_GPUS 16/64/1, iverilog -g2012, yosys check -assert; each file on its own: test-rtl-headers)"

# ------------------------------------------------------------------ coverage (line + toggle)
$(eval $(call P2G_VARIANT_RULES,64_4,$(BUILD)/cov/p2g,cov))

# $(1): extra coverage_report.py arguments (minimum percentages)
define P2G_COVERAGE_RUN
	@mkdir -p out/coverage/p2g
	cd out/coverage/p2g && rm -f coverage.dat cov_*.dat && \
	  VL_COVERAGE_FILE=cov_main.dat $(abspath $(BUILD)/cov/p2g/cosim-p2g) --seed $(SEED) --prims 40000 --configs 30 --gpus 1,3,5,16,33,64 --quiet && \
	  VL_COVERAGE_FILE=cov_sweep.dat $(abspath $(BUILD)/cov/p2g/cosim-p2g) --seed $(SEED) --prims 12800 --sweep-n --quiet && \
	  verilator_coverage --write coverage.dat cov_main.dat cov_sweep.dat
	$(PYTHON) scripts/coverage_report.py --unit p2g_mapper $(1) out/coverage/p2g/coverage.dat | tee out/coverage/p2g/summary.txt
	verilator_coverage --annotate out/coverage/p2g/annotated out/coverage/p2g/coverage.dat >/dev/null
	@echo "coverage-p2g: annotated sources in out/coverage/p2g/annotated/"
endef

coverage-p2g: $(BUILD)/cov/p2g/cosim-p2g
	$(call P2G_COVERAGE_RUN,)

# In the test run, coverage must not fall below what the stimulus reaches today (docs/p2g.md lists what
# stays untoggled and why). Coverage is measured on the MAX_GPUS=64, ROWS=4 build with N = 1..64.
.PHONY: test-p2g-coverage
test-p2g-coverage: $(BUILD)/cov/p2g/cosim-p2g
	$(call P2G_COVERAGE_RUN,--min-line 98 --min-toggle 94 --every-file $(subst $(space),$(comma),$(P2G_RTL)))

TEST_TARGETS     += test-p2g-coverage
TEST_TARGETS     += test-p2g-cli test-p2g-sim test-p2g-cosim test-p2g-cosim-failure test-p2g-waves lint-p2g
COVERAGE_TARGETS += coverage-p2g
LINT_TARGETS     += lint-p2g

# ------------------------------------------------------------------ benchmark: co-simulation speed
# Fixed workload (seed 0x5eed, 1M primitives per variant, no waveform); prints cycles/s and primitives/s.
.PHONY: bench-p2g
bench-p2g: $(P2G_COSIM_BINS)
	@for v in $(P2G_VARIANTS); do \
	  gl=$$( [ $$v = 16_2 ] && echo 1,3,16 || echo 1,5,33,64 ); \
	  $(BUILD)/cosim/p2g_$$v/cosim-p2g --seed 0x5eed --prims 1000000 --configs 60 --gpus $$gl --quiet | grep 'cycles,' ; \
	done
BENCH_TARGETS += bench-p2g

# ------------------------------------------------------------------ real primitive streams (golden model tap)
$(BUILD)/bin/gpupd-p2g-trace: LDLIBS_COMMON += -lz -lzstd
P2G_REPLAY_OUT := $(BUILD)/p2g-replay
# End to end on real traces: the golden model's CP-phase P2G stream of bundled frames (OpenArena, glmark2
# render-to-texture, the 572k-triangle mesh scene, glmark2-ideas with line strips: P2G boxes of lines) replayed through the RTL in lockstep, with backpressure;
# every mask checked against the cycle model, p2g_mask() and the mask the golden model used.
P2G_REPLAY_CASES := oa-dm4-f215:16:diag:16_2 oa-dm4-f109:3:linear:16_2 glmark2-refract:5:linear:64_4 \
                    glmark2-terrain:64:diag:64_4 mesh-bunnies:33:linear:64_4 glmark2-ideas:7:diag:16_2
.PHONY: test-p2g-replay
test-p2g-replay: $(BUILD)/bin/gpupd-p2g-trace $(P2G_COSIM_BINS)
	@mkdir -p $(P2G_REPLAY_OUT); set -e; for c in $(P2G_REPLAY_CASES); do \
	  set -- $$(echo $$c | tr : ' '); \
	  $(BUILD)/bin/gpupd-p2g-trace --trace traces/$$1.gpt --gpus $$2 --own $$3 -o $(P2G_REPLAY_OUT)/$$1-$$2-$$3.txt --csv-header; \
	  $(BUILD)/cosim/p2g_$$4/cosim-p2g --replay $(P2G_REPLAY_OUT)/$$1-$$2-$$3.txt --seed $(SEED) --quiet | grep -E 'replaying|cycles,|PASS'; \
	done
TEST_TARGETS += test-p2g-replay

# Main-job part: P2G statistics on every bundled trace, N = 2, 4, 8, 16, both ownership modes: how many GPUs
# each primitive goes to (the ID-exchange redundancy), load balance, and the P2G unit's throughput (cycle model).
# Every (trace, N, mode) is an independent job with its own output file, so `make -jK run-p2g` runs them in
# parallel; `make p2g-jobs` writes the same job list as plain commands (out/p2g/jobs.txt) for GNU parallel or
# a cluster scheduler.
P2G_RUN_OUT    := out/p2g
P2G_RUN_TRACES := $(basename $(notdir $(sort $(wildcard traces/*.gpt))))
P2G_RUN_JOBS   := $(foreach t,$(P2G_RUN_TRACES),$(foreach n,2 4 8 16,$(foreach m,diag linear,$(P2G_RUN_OUT)/runs/$(t)__$(n)__$(m).csv)))
p2g_job_cmd = $(BUILD)/bin/gpupd-p2g-trace --trace traces/$(word 1,$(subst __, ,$1)).gpt --gpus $(word 2,$(subst __, ,$1)) --own $(word 3,$(subst __, ,$1))

$(P2G_RUN_OUT)/runs/%.csv: $(BUILD)/bin/gpupd-p2g-trace
	@mkdir -p $(@D)
	@$(call p2g_job_cmd,$*) > $@.tmp && mv $@.tmp $@
	@printf '  run-p2g: %d/%d done (%s)\n' $$(ls $(@D)/*.csv | wc -l) $(words $(P2G_RUN_JOBS)) $*

.PHONY: run-p2g p2g-jobs
p2g-jobs:
	@mkdir -p $(P2G_RUN_OUT)
	@: > $(P2G_RUN_OUT)/jobs.txt
	@$(foreach j,$(P2G_RUN_JOBS),echo '$(call p2g_job_cmd,$(basename $(notdir $(j)))) > $(j)' >> $(P2G_RUN_OUT)/jobs.txt;)
	@echo "p2g-jobs: $(words $(P2G_RUN_JOBS)) commands in $(P2G_RUN_OUT)/jobs.txt"

run-p2g: $(P2G_RUN_JOBS)
	@echo "trace,frame,gpus,own,prims,culled,empty,near_clip,avg_gpus_per_prim,multi_gpu_frac,max_share,min_share,configs,p2g_cycles,prims_per_cycle,slowest_unit_cycles" > $(P2G_RUN_OUT)/p2g_stats.csv
	@cat $(P2G_RUN_JOBS) >> $(P2G_RUN_OUT)/p2g_stats.csv
	$(PYTHON) scripts/plot_p2g.py $(P2G_RUN_OUT)/p2g_stats.csv $(P2G_RUN_OUT)
RUN_TARGETS += run-p2g

# ------------------------------------------------------------------ SystemC: the verilated unit as an sc_module
# (SystemC 2.3.4 from Debian is built as C++17: no -std= here.)
define P2G_SC_RULES
$$(eval $$(call VL_MODEL,$(BUILD)/systemc/p2g_$(1),$(BUILD)/systemc/p2g_$(1)/sc-p2g,p2g_mapper,sc,$(call p2g_cfg_vflags,$(1)),\
  rtl/lint.vlt $(P2G_RTL),-I$(abspath cmodel) -DSC_MAX_GPUS=$(call p2g_mg,$(1)),sim/systemc/sc_p2g_main.cpp,$(P2G_OBJS),mk/p2g.mk,$(VL_OPT_MK)))
endef
$(foreach v,$(P2G_VARIANTS),$(eval $(call P2G_SC_RULES,$(v))))

.PHONY: systemc systemc-p2g
systemc-p2g: $(BUILD)/systemc/p2g_16_2/sc-p2g $(BUILD)/systemc/p2g_64_4/sc-p2g
	$(BUILD)/systemc/p2g_16_2/sc-p2g $(SEED)
	$(BUILD)/systemc/p2g_64_4/sc-p2g $(SEED)
systemc: systemc-p2g
# In make test-long, not make test: the P2G RTL is checked in lockstep by test-p2g-cosim (both builds, 11.9M
# primitives against the cycle model and p2g_mask()), and the SystemC flow (verilator --sc, the verilated RTL as
# an sc_module in SystemC threads, P2G included: cd_gpu holds it) by test-systemc-system.
.PHONY: test-systemc-p2g
test-systemc-p2g: $(BUILD)/systemc/p2g_16_2/sc-p2g
	$< $(SEED)
test-long: test-systemc-p2g
