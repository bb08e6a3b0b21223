# N-GPU system: the CD system of cycle models (cmodel/sys/cdsys.h, gpupd-cdsys) and the system co-simulation
# of N x cd_unit RTL (P2G -> adapter -> PE) over the C link model (sim/system). See docs/system-cosim.md.

$(BUILD)/bin/gpupd-cdsys: LDLIBS_COMMON += -lz -lzstd
$(BUILD)/tests/test_cdsys: LDLIBS_COMMON += -lz -lzstd
$(BUILD)/tests/test_cdsys_stream: LDLIBS_COMMON += -lz -lzstd

# ------------------------------------------------------------------ system co-simulation (Verilator)
# Each GPU is one verilated rtl/cd_unit.v (P2G mapper -> adapter -> PE, docs/cd-unit.md); the C harness is cdsys.c with the
# lockstep units backend of sim/system/cosim_system.c. Variants: MAX_GPUS_ROWS_LQDEPTH_RQDEPTH (defs/cfg_cd_unit.tbl).
SYS_PE_RTL   ?= $(PE_RTL)
SYS_RTL      := $(P2G_RTL) $(SYS_PE_RTL) $(CD_RTL) rtl/cd_unit.v
SYS_VARIANTS := $(CD_UNIT_CFG_USE_cosim)

$(BUILD)/cosim/obj/cosim_system.o: sim/system/cosim_system.c sim/system/sys_dut.h sim/common/gtkw_view.h sim/common/lockstep.h cmodel/sys/cdsys.h cmodel/cd/cd_adapter_hw.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/system -c $< -o $@

# mk/verilator.mk's VL_MODEL; zlib/zstd after the C library archive
SYS_LINK = $(BUILD)/cosim/obj/cosim_system.o $(LOCKSTEP_OBJ) $(LIB)
define SYS_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(BUILD)/cosim/system_$(1),$(BUILD)/cosim/system_$(1)/cosim-system,cd_unit,fst,-I$(abspath $(BUILD)/gen) -Irtl \
  $(call cd_unit_cfg_vflags,$(1)),rtl/lint.vlt $(SYS_RTL),\
  -I$(abspath cmodel) -I$(abspath sim/system) -I$(abspath sim/common) $(call cd_unit_cfg_dflags,$(1)),\
  sim/system/sys_dut.cpp,$(SYS_LINK),mk/system.mk $(PE_VH),$(VL_OPT_MK),-lz -lzstd))
endef
$(foreach v,$(SYS_VARIANTS),$(eval $(call SYS_VARIANT_RULES,$(v))))

# Stream builds (SCHEME=gpupd-stream): rtl/cd_unit_stream.v (P2G -> adapter -> stream PE rtl/sx_pe.v), one per
# MAX_GPUS_ROWS_K_DEPTH (defs/cfg_cd_unit_stream.tbl), each in its own build dir; the shim is the same sys_dut.cpp with -DSYS_DUT_STREAM.
SYS_SX_RTL      := $(P2G_RTL) $(CD_RTL) $(SX_RTL) rtl/cd_unit_stream.v
SYS_SX_VARIANTS := $(CD_UNIT_STREAM_CFG_USE_cosim)
define SYS_SX_VARIANT_RULES
$$(eval $$(call VL_MODEL,$(BUILD)/cosim/system_sx_$(1),$(BUILD)/cosim/system_sx_$(1)/cosim-system,cd_unit_stream,fst,-I$(abspath $(BUILD)/gen) -Irtl \
  $(call cd_unit_stream_cfg_vflags,$(1)),rtl/lint.vlt $(SYS_SX_RTL),\
  -I$(abspath cmodel) -I$(abspath sim/system) -I$(abspath sim/common) -DSYS_DUT_STREAM \
  $(call cd_unit_stream_cfg_dflags,$(1)),\
  sim/system/sys_dut.cpp,$(SYS_LINK),mk/system.mk $(PE_VH),$(VL_OPT_MK),-lz -lzstd))
endef
$(foreach v,$(SYS_SX_VARIANTS),$(eval $(call SYS_SX_VARIANT_RULES,$(v))))
SYS_SX_COSIM16 := $(BUILD)/cosim/system_sx_16_2_2_32/cosim-system
SYS_SX_COSIM64 := $(BUILD)/cosim/system_sx_64_4_2_16/cosim-system

SYS_COSIM16 := $(BUILD)/cosim/system_16_2_8_8/cosim-system
SYS_COSIM64 := $(BUILD)/cosim/system_64_4_8_8/cosim-system
.PHONY: cosim-system-build cosim-system
cosim-system-build: $(SYS_COSIM16) $(SYS_COSIM64) $(SYS_SX_COSIM16) $(SYS_SX_COSIM64)

# STABLE INTERFACE: make cosim-system TRACE=file.gpt GPUS=n TOPO=line|hub [SCHEME=gpupd-stream]
# exits 0 only if every GPU's output matched the golden model and at least one primitive was compared.
# SCHEME empty (default): the paper protocol's unit (cd_unit) with the scheme of SYS_ARGS (default gpupd-ra);
# SCHEME=gpupd-stream: the stream unit (cd_unit_stream) against the stream PE's cycle model.
# Optional: SYS_ARGS="--scheme gpupd --stall 200 --jitter 8 --seed 7 ..." (cosim-system --help).
TRACE ?= traces/oa-dm4-f215.gpt
GPUS  ?= 3
TOPO  ?= line
SCHEME ?=
SYS_ARGS ?=
SYS_SMALL := $(filter 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16,$(GPUS))
cosim-system: $(if $(filter gpupd-stream,$(SCHEME)),$(if $(SYS_SMALL),$(SYS_SX_COSIM16),$(SYS_SX_COSIM64)),$(if $(SYS_SMALL),$(SYS_COSIM16),$(SYS_COSIM64)))
	$< --trace $(TRACE) --gpus $(GPUS) --topology $(TOPO) $(if $(SCHEME),--scheme $(SCHEME)) $(SYS_ARGS)

# ------------------------------------------------------------------ tests (make test), waves, bench, long sweep
# Real traces at N = 3 and 16, both topologies, all three gpupd schemes, both ownership modes, stall/jitter
# injection; every run: RTL vs cycle models every cycle, P2G masks and received lists vs the golden model,
# the SPEC 4.2 invariant. (~10 s of runs after the build; docs/system-cosim.md)
.PHONY: test-system-cosim-stream test-system-cosim test-system-cosim-failure test-system-waves test-cdsys waves-system bench-system test-long-system
test-system-cosim: $(SYS_COSIM16)
	$(SYS_COSIM16) --trace traces/oa-dm4-f215.gpt --gpus 3 --topology line --quiet
	$(SYS_COSIM16) --trace traces/glmark2-shadow.gpt --gpus 16 --topology hub --stall 150 --jitter 6 --seed 5 --quiet
	$(SYS_COSIM16) --trace traces/oa-dm4-f109.gpt --gpus 16 --topology line --scheme gpupd-batch --own linear --latency 40 --stall 100 --seed 3 --quiet
	$(SYS_COSIM16) --trace traces/glmark2-build-bunny.gpt --gpus 3 --topology hub --scheme gpupd --batch 4096 --stall 300 --jitter 20 --seed 11 --quiet
	$(SYS_COSIM16) --trace traces/glmark2-ideas.gpt --gpus 5 --topology line --scheme gpupd-ra --stall 50 --seed 7 --quiet

# gpupd-stream (SCHEME=gpupd-stream): N x cd_unit_stream (P2G -> adapter -> stream PE, K=2, DEPTH=32: full
# FIFOs and credits on real traces) against the cycle models (p2g_hw, cd_adapter_hw, sx_hw) every cycle, the
# golden lists, the SPEC 4.2 invariant, and the same cycles as the cycle models alone; then an injected model
# fault must be reported with its reproduce command (~3 s of runs after the build).
test-system-cosim-stream: $(SYS_SX_COSIM16)
	$(SYS_SX_COSIM16) --trace traces/oa-dm4-f215.gpt --gpus 3 --topology line --scheme gpupd-stream --quiet
	$(SYS_SX_COSIM16) --trace traces/glmark2-shadow.gpt --gpus 16 --topology hub --scheme gpupd-stream --stall 150 --jitter 6 --seed 5 --quiet
	$(SYS_SX_COSIM16) --trace traces/glmark2-ideas.gpt --gpus 5 --topology line --scheme gpupd-stream --stall 50 --seed 7 --quiet
	@mkdir -p out/test/system-stream-failure; if $(SYS_SX_COSIM16) --trace traces/glmark2-shadow.gpt --gpus 3 --scheme gpupd-stream \
	  --inject-fault model:500 --quiet --out-dir out/test/system-stream-failure > out/test/system-stream-failure/log 2>&1; then \
	  echo "test-system-cosim-stream: FAIL: an injected stream PE model fault was not reported (out/test/system-stream-failure/log)"; exit 1; fi; \
	grep -q "sx.in_ready\[0\].*differs" out/test/system-stream-failure/log && grep -q "reproduce: .*--scheme gpupd-stream .*--inject-fault model:500" \
	  out/test/system-stream-failure/log || { echo "test-system-cosim-stream: FAIL: the mismatch report lacks the differing port or the reproduce command"; \
	  tail -20 out/test/system-stream-failure/log; exit 1; }; echo "test-system-cosim-stream: injected fault reported: $$(grep -m1 'COSIM MISMATCH' out/test/system-stream-failure/log)"

test-system-cosim-failure: $(SYS_COSIM16)
	tests/system/test_cosim_failure.sh $< out/test/system-failure

test-system-waves: $(SYS_COSIM16) $(SYS_SX_COSIM16)
	tests/system/test_waves.sh $(SYS_COSIM16) tb/system/system.gtkw out/test/system-waves
	tests/system/test_waves.sh $(SYS_SX_COSIM16) tb/system/system_stream.gtkw out/test/system-waves-stream --scheme gpupd-stream

# The CD system of cycle models on real traces: golden lists + invariant, and idle skipping == stepping.
test-cdsys: $(BUILD)/bin/gpupd-cdsys
	$< --trace traces/oa-dm4-f215.gpt --gpus 16 --topology line --latency 400 --compare-skip
	$< --trace traces/glmark2-shadow.gpt --gpus 3 --topology hub --latency 100 --cp-cost 3 --stall 100 --jitter 9 --compare-skip

TEST_TARGETS += test-cdsys test-system-cosim test-system-cosim-failure test-system-waves test-system-cosim-stream

# Open GTKWave on a fresh 3-GPU system waveform with the saved view (headless check: test-system-waves);
# SCHEME=gpupd-stream: the stream build with tb/system/system_stream.gtkw.
waves-system: $(if $(filter gpupd-stream,$(SCHEME)),$(SYS_SX_COSIM16),$(SYS_COSIM16))
	@mkdir -p out/waves
	$< --trace traces/glmark2-shadow.gpt --gpus 3 $(if $(filter gpupd-stream,$(SCHEME)),--scheme gpupd-stream) --waves out/waves/system.fst --quiet
	gtkwave -a out/waves/system.fst.gtkw out/waves/system.fst

# System co-simulation speed (RTL + cycle models in lockstep + golden checks, no waveform), N = 4 and 16,
# fixed workload (mesh-bunnies: 572k triangles, gpupd-ra, line, seed 1): simulated system cycles per CPU second
# of the co-simulation itself (capturing the workload from the golden model is not counted).
bench-system: $(SYS_COSIM16) $(BUILD)/bin/gpupd-cdsys
	@for n in 4 16; do $(SYS_COSIM16) --trace traces/mesh-bunnies.gpt --gpus $$n --quiet | grep -A1 '^trace,' | tail -1 | \
	  awk -F, '{printf "bench-system: cosim-system N=%s %s cycles in %s s CPU (%s s wall): %.0f system cycles/s\n", $$2, $$4, $$6, $$5, $$7}'; done
	@$(SYS_COSIM16) --trace traces/mesh-bunnies.gpt --gpus 4 --quiet --no-model | grep -A1 '^trace,' | tail -1 | \
	  awk -F, '{printf "bench-system: cosim-system --no-model (RTL + golden checks, no cycle-model lockstep) N=%s %s cycles in %s s CPU: %.0f system cycles/s\n", $$2, $$4, $$6, $$7}'
	@for n in 4 16; do $(BUILD)/bin/gpupd-cdsys --trace traces/mesh-bunnies.gpt --gpus $$n --no-skip | tail -1 | \
	  awk -F, '{printf "bench-system: cycle models only (gpupd-cdsys, no skipping) N=%s %s cycles in %s s CPU: %.0f system cycles/s\n", $$2, $$7, $$11, $$7/$$11}'; done
BENCH_TARGETS += bench-system

# Every bundled trace, N = 2, 3, 4, 8, 16 on both topologies (16-GPU build) and N = 64 (64-GPU build).
SYS_LONG_TRACES := $(basename $(notdir $(sort $(wildcard traces/*.gpt))))
test-long-system: $(SYS_COSIM16) $(SYS_COSIM64) $(SYS_SX_COSIM64)
	@set -e; for t in $(SYS_LONG_TRACES); do for n in 2 3 4 8 16; do for topo in line hub; do \
	  echo "== $$t N=$$n $$topo"; $(SYS_COSIM16) --trace traces/$$t.gpt --gpus $$n --topology $$topo --stall 50 --seed $$n --quiet | tail -1; \
	done; done; done
	$(SYS_COSIM64) --trace traces/oa-dm4-f215.gpt --gpus 64 --topology line --quiet
	$(SYS_COSIM64) --trace traces/glmark2-shadow.gpt --gpus 64 --topology hub --stall 100 --jitter 4 --quiet
	$(SYS_SX_COSIM64) --trace traces/oa-dm4-f215.gpt --gpus 64 --topology line --scheme gpupd-stream --quiet
	$(SYS_SX_COSIM64) --trace traces/glmark2-shadow.gpt --gpus 64 --topology hub --scheme gpupd-stream --stall 100 --jitter 4 --quiet
test-long: test-long-system

# ------------------------------------------------------------------ configuration coverage (test-long)
# The builds of defs/cfg_cd_unit.tbl with use cosim-cfg (docs/configurations.md "Coverage": MAX_GPUS 1, 2, 3, 63,
# one tile row, queue depths 2, 256, and not powers of two, the adapter's too), each at N = MAX_GPUS on a small
# trace: line with runahead, hub without (gpupd-batch), with stalls and jitter.
SYS_CFG_COSIM := $(CD_UNIT_CFG_USE_cosim-cfg)
SYS_SX_CFG_COSIM := $(CD_UNIT_STREAM_CFG_USE_cosim-cfg)
$(foreach v,$(SYS_CFG_COSIM),$(eval $(call SYS_VARIANT_RULES,$(v))))
$(foreach v,$(SYS_SX_CFG_COSIM),$(eval $(call SYS_SX_VARIANT_RULES,$(v))))
SYS_CFG_TRACE ?= traces/glmark2-ideas.gpt
.PHONY: test-long-system-cfg
test-long-system-cfg: $(foreach v,$(SYS_CFG_COSIM),$(BUILD)/cosim/system_$(v)/cosim-system) \
  $(foreach v,$(SYS_SX_CFG_COSIM),$(BUILD)/cosim/system_sx_$(v)/cosim-system)
	@set -e; for v in $(SYS_CFG_COSIM); do b=$(BUILD)/cosim/system_$$v/cosim-system; n=$${v%%_*}; \
	  echo "== test-long-system-cfg $$v N=$$n"; \
	  $$b --trace $(SYS_CFG_TRACE) --gpus $$n --topology line --scheme gpupd-ra --stall 100 --seed 3 --quiet; \
	  $$b --trace $(SYS_CFG_TRACE) --gpus $$n --topology hub --scheme gpupd-batch --stall 50 --jitter 6 --seed 4 --quiet; \
	done
	@set -e; for v in $(SYS_SX_CFG_COSIM); do b=$(BUILD)/cosim/system_sx_$$v/cosim-system; n=$${v%%_*}; \
	  echo "== test-long-system-cfg stream $$v N=$$n"; \
	  $$b --trace $(SYS_CFG_TRACE) --gpus $$n --topology line --scheme gpupd-stream --stall 100 --seed 3 --quiet; \
	  $$b --trace $(SYS_CFG_TRACE) --gpus $$n --topology hub --scheme gpupd-stream --stall 50 --jitter 6 --seed 4 --quiet; \
	done
test-long: test-long-system-cfg

# ------------------------------------------------------------------ SystemC: the N-GPU system as sc_modules
# Each GPU: the verilated cd_unit (P2G -> adapter -> PE RTL, verilator --sc) in a gpu_node; GPUs joined by sc_fifo links.
# (SystemC 2.3.4 from Debian is built as C++17: no -std= here.)
SC_SYS := $(BUILD)/systemc/system_16/sc-system
$(eval $(call VL_MODEL,$(BUILD)/systemc/system_16,$(SC_SYS),cd_unit,sc,-I$(abspath $(BUILD)/gen) -Irtl -GMAX_GPUS=16 -GROWS=2 -GLQ_DEPTH=8 -GRQ_DEPTH=8,\
  rtl/lint.vlt $(SYS_RTL),-I$(abspath cmodel) -DSC_MAX_GPUS=16,sim/systemc/sc_system_main.cpp,$(LIB),mk/system.mk $(PE_VH),$(VL_OPT_MK),-lz -lzstd))

.PHONY: systemc-system test-systemc-system
systemc-system: $(SC_SYS)
	$(SC_SYS) traces/oa-dm4-f215.gpt 3 line
	$(SC_SYS) traces/glmark2-shadow.gpt 16 hub 20
systemc: systemc-system
test-systemc-system: $(SC_SYS)
	@for bad in "0" "3 ring" "3 line 4 0 901" "3 line x"; do $(SC_SYS) traces/glmark2-shadow.gpt $$bad >/dev/null 2>&1; rc=$$?; \
	  if [ $$rc -ne 2 ]; then echo "test-systemc-system: FAIL: bad arguments '$$bad' not refused with exit 2 (exit $$rc)"; exit 1; fi; done
	$(SC_SYS) traces/glmark2-shadow.gpt 3 line 4 0 200 9
	$(SC_SYS) traces/glmark2-shadow.gpt 16 hub 20 0 150 7
	@mkdir -p out; if $(SC_SYS) traces/glmark2-shadow.gpt 3 line 4 300 > out/test-sc-system-fault.log 2>&1; then \
	  echo "test-systemc-system: FAIL: a lost flit was not caught (out/test-sc-system-fault.log)"; exit 1; \
	else echo "test-systemc-system: injected fault caught: $$(grep -m1 MISMATCH out/test-sc-system-fault.log)"; fi
TEST_TARGETS += test-systemc-system
