# Primitive exchanger (PE): RTL (rtl/pe_*.v), C cycle model (cmodel/pe), Verilator lockstep co-simulation
# (sim/pe), Icarus testbench (tb/pe), bounded proofs (tests/formal), coverage, waves, synthesis. docs/pe.md.

PE_RTL      := rtl/pe_fifo.v rtl/pe_lowbit.v rtl/pe_exchanger.v
PE_VH       := $(BUILD)/gen/gpupd_flit.vh
# C objects the harnesses link: the cycle model, and the golden model's exchange + link model (cross-check)
PE_OBJS     := $(patsubst %.c,$(BUILD)/lib/obj/%.o,$(sort $(wildcard cmodel/pe/*.c) cmodel/link/net.c))
# Parameter sets co-simulated: MAX_GPUS_LQDEPTH_RQDEPTH (defs/cfg_pe.tbl, use cosim). 64_8_8: the default depths at
# the largest system (N = 1, 2, 3, 16, 64); 16_2_2: the smallest legal queues, so the LQ and both banks are full
# most of the time.
PE_VARIANTS := $(PE_CFG_USE_cosim)
PE_SEED     ?= 0x5eed
# Test run: flits (TX + RX handshakes of the PE) per variant; see docs/pe.md for the measured time
PE_TEST_FLITS_64 ?= 7000000
PE_TEST_FLITS_16 ?= 3000000

pe_mg = $(call pe_cfg_MAX_GPUS,$1)
pe_lq = $(call pe_cfg_LQ_DEPTH,$1)
pe_rq = $(call pe_cfg_RQ_DEPTH,$1)

PE_HARNESS_OBJS := $(BUILD)/cosim/obj/cosim_pe.o $(BUILD)/cosim/obj/pe_env.o
$(PE_HARNESS_OBJS): $(BUILD)/cosim/obj/%.o: sim/pe/%.c sim/pe/pe_dut.h sim/common/gtkw_view.h sim/common/lockstep.h sim/pe/pe_env.h cmodel/pe/pe_hw.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/pe -c $< -o $@

# One verilated co-simulation binary per parameter set (FST tracing compiled in, used only on demand):
# mk/verilator.mk's VL_MODEL. $(1): the parameter set, $(2): the build directory, $(3): the flavour.
PE_LINK = $(PE_HARNESS_OBJS) $(LOCKSTEP_OBJ) $(PE_OBJS)
define PE_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(2),$(2)/cosim-pe,pe_exchanger,$(3),-I$(abspath $(BUILD)/gen) $(call pe_cfg_vflags,$(1)),\
  rtl/lint.vlt $(PE_RTL),-I$(abspath cmodel) -I$(abspath sim/pe) -I$(abspath sim/common) $(call pe_cfg_dflags,$(1)),\
  sim/pe/pe_dut.cpp,$(PE_LINK),mk/pe.mk $(PE_VH),$(VL_OPT_MK)))
endef
$(foreach v,$(PE_VARIANTS),$(eval $(call PE_VARIANT_RULES,$(v),$(BUILD)/cosim/pe_$(v),fst)))

PE_COSIM_BINS := $(foreach v,$(PE_VARIANTS),$(BUILD)/cosim/pe_$(v)/cosim-pe)
PE_COSIM      := $(BUILD)/cosim/pe_64_8_8/cosim-pe
PE_COSIM_SMALL := $(BUILD)/cosim/pe_16_2_2/cosim-pe
.PHONY: cosim-pe-build cosim-pe
cosim-pe-build: $(PE_COSIM_BINS)

# Interactive/default run: SEED=random explores new seeds (the seed is printed for replay).
SEED ?= $(PE_SEED)
cosim-pe: $(PE_COSIM_BINS)
	$(PE_COSIM) --seed $(SEED) --scenarios 40 --gpus 1,2,3,16,64
	$(PE_COSIM_SMALL) --seed $(SEED) --scenarios 24 --gpus 1,2,3,16

# ------------------------------------------------------------------ Verilator lockstep co-simulation tests
.PHONY: test-pe-cosim
test-pe-cosim: $(PE_COSIM_BINS)
	$(PE_COSIM) --seed $(SEED) --scenarios 60 --flits $(PE_TEST_FLITS_64) --gpus 1,2,3,16,64 --quiet
	$(PE_COSIM_SMALL) --seed $(SEED) --scenarios 40 --flits $(PE_TEST_FLITS_16) --gpus 1,2,3,16 --quiet
TEST_TARGETS += test-pe-cosim

lint-pe: $(PE_VH)
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(PE_RTL) --top-module pe_exchanger
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(PE_RTL) --top-module pe_exchanger -GMAX_GPUS=64
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(PE_RTL) --top-module pe_exchanger -GMAX_GPUS=1 -GLQ_DEPTH=2 -GRQ_DEPTH=3
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -o /dev/null -s pe_exchanger $(PE_RTL)
	yosys -q -p "read_verilog -I$(BUILD)/gen $(PE_RTL); hierarchy -check -top pe_exchanger; proc; check -assert"
	@echo "lint-pe: clean (verilator -Wall at MAX_GPUS 16/64/1, iverilog -g2012, yosys check -assert; each file on its own: test-rtl-headers)"
.PHONY: lint-pe
TEST_TARGETS += lint-pe
LINT_TARGETS += lint-pe

.PHONY: test-pe-cosim-failure test-pe-waves waves-pe
test-pe-cosim-failure: $(PE_COSIM_SMALL)
	tests/common/exchange_cosim_failure.sh pe $< out/test/pe-cosim-failure
TEST_TARGETS += test-pe-cosim-failure

test-pe-waves: $(PE_COSIM)
	tests/pe/test_waves.sh $< tb/pe/pe.gtkw out/test/pe-waves
TEST_TARGETS += test-pe-waves

# Open GTKWave on a fresh waveform with the saved view (needs a display; headless check: test-pe-waves).
# Scenario 10 of seed 5: N = 3, this GPU in the middle of a line, runahead, 8 batches.
waves-pe: $(PE_COSIM)
	@mkdir -p out/waves
	$< --seed 5 --scenario 10 --gpus 1,2,3,16 --size 400 --waves out/waves/pe.fst --quiet
	gtkwave -a out/waves/pe.fst.gtkw out/waves/pe.fst

# ------------------------------------------------------------------ Icarus self-checking testbench
# Vectors from the C cycle model + the environment model (tb/pe/pe_vectors.c); the testbench compares every
# output port every cycle (values and handshake timing). Two parameter sets: the default depths at 64 GPUs,
# and the smallest queues (full most of the time) at 16 GPUs.
PE_TB_SETS ?= $(PE_CFG_USE_tb)
PE_SIM_SCENARIOS ?= 30
$(BUILD)/tb/pe-vectors: tb/pe/pe_vectors.c $(BUILD)/cosim/obj/pe_env.o $(PE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/pe $< $(BUILD)/cosim/obj/pe_env.o $(PE_OBJS) -o $@

$(BUILD)/tb/tb_pe_%.vvp: tb/pe/tb_pe.v tb/common/tb_vectors.vh $(PE_RTL) $(PE_VH)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -o $@ -s tb_pe $(call pe_cfg_pflags,$*,tb_pe) \
	  tb/pe/tb_pe.v $(PE_RTL)

.PHONY: sim-pe test-pe-sim
sim-pe: $(BUILD)/tb/pe-vectors $(foreach v,$(PE_TB_SETS),$(BUILD)/tb/tb_pe_$(v).vvp)
	@set -e; for v in $(PE_TB_SETS); do \
	  mg=$${v%%_*}; r=$${v#*_}; lq=$${r%%_*}; rq=$${r#*_}; \
	  gl=$$( [ $$mg -ge 64 ] && echo 1,2,3,16,64 || echo 1,2,3,16 ); \
	  $(BUILD)/tb/pe-vectors --max-gpus $$mg --lq $$lq --rq $$rq --gpus $$gl --scenarios $(PE_SIM_SCENARIOS) --size 300 \
	    --seed $(SEED) -o $(BUILD)/tb/pe_$$v.hex; \
	  vvp -n $(BUILD)/tb/tb_pe_$$v.vvp +vectors=$(BUILD)/tb/pe_$$v.hex +nrec=$$(wc -l < $(BUILD)/tb/pe_$$v.hex) \
	    +vseed=$(SEED) | tee $(BUILD)/tb/pe_$$v.log; \
	  grep -q '^PASS' $(BUILD)/tb/pe_$$v.log; \
	done

# sim-pe-cfg (make test, docs/configurations.md "Coverage"): the testbench at the configuration-coverage builds of
# defs/cfg_pe.tbl (use tb-cfg: MAX_GPUS 1, 2, 3, 63; depths 3, 5, 7 and 256), every N of 1, 2, 3 up to MAX_GPUS
# and MAX_GPUS itself; 6 scenarios per N (pe_scen_make: the first, last and a random position on the line, then
# the same on the hub; runahead drawn per scenario; each build must see both topologies and runahead on and off).
PE_TB_CFG_SETS ?= $(PE_CFG_USE_tb-cfg)
.PHONY: sim-pe-cfg
sim-pe-cfg: $(BUILD)/tb/pe-vectors $(foreach v,$(PE_TB_CFG_SETS),$(BUILD)/tb/tb_pe_$(v).vvp)
	@set -e; for v in $(PE_TB_CFG_SETS); do \
	  mg=$${v%%_*}; r=$${v#*_}; lq=$${r%%_*}; rq=$${r#*_}; \
	  gl=$$(for n in 1 2 3 $$mg; do if [ $$n -le $$mg ]; then echo $$n; fi; done | sort -nu | paste -sd, -); \
	  $(BUILD)/tb/pe-vectors --max-gpus $$mg --lq $$lq --rq $$rq --gpus $$gl --scenarios $$((6 * $$(echo $$gl | tr , ' ' | wc -w))) --size 300 \
	    --seed $(SEED) -o $(BUILD)/tb/pe_cfg_$$v.hex; \
	  vvp -n $(BUILD)/tb/tb_pe_$$v.vvp +vectors=$(BUILD)/tb/pe_cfg_$$v.hex +nrec=$$(wc -l < $(BUILD)/tb/pe_cfg_$$v.hex) \
	    +vseed=$(SEED) > $(BUILD)/tb/pe_cfg_$$v.log 2>&1 || true; \
	  rt=$$($(PYTHON) -c "import sys; s={(int(l,16)>>493)&3 for l in open(sys.argv[1]) if l[0]=='2'}; \
	    print('ok' if {t>>1 for t in s}=={0,1} and {t&1 for t in s}=={0,1} else 'topology/runahead seen: %s' % sorted(s))" \
	    $(BUILD)/tb/pe_cfg_$$v.hex); \
	  if [ "$$rt" != ok ]; then echo "sim-pe-cfg: FAIL at $$v: not both topologies and runahead on/off ($$rt)"; exit 1; fi; \
	  if grep -q '^PASS' $(BUILD)/tb/pe_cfg_$$v.log; then echo "sim-pe-cfg $$v (N $$gl): $$(grep -m1 '^PASS' $(BUILD)/tb/pe_cfg_$$v.log | cut -c1-100)"; \
	  else tail -20 $(BUILD)/tb/pe_cfg_$$v.log; echo "sim-pe-cfg: FAIL at $$v; reproduce: make sim-pe-cfg PE_TB_CFG_SETS=$$v SEED=$(SEED)"; exit 1; fi; \
	done
TEST_TARGETS += sim-pe-cfg

# The testbench must catch a wrong output and a wrong handshake: flip one expected out_prim_id bit of a cycle
# with out_valid, and one expected rx0_ready, and expect FAIL both times.
test-pe-sim: sim-pe
	@set -e; f=$(BUILD)/tb/pe_16_2_2.hex; \
	for what in out_prim_id rx0_ready; do \
	  $(PYTHON) -c "import sys; w=sys.argv[2]; L=open(sys.argv[1]).read().split(); \
	    sel=[i for i,l in enumerate(L) if l[0]=='2' and ((int(l,16)>>112)&1 if w=='out_prim_id' else (int(l,16)>>376)&1)]; \
	    i=sel[len(sel)//2]; v=int(L[i],16) ^ (1<<63 if w=='out_prim_id' else 1<<114); L[i]='%0128x'%v; \
	    open(sys.argv[1]+'.bad','w').write('\n'.join(L)+'\n')" $$f $$what; \
	  vvp -n $(BUILD)/tb/tb_pe_16_2_2.vvp +vectors=$$f.bad +nrec=$$(wc -l < $$f.bad) > $$f.bad.log 2>&1 || true; \
	  if grep -q '^FAIL' $$f.bad.log && grep -q "$$what DUT" $$f.bad.log && ! grep -q '^PASS' $$f.bad.log; then \
	    echo "test-pe-sim: corrupted expected $$what caught: $$(grep -m1 "$$what DUT" $$f.bad.log)"; \
	  else echo "test-pe-sim: FAIL: the testbench accepted a corrupted expected $$what"; exit 1; fi; \
	done
TEST_TARGETS += test-pe-sim

# ------------------------------------------------------------------ coverage (line + toggle)
# One coverage build of the default depths at 64 GPUs (all N), one of the smallest queues: the two together
# reach the full-queue corners and every GPU position. The counters of both runs are merged.
PE_COV_SETS := 64_8_8 16_2_2
$(foreach v,$(PE_COV_SETS),$(eval $(call PE_VARIANT_RULES,$(v),$(BUILD)/cov/pe_$(v),cov)))

.PHONY: coverage-pe
coverage-pe: $(foreach v,$(PE_COV_SETS),$(BUILD)/cov/pe_$(v)/cosim-pe)
	@mkdir -p out/coverage/pe && rm -f out/coverage/pe/*.dat
	cd out/coverage/pe && VL_COVERAGE_FILE=cov64.dat $(abspath $(BUILD)/cov/pe_64_8_8/cosim-pe) --seed $(SEED) --scenarios 400 --golden 0 --quiet --gpus 1,2,3,16,64
	cd out/coverage/pe && VL_COVERAGE_FILE=cov16.dat $(abspath $(BUILD)/cov/pe_16_2_2/cosim-pe) --seed $(SEED) --scenarios 200 --golden 0 --quiet --gpus 1,2,3,16
	verilator_coverage --write out/coverage/pe/coverage.dat out/coverage/pe/cov64.dat out/coverage/pe/cov16.dat
	$(PYTHON) scripts/coverage_report.py --unit pe_exchanger out/coverage/pe/coverage.dat | tee out/coverage/pe/summary.txt
	verilator_coverage --annotate out/coverage/pe/annotated out/coverage/pe/coverage.dat >/dev/null
	@echo "coverage-pe: annotated sources in out/coverage/pe/annotated/"
COVERAGE_TARGETS += coverage-pe

# ------------------------------------------------------------------ benchmark: lockstep speed
# Fixed workload (seed 0x5eed, 2000 scenarios at MAX_GPUS=64, N = 1, 2, 3, 16, 64, no golden-model cross-check,
# no waveform); prints cycles/s and flits/s of the lockstep (RTL + C cycle model + environment).
.PHONY: bench-pe
bench-pe: $(PE_COSIM)
	$(PE_COSIM) --seed 0x5eed --scenarios 2000 --golden 0 --quiet --gpus 1,2,3,16,64 | grep -E 'cycles,|Mcycles'
BENCH_TARGETS += bench-pe

# ------------------------------------------------------------------ bounded proofs (docs/pe.md 4.5)
# yosys-smtbmc + z3, MAX_GPUS=3 LQ_DEPTH=2 RQ_DEPTH=2 (every topology/position/runahead case of N <= 3). Every
# property and invariant checked here is also proved unbounded by test-pe-induct (make test), so the bounded run
# is in make test-long; formal-pe goes deeper (PE_FORMAL_DEPTH).
PE_FORMAL_TEST_DEPTH ?= 6
PE_FORMAL_DEPTH ?= 10
.PHONY: test-pe-formal formal-pe
test-pe-formal: $(PE_VH)
	GEN=$(BUILD)/gen tests/formal/pe_formal.sh out/test/pe-formal $(PE_FORMAL_TEST_DEPTH)
test-long: test-pe-formal
formal-pe: $(PE_VH)
	GEN=$(BUILD)/gen tests/formal/pe_formal.sh out/formal/pe $(PE_FORMAL_DEPTH)

# ------------------------------------------------------------------ error paths as tests (issue 25)
# Every condition of the sticky err_o (docs/pe.md section 2), on the P2G input and on each rx port: pe-vectors
# --inject makes one handshake per scenario illegal, checks that the C cycle model raises err in the cycle after
# it and keeps it, and the vectors carry that expectation to tb_pe.v, which checks the RTL's err_o in the same
# cycles (N = 2, 3, 16; smallest queues). rxP-next puts the legal upper edge of the tag window (ob+1) on port P:
# err must stay low. Then a corrupted expected err (one record of the first run) must fail. The lockstep's
# random traffic checks err_o == 0 every cycle (pe_env_observe).
PE_ERR_KINDS := in-stale in-future rx0-type rx0-stale rx0-future rx0-dst rx0-next rx1-type rx1-stale rx1-future rx1-dst rx1-next
.PHONY: test-pe-err
test-pe-err: $(BUILD)/tb/pe-vectors $(BUILD)/tb/tb_pe_16_2_2.vvp
	@set -e; d=$(BUILD)/tb/pe-err; mkdir -p $$d; \
	for k in $(PE_ERR_KINDS); do \
	  rep="$(BUILD)/tb/pe-vectors --max-gpus 16 --lq 2 --rq 2 --gpus 2,3,16 --scenarios 12 --size 60 --seed $(PE_SEED) --inject $$k -o $$d/$$k.hex"; \
	  $$rep | head -1; \
	  vvp -n $(BUILD)/tb/tb_pe_16_2_2.vvp +vectors=$$d/$$k.hex +nrec=$$(wc -l < $$d/$$k.hex) "+repro=$$rep; vvp -n $(BUILD)/tb/tb_pe_16_2_2.vvp +vectors=$$d/$$k.hex +nrec=$$(wc -l < $$d/$$k.hex)" > $$d/$$k.log 2>&1 \
	    || { cat $$d/$$k.log; echo "test-pe-err: FAIL: $$k: the RTL's err_o differs from the expectation"; exit 1; }; \
	  grep -q '^PASS' $$d/$$k.log; \
	done; \
	$(PYTHON) -c "import sys; L=open(sys.argv[1]).read().split(); i=next(i for i,l in enumerate(L) if l[0]=='2' and (int(l,16)>>45)&1); \
	  L[i]='%0128x'%(int(L[i],16)^(1<<45)); open(sys.argv[1]+'.bad','w').write('\n'.join(L)+'\n')" $$d/in-stale.hex; \
	vvp -n $(BUILD)/tb/tb_pe_16_2_2.vvp +vectors=$$d/in-stale.hex.bad +nrec=$$(wc -l < $$d/in-stale.hex.bad) > $$d/bad.log 2>&1 || true; \
	if grep -q 'err DUT' $$d/bad.log && ! grep -q '^PASS' $$d/bad.log; then \
	  echo "test-pe-err: $(words $(PE_ERR_KINDS)) kinds: err_o as documented, raised in the cycle after each illegal handshake and low on the legal next-batch tags (RTL = C model); a wrong expected err is caught"; \
	else echo "test-pe-err: FAIL: the testbench accepted a corrupted expected err"; exit 1; fi
TEST_TARGETS += test-pe-err

# ------------------------------------------------------------------ k-induction and covers (issue 25)
# Every property (F1..F5: queues, TX/link, exactly once per destination, turn order, id order and tags of the
# output; err_o = 0) proved unbounded with the invariants I1..I9 (k-induction, yosys-smtbmc --unroll -i, z3) at
# PE_IND_CONFIGS (MAX_GPUS:LQ_DEPTH:RQ_DEPTH; N = 2 and 3, a depth that is not a power of two); the cover
# statements C1..C11 reached from reset; two mutants (input batch counter, turn without LAST) must fail. docs/pe.md 4.5.
# make test runs MAX_GPUS 2 (N = 1, 2) at the smallest depths without the covers and the mutants (they cost
# minutes of CPU with the invariants); make test-long the covers, the mutants and MAX_GPUS 3 (N = 3) at depth 3
# (not a power of two). Any other set: PE_IND_CONFIGS="MG:LQ:RQ ..." tests/formal/pe_induct.sh DIR.
PE_IND_K ?= 1
PE_COVER_DEPTH ?= 8
PE_IND_TEST_COVER_DEPTH ?= 0
PE_IND_CONFIGS ?= 2:2:2
PE_IND_LONG_CONFIGS ?= 3:3:3
.PHONY: test-pe-induct test-long-pe-induct
test-pe-induct: $(PE_VH)
	PE_IND_CONFIGS="$(PE_IND_CONFIGS)" PE_IND_MUTANTS=0 GEN=$(BUILD)/gen tests/formal/pe_induct.sh out/test/pe-induct $(PE_IND_K) $(PE_IND_TEST_COVER_DEPTH)
TEST_TARGETS += test-pe-induct
test-long-pe-induct: $(PE_VH)
	PE_IND_CONFIGS="$(PE_IND_LONG_CONFIGS)" GEN=$(BUILD)/gen tests/formal/pe_induct.sh out/test/pe-induct-long $(PE_IND_K) $(PE_COVER_DEPTH)
test-long: test-long-pe-induct
