# N-GPU system: the CD system of cycle models (cmodel/sys/cdsys.h, gpupd-cdsys) and the system co-simulation
# of N x (P2G RTL -> PE RTL) over the C link model (sim/system). See docs/system-cosim.md.

$(BUILD)/bin/gpupd-cdsys: LDLIBS_COMMON += -lz
$(BUILD)/tests/test_cdsys: LDLIBS_COMMON += -lz

# ------------------------------------------------------------------ system co-simulation (Verilator)
# Each GPU is one verilated sim/system/cd_gpu.v (P2G mapper + PE side by side); the C harness is cdsys.c with the
# lockstep units backend of sim/system/cosim_system.c. Variants: MAX_GPUS_ROWS_LQDEPTH_RQDEPTH.
SYS_PE_RTL   ?= rtl/pe_fifo.v rtl/pe_lowbit.v rtl/pe_exchanger.v
SYS_RTL      := $(P2G_RTL) $(SYS_PE_RTL) sim/system/cd_gpu.v
SYS_VARIANTS := 16_2_8_8 64_4_8_8
SYS_VL_OPT   := -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1"
sys_w = $(word $2,$(subst _, ,$1))

$(BUILD)/cosim/obj/cosim_system.o: sim/system/cosim_system.c sim/system/sys_dut.h cmodel/sys/cdsys.h | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/system -c $< -o $@

define SYS_VARIANT_RULES
$(BUILD)/cosim/system_$(1)/cosim-system: mk/system.mk $(SYS_RTL) rtl/lint.vlt sim/system/sys_dut.cpp sim/system/sys_dut.h $(BUILD)/cosim/obj/cosim_system.o $(LIB) | $(GEN_HDRS)
	@mkdir -p $$(@D) && rm -f $$@
	$(VERILATOR) --cc --exe --build -j 2 -Wall --trace-fst --top-module cd_gpu -I$(abspath $(BUILD)/gen) -Irtl \
	  -GMAX_GPUS=$(call sys_w,$(1),1) -GROWS=$(call sys_w,$(1),2) -GLQ_DEPTH=$(call sys_w,$(1),3) -GRQ_DEPTH=$(call sys_w,$(1),4) \
	  -Mdir $$(@D) -o cosim-system $(SYS_VL_OPT) \
	  -CFLAGS "-I$(abspath cmodel) -I$(abspath sim/system) -DSYS_DUT_MAX_GPUS=$(call sys_w,$(1),1) -DSYS_DUT_ROWS=$(call sys_w,$(1),2) -DSYS_DUT_LQ=$(call sys_w,$(1),3) -DSYS_DUT_RQ=$(call sys_w,$(1),4)" \
	  -LDFLAGS "-lz -lm" \
	  rtl/lint.vlt $(SYS_RTL) $(abspath sim/system/sys_dut.cpp) $(abspath $(BUILD)/cosim/obj/cosim_system.o) $(abspath $(LIB)) \
	  >$$(@D)/build.log 2>&1 || { tail -30 $$(@D)/build.log; exit 1; }
endef
$(foreach v,$(SYS_VARIANTS),$(eval $(call SYS_VARIANT_RULES,$(v))))

SYS_COSIM16 := $(BUILD)/cosim/system_16_2_8_8/cosim-system
SYS_COSIM64 := $(BUILD)/cosim/system_64_4_8_8/cosim-system
.PHONY: cosim-system-build cosim-system
cosim-system-build: $(SYS_COSIM16) $(SYS_COSIM64)

# STABLE INTERFACE: make cosim-system TRACE=file.gpt GPUS=n TOPO=line|hub
# exits 0 only if every GPU's output matched the golden model and at least one primitive was compared.
# Optional: SYS_ARGS="--scheme gpupd --stall 200 --jitter 8 --seed 7 ..." (cosim-system --help).
TRACE ?= traces/oa-dm4-f215.gpt
GPUS  ?= 3
TOPO  ?= line
SYS_ARGS ?=
cosim-system: $(if $(filter-out 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16,$(GPUS)),$(SYS_COSIM64),$(SYS_COSIM16))
	$< --trace $(TRACE) --gpus $(GPUS) --topology $(TOPO) $(SYS_ARGS)
