# SIMT lane datapaths (issue 10, helper simtfpu): rtl/simt_fpu.v (FP32 add/mul/mad/min/max/setp/rnd/cvt)
# and rtl/simt_sfu.v (rcp rsq ex2 lg2 sin cos), bit-exact to cmodel/isa/isa_fp.c and isa_sfu.c.
# Verilator unit lockstep (sim/simt_fpu), Icarus testbench (tb/simt_fpu), lint, synthesis rows, bench.
# See docs/simt-fpu.md.

# (file lists: SIMT_FPU_RTL, SIMT_SFU_RTL, SIMT_LANE_RTL of mk/simt.mk)
SIMT_FPU_INC := $(BUILD)/gen/isa_defs.vh rtl/simt_fp_fn.vh
SIMT_FPU_SEED ?= 0x5eed
# Latency pairs co-simulated (FPU_SFU): the defaults, and every boundary merged into a wire at least once
SIMT_FPU_VARIANTS := 8_8

simt_fpu_lf = $(word 1,$(subst _, ,$1))
simt_fpu_ls = $(word 2,$(subst _, ,$1))

$(BUILD)/cosim/obj/cosim_simt_fpu.o: sim/simt_fpu/cosim_simt_fpu.c sim/simt_fpu/simt_fpu_dut.h sim/simt_fpu/simt_fpu_stim.h sim/common/lockstep.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt_fpu -c $< -o $@

$(BUILD)/cosim/obj/simt_fpu_stim.o: sim/simt_fpu/simt_fpu_stim.c sim/simt_fpu/simt_fpu_stim.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt_fpu -c $< -o $@
SIMT_FPU_CO := $(BUILD)/cosim/obj/cosim_simt_fpu.o $(BUILD)/cosim/obj/simt_fpu_stim.o $(LOCKSTEP_OBJ)

# mk/verilator.mk's VL_MODEL: $(1) LATFPU_LATSFU[_area], $(2) build directory, $(3) flavour (the area build: no FST)
SIMT_FPU_LINK = $(SIMT_FPU_CO) $(LIB)
define SIMT_FPU_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(2),$(2)/cosim-simt-fpu,simt_lane_top,$(3),-I$(BUILD)/gen -Irtl \
  -GLAT_FPU=$(call simt_fpu_lf,$(1)) -GLAT_SFU=$(call simt_fpu_ls,$(1)) $(if $(filter area,$(subst _, ,$(1))),-GAREA_FPU=1) -GTABLE_DIR='"$(abspath defs)"',\
  rtl/lint.vlt $(SIMT_LANE_RTL) sim/simt_fpu/simt_lane_top.v,\
  -I$(abspath cmodel) -I$(abspath $(BUILD)/gen) -I$(abspath sim/simt_fpu) -I$(abspath sim/common) -DSIMT_DUT_LAT_FPU=$(call simt_fpu_lf,$(1)) -DSIMT_DUT_LAT_SFU=$(call simt_fpu_ls,$(1)),\
  sim/simt_fpu/simt_fpu_dut.cpp,$(SIMT_FPU_LINK),mk/simt_fpu.mk $(SIMT_FPU_INC) $(ISA_SFU_HEX),$(VL_OPT_MK),-lm))
endef
$(foreach v,$(SIMT_FPU_VARIANTS),$(eval $(call SIMT_FPU_VARIANT_RULES,$(v),$(BUILD)/cosim/simt_fpu_$(v),fst)))
SIMT_FPU_COSIM_BINS := $(foreach v,$(SIMT_FPU_VARIANTS),$(BUILD)/cosim/simt_fpu_$(v)/cosim-simt-fpu)
SIMT_FPU_COSIM := $(BUILD)/cosim/simt_fpu_8_8/cosim-simt-fpu

.PHONY: cosim-simt-fpu-build cosim-simt-fpu test-simt-fpu-cosim test-simt-fpu-cosim-failure lint-simt-fpu
cosim-simt-fpu-build: $(SIMT_FPU_COSIM_BINS)

# Interactive run (SEED=random-ish values explore; the seed is printed for replay).
cosim-simt-fpu: $(SIMT_FPU_COSIM)
	$< --seed $(or $(SEED),$(SIMT_FPU_SEED))

# Test run: every directed phase in full and the default random counts, on the default latencies.
test-simt-fpu-cosim: $(SIMT_FPU_COSIM)
	$(SIMT_FPU_COSIM) --seed $(SIMT_FPU_SEED) --quiet

# The harness must catch a wrong result: corrupt one FPU and one SFU expectation, expect FAIL with a report.
test-simt-fpu-cosim-failure: $(SIMT_FPU_COSIM)
	@mkdir -p $(BUILD)/test-simt-fpu
	@for u in fpu sfu; do \
	  if $< --seed $(SIMT_FPU_SEED) --phase struct --phase srandom --struct 3000 --srandom 3000 --inject-$$u 2500 \
	      > $(BUILD)/test-simt-fpu/inject-$$u.log 2>&1; then \
	    echo "test-simt-fpu-cosim-failure: FAIL: a corrupted $$u expectation was not caught"; exit 1; fi; \
	  grep -q "^COSIM MISMATCH unit=simt_$$u " $(BUILD)/test-simt-fpu/inject-$$u.log && grep -q 'reproduce this vector' $(BUILD)/test-simt-fpu/inject-$$u.log \
	    || { echo "test-simt-fpu-cosim-failure: FAIL: no mismatch report for $$u"; cat $(BUILD)/test-simt-fpu/inject-$$u.log; exit 1; }; \
	  echo "test-simt-fpu-cosim-failure: corrupted $$u expectation caught: $$(grep -m1 '^COSIM MISMATCH' $(BUILD)/test-simt-fpu/inject-$$u.log)"; \
	done

SIMT_FPU_LINT_INC := -I$(BUILD)/gen -Irtl
# (LAT 8, the units' default, is not linted here: test-rtl-headers lints rtl/simt_fpu.v and rtl/simt_sfu.v on their
# own at their default parameters, with the same -Wall and DECLFILENAME on.)
lint-simt-fpu: $(SIMT_FPU_INC)
	@set -e; for L in 1 3 7 9; do \
	  $(VERILATOR) --lint-only -Wall $(SIMT_FPU_LINT_INC) rtl/lint.vlt $(SIMT_FPU_RTL) --top-module simt_fpu -GLAT=$$L; \
	  $(VERILATOR) --lint-only -Wall $(SIMT_FPU_LINT_INC) rtl/lint.vlt $(SIMT_SFU_RTL) --top-module simt_sfu -GLAT=$$L; done
	iverilog -g2012 -Wall -Wno-timescale -Wno-sensitivity-entire-array $(SIMT_FPU_LINT_INC) -o /dev/null -s simt_fpu $(SIMT_FPU_RTL)
	iverilog -g2012 -Wall -Wno-timescale -Wno-sensitivity-entire-array $(SIMT_FPU_LINT_INC) -o /dev/null -s simt_sfu $(SIMT_SFU_RTL)
	@echo "lint-simt-fpu: clean (verilator -Wall at LAT 1/3/7/9, iverilog -g2012; LAT 8 and each file on its own: test-rtl-headers; yosys: lint-simt-fpu-yosys)"

# The two units alone under Yosys (proc; check -assert). Not in `make test`: lint-simt-yosys-default (mk/simt.mk)
# elaborates both inside the default core at the same parameters (LAT 8, AREA 0, PASSES 1), and the SFU's
# function-based stages make each run cost ~2 min CPU (docs/simt.md section 6, "Build and test cost").
.PHONY: lint-simt-fpu-yosys
lint-simt-fpu-yosys: $(SIMT_FPU_INC)
	yosys -q -p "read_verilog $(SIMT_FPU_LINT_INC) $(SIMT_FPU_RTL); hierarchy -check -top simt_fpu; proc; check -assert"
	yosys -q -p "read_verilog $(SIMT_FPU_LINT_INC) $(SIMT_SFU_RTL); hierarchy -check -top simt_sfu; proc; check -assert"
	@echo "lint-simt-fpu-yosys: clean (yosys check -assert, simt_fpu and simt_sfu at their default parameters)"

TEST_TARGETS += test-simt-fpu-cosim test-simt-fpu-cosim-failure lint-simt-fpu
LINT_TARGETS += lint-simt-fpu lint-simt-fpu-yosys

# ------------------------------------------------------------------ Icarus self-checking testbench
# Vectors from C (a stride-sample of every lockstep phase + random; expected values from the ISA definition).
# Latency pairs FPU_SFU: the defaults, fewer registers (boundaries merged), LAT 1 (one register), extra delay.
SIMT_FPU_TB_LATS ?= 8_8 3_2 1_1 9_12
SIMT_FPU_TB_PER  ?= 150
$(BUILD)/tb/simt-fpu-vectors: tb/simt_fpu/simt_fpu_vectors.c $(BUILD)/cosim/obj/simt_fpu_stim.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt_fpu $< $(BUILD)/cosim/obj/simt_fpu_stim.o $(LIB) -lm -o $@

$(BUILD)/tb/tb_simt_fpu_%.vvp: tb/simt_fpu/tb_simt_fpu.v $(SIMT_LANE_RTL) $(SIMT_FPU_INC)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -Wno-sensitivity-entire-array -I$(BUILD)/gen -Irtl -o $@ -s tb_simt_fpu \
	  -P tb_simt_fpu.LAT_FPU=$(call simt_fpu_lf,$*) -P tb_simt_fpu.LAT_SFU=$(call simt_fpu_ls,$*) $< $(SIMT_LANE_RTL)

$(BUILD)/tb/simt_fpu.vec: $(BUILD)/tb/simt-fpu-vectors mk/simt_fpu.mk
	$< --seed $(SIMT_FPU_SEED) --per-phase $(SIMT_FPU_TB_PER) -o $@

.PHONY: sim-simt-fpu test-simt-fpu-sim
sim-simt-fpu: $(BUILD)/tb/simt_fpu.vec $(foreach l,$(SIMT_FPU_TB_LATS),$(BUILD)/tb/tb_simt_fpu_$(l).vvp)
	@set -e; for l in $(SIMT_FPU_TB_LATS); do \
	  vvp -n $(BUILD)/tb/tb_simt_fpu_$$l.vvp +vectors=$(BUILD)/tb/simt_fpu.vec +nrec=$$(wc -l < $(BUILD)/tb/simt_fpu.vec) +gap=7 \
	    | tee $(BUILD)/tb/simt_fpu_$$l.log; grep -q '^PASS' $(BUILD)/tb/simt_fpu_$$l.log; done

# The testbench must catch a wrong result: flip one bit of one expected FPU and one expected SFU result.
test-simt-fpu-sim: sim-simt-fpu
	@set -e; for u in 0 1; do \
	  awk -v u=$$u 'BEGIN{n=0} $$1==u {n++; if (n==100) {x=substr($$8,8,1); $$8=substr($$8,1,7) (x=="0"?"1":"0")}} {print}' \
	    $(BUILD)/tb/simt_fpu.vec > $(BUILD)/tb/simt_fpu_bad$$u.vec; \
	  vvp -n $(BUILD)/tb/tb_simt_fpu_8_8.vvp +vectors=$(BUILD)/tb/simt_fpu_bad$$u.vec +nrec=$$(wc -l < $(BUILD)/tb/simt_fpu.vec) \
	    > $(BUILD)/tb/simt_fpu_bad$$u.log 2>&1 || true; \
	  if grep -q '^FAIL' $(BUILD)/tb/simt_fpu_bad$$u.log && ! grep -q '^PASS' $(BUILD)/tb/simt_fpu_bad$$u.log; then \
	    echo "test-simt-fpu-sim: corrupted vector caught: $$(grep -m1 '^FAIL' $(BUILD)/tb/simt_fpu_bad$$u.log)"; \
	  else echo "test-simt-fpu-sim: FAIL: the testbench accepted a corrupted expected result (unit $$u)"; exit 1; fi; done

TEST_TARGETS += test-simt-fpu-sim

# ------------------------------------------------------------------ dense sweeps (make test-long) and speed
# test-long: 12.6M conversion vectors (4096 significands per exponent x 4 modes x 3 ops), 2.3M SFU table-segment
# vectors (256 exponents/periods per entry point), 10M structured + 5M uniform FPU, 10M random SFU.
.PHONY: test-long-simt-fpu bench-simt-fpu
test-long-simt-fpu: $(SIMT_FPU_COSIM)
	$< --seed $(or $(SEED),$(SIMT_FPU_SEED)) --cvt-mants 4096 --seg-scales 256 --struct 10000000 --random 5000000 --srandom 10000000 --quiet
test-long: test-long-simt-fpu

# Fixed workload (seed 0x5eed, the default test run without idle cycles): results compared per second.
bench-simt-fpu: $(SIMT_FPU_COSIM)
	@$< --seed 0x5eed --gap 0 --quiet | grep -E 'results compared|PASS|FAIL'
BENCH_TARGETS += bench-simt-fpu

# ------------------------------------------------------------------ coverage of the datapaths (unit lockstep)
# Line + toggle coverage of simt_fpu/simt_sfu and their submodules from the unit lockstep (every directed phase
# and the default random counts): much denser FP/SFU stimulus than the core's lockstep run. Minimums: measured
# level minus a small margin (docs/simt.md section 7).
SIMT_FPU_COV_BIN := $(BUILD)/cov/simt_fpu/cosim-simt-fpu
SIMT_FPU_COV_OUT := out/coverage/simt_fpu
SIMT_FPU_COV_MIN ?= --min-line 98.8 --min-toggle 94.6
$(eval $(call SIMT_FPU_VARIANT_RULES,8_8,$(BUILD)/cov/simt_fpu,cov))

.PHONY: coverage-simt-fpu
coverage-simt-fpu: $(SIMT_FPU_COV_BIN)
	@mkdir -p $(SIMT_FPU_COV_OUT) && rm -f $(SIMT_FPU_COV_OUT)/coverage.dat
	VL_COVERAGE_FILE=$(SIMT_FPU_COV_OUT)/coverage.dat $(SIMT_FPU_COV_BIN) --seed $(SIMT_FPU_SEED) --quiet
	$(PYTHON) scripts/coverage_report.py --unit "simt_fpu + simt_sfu (unit lockstep)" --only $(subst $(space),$(comma),$(notdir $(SIMT_LANE_RTL))) \
	  --every-file $(subst $(space),$(comma),$(notdir $(SIMT_LANE_RTL))) --max-list 200 $(SIMT_FPU_COV_MIN) \
	  $(SIMT_FPU_COV_OUT)/coverage.dat > $(SIMT_FPU_COV_OUT)/summary.txt; rc=$$?; cat $(SIMT_FPU_COV_OUT)/summary.txt; exit $$rc
	verilator_coverage --annotate $(SIMT_FPU_COV_OUT)/annotated $(SIMT_FPU_COV_OUT)/coverage.dat >/dev/null
COVERAGE_TARGETS += coverage-simt-fpu

# The FPU's AREA option alone (simt_fpu AREA=1: ripple adders and a `*` significand product, the iCE40
# configuration's FPU, docs/simt.md section 6) at the default latencies: the same directed phases and random
# counts as test-simt-fpu-cosim, every result bit-exact and at the same latency. Built without FST tracing
# (make test cost; a waveform of a mismatch: the default build's --fst with the same vector).
$(eval $(call SIMT_FPU_VARIANT_RULES,8_8_area,$(BUILD)/cosim/simt_fpu_8_8_area,cc))
.PHONY: test-simt-fpu-cosim-area
test-simt-fpu-cosim-area: $(BUILD)/cosim/simt_fpu_8_8_area/cosim-simt-fpu
	$< --seed $(SIMT_FPU_SEED) --quiet
TEST_TARGETS += test-simt-fpu-cosim-area
