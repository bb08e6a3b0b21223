# SIMT shader core (issue 10): RTL (rtl/simt_*.v), C cycle model (cmodel/simt), Verilator lockstep
# co-simulation against the cycle model and the ISA interpreter (sim/simt), Icarus testbench (tb/simt),
# waves, coverage, benchmark. The FP/SFU datapaths rtl/simt_fpu.v, rtl/simt_sfu.v (+ their submodules) are
# helper simtfpu's (docs/simt-fpu.md). See docs/simt.md.

SIMT_CORE_RTL := rtl/simt_ram.v rtl/simt_decode.v rtl/simt_warp.v rtl/simt_lane.v rtl/simt_core.v
# every other rtl/simt_*.v file is the FP/SFU datapath; until it exists, a zero-result placeholder with the
# same ports lets the integer/control/memory part be built (cosim --no-fp only)
SIMT_FPU_RTL  := $(filter-out $(SIMT_CORE_RTL),$(wildcard rtl/simt_*.v))
SIMT_HAVE_FPU := $(if $(wildcard rtl/simt_fpu.v),1,)
SIMT_DP_RTL   := $(if $(SIMT_HAVE_FPU),$(SIMT_FPU_RTL),sim/simt/simt_fpu_stub.v)
SIMT_RTL      := $(SIMT_CORE_RTL) $(SIMT_DP_RTL)
SIMT_NOFP     := $(if $(SIMT_HAVE_FPU),,--no-fp)
# parameter sets: LANES_WARPS_FPULAT_SFULAT_TEXLAT
SIMT_VARIANTS := 8_4_7_7_4
SIMT_MAIN     := 8_4_7_7_4
SIMT_SEED     ?= 0x5eed
simt_p = $(word $(2),$(subst _, ,$(1)))

$(BUILD)/cosim/obj/cosim_simt.o: sim/simt/cosim_simt.c sim/simt/simt_dut.h cmodel/simt/simt_hw.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/simt -c $< -o $@

define SIMT_VARIANT_RULES
$(BUILD)/cosim/simt_$(1)/cosim-simt: mk/simt.mk $(SIMT_RTL) rtl/lint.vlt sim/simt/simt_dut.cpp sim/simt/simt_dut.h $(BUILD)/cosim/obj/cosim_simt.o $(LIB) $(BUILD)/gen/isa_defs.vh
	@mkdir -p $$(@D) && rm -f $$@
	$(VERILATOR) --cc --exe --build -j 2 -Wall -Wno-DECLFILENAME --trace-fst --top-module simt_core -I$(BUILD)/gen -Irtl \
	  -GLANES=$(call simt_p,$(1),1) -GWARPS=$(call simt_p,$(1),2) -GFPU_LAT=$(call simt_p,$(1),3) \
	  -GSFU_LAT=$(call simt_p,$(1),4) -GTEX_LAT=$(call simt_p,$(1),5) -Mdir $$(@D) -o cosim-simt $(VL_OPT) \
	  -CFLAGS "-I$(abspath cmodel) -I$(abspath $(BUILD)/gen) -I$(abspath sim/simt) -DSIMT_DUT_LANES=$(call simt_p,$(1),1) -DSIMT_DUT_WARPS=$(call simt_p,$(1),2) -DSIMT_DUT_FPU_LAT=$(call simt_p,$(1),3) -DSIMT_DUT_SFU_LAT=$(call simt_p,$(1),4) -DSIMT_DUT_TEX_LAT=$(call simt_p,$(1),5)" \
	  -LDFLAGS "-lm" \
	  rtl/lint.vlt $(SIMT_RTL) $(abspath sim/simt/simt_dut.cpp) $(abspath $(BUILD)/cosim/obj/cosim_simt.o) $(abspath $(LIB)) \
	  >$$(@D)/build.log 2>&1 || { tail -30 $$(@D)/build.log; exit 1; }
endef
$(foreach v,$(SIMT_VARIANTS),$(eval $(call SIMT_VARIANT_RULES,$(v))))

SIMT_BIN := $(BUILD)/cosim/simt_$(SIMT_MAIN)/cosim-simt
.PHONY: cosim-simt-build cosim-simt
cosim-simt-build: $(SIMT_BIN)

# STABLE INTERFACE: make cosim-simt PROGRAM=file.s [WARPS=n] [SEED=s]: one assembly program, every warp
# launched with all lanes active, attributes from the seed; exit 0 only if every retired instruction matched.
# Without PROGRAM: random programs and the shader library.
SIMT_COSIM_SEED = $(if $(SEED),$(SEED),$(SIMT_SEED))
cosim-simt: $(SIMT_BIN)
	$(if $(PROGRAM),$(SIMT_BIN) --program $(PROGRAM) --seed $(SIMT_COSIM_SEED) --programs 0 $(if $(WARPS),--warps $(WARPS)),$(SIMT_BIN) --seed $(SIMT_COSIM_SEED) --programs 1000 --shaders $(SIMT_NOFP))
