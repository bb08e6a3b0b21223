# Stream primitive exchanger (gpupd-stream, issue 20 item 2): RTL (rtl/sx_pe.v), C cycle model (cmodel/stream),
# Verilator lockstep co-simulation (sim/sx), Icarus testbench (tb/sx), bounded proofs (tests/formal),
# waves, synthesis. docs/sx.md.

SX_RTL      := rtl/sx_pe.v rtl/sx_fifo_ram.v
SX_VH       := $(BUILD)/gen/gpupd_flit.vh
SX_OBJS     := $(patsubst %.c,$(BUILD)/lib/obj/%.o,$(sort $(wildcard cmodel/stream/*.c)) cmodel/link/net.c)
# Parameter sets co-simulated: MAX_GPUS_K_DEPTH (defs/cfg_sx.tbl). 16_2_8: the default at 16 GPUs (N = 1, 2, 3,
# 16); 4_1_2: K = 1 and the smallest FIFOs (full most of the time; N = 1..4); 8_8_12: K = 8 with 12-slot FIFOs.
# make test runs the two extreme builds (use cosim: K = 1 with 2-slot FIFOs, K = 8 with 12-slot FIFOs); the
# default build (use bench) is the benchmark's and cosim-sx's.
SX_TEST_VARIANTS := $(SX_CFG_USE_cosim)
SX_VARIANTS := $(SX_CFG_USE_bench) $(SX_TEST_VARIANTS)
SX_SEED     ?= 0x5eed
# Test run: cycles per variant (docs/sx.md: the measured time)
SX_TEST_CYCLES ?= 1000000


SX_HARNESS_OBJS := $(BUILD)/cosim/obj/cosim_sx.o $(BUILD)/cosim/obj/sx_env.o
$(SX_HARNESS_OBJS): $(BUILD)/cosim/obj/%.o: sim/sx/%.c sim/sx/sx_dut.h sim/sx/sx_env.h sim/common/lockstep.h cmodel/stream/sx_hw.h cmodel/stream/sx_net.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/sx -c $< -o $@

SX_LINK = $(SX_HARNESS_OBJS) $(LOCKSTEP_OBJ) $(SX_OBJS)
define SX_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(2),$(2)/cosim-sx,sx_pe,$(3),-I$(abspath $(BUILD)/gen) $(call sx_cfg_vflags,$(1)),\
  rtl/lint.vlt $(SX_RTL) sim/sx/sx_pe_cap.v,-I$(abspath cmodel) -I$(abspath sim/sx) -I$(abspath sim/common) -DSX_DUT_FUSED=1 $(call sx_cfg_dflags,$(1)),\
  sim/sx/sx_dut.cpp,$(SX_LINK),mk/sx.mk $(SX_VH),$(VL_OPT_MK)))
endef
$(foreach v,$(SX_VARIANTS),$(eval $(call SX_VARIANT_RULES,$(v),$(BUILD)/cosim/sx_$(v),fst)))

SX_COSIM_BINS := $(foreach v,$(SX_VARIANTS),$(BUILD)/cosim/sx_$(v)/cosim-sx)
SX_COSIM      := $(BUILD)/cosim/sx_16_2_8/cosim-sx
SX_COSIM_SMALL := $(BUILD)/cosim/sx_4_1_2/cosim-sx
.PHONY: cosim-sx-build cosim-sx test-sx-cosim
cosim-sx-build: $(SX_COSIM_BINS)

cosim-sx: $(SX_COSIM_BINS)
	@set -e; for v in $(SX_VARIANTS); do \
	  g=$$(case $$v in 4_*) echo 1,2,3,4;; 8_*) echo 1,2,3,8;; *) echo 1,2,3,16;; esac); \
	  $(BUILD)/cosim/sx_$$v/cosim-sx --seed $(SEED) --scenarios 40 --gpus $$g; done

test-sx-cosim: $(foreach v,$(SX_TEST_VARIANTS),$(BUILD)/cosim/sx_$(v)/cosim-sx)
	@set -e; for v in $(SX_TEST_VARIANTS); do \
	  g=$$(case $$v in 4_*) echo 1,2,3,4;; 8_*) echo 1,2,3,8;; *) echo 1,2,3,16;; esac); \
	  $(BUILD)/cosim/sx_$$v/cosim-sx --seed $(SX_SEED) --scenarios 30 --cycles $(SX_TEST_CYCLES) --gpus $$g --quiet; done
TEST_TARGETS += test-sx-cosim

# the failure path (report, reproduce command, FST window, view widths, a lost flit, zero-comparison guards) and
# the saved view on a fresh waveform (headless GTKWave)
.PHONY: test-sx-cosim-failure test-sx-waves waves-sx
test-sx-cosim-failure: $(SX_COSIM_SMALL)
	tests/common/exchange_cosim_failure.sh sx $< out/test/sx-cosim-failure
TEST_TARGETS += test-sx-cosim-failure

# (on the K = 8 build of test-sx-cosim: no third model to verilate in make test; the view's widths are rewritten)
test-sx-waves: $(BUILD)/cosim/sx_8_8_12/cosim-sx
	tests/sx/test_waves.sh $< tb/sx/sx.gtkw out/test/sx-waves
TEST_TARGETS += test-sx-waves

# GTKWave on a fresh waveform with the saved view (needs a display). Scenario 7 of seed 5: N = 3, middle GPU
# of a line, output and credits stalled at times.
waves-sx: $(SX_COSIM)
	@mkdir -p out/waves
	$< --seed 5 --scenario 7 --gpus 1,2,3,16 --size 200 --waves out/waves/sx.fst --quiet
	gtkwave -a out/waves/sx.fst.gtkw out/waves/sx.fst

lint-sx: $(SX_VH)
	verilator --lint-only -Wall -Irtl rtl/lint.vlt $(SX_RTL) --top-module sx_pe
	verilator --lint-only -Wall -Irtl rtl/lint.vlt $(SX_RTL) --top-module sx_pe -GMAX_GPUS=64 -GK=8 -GDEPTH=3
	verilator --lint-only -Wall -Irtl rtl/lint.vlt $(SX_RTL) --top-module sx_pe -GMAX_GPUS=1 -GK=1 -GDEPTH=2
	iverilog -g2012 -Wall -Wno-timescale -Irtl -o /dev/null -s sx_pe $(SX_RTL)
	yosys -q -p "read_verilog -Irtl $(SX_RTL); hierarchy -check -top sx_pe; proc; check -assert"
	@echo "lint-sx: clean (verilator -Wall at MAX_GPUS/K/DEPTH 16/2/8, 64/8/3, 1/1/2; iverilog -g2012; yosys check -assert)"
.PHONY: lint-sx
TEST_TARGETS += lint-sx
LINT_TARGETS += lint-sx

# ------------------------------------------------------------------ benchmark: lockstep speed at 16 GPUs
.PHONY: bench-sx
bench-sx: $(SX_COSIM)
	$(SX_COSIM) --seed 0x5eed --scenarios 12 --cycles 3000000 --gpus 16 --size 4000 --quiet | grep -E 'Mcycles|PASS'
BENCH_TARGETS += bench-sx

# ------------------------------------------------------------------ Icarus self-checking testbench
# Vectors from the C cycle model + the environment model (tb/sx/sx_vectors.c); tb_sx.v compares every output
# every cycle (values and handshake timing). Two parameter sets: the default at 16 GPUs and K = 1 with 2-slot FIFOs.
SX_TB_SETS ?= $(SX_CFG_USE_tb)
SX_SIM_SCENARIOS ?= 24
$(BUILD)/tb/sx-vectors: tb/sx/sx_vectors.c $(BUILD)/cosim/obj/sx_env.o $(SX_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/sx $< $(BUILD)/cosim/obj/sx_env.o $(SX_OBJS) -o $@

$(BUILD)/tb/tb_sx_%.vvp: tb/sx/tb_sx.v tb/common/tb_vectors.vh $(SX_RTL) $(SX_VH)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -Irtl -o $@ -s tb_sx $(call sx_cfg_pflags,$*,tb_sx) \
	  tb/sx/tb_sx.v $(SX_RTL)

.PHONY: sim-sx test-sx-sim
sim-sx: $(BUILD)/tb/sx-vectors $(foreach v,$(SX_TB_SETS),$(BUILD)/tb/tb_sx_$(v).vvp)
	@set -e; for v in $(SX_TB_SETS); do \
	  mg=$${v%%_*}; r=$${v#*_}; k=$${r%%_*}; d=$${r#*_}; \
	  gl=$$( [ $$mg -ge 16 ] && echo 1,2,3,16 || echo 1,2,3,4 ); \
	  $(BUILD)/tb/sx-vectors --max-gpus $$mg --k $$k --depth $$d --gpus $$gl --scenarios $(SX_SIM_SCENARIOS) --size 120 \
	    --seed $(SEED) -o $(BUILD)/tb/sx_$$v.hex; \
	  vvp -n $(BUILD)/tb/tb_sx_$$v.vvp +vectors=$(BUILD)/tb/sx_$$v.hex +nrec=$$(wc -l < $(BUILD)/tb/sx_$$v.hex) \
	    +vseed=$(SEED) | tee $(BUILD)/tb/sx_$$v.log; \
	  grep -q '^PASS' $(BUILD)/tb/sx_$$v.log; \
	done

# sim-sx-cfg (make test, docs/configurations.md "Coverage"): the testbench at the configuration-coverage builds of
# defs/cfg_sx.tbl (use tb-cfg: MAX_GPUS 1, 2, 3, 63, 64, DEPTH 16384), N = 1, 2, 3 up to MAX_GPUS and MAX_GPUS.
SX_TB_CFG_SETS ?= $(SX_CFG_USE_tb-cfg)
SX_SIM_CFG_SCENARIOS ?= 6
.PHONY: sim-sx-cfg
sim-sx-cfg: $(BUILD)/tb/sx-vectors $(foreach v,$(SX_TB_CFG_SETS),$(BUILD)/tb/tb_sx_$(v).vvp)
	@set -e; for v in $(SX_TB_CFG_SETS); do \
	  mg=$${v%%_*}; r=$${v#*_}; k=$${r%%_*}; d=$${r#*_}; \
	  gl=$$(for n in 1 2 3 $$mg; do if [ $$n -le $$mg ]; then echo $$n; fi; done | sort -nu | paste -sd, -); \
	  $(BUILD)/tb/sx-vectors --max-gpus $$mg --k $$k --depth $$d --gpus $$gl --scenarios $(SX_SIM_CFG_SCENARIOS) --size 120 \
	    --seed $(SEED) -o $(BUILD)/tb/sx_cfg_$$v.hex > /dev/null; \
	  vvp -n $(BUILD)/tb/tb_sx_$$v.vvp +vectors=$(BUILD)/tb/sx_cfg_$$v.hex +nrec=$$(wc -l < $(BUILD)/tb/sx_cfg_$$v.hex) \
	    +vseed=$(SEED) > $(BUILD)/tb/sx_cfg_$$v.log 2>&1 || true; \
	  if grep -q '^PASS' $(BUILD)/tb/sx_cfg_$$v.log; then echo "sim-sx-cfg $$v (N $$gl): $$(grep -m1 '^PASS' $(BUILD)/tb/sx_cfg_$$v.log | cut -c1-100)"; \
	  else tail -20 $(BUILD)/tb/sx_cfg_$$v.log; echo "sim-sx-cfg: FAIL at $$v; reproduce: make sim-sx-cfg SX_TB_CFG_SETS=$$v SEED=$(SEED)"; exit 1; fi; \
	done
TEST_TARGETS += sim-sx-cfg

# The testbench must catch a wrong output and a wrong handshake: flip one expected out_id bit of a cycle with
# out_valid[0], and one expected in_ready[0], and expect FAIL both times.
test-sx-sim: sim-sx
	@set -e; f=$(BUILD)/tb/sx_4_1_2.hex; \
	for what in out_id in_ready; do \
	  $(PYTHON) -c "import sys; w=sys.argv[2]; L=open(sys.argv[1]).read().split(); \
	    bit=1080 if w=='out_id' else 1072; flip=1272+3 if w=='out_id' else 1072; \
	    sel=[i for i,l in enumerate(L) if l[0]=='2' and (int(l,16)>>bit)&1]; \
	    i=sel[len(sel)//2]; L[i]='%0388x'%(int(L[i],16)^(1<<flip)); \
	    open(sys.argv[1]+'.bad','w').write('\n'.join(L)+'\n')" $$f $$what; \
	  vvp -n $(BUILD)/tb/tb_sx_4_1_2.vvp +vectors=$$f.bad +nrec=$$(wc -l < $$f.bad) > $$f.bad.log 2>&1 || true; \
	  if grep -q '^FAIL' $$f.bad.log && grep -q "$$what DUT" $$f.bad.log && ! grep -q '^PASS' $$f.bad.log; then \
	    echo "test-sx-sim: corrupted expected $$what caught: $$(grep -m1 "$$what DUT" $$f.bad.log)"; \
	  else echo "test-sx-sim: FAIL: the testbench accepted a corrupted expected $$what"; exit 1; fi; \
	done
TEST_TARGETS += test-sx-sim

# Error-path vectors (tests/sx/test_sx_err.sh, docs/sx.md 4.4): every sticky err condition injected on both
# parameter sets, err_o checked at the documented cycle; a corrupted expected err and an RTL copy without the rx tag
# check must fail. About 2 s of CPU (iverilog of the mutant included).
.PHONY: test-sx-err
test-sx-err: $(BUILD)/tb/sx-vectors $(foreach v,$(SX_TB_SETS),$(BUILD)/tb/tb_sx_$(v).vvp)
	tests/sx/test_sx_err.sh $(BUILD) out/test/sx-err $(SX_TB_SETS)
TEST_TARGETS += test-sx-err

# ------------------------------------------------------------------ proofs (docs/sx.md 4.5)
# tests/formal/sx_formal.sv around the unchanged RTL (K = 1; every N <= MAX_GPUS, position, topology; any number
# of batches), yosys-smtbmc + z3: k-induction with the invariants I1..I6 at MAX_GPUS:DEPTH (tests/formal/sx_induct.sh),
# the covers C1..C11, five mutants that must fail; and the bounded proof of the properties alone
# (tests/formal/sx_formal.sh, deep enough for a whole 3-GPU batch with a full FIFO at DEPTH 2).
# make test: the induction at 2:2 (N = 1, 2; about 40 s of CPU); make test-long: N = 3 at DEPTH 2, the covers and
# the mutants; make formal-sx: all of it plus the bounded proof. Other sets: SX_IND_LONG_CONFIGS="3:3 ...".
SX_IND_K ?= 1
SX_IND_CONFIGS ?= 2:2
SX_IND_LONG_CONFIGS ?= 3:2
SX_COVER_DEPTH ?= 10
SX_FORMAL_DEPTH ?= 5
.PHONY: test-sx-induct test-long-sx-induct formal-sx
test-sx-induct:
	SX_IND_CONFIGS="$(SX_IND_CONFIGS)" SX_IND_MUTANTS=0 tests/formal/sx_induct.sh out/test/sx-induct $(SX_IND_K) 0
# in make test-long, not make test: make test stays under 15 minutes on 2 idle cores with the 1920x1080 frames,
# and the long run proves the stronger 3:2 configuration besides
test-long: test-sx-induct
test-long-sx-induct:
	SX_IND_CONFIGS="$(SX_IND_LONG_CONFIGS)" tests/formal/sx_induct.sh out/test/sx-induct-long $(SX_IND_K) $(SX_COVER_DEPTH)
test-long: test-long-sx-induct
formal-sx:
	tests/formal/sx_formal.sh out/formal/sx $(SX_FORMAL_DEPTH)
	SX_IND_CONFIGS="$(SX_IND_CONFIGS) $(SX_IND_LONG_CONFIGS)" tests/formal/sx_induct.sh out/formal/sx $(SX_IND_K) $(SX_COVER_DEPTH)

# Sequential equivalence of two versions of the RTL (tests/formal/sx_equiv.sh, docs/sx.md 4.6): the check of every
# behaviour-preserving rewrite (timing, simulation speed). `make sx-equiv` compares rtl/sx_pe.v of the work tree with
# SX_EQ_OLD (a git revision or a file; default the last commit) at SX_EQ_CONFIGS (MAX_GPUS:K:DEPTH).
# test-long-sx-equiv (make test-long, about 75 s of CPU): the check itself, at 3:1:2: the RTL against itself must be
# proved, and a copy whose lane acceptance ignores the credits of port 0 must not (at in_ready_o).
SX_EQ_OLD ?= HEAD
SX_EQ_CONFIGS ?= 3:1:2 4:2:3 5:3:4
SX_EQ_MUTANT := s/assign ent_r = (side0_m \& cok_m \& {M{data_ok0}})/assign ent_r = (side0_m \& {M{data_ok0}})/
.PHONY: sx-equiv test-long-sx-equiv
sx-equiv: $(SX_VH)
	SX_EQ_CONFIGS="$(SX_EQ_CONFIGS)" tests/formal/sx_equiv.sh out/formal/sx-equiv $(SX_EQ_OLD)
test-long-sx-equiv: $(SX_VH)
	@mkdir -p out/test/sx-equiv
	SX_EQ_CONFIGS=3:1:2 tests/formal/sx_equiv.sh out/test/sx-equiv/self rtl/sx_pe.v rtl/sx_pe.v
	@sed '$(SX_EQ_MUTANT)' rtl/sx_pe.v > out/test/sx-equiv/mutant.v; \
	if cmp -s out/test/sx-equiv/mutant.v rtl/sx_pe.v; then echo "test-long-sx-equiv: FAIL: mutation not applied"; exit 1; fi; \
	if SX_EQ_CONFIGS=3:1:2 tests/formal/sx_equiv.sh out/test/sx-equiv/mutant rtl/sx_pe.v out/test/sx-equiv/mutant.v \
	  > out/test/sx-equiv/mutant.txt 2>&1; then \
	  echo "test-long-sx-equiv: FAIL: a copy that ignores port 0's credits in in_ready was proved equivalent"; exit 1; \
	elif grep -q 'Unproven.*in_ready_o' out/test/sx-equiv/mutant/3-1-2.log; then \
	  echo "test-long-sx-equiv: the mutant (in_ready without port 0's credits) is not equivalent: caught at in_ready_o"; \
	else echo "test-long-sx-equiv: FAIL: the mutant failed, but not at in_ready_o (out/test/sx-equiv/mutant.txt)"; exit 1; fi
test-long: test-long-sx-equiv

# ---------------------------------------------------------------- synthesis (docs/sx.md section 6; make synth)
# OSU 0.18 um with the receive-FIFO array (rtl/sx_fifo_ram.v) as a black-box macro (scripts/sx_synth.sh,
# scripts/sx_ram_lib.py): area and Fmax of the logic, the macro listed by size. iCE40 HX8K (scripts/synth_flow.sh
# ice40 + nextpnr seed 1) on a configuration small enough to fit with the array as logic (4:1:16 packs into 99% of
# the LCs). Each configuration is
# MAX_GPUS:K:DEPTH. `make synth-sx` writes out/synth/sx/summary.md (+ summary.json). (mk/synth.mk is included
# after this file: its SYNTH_ENV is used in recipes only.)
SX_SYNTH_OUT   := out/synth/sx
SX_SYNTH_OSU   ?= 16:1:64
SX_SYNTH_ICE40 ?= 4:1:8
sx_syn_tag = MAX_GPUS$(word 1,$(subst :, ,$1))_K$(word 2,$(subst :, ,$1))_DEPTH$(word 3,$(subst :, ,$1))
SX_SYNTH_DEPS := $(SX_RTL) $(SX_VH) constraints/sx_pe.sdc scripts/sx_synth.sh scripts/sx_ram_lib.py scripts/synth_lib.sh \
  scripts/synth_sta.tcl

define SX_SYNTH_OSU_RULES
$(SX_SYNTH_OUT)/sx_pe-$(call sx_syn_tag,$(1))/osu.stat: $(SX_SYNTH_DEPS) constraints/osu018_abc.constr
	$$(SYNTH_ENV) SDC=constraints/sx_pe.sdc scripts/sx_synth.sh osu $$(@D) $(subst :, ,$(1)) $(SX_RTL) $(SX_VH)
$(SX_SYNTH_OUT)/sx_pe-$(call sx_syn_tag,$(1))/sta.log: $(SX_SYNTH_OUT)/sx_pe-$(call sx_syn_tag,$(1))/osu.stat
	$$(SYNTH_ENV) SDC=constraints/sx_pe.sdc scripts/sx_synth.sh sta $$(@D)
endef
define SX_SYNTH_ICE40_RULES
$(SX_SYNTH_OUT)/sx_pe-ice40-$(call sx_syn_tag,$(1))/ice40.json: $(SX_RTL) $(SX_VH) scripts/synth_flow.sh scripts/synth_lib.sh scripts/synth_wrap.py
	$$(SYNTH_ENV) scripts/synth_flow.sh ice40 $$(@D) sx_pe MAX_GPUS=$(word 1,$(subst :, ,$(1))):K=$(word 2,$(subst :, ,$(1))):DEPTH=$(word 3,$(subst :, ,$(1))) $(SX_RTL) $(SX_VH)
$(SX_SYNTH_OUT)/sx_pe-ice40-$(call sx_syn_tag,$(1))/pnr-seed1.status: $(SX_SYNTH_OUT)/sx_pe-ice40-$(call sx_syn_tag,$(1))/ice40.json
	$$(SYNTH_ENV) scripts/synth_flow.sh pnr $$(@D) 1
endef
$(foreach c,$(SX_SYNTH_OSU),$(eval $(call SX_SYNTH_OSU_RULES,$(c))))
$(foreach c,$(SX_SYNTH_ICE40),$(eval $(call SX_SYNTH_ICE40_RULES,$(c))))

SX_SYNTH_OSU_DIRS   := $(foreach c,$(SX_SYNTH_OSU),$(SX_SYNTH_OUT)/sx_pe-$(call sx_syn_tag,$(c)))
SX_SYNTH_ICE40_DIRS := $(foreach c,$(SX_SYNTH_ICE40),$(SX_SYNTH_OUT)/sx_pe-ice40-$(call sx_syn_tag,$(c)))
.PHONY: synth-sx
synth-sx: $(addsuffix /sta.log,$(SX_SYNTH_OSU_DIRS)) $(addsuffix /pnr-seed1.status,$(SX_SYNTH_ICE40_DIRS)) scripts/sx_synth_summary.py
	$(PYTHON) scripts/sx_synth_summary.py --json $(SX_SYNTH_OUT)/summary.json $(addprefix --osu ,$(SX_SYNTH_OSU_DIRS)) \
	  $(addprefix --ice40 ,$(SX_SYNTH_ICE40_DIRS)) $(if $(SX_SYNTH_ICE40),--result $(SX_SYNTH_OUT)/result.json) \
	  >$(SX_SYNTH_OUT)/summary.md.tmp
	mv $(SX_SYNTH_OUT)/summary.md.tmp $(SX_SYNTH_OUT)/summary.md
	cat $(SX_SYNTH_OUT)/summary.md
SYNTH_TARGETS += synth-sx
# the regression gate's sample (make synth-check SYNTH_CHECK_UNITS=sx, make synth-baseline SYNTH_CHECK_UNITS=sx;
# tests/synth/baseline.tsv row sx_pe): both configurations' numbers from synth-sx, in synth_report.py's result shape
$(SX_SYNTH_OUT)/result.json: synth-sx
SYNTH_SAMPLE_sx := $(SX_SYNTH_OUT)/result.json
