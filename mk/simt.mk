# SIMT shader core (issue 10): RTL (rtl/simt_*.v), C cycle model (cmodel/simt), Verilator lockstep
# co-simulation against the cycle model and the ISA interpreter (sim/simt), Icarus testbench (tb/simt),
# waves, coverage, benchmark. The FP/SFU datapaths rtl/simt_fpu.v, rtl/simt_sfu.v (+ their submodules) are
# helper simtfpu's (docs/simt-fpu.md). See docs/simt.md.

# The unit's file lists (every build, lint, synthesis and coverage report of the SIMT core and its datapaths
# uses these; mk/simt_fpu.mk and mk/synth.mk too):
#   SIMT_FPU_RTL, SIMT_SFU_RTL  the FP and SFU datapaths (tops simt_fpu, simt_sfu)
#   SIMT_LANE_RTL               both: the unit lockstep of sim/simt_fpu
#   SIMT_DATAPATH_RTL           both and the prefix adder simt_fp_kadd (also the lanes' integer adder)
#   SIMT_CORE_RTL               the core's own files; SIMT_RTL: the whole core
# Their cells are the function macros of rtl/simt_fp_fn.vh (an include, not a file of these lists); the module
# forms of the carry-save tree and the leading-zero count are reference models of the proofs only
# (tests/formal/ref/, scripts/simt_fn_equiv.sh).
SIMT_FPU_RTL  := rtl/simt_fp_pipe.v rtl/simt_fp_mul.v rtl/simt_fp_add.v rtl/simt_fp_cvt.v rtl/simt_fp_cmp.v rtl/simt_fpu.v
SIMT_SFU_RTL  := rtl/simt_fp_pipe.v rtl/simt_sfu_rom.v rtl/simt_sfu_reduce.v rtl/simt_sfu_quad.v rtl/simt_sfu_pack.v rtl/simt_sfu.v
SIMT_LANE_RTL := $(sort $(SIMT_FPU_RTL) $(SIMT_SFU_RTL))
SIMT_DATAPATH_RTL := $(sort rtl/simt_fp_kadd.v $(SIMT_LANE_RTL))
SIMT_CORE_RTL := rtl/simt_ram.v rtl/simt_decode.v rtl/simt_warp.v rtl/simt_lane.v rtl/simt_core.v
SIMT_RTL      := $(SIMT_CORE_RTL) $(SIMT_DATAPATH_RTL)
# parameter sets: LANES_WARPS_FPULAT_SFULAT_TEXLAT (defs/cfg_simt.tbl, use cosim)
SIMT_VARIANTS := $(SIMT_CFG_USE_cosim)
SIMT_MAIN     := $(firstword $(SIMT_CFG_USE_cosim))
SIMT_SEED     ?= 0x5eed

# the lockstep harness: its files (sim/simt/simt_cosim.h lists them) and the shared lockstep driver
SIMT_COSIM_SRCS := sim/simt/cosim_simt.c sim/simt/simt_progs.c sim/simt/simt_traceprogs.c sim/simt/simt_host.c \
                   sim/simt/simt_check.c sim/simt/simt_lockstep.c sim/simt/simt_jobs.c sim/simt/simt_cp.c
SIMT_COSIM_OBJS := $(patsubst sim/simt/%.c,$(BUILD)/cosim/obj/%.o,$(SIMT_COSIM_SRCS))
$(SIMT_COSIM_OBJS): $(BUILD)/cosim/obj/%.o: sim/simt/%.c sim/simt/simt_cosim.h sim/simt/simt_dut.h sim/common/lockstep.h sim/common/gtkw_view.h sim/simt/simt_sampler.h cmodel/simt/simt_hw.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt -c $< -o $@
SIMT_COSIM_OBJS += $(LOCKSTEP_OBJ)

# Builds per parameter set, each in three steps (docs/simt.md section 6):
#   cosim-simt      the fast lockstep binary: no tracing, --x-assign/--x-initial fast, --noassert, -O3;
#   cosim-simt-fst  the same RTL verilated with --trace-fst (-O0: it only replays a failing job or dumps a short
#                   waveform); the fast binary hands --waves and every failure's FST window to it;
#   cosim-simt-cov  the same RTL and options verilated with --coverage-line --coverage-toggle (make coverage-simt; -O2),
#                   built only when asked for.
#   cosim-simt-mt   the fast build with Verilator --threads 2 (a multithreaded model, PGO like the fast kind): only
#                   make bench-simt-mt's wall-clock rate (docs/simt.md section 6); built only when asked for.
#   The three steps of mk/verilator.mk's VL_MODEL: 1. verilate (depends on the RTL only)  2. compile model + shim
#   (the generated makefile tracks header dependencies)  3. link with the shared Verilator runtime, the C harness and
#   libgpupd.a (relinks only when the C library or the harness changed: seconds, not the ~1 min CPU of steps 1-2).
#   cosim-simt-pgo  the fast build compiled with gcc's profile-guided optimisation: what make bench-simt measures.
#                   The tests use the plain fast build: the profile costs a second compile and a training run
#                   (~80 s CPU) for ~6 % less lockstep CPU time, which make test's few lockstep seconds never repay.
# The pgo kind (docs/simt.md section 6, "Lockstep speed"; it measured ~2 % fewer instructions and ~6 % less CPU
# time; SIMT_MARCH=-march=native can be added for a machine that
# runs what it builds: not measurably faster here, and valgrind cannot run it): step 2 first compiles the model
# instrumented (-fprofile-generate), links it with the harness (pgo-train), runs a fixed training workload
# (SIMT_PGO_TRAIN: seed 0x1, not the benchmark's or the tests' seeds; deterministic, so the profile and the binary
# are too), then compiles the model again with the profile (-fprofile-use). Done once per verilated model
# (pgo.stamp depends on the verilator output only; a change of the harness or the C library still only relinks).
SIMT_VL_FLAGS    := -Wno-DECLFILENAME --x-assign fast --x-initial fast --noassert
SIMT_MARCH       ?=
SIMT_VL_MK_fast  = OPT_FAST="-O3 $(SIMT_MARCH)" OPT_GLOBAL="-O2 $(SIMT_MARCH)" OPT_SLOW=-O1
SIMT_VL_MK_pgo   = OPT_FAST="-O3 $(SIMT_MARCH) -fprofile-use -fprofile-partial-training -Wno-missing-profile" \
                   OPT_GLOBAL="-O2 $(SIMT_MARCH)" OPT_SLOW=-O1
SIMT_VL_MK_pgogen = OPT_FAST="-O3 $(SIMT_MARCH) -fprofile-generate" OPT_GLOBAL="-O2 $(SIMT_MARCH)" OPT_SLOW=-O1
SIMT_PGO_TRAIN   ?= --seed 0x1 --programs 40 --shaders --quiet
SIMT_VL_MK_fst   := OPT_FAST=-O0 OPT_GLOBAL=-O1 OPT_SLOW=-O0
SIMT_VL_MK_cov   := OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1
SIMT_VL_MK_mt    = $(SIMT_VL_MK_pgo)
# flavour of each kind (the Verilator runtime it links, mk/verilator.mk) and its extra Verilator options
SIMT_FLV_fast := cc
SIMT_FLV_pgo  := cc
SIMT_FLV_fst  := fst
SIMT_FLV_cov  := cov
SIMT_FLV_mt   := cc
SIMT_VL_X_fst := sim/simt/fst.vlt
SIMT_VL_X_mt  := --threads 2
SIMT_BIN_fast    := cosim-simt
SIMT_BIN_pgo     := cosim-simt-pgo
SIMT_BIN_fst     := cosim-simt-fst
SIMT_BIN_cov     := cosim-simt-cov
SIMT_BIN_mt      := cosim-simt-mt
# $(1) parameter set LANES_WARPS_FPULAT_SFULAT_TEXLAT[_name], $(2) build kind (fast | pgo | fst | cov | mt); the flags
# come from defs/cfg_simt.tbl (simt_cfg_vflags, simt_cfg_dflags: a named set's further values too; the iCE40 build at
# the end sets them from SIMT_ICE40_PARAMS).
SIMT_LINK = $(SIMT_COSIM_OBJS) $(LIB)
define SIMT_BUILD_RULES
$$(eval $$(call VL_MODEL,$(BUILD)/cosim/simt_$(1)/$(2),$(BUILD)/cosim/simt_$(1)/$(SIMT_BIN_$(2)),simt_core,$(SIMT_FLV_$(2)),\
  $(SIMT_VL_FLAGS) $(SIMT_VL_X_$(2)) -I$(BUILD)/gen -Irtl $(call simt_cfg_vflags,$(1)) -GTABLE_DIR='"$(abspath defs)"',rtl/lint.vlt $(SIMT_RTL),\
  -I$(abspath cmodel) -I$(abspath $(BUILD)/gen) -I$(abspath sim/simt) -I$(abspath sim/common) $(call simt_cfg_dflags,$(1)),\
  sim/simt/simt_dut.cpp,$(SIMT_LINK),mk/simt.mk rtl/simt_fp_fn.vh sim/simt/fst.vlt $(BUILD)/gen/isa_defs.vh,$(SIMT_VL_MK_$(2)),-lz -lzstd -lm,\
  $(if $(filter pgo mt,$(2)),$(BUILD)/cosim/simt_$(1)/$(2)/pgo.stamp)))

# profile of the fast kind (see above): instrumented objects, training run (the .gcda files land next to the
# objects), then the objects are removed so that link.objs compiles them again with -fprofile-use
$(BUILD)/cosim/simt_$(1)/$(2)/pgo.stamp: $(BUILD)/cosim/simt_$(1)/$(2)/Vsimt_core.mk sim/common/vl_model.mk $(VLRT)/cc/runtime.objs | $(SIMT_LINK) $(GEN_HDRS)
	@rm -f $$@ $$(@D)/*.gcda $$(@D)/*.o $$(@D)/*.a $$(@D)/link.objs
	@$(call vl_skip_n,$(BUILD)/cosim/simt_$(1)/$(2)/Vsimt_core.mk) $$(MAKE) --no-print-directory -C $$(@D) -f $(abspath sim/common/vl_model.mk) VM_MK=Vsimt_core.mk $(SIMT_VL_MK_pgogen) link.objs \
	  >$$(@D)/pgo-build.log 2>&1 || { tail -30 $$(@D)/pgo-build.log; exit 1; }
	$$(CXX) -fprofile-generate -o $$(@D)/pgo-train $(call vl_link_cmd,$(BUILD)/cosim/simt_$(1)/$(2),cc,$(SIMT_LINK),-lz -lzstd -lm)
	$$(@D)/pgo-train $(SIMT_PGO_TRAIN) > $$(@D)/pgo-train.log 2>&1 || { tail -30 $$(@D)/pgo-train.log; exit 1; }
	@rm -f $$(@D)/*.o $$(@D)/*.a $$(@D)/link.objs $$(@D)/pgo-train
	@touch $$@
endef
$(foreach v,$(SIMT_VARIANTS),$(foreach k,fast fst cov mt pgo,$(eval $(call SIMT_BUILD_RULES,$(v),$(k)))))

SIMT_BIN := $(BUILD)/cosim/simt_$(SIMT_MAIN)/cosim-simt
SIMT_FST := $(BUILD)/cosim/simt_$(SIMT_MAIN)/cosim-simt-fst
.PHONY: cosim-simt-build cosim-simt cosim-simt-fst
cosim-simt-build: $(SIMT_BIN)
# the FST build (waveforms; the fast binary runs it for the FST window of a failure)
cosim-simt-fst: $(SIMT_FST)

# STABLE INTERFACE: make cosim-simt PROGRAM=file.s [WARPS=n] [SEED=s]: one assembly program, every warp
# launched with all lanes active, attributes from the seed; exit 0 only if every retired instruction matched.
# Without PROGRAM: random programs and the shader library.
SIMT_COSIM_SEED = $(if $(SEED),$(SEED),$(SIMT_SEED))
cosim-simt: $(SIMT_BIN)
	$(if $(PROGRAM),$(SIMT_BIN) --program $(PROGRAM) --seed $(SIMT_COSIM_SEED) --programs 0 $(if $(WARPS),--warps $(WARPS)),$(SIMT_BIN) --seed $(SIMT_COSIM_SEED) --programs 1000 --shaders)

# ------------------------------------------------------------------ failure path, Icarus testbench
.PHONY: test-simt-cosim-failure sim-simt test-simt-sim test-simt-cosim
test-simt-cosim-failure: $(SIMT_BIN) $(SIMT_FST)
	tests/simt/test_cosim_failure.sh $(SIMT_BIN) out/test/simt-cosim-failure

$(BUILD)/tb/simt-vectors: tb/simt/simt_vectors.c sim/simt/simt_sampler.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt $< $(LIB) $(LDLIBS_COMMON) -o $@

$(BUILD)/tb/tb_simt_core.vvp: tb/simt/tb_simt_core.v $(SIMT_RTL) rtl/simt_fp_fn.vh $(BUILD)/gen/isa_defs.vh
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -Irtl -o $@ -s tb_simt_core tb/simt/tb_simt_core.v $(SIMT_RTL)

# sim-simt: a random program (divergence, loops, memory, tex) and the CP-phase vertex shader vs_project
SIMT_TB_OUT := $(BUILD)/tb/simt
sim-simt: $(BUILD)/tb/simt-vectors $(BUILD)/tb/tb_simt_core.vvp
	@mkdir -p $(SIMT_TB_OUT)
	$(BUILD)/tb/simt-vectors --seed 11 -o $(SIMT_TB_OUT)/random11.hex
	vvp -n $(BUILD)/tb/tb_simt_core.vvp +vectors=$(SIMT_TB_OUT)/random11.hex | tee $(SIMT_TB_OUT)/random11.log
	@grep -q '^PASS' $(SIMT_TB_OUT)/random11.log
	$(BUILD)/tb/simt-vectors --shader vs_project --seed 3 -o $(SIMT_TB_OUT)/vs_project.hex
	vvp -n $(BUILD)/tb/tb_simt_core.vvp +vectors=$(SIMT_TB_OUT)/vs_project.hex | tee $(SIMT_TB_OUT)/vs_project.log
	@grep -q '^PASS' $(SIMT_TB_OUT)/vs_project.log

# The testbench must catch a wrong expectation: corrupt one retired value and expect FAIL.
test-simt-sim: sim-simt
	@awk '{ if (!done && $$24 == "1" && $$34 == "1") { c = substr($$36, 64, 1); $$36 = substr($$36, 1, 63) (c == "0" ? "1" : "0"); done = 1 } print }' \
	  $(SIMT_TB_OUT)/random11.hex > $(SIMT_TB_OUT)/random11_bad.hex
	@vvp -n $(BUILD)/tb/tb_simt_core.vvp +vectors=$(SIMT_TB_OUT)/random11_bad.hex > $(SIMT_TB_OUT)/random11_bad.log 2>&1 || true
	@if grep -q '^FAIL' $(SIMT_TB_OUT)/random11_bad.log && ! grep -q '^PASS' $(SIMT_TB_OUT)/random11_bad.log; then \
	  echo "test-simt-sim: corrupted vector caught: $$(grep -m1 '^FAIL' $(SIMT_TB_OUT)/random11_bad.log)"; \
	else echo "test-simt-sim: FAIL: the testbench accepted a corrupted expected value"; exit 1; fi

# ------------------------------------------------------------------ lockstep tests, waves, lint
# Test run: random programs (divergence, nested reconvergence, loops, breaks, predicated exits, every
# instruction class, memory, tex), every library shader, the CP-phase vertex shader on trace vertices.
SIMT_TEST_PROGRAMS ?= 1000
# the programs the bundled traces run (every distinct PROG of these traces)
SIMT_TRACE_PROGS ?= traces/oa-dm4-f215.gpt,traces/glmark2-refract.gpt,traces/glmark2-terrain.gpt,traces/glmark2-shadow.gpt,traces/glmark2-desktop-blur.gpt
# random-word programs (every field of every word random, forward branches; docs/simt.md section 3) and the
# reset-in-the-middle rate (1 in N random/word jobs is cut by a reset while warps run, then re-run)
SIMT_TEST_WORDS ?= 200
SIMT_ABORT_EVERY ?= 10
# directed programs (docs/simt.md section 3): every opcode/modifier/condition/special register (ops_all, also
# on 9 warps launched in rounds), deep divergence, texture bursts, runs off the end / branches far past the
# end (ISA_ERR_PC), 15 nested levels and a full 32-entry stack (fit), stack overflows (ISA_ERR_STACK). The
# first line of each file, "; expect: done|error", is what every warp must do (RTL and interpreter alike).
# The nested-branch ladder at four depths is generated (tests/simt/gen_nest.py name:levels:same-RPC splits; the
# script derives each one's "; expect:" line from its stack use and the 32-entry stack of docs/isa.md section 4):
# 15 levels fit, 15 + one same-RPC split fill the stack exactly, a second split overflows, 17 levels overflow.
SIMT_NEST_CASES := nest15:15:0 nest16_full:15:1 nest16_ovf:15:2 nest17:17:0
SIMT_NEST_DIR   := $(BUILD)/simt-directed
SIMT_NEST_S     := $(foreach c,$(SIMT_NEST_CASES),$(SIMT_NEST_DIR)/$(word 1,$(subst :, ,$(c))).s)
define SIMT_NEST_RULE
$(SIMT_NEST_DIR)/$(1).s: tests/simt/gen_nest.py
	@mkdir -p $$(@D)
	$(PYTHON) tests/simt/gen_nest.py --levels $(2) --splits $(3) -o $$@
endef
$(foreach c,$(SIMT_NEST_CASES),$(eval $(call SIMT_NEST_RULE,$(word 1,$(subst :, ,$(c))),$(word 2,$(subst :, ,$(c))),$(word 3,$(subst :, ,$(c))))))
SIMT_DIRECTED := $(sort $(wildcard tests/simt/*.s)) $(SIMT_NEST_S)
simt_expect = --expect $$(sed -n '1s/^; *expect: *\([a-z]*\).*/\1/p' $(1))
test-simt-cosim: $(SIMT_BIN) $(SIMT_NEST_S)
	$(SIMT_BIN) --seed $(SIMT_SEED) --programs $(SIMT_TEST_PROGRAMS) --fuzz-words $(SIMT_TEST_WORDS) --abort-every $(SIMT_ABORT_EVERY) \
	  --shaders --trace-programs $(SIMT_TRACE_PROGS) --quiet
	@for f in $(SIMT_DIRECTED); do echo "$$f:"; $(SIMT_BIN) --program $$f $(call simt_expect,$$f) --programs 0 --quiet || exit 1; done
	$(SIMT_BIN) --program tests/simt/ops_all.s --expect done --warps 9 --programs 0 --quiet

# Directed hazard programs (issue 25; tests/simt/gen_hazard.py, docs/simt.md section 4): every source operand
# of every format right after its producer, for every producer latency class, and pending registers in fields
# an instruction does not read (raw words); each at 1 and 2 warps in the lockstep, which compares the RTL with
# the C cycle model every cycle (an extra or a missing stall is a cycle mismatch): 26 runs, 0.3 s CPU once
# the lockstep is built (it is, for test-simt-cosim); the same programs in the fast bench below.
SIMT_HAZARD_DIR := $(BUILD)/simt-hazard
$(SIMT_HAZARD_DIR)/hazard.list: tests/simt/gen_hazard.py defs/isa.tbl
	@mkdir -p $(@D)
	$(PYTHON) tests/simt/gen_hazard.py --isa defs/isa.tbl -o $(@D)
.PHONY: test-simt-hazard
test-simt-hazard: $(SIMT_BIN) $(SIMT_HAZARD_DIR)/hazard.list
	@n=0; for f in $$(cat $(SIMT_HAZARD_DIR)/hazard.list); do for w in 1 2; do \
	  $(SIMT_BIN) --program $(SIMT_HAZARD_DIR)/$$f --expect done --warps $$w --seed $(SIMT_COSIM_SEED) --programs 0 --quiet $(SIMT_NOFP) \
	    > $(SIMT_HAZARD_DIR)/$$f.$$w.log 2>&1 || { cat $(SIMT_HAZARD_DIR)/$$f.$$w.log; \
	    echo "test-simt-hazard: FAIL: $$f on $$w warp(s) (listing: $(SIMT_HAZARD_DIR)/$${f%.bin}.lst)"; exit 1; }; \
	  n=$$((n+1)); done; done; echo "test-simt-hazard: $$n runs (every program at 1 and 2 warps): RTL = C cycle model every cycle"
TEST_TARGETS += test-simt-hazard

# The same programs in the fast bench: simt-vectors writes the C cycle model's per-cycle expectation (every
# retired instruction checked against the interpreter), tb_simt_core.v compares the RTL every cycle; the core
# built with WARPS = 1 and 2. (A missing stall on fmad's C or tex's ra+1 passes random11 and vs_project but
# fails here.)
$(BUILD)/tb/tb_simt_core_w%.vvp: tb/simt/tb_simt_core.v $(SIMT_RTL) rtl/simt_fp_fn.vh $(BUILD)/gen/isa_defs.vh
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -Irtl -o $@ -s tb_simt_core -P tb_simt_core.WARPS=$* tb/simt/tb_simt_core.v $(SIMT_RTL)
.PHONY: test-simt-hazard-sim
test-simt-hazard-sim: $(BUILD)/tb/simt-vectors $(BUILD)/tb/tb_simt_core_w1.vvp $(BUILD)/tb/tb_simt_core_w2.vvp $(SIMT_HAZARD_DIR)/hazard.list
	@n=0; c=0; for f in $$(cat $(SIMT_HAZARD_DIR)/hazard.list); do for w in 1 2; do \
	  b=$(SIMT_HAZARD_DIR)/$${f%.bin}.w$$w; \
	  rep="$(BUILD)/tb/simt-vectors --warps $$w --program $(SIMT_HAZARD_DIR)/$$f --seed 5 $(SIMT_NOFP) -o $$b.hex && vvp -n $(BUILD)/tb/tb_simt_core_w$$w.vvp +vectors=$$b.hex"; \
	  $(BUILD)/tb/simt-vectors --warps $$w --program $(SIMT_HAZARD_DIR)/$$f --seed 5 $(SIMT_NOFP) -o $$b.hex > $$b.vlog 2>&1 \
	    || { cat $$b.vlog; echo "test-simt-hazard-sim: FAIL: the C cycle model disagrees with the interpreter on $$f ($$w warps)"; echo "  reproduce: $$rep"; exit 1; }; \
	  vvp -n $(BUILD)/tb/tb_simt_core_w$$w.vvp +vectors=$$b.hex > $$b.log 2>&1; \
	  if ! grep -q '^PASS' $$b.log; then grep -m3 -A3 FAIL $$b.log; \
	    echo "test-simt-hazard-sim: FAIL: $$f on $$w warp(s): RTL != C cycle model (listing $(SIMT_HAZARD_DIR)/$${f%.bin}.lst)"; echo "  reproduce: $$rep"; exit 1; fi; \
	  n=$$((n+1)); c=$$((c + $$(wc -l < $$b.hex))); done; done; \
	echo "test-simt-hazard-sim: $$n runs (13 programs at 1 and 2 warps), $$c cycles: RTL = C cycle model every cycle"
TEST_TARGETS += test-simt-hazard-sim

# ------------------------------------------------------------------ proofs of the warp's scoreboard and stack
# tests/formal/simt_warp_formal.sv around the unchanged rtl/simt_warp.v (docs/simt.md section 3): W1 no issue
# while an operand is pending, W2 no extra stall, W3 the scoreboard is the set of issued, not yet retired writes;
# S1..S3 the reconvergence stack's bounds, push/pop discipline and the registered copies, at each
# STACK_DEPTH:TIMING_REGS of SIMT_WARP_CONFIGS. With SIMT_WARP_INDUCT=1 (the default) the base case and the
# induction step at depth SIMT_WARP_K (1: the invariants of the wrapper make it close; an unbounded proof) and a
# mutant (no hazard check of the C operand) that must fail it; SIMT_WARP_INDUCT=0: the base case alone (BMC to
# SIMT_WARP_K cycles after reset). The covers within SIMT_WARP_COVER_DEPTH cycles (0: not run; a full stack needs
# about 14 cycles from reset). Cost: docs/simt.md section 3.
SIMT_WARP_CONFIGS     ?= 4:1 4:0
SIMT_WARP_INDUCT      ?= 1
SIMT_WARP_K           ?= 1
SIMT_WARP_COVER_DEPTH ?= 0
.PHONY: test-simt-warp-formal
test-simt-warp-formal: $(BUILD)/gen/isa_defs.vh
	GEN=$(BUILD)/gen SIMT_WARP_CONFIGS="$(SIMT_WARP_CONFIGS)" SIMT_WARP_INDUCT=$(SIMT_WARP_INDUCT) \
	  tests/formal/simt_warp_formal.sh out/test/simt-warp-formal $(SIMT_WARP_K) $(SIMT_WARP_COVER_DEPTH)
test-long: test-simt-warp-formal

# make test-long: thousands of random and random-word programs (a quarter reset in the middle), the programs of
# every bundled trace, the directed programs on every warp count up to 32 launched in rounds. SEED= varies it.
SIMT_LONG_PROGRAMS ?= 5000
SIMT_LONG_WORDS    ?= 3000
.PHONY: test-long-simt
test-long-simt: $(SIMT_BIN) $(SIMT_NEST_S)
	$(SIMT_BIN) --seed $(SIMT_COSIM_SEED) --programs $(SIMT_LONG_PROGRAMS) --fuzz-words $(SIMT_LONG_WORDS) --abort-every 4 \
	  --shaders --trace-programs $(subst $(space),$(comma),$(sort $(wildcard traces/*.gpt))) --quiet
	@for f in $(SIMT_DIRECTED); do for w in 1 3 5 32; do echo "$$f on $$w warps:"; \
	  $(SIMT_BIN) --program $$f $(call simt_expect,$$f) --warps $$w --seed $(SIMT_COSIM_SEED) --programs 0 --quiet || exit 1; done; done
test-long: test-long-simt

.PHONY: test-simt-waves waves-simt lint-simt
test-simt-waves: $(SIMT_FST)
	tests/simt/test_waves.sh $(SIMT_FST) tb/simt/simt.gtkw out/test/simt-waves --len 80

# Open GTKWave on a fresh waveform with the saved view (needs a display; headless check: test-simt-waves).
waves-simt: $(SIMT_FST)
	@mkdir -p out/waves
	$(SIMT_FST) --seed $(SIMT_SEED) --programs 1 --len 120 --waves out/waves/simt.fst --quiet
	gtkwave -a out/waves/simt.fst.gtkw out/waves/simt.fst

SIMT_LINT_TOP := verilator --lint-only -Wall -Wno-DECLFILENAME -I$(BUILD)/gen -Irtl rtl/lint.vlt
# (The default configuration is not linted here: test-rtl-headers lints rtl/simt_core.v on its own at its default
# parameters with the same -Wall and DECLFILENAME on, and the lockstep model's verilator -Wall run elaborates it
# again; docs/testing.md.)
lint-simt: $(BUILD)/gen/isa_defs.vh
	$(SIMT_LINT_TOP) $(SIMT_RTL) --top-module simt_core -GLANES=4 -GWARPS=3 -GTEX_LAT=9
	$(SIMT_LINT_TOP) $(SIMT_RTL) --top-module simt_core $(addprefix -G,$(subst :, ,$(SIMT_ICE40_PARAMS)))   # the iCE40 configuration
	$(SIMT_LINT_TOP) $(SIMT_RTL) --top-module simt_core -GLANES=2 -GWARPS=2 -GRF_WORDS=32 -GMEM_WORDS=2 -GCONST_WORDS=2 -GIMEM_DEPTH=2 -GSTACK_DEPTH=4
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -Irtl -o /dev/null -s simt_core $(SIMT_RTL)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -Irtl -o /dev/null -s simt_core $(addprefix -Psimt_core.,$(subst :, ,$(SIMT_ICE40_PARAMS))) $(SIMT_RTL)
	@# the legal stack depths that no bench builds (the guard of simt_warp.v refuses the others; about 0.3 s CPU each)
	@for d in 8 16; do out=$$(iverilog -g2012 -Wno-timescale -I$(BUILD)/gen -Irtl -o /dev/null -s simt_core -Psimt_core.STACK_DEPTH=$$d $(SIMT_RTL) 2>&1) \
	  || { echo "$$out"; echo "lint-simt: FAIL: simt_core does not elaborate at the legal STACK_DEPTH=$$d"; exit 1; }; done
	@echo "lint-simt: clean (verilator -Wall at LANES/WARPS 4/3, the iCE40 and a minimal reduced configuration; 8/4 (the defaults): test-rtl-headers; iverilog -g2012 at the default and the iCE40 configuration and at STACK_DEPTH 8 and 16; each file on its own: test-rtl-headers; LANES 32: lint-simt-wide; yosys: lint-simt-yosys)"

# The widest configuration (LANES 32, WARPS 1: a warp per cycle) under verilator -Wall: 77 s CPU and 2.1 GB, the
# most expensive lint of the core, so it runs in make test-long and make lint; make test keeps the lint at
# LANES 8, 4, 2 and 1 (docs/testing.md).
.PHONY: lint-simt-wide
lint-simt-wide: $(BUILD)/gen/isa_defs.vh
	$(SIMT_LINT_TOP) $(SIMT_RTL) --top-module simt_core -GLANES=32 -GWARPS=1
	@echo "lint-simt-wide: clean (verilator -Wall at LANES 32, WARPS 1)"
test-long: lint-simt-wide

# Yosys 0.23 accepts the core (proc; check -assert: no multiple drivers, no combinational loop, no undriven
# input of a cell) at the default and the iCE40 configuration: two targets, so that make -j2 overlaps them with
# the rest (the default one elaborates the SFU's function-based stages: ~2 min CPU, docs/simt.md section 6).
# They are also the Yosys check of simt_fpu and simt_sfu in `make test`: the default core instantiates both at
# the parameters of lint-simt-fpu-yosys (LAT 8, AREA 0, PASSES 1), the iCE40 one simt_fpu at AREA 1, PASSES 4.
.PHONY: lint-simt-yosys lint-simt-yosys-default lint-simt-yosys-ice40
lint-simt-yosys: lint-simt-yosys-default lint-simt-yosys-ice40
lint-simt-yosys-default: $(BUILD)/gen/isa_defs.vh
	yosys -q -p "read_verilog -I$(BUILD)/gen -Irtl $(SIMT_RTL); hierarchy -check -top simt_core; proc; check -assert"
	@echo "lint-simt-yosys-default: clean (yosys proc; check -assert, default configuration)"
lint-simt-yosys-ice40: $(BUILD)/gen/isa_defs.vh
	yosys -q -p "read_verilog -I$(BUILD)/gen -Irtl $(SIMT_RTL); chparam $(foreach kv,$(subst :, ,$(SIMT_ICE40_PARAMS)),-set $(subst =, ,$(kv))) simt_core; hierarchy -check -top simt_core; proc; check -assert"
	@echo "lint-simt-yosys-ice40: clean (yosys proc; check -assert, iCE40 configuration)"

TEST_TARGETS     += test-simt-sim test-simt-cosim test-simt-cosim-failure test-simt-waves lint-simt lint-simt-yosys-default lint-simt-yosys-ice40 test-simt-cp
LINT_TARGETS     += lint-simt lint-simt-wide lint-simt-yosys

# ------------------------------------------------------------------ CP phase of one GPU on the RTL (real traces)
# Two bundled traces: each draw's vertex shading on the core (lockstep, every instruction checked), assembly
# and clipping in C; P2G inputs and masks equal to the golden model's; the stream then through the P2G RTL.
SIMT_CP_OUT   := $(BUILD)/simt-cp
SIMT_CP_CASES ?= oa-dm4-f215:16:diag glmark2-refract:5:linear
SIMT_CP_PRIMS ?= 1200
.PHONY: test-simt-cp
test-simt-cp: $(SIMT_BIN) $(BUILD)/cosim/p2g_16_2/cosim-p2g
	@mkdir -p $(SIMT_CP_OUT); set -e; for c in $(SIMT_CP_CASES); do set -- $$(echo $$c | tr : ' '); \
	  $(SIMT_BIN) --cp-trace traces/$$1.gpt --gpus $$2 --own $$3 --max-prims $(SIMT_CP_PRIMS) -o $(SIMT_CP_OUT)/$$1-$$2-$$3.txt --quiet \
	    | grep -E 'CP phase|PASS|jobs'; \
	  $(BUILD)/cosim/p2g_16_2/cosim-p2g --replay $(SIMT_CP_OUT)/$$1-$$2-$$3.txt --seed 1 --quiet | grep -E 'replaying|cycles,|PASS'; \
	done

# ------------------------------------------------------------------ coverage (line + toggle of the lockstep run)
# The core's coverage build has the parameters of the main lockstep build ($(SIMT_MAIN)). The lockstep jobs of
# the coverage run (docs/simt.md section 7): random programs (generator knobs varied per seed, 1 in 8 reset in
# the middle of execution and re-run), random-word programs (every field random), the shader library, the
# programs of every bundled trace, the directed programs (tests/simt/*.s and the generated nest*.s; ops_all.s also on 9 warps launched in
# rounds). The FP/SFU datapaths get their coverage from their own unit lockstep (coverage-simt-fpu below).
SIMT_COV_P      := $(SIMT_MAIN)
SIMT_COV_BIN    := $(BUILD)/cosim/simt_$(SIMT_COV_P)/cosim-simt-cov
SIMT_COV_OUT    := out/coverage/simt
SIMT_CORE_FILES := $(subst $(space),$(comma),$(notdir $(SIMT_CORE_RTL)))
SIMT_DP_FILES   := $(subst $(space),$(comma),$(notdir $(SIMT_DATAPATH_RTL)))
SIMT_ALL_TRACES := $(subst $(space),$(comma),$(sort $(wildcard traces/*.gpt)))
SIMT_COV_PROGRAMS ?= 150
SIMT_COV_WORDS    ?= 200
# minimums (measured level minus a small margin; docs/simt.md section 7 lists what stays uncovered and why)
SIMT_COV_MIN_CORE ?= --min-line 98.8 --min-toggle 96.5
# datapath line minimum: 98.8 after the fold of simt_sfu_reduce's unreachable case defaults (198/199, session 7);
# 97.5 since the valid-enabled FPU (229c8b9): its adder's last stage is a function whose result branches are line
# points now, and the core's random programs never round an fadd result to zero, overflow or underflow (4 points,
# covered by the FPU unit lockstep: coverage-simt-fpu 257/258); measured 254/260 = 97.69 % on main 4f32627
# (docs/simt.md section 7)
SIMT_COV_MIN_DP   ?= --min-line 97.5 --min-toggle 94.8

# $(SIMT_COV_BIN): the "cov" kind of SIMT_BUILD_RULES above (verilated once per RTL change, linked separately
# against libgpupd.a: a change of the C model relinks it in seconds instead of a 7-minute rebuild)

# $(1): extra arguments of the core report (minimums), $(2): of the datapath report
define SIMT_COVERAGE_RUN
	@mkdir -p $(SIMT_COV_OUT) && rm -f $(SIMT_COV_OUT)/*.dat
	VL_COVERAGE_FILE=$(SIMT_COV_OUT)/cov_random.dat $(SIMT_COV_BIN) --seed $(SIMT_SEED) --programs $(SIMT_COV_PROGRAMS) --abort-every 8 --shaders --quiet
	VL_COVERAGE_FILE=$(SIMT_COV_OUT)/cov_words.dat $(SIMT_COV_BIN) --seed $(SIMT_SEED) --programs 0 --fuzz-words $(SIMT_COV_WORDS) --abort-every 8 --quiet
	VL_COVERAGE_FILE=$(SIMT_COV_OUT)/cov_traces.dat $(SIMT_COV_BIN) --seed $(SIMT_SEED) --programs 0 --trace-programs $(SIMT_ALL_TRACES) --quiet
	@for f in $(SIMT_DIRECTED); do echo "$$f:"; \
	  VL_COVERAGE_FILE=$(SIMT_COV_OUT)/cov_dir_$$(basename $$f .s).dat $(SIMT_COV_BIN) --program $$f $(call simt_expect,$$f) --programs 0 --quiet || exit 1; done
	VL_COVERAGE_FILE=$(SIMT_COV_OUT)/cov_rounds.dat $(SIMT_COV_BIN) --program tests/simt/ops_all.s --expect done --warps 9 --programs 0 --quiet
	verilator_coverage --write $(SIMT_COV_OUT)/coverage.dat $(SIMT_COV_OUT)/cov_*.dat
	$(PYTHON) scripts/coverage_report.py --unit "simt_core (core files, lockstep run)" --only $(SIMT_CORE_FILES) --every-file $(SIMT_CORE_FILES) --max-list 400 $(1) \
	  $(SIMT_COV_OUT)/coverage.dat > $(SIMT_COV_OUT)/summary.txt; rc=$$?; cat $(SIMT_COV_OUT)/summary.txt; exit $$rc
	$(PYTHON) scripts/coverage_report.py --unit "simt_core (FP/SFU datapath files, lockstep run)" --only $(SIMT_DP_FILES) --max-list 0 $(2) \
	  $(SIMT_COV_OUT)/coverage.dat > $(SIMT_COV_OUT)/summary-datapath.txt; rc=$$?; cat $(SIMT_COV_OUT)/summary-datapath.txt; exit $$rc
	verilator_coverage --annotate $(SIMT_COV_OUT)/annotated $(SIMT_COV_OUT)/coverage.dat >/dev/null
	@echo "coverage-simt: annotated sources in $(SIMT_COV_OUT)/annotated/, uncovered points in $(SIMT_COV_OUT)/summary.txt"
endef

.PHONY: coverage-simt
coverage-simt: $(SIMT_COV_BIN) $(SIMT_NEST_S)
	$(call SIMT_COVERAGE_RUN,$(SIMT_COV_MIN_CORE),$(SIMT_COV_MIN_DP))
COVERAGE_TARGETS += coverage-simt

# ------------------------------------------------------------------ benchmark: lockstep speed
# Fixed workload: seed 0x5eed, 300 random programs and the shader library, no waveform (docs/simt.md section 6).
# bench-simt: the lockstep rate of issue 10's goal: the profile-guided fast binary (cosim-simt-pgo) SIMT_BENCH_RUNS times back to back, each run's
#   binary summary line ("cosim-simt: ... cycles, ... cycles/s ... (CPU time ...)"), and the median rate from the
#   process's CPU time, with the workload's cycle and warp-instruction counts (scripts/simt_bench.py).
# bench-simt-mt: the same workload on the --threads 2 build, its median rate from the wall clock (a separate,
#   labelled number; never the lockstep rate). After bench-simt, never beside it (order-only prerequisite). Not in
#   make bench: on this loaded 2-core machine a run took 2-7 minutes instead of ~20 s (docs/simt.md section 6).
# bench-simt-ir: machine instructions per lockstep cycle of a small fixed run under callgrind (10 programs, 86,473
#   cycles at 4f5eaf4): the load-independent cost that the commits of docs/simt.md section 6 quote; ~1 min.
# Run them alone (not under make -j beside other jobs) for a quiet measurement.
SIMT_BENCH_ARGS ?= --seed 0x5eed --programs 300 --shaders --quiet
SIMT_BENCH_RUNS ?= 3
SIMT_MT := $(BUILD)/cosim/simt_$(SIMT_MAIN)/cosim-simt-mt
SIMT_PGO_BIN := $(BUILD)/cosim/simt_$(SIMT_MAIN)/cosim-simt-pgo
.PHONY: bench-simt bench-simt-mt bench-simt-ir
bench-simt: $(SIMT_PGO_BIN)
	$(PYTHON) scripts/simt_bench.py --runs $(SIMT_BENCH_RUNS) --label bench-simt -- $(SIMT_PGO_BIN) $(SIMT_BENCH_ARGS)
bench-simt-mt: $(SIMT_MT) | bench-simt
	$(PYTHON) scripts/simt_bench.py --runs $(SIMT_BENCH_RUNS) --wall --label bench-simt-mt -- $(SIMT_MT) $(SIMT_BENCH_ARGS)
bench-simt-ir: $(SIMT_BIN) | bench-simt
	@mkdir -p out/bench/simt
	valgrind --tool=callgrind --callgrind-out-file=out/bench/simt/callgrind.out $(SIMT_BIN) --seed 0x5eed --programs 10 --quiet \
	  > out/bench/simt/callgrind.log 2>&1 || { tail -20 out/bench/simt/callgrind.log; exit 1; }
	@c=$$(sed -n 's/^cosim-simt: [0-9]* jobs, \([0-9]*\) cycles.*/\1/p' out/bench/simt/callgrind.log); \
	 i=$$(sed -n 's/^==[0-9]*== I *refs: *//p' out/bench/simt/callgrind.log | tr -d ,); \
	 test -n "$$c" -a -n "$$i" || { echo "bench-simt-ir: no counts in out/bench/simt/callgrind.log"; exit 1; }; \
	 echo "bench-simt-ir: callgrind, --seed 0x5eed --programs 10: $$i instructions, $$c cycles: $$((i / c)) instructions per lockstep cycle (profile: callgrind_annotate out/bench/simt/callgrind.out)"
BENCH_TARGETS += bench-simt bench-simt-ir

# ------------------------------------------------------------------ synthesis (docs/simt.md section 6)
# OSU 0.18 um (scripts/simt_synth.sh): hierarchical mapping (every distinct module once), OpenSTA on the whole
# netlist, 200 MHz target (constraints/simt_core.sdc); storage arrays and the SFU table are macros (Liberty
# models from scripts/simt_sram_lib.py, access time 0: the STA reports the slack left for it).
#   simt_core-<params>   the default configuration (LANES 8, WARPS 4, FPU/SFU latency 8)
#   simt_sfu-rommacro    the SFU pipe alone, its table as a ROM macro (the flat synth-simt-sfu row of
#                        mk/synth.mk maps the table to cells)
#   simt_core-logic      the default configuration with zero-result FP/SFU placeholders (the core's own logic)
# iCE40 HX8K (scripts/synth_flow.sh ice40 + nextpnr seed 1): a reduced configuration that fits (SIMT_ICE40_PARAMS;
# what it cannot run: docs/simt.md). `make synth-simt` prints out/synth/simt/summary.md.
SIMT_SYNTH_OUT   := out/synth/simt
SIMT_SYNTH_FILES := $(BUILD)/gen/isa_defs.vh rtl/simt_fp_fn.vh $(SIMT_RTL)
SIMT_SYNTH_OSU   ?= LANES=8:WARPS=4:FPU_LAT=8:SFU_LAT=8
SIMT_SYNTH_SCRIPT := scripts/simt_synth.sh
SIMT_SYNTH_DEPS  := $(SIMT_SYNTH_FILES) $(SIMT_SYNTH_SCRIPT) scripts/synth_lib.sh scripts/simt_sram_lib.py scripts/synth_sta.tcl scripts/simt_sta_groups.tcl scripts/simt_sta_macros.tcl \
                    $(SYNTH_OSU_CONSTR) $(ISA_SFU_HEX)
simt_stag = $(subst :,_,$(subst =,,$1))
# SIMT_SYNTH_OSU_RULES(top, params, sdc, dir)
define SIMT_SYNTH_OSU_RULES
$(4)/osu.stat: $(SIMT_SYNTH_DEPS) $(3)
	$$(SYNTH_ENV) SDC=$(3) $(SIMT_SYNTH_SCRIPT) osu $$(@D) $(1) $(2) $(SIMT_SYNTH_FILES)
$(4)/sta.log: $(4)/osu.stat scripts/synth_sta.tcl scripts/simt_sta_groups.tcl scripts/simt_sta_macros.tcl
	$$(SYNTH_ENV) SDC=$(3) $(SIMT_SYNTH_SCRIPT) sta $$(@D) $(1)
SIMT_SYNTH_RESULTS += $(4)/sta.log
endef
SIMT_SYNTH_RESULTS :=
$(foreach p,$(SIMT_SYNTH_OSU),$(eval $(call SIMT_SYNTH_OSU_RULES,simt_core,$(p),constraints/simt_core.sdc,$(SIMT_SYNTH_OUT)/simt_core-$(call simt_stag,$(p)))))
$(eval $(call SIMT_SYNTH_OSU_RULES,simt_sfu,default,constraints/simt_sfu.sdc,$(SIMT_SYNTH_OUT)/simt_sfu-rommacro))
# the core's own logic (warps, lanes' integer datapath, pipeline) with zero-result FP/SFU placeholders: the row
# that finishes in minutes and isolates the control paths from the FP datapaths (rows above)
# (the lanes use the shared prefix adder and carry-save tree of the datapath files for the ALU and imul)
SIMT_SYNTH_LOGIC_FILES := $(BUILD)/gen/isa_defs.vh $(SIMT_CORE_RTL) rtl/simt_fp_kadd.v sim/simt/simt_fpu_stub.v
$(SIMT_SYNTH_OUT)/simt_core-logic/osu.stat: $(SIMT_SYNTH_DEPS) constraints/simt_core.sdc sim/simt/simt_fpu_stub.v
	$(SYNTH_ENV) SDC=constraints/simt_core.sdc $(SIMT_SYNTH_SCRIPT) osu $(@D) simt_core $(firstword $(SIMT_SYNTH_OSU)) $(SIMT_SYNTH_LOGIC_FILES)
$(SIMT_SYNTH_OUT)/simt_core-logic/sta.log: $(SIMT_SYNTH_OUT)/simt_core-logic/osu.stat scripts/synth_sta.tcl scripts/simt_sta_groups.tcl scripts/simt_sta_macros.tcl
	$(SYNTH_ENV) SDC=constraints/simt_core.sdc $(SIMT_SYNTH_SCRIPT) sta $(@D) simt_core
SIMT_SYNTH_RESULTS := $(SIMT_SYNTH_OUT)/simt_core-logic/sta.log $(SIMT_SYNTH_RESULTS)

# iCE40: one lane, one warp, 16 registers (16-entry scoreboard) and 16 attribute/local/output words per thread,
# 64 constants, 256 instructions, a 4-entry stack, no SFU, FPU latency 4, texture latency 2, the area FPU
# (FPU_AREA), %vertex/%prim in one RAM (SR_MERGE): 32 block RAMs; imul in 16 passes of a 32 x 2 array and every
# FPU instruction in 4 passes of a 24 x 6 array (IMUL_PASSES, FPU_PASSES: 16x and 4x their cycles, in the C cycle
# model too), the area integer ALU and warp (INT_AREA), no read-during-write emulation around the block RAMs
# (RAM_RW_ANY). Also the lockstep build test-simt-cosim-ice40 (end of this file). It fits the HX8K (docs/simt.md
# section 6: logic cells, Fmax, what it runs).
# The default is defs/cfg_simt.tbl's configuration for synth-ice40 as NAME=value:... (a user may pass another).
SIMT_ICE40_PARAMS ?= $(subst $(space),:,$(SIMT_CFG_KV_$(firstword $(SIMT_CFG_USE_synth-ice40))))
SIMT_ICE40_DIR := $(SIMT_SYNTH_OUT)/simt_core-ice40-reduced
# The FPGA build brings out the host interface, status and texture port, not the retire and issue ports (debug
# and verification ports: the lockstep checks them on the same RTL); synthesis removes what only they need. The
# host's data inputs (instruction, attribute, constant words, launch mask and id, texture data) share one 64-bit
# field of the wrapper, as one host data bus would (docs/simt.md section 6).
SIMT_ICE40_WRAP_DROP ?= rt_* issue_*
SIMT_ICE40_WRAP_SHARE ?= imem_data_i,attr_data_i,const_data_i,launch_mask_i,launch_wid_i,tex_rsp_data_i
# extra synth_ice40 options (scripts/synth_flow.sh ICE40_SYNTH_OPTS): -abc9 (abc's timing-driven LUT mapping) gave
# 3-5 MHz more for 0-50 logic cells at the configurations measured (docs/simt.md section 6)
SIMT_ICE40_SYNTH_OPTS ?= -abc9
# (mk/simt.mk is a prerequisite: SIMT_ICE40_PARAMS and the options are defined here)
$(SIMT_ICE40_DIR)/ice40.json: $(SIMT_SYNTH_FILES) $(SYNTH_FLOW) scripts/synth_lib.sh scripts/synth_wrap.py mk/simt.mk
	$(SYNTH_ENV) WRAP_DROP='$(SIMT_ICE40_WRAP_DROP)' WRAP_SHARE='$(SIMT_ICE40_WRAP_SHARE)' ICE40_SYNTH_OPTS='$(SIMT_ICE40_SYNTH_OPTS)' $(SYNTH_FLOW) ice40 $(@D) simt_core $(SIMT_ICE40_PARAMS) $(SIMT_SYNTH_FILES)
$(SIMT_ICE40_DIR)/pnr-seed1.status: $(SIMT_ICE40_DIR)/ice40.json
	$(SYNTH_ENV) $(SYNTH_FLOW) pnr $(@D) 1

.PHONY: synth-simt synth-simt-core synth-simt-ice40
synth-simt-core: $(SIMT_SYNTH_RESULTS)
synth-simt-ice40: $(SIMT_ICE40_DIR)/pnr-seed1.status
synth-simt: $(SIMT_SYNTH_RESULTS) $(SIMT_ICE40_DIR)/pnr-seed1.status
	$(PYTHON) scripts/simt_synth_summary.py --json $(SIMT_SYNTH_OUT)/summary.json $(dir $(SIMT_SYNTH_RESULTS)) $(SIMT_ICE40_DIR) \
	  | tee $(SIMT_SYNTH_OUT)/summary.md
SYNTH_TARGETS += synth-simt
# The regression gate of the SIMT core (docs/synthesis.md "Regression gate"; in make synth): the core's own logic
# (OSU row simt_core-logic: area, Fmax) and the iCE40 build (simt_core-ice40-reduced: logic cells, Fmax of nextpnr
# seed 1) against tests/synth/baseline.tsv row simt_core OSU=logic:ICE40=reduced, +-SYNTH_CHECK_TOL percent either
# way. The whole default core's OSU row (hours of CPU) is reported by synth-simt, not gated. Accept a moved number
# with make synth-simt-baseline in the commit that moves it. (SYNTH_BASELINE, SYNTH_CHECK_TOL: mk/synth.mk.)
SIMT_GATE_DIRS := $(SIMT_SYNTH_OUT)/simt_core-logic $(SIMT_ICE40_DIR)
$(SIMT_SYNTH_OUT)/result.json: $(SIMT_SYNTH_OUT)/simt_core-logic/sta.log $(SIMT_ICE40_DIR)/pnr-seed1.status scripts/simt_synth_summary.py
	$(PYTHON) scripts/simt_synth_summary.py --json $(SIMT_SYNTH_OUT)/gate.json --result $@ $(SIMT_GATE_DIRS) >/dev/null
SYNTH_SAMPLE_simt := $(SIMT_SYNTH_OUT)/result.json
.PHONY: synth-simt-check synth-simt-baseline
synth-simt-check: $(SIMT_SYNTH_OUT)/result.json
	$(PYTHON) scripts/synth_check.py check --baseline $(SYNTH_BASELINE) --tol $(SYNTH_CHECK_TOL) \
	  --reproduce "make synth-simt-check" $<
synth-simt-baseline: $(SIMT_SYNTH_OUT)/result.json
	$(PYTHON) scripts/synth_check.py update --baseline $(SYNTH_BASELINE) $<
SYNTH_TARGETS += synth-simt-check

# ------------------------------------------------------------------ the iCE40 configuration in lockstep
# A second lockstep build with SIMT_ICE40_PARAMS (own build dir build/cosim/simt_<L>_<W>_<FPU>_<SFU>_<TEX>_ice40/):
# the harness reads the reduced sizes from the shim (simt_dut_sizes) and constrains the random programs to them
# (registers < RF_WORDS, attribute/local/output words < MEM_WORDS, constants < CONST_WORDS, length <= IMEM_DEPTH,
# nesting within STACK_DEPTH, no SFU opcode with HAS_SFU=0; docs/simt.md section 6); --shaders runs the library
# programs that fit and names the others. Random-word and trace programs need the ISA's sizes (refused).
simt_ip = $(patsubst $(1)=%,%,$(filter $(1)=%,$(subst :, ,$(SIMT_ICE40_PARAMS))))
SIMT_ICE40_V   := $(call simt_ip,LANES)_$(call simt_ip,WARPS)_$(call simt_ip,FPU_LAT)_$(call simt_ip,SFU_LAT)_$(call simt_ip,TEX_LAT)_ice40
SIMT_ICE40_KV  := $(filter-out LANES=% WARPS=% FPU_LAT=% SFU_LAT=% TEX_LAT=%,$(subst :, ,$(SIMT_ICE40_PARAMS)))
SIMT_CFG_XKV_$(SIMT_ICE40_V) := $(SIMT_ICE40_KV)
SIMT_CFG_XG_$(SIMT_ICE40_V) := $(addprefix -G,$(SIMT_ICE40_KV))
SIMT_CFG_XD_$(SIMT_ICE40_V) := $(addprefix -DSIMT_DUT_,$(SIMT_ICE40_KV))
$(foreach k,fast fst,$(eval $(call SIMT_BUILD_RULES,$(SIMT_ICE40_V),$(k))))
SIMT_ICE40_BIN := $(BUILD)/cosim/simt_$(SIMT_ICE40_V)/cosim-simt
SIMT_ICE40_PROGRAMS ?= 300
.PHONY: cosim-simt-ice40 cosim-simt-ice40-fst test-simt-cosim-ice40
cosim-simt-ice40-fst: $(BUILD)/cosim/simt_$(SIMT_ICE40_V)/cosim-simt-fst
# random programs constrained to the reduced sizes + the library shaders that fit; PROGRAM=file.s runs one file
cosim-simt-ice40: $(SIMT_ICE40_BIN)
	$(if $(PROGRAM),$< --program $(PROGRAM) --seed $(SIMT_COSIM_SEED) --programs 0,$< --seed $(SIMT_COSIM_SEED) --programs 1000 --shaders)
test-simt-cosim-ice40: $(SIMT_ICE40_BIN)
	$< --seed $(SIMT_SEED) --programs $(SIMT_ICE40_PROGRAMS) --abort-every $(SIMT_ABORT_EVERY) --shaders --quiet
TEST_TARGETS += test-simt-cosim-ice40

# ------------------------------------------------------------------ configuration coverage in lockstep (test-long)
# The builds of defs/cfg_simt.tbl with use cosim-cfg (docs/configurations.md "Coverage"): 32 lanes with latencies
# 64, 32 warps with latency 1, the smallest sizes. Each runs the lockstep as the iCE40 build does (random programs
# constrained to its sizes, the shaders that fit); the smallest runs tests/simt/tiny2.s (2 instructions).
SIMT_CFG_COSIM    := $(SIMT_CFG_USE_cosim-cfg)
SIMT_CFG_PROGRAMS ?= 200
$(foreach v,$(SIMT_CFG_COSIM),$(eval $(call SIMT_BUILD_RULES,$(v),fast)))
.PHONY: test-long-simt-cfg
test-long-simt-cfg: $(foreach v,$(SIMT_CFG_COSIM),$(BUILD)/cosim/simt_$(v)/cosim-simt)
	@set -e; for v in $(SIMT_CFG_COSIM); do b=$(BUILD)/cosim/simt_$$v/cosim-simt; echo "== test-long-simt-cfg $$v"; \
	  case $$v in \
	  *_tiny) $$b --program tests/simt/tiny2.s --seed $(SIMT_SEED) --programs 0;; \
	  *) $$b --seed $(SIMT_SEED) --programs $(SIMT_CFG_PROGRAMS) --abort-every $(SIMT_ABORT_EVERY) --shaders --quiet;; \
	  esac; done
test-long: test-long-simt-cfg

# The Icarus bench (tb/simt/tb_simt_core.v) at the rows of use tb-long (latencies 64): a random program and the
# CP-phase vertex shader, as sim-simt.
SIMT_TB_LONG_SETS := $(SIMT_CFG_USE_tb-long)
$(BUILD)/tb/tb_simt_core_%.vvp: tb/simt/tb_simt_core.v $(SIMT_RTL) rtl/simt_fp_fn.vh $(BUILD)/gen/isa_defs.vh
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -Irtl -o $@ -s tb_simt_core $(call simt_cfg_pflags,$*,tb_simt_core) \
	  tb/simt/tb_simt_core.v $(SIMT_RTL)
.PHONY: sim-simt-cfg
sim-simt-cfg: $(BUILD)/tb/simt-vectors $(foreach v,$(SIMT_TB_LONG_SETS),$(BUILD)/tb/tb_simt_core_$(v).vvp)
	@mkdir -p $(SIMT_TB_OUT)
	@set -e; for v in $(SIMT_TB_LONG_SETS); do set -- $$(echo $$v | tr _ ' '); \
	  for job in "--seed 11" "--shader vs_project --seed 3"; do \
	    $(BUILD)/tb/simt-vectors --lanes $$1 --warps $$2 --fpu-lat $$3 --sfu-lat $$4 --tex-lat $$5 $$job -o $(SIMT_TB_OUT)/cfg_$$v.hex > /dev/null; \
	    vvp -n $(BUILD)/tb/tb_simt_core_$$v.vvp +vectors=$(SIMT_TB_OUT)/cfg_$$v.hex > $(SIMT_TB_OUT)/cfg_$$v.log 2>&1 || true; \
	    if grep -q '^PASS' $(SIMT_TB_OUT)/cfg_$$v.log; then echo "sim-simt-cfg $$v ($$job): $$(grep -m1 '^PASS' $(SIMT_TB_OUT)/cfg_$$v.log | cut -c1-100)"; \
	    else tail -20 $(SIMT_TB_OUT)/cfg_$$v.log; echo "sim-simt-cfg: FAIL at $$v ($$job); reproduce: make sim-simt-cfg"; exit 1; fi; \
	  done; done
test-long: sim-simt-cfg

# The area options alone at the default sizes (test-long): FPU_AREA=1, SR_MERGE=1, IMUL_PASSES=16, FPU_PASSES=4,
# INT_AREA=1 and RAM_RW_ANY=1 (poisoned collision reads) on the default configuration (LANES 8, WARPS 4, latencies 8/8/4; the passes with 8 lanes, 4 warps and
# the SFU beside them), every job kind of test-simt-cosim including random-word programs (all special-register
# numbers, so both %vertex and %prim reads of the merged RAM) and trace programs.
SIMT_AREA_V := $(firstword $(SIMT_CFG_USE_cosim-long))
$(foreach k,fast fst,$(eval $(call SIMT_BUILD_RULES,$(SIMT_AREA_V),$(k))))
.PHONY: test-long-simt-area
test-long-simt-area: $(BUILD)/cosim/simt_$(SIMT_AREA_V)/cosim-simt
	$< --seed $(SIMT_COSIM_SEED) --programs 1000 --fuzz-words 300 --abort-every 10 --shaders --trace-programs $(SIMT_TRACE_PROGS) --quiet
test-long: test-long-simt-area
