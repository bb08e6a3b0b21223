# P2G mapper: functional definition (cmodel/p2g), RTL (rtl/p2g), Icarus testbench (tb/p2g), Verilator lockstep
# co-simulation (sim/p2g), coverage, waves, synthesis (constraints/). See docs/p2g.md.

P2G_RTL      := rtl/p2g/p2g_modn.v rtl/p2g/p2g_range_mask.v rtl/p2g/p2g_mapper.v
P2G_OBJS     := $(patsubst %.c,$(BUILD)/lib/obj/%.o,$(wildcard cmodel/p2g/*.c))
VERILATOR    ?= verilator
VL_OPT       := -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1"
# Parameter sets co-simulated: MAX_GPUS_ROWS
P2G_VARIANTS := 16_2 64_4
P2G_SEED     ?= 0x5eed
# Test run: 5M primitives per variant, 10M in all (N = 1, 3, 16 on the 16-GPU build; 1, 5, 33, 64 on the 64-GPU build)
P2G_TEST_PRIMS ?= 1700000

p2g_mg   = $(word 1,$(subst _, ,$1))
p2g_rows = $(word 2,$(subst _, ,$1))

$(BUILD)/cosim/obj/cosim_p2g.o: sim/p2g/cosim_p2g.c sim/p2g/p2g_dut.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) -Isim/p2g -c $< -o $@

# One verilated co-simulation binary per parameter set (FST tracing compiled in, used only on demand).
define P2G_VARIANT_RULES
$(BUILD)/cosim/p2g_$(1)/cosim-p2g: $(P2G_RTL) rtl/lint.vlt sim/p2g/p2g_dut.cpp sim/p2g/p2g_dut.h $(BUILD)/cosim/obj/cosim_p2g.o $(P2G_OBJS)
	@mkdir -p $$(@D) && rm -f $$@
	$(VERILATOR) --cc --exe --build -j 2 -Wall --trace-fst --top-module p2g_mapper \
	  -GMAX_GPUS=$(call p2g_mg,$(1)) -GROWS=$(call p2g_rows,$(1)) -Mdir $$(@D) -o cosim-p2g $(VL_OPT) \
	  -CFLAGS "-I$(abspath cmodel) -I$(abspath sim/p2g) -DP2G_DUT_MAX_GPUS=$(call p2g_mg,$(1)) -DP2G_DUT_ROWS=$(call p2g_rows,$(1))" \
	  rtl/lint.vlt $(P2G_RTL) $(abspath sim/p2g/p2g_dut.cpp) $(abspath $(BUILD)/cosim/obj/cosim_p2g.o) \
	  $(abspath $(P2G_OBJS)) >$$(@D)/build.log 2>&1 || { tail -30 $$(@D)/build.log; exit 1; }
endef
$(foreach v,$(P2G_VARIANTS),$(eval $(call P2G_VARIANT_RULES,$(v))))

P2G_COSIM_BINS := $(foreach v,$(P2G_VARIANTS),$(BUILD)/cosim/p2g_$(v)/cosim-p2g)
.PHONY: cosim-p2g-build cosim-p2g
cosim-p2g-build: $(P2G_COSIM_BINS)

# Interactive/default run: SEED=random explores new seeds (the seed is printed for replay).
SEED ?= $(P2G_SEED)
cosim-p2g: $(P2G_COSIM_BINS)
	$(BUILD)/cosim/p2g_16_2/cosim-p2g --seed $(SEED) --prims 200000 --gpus 1,3,16
	$(BUILD)/cosim/p2g_64_4/cosim-p2g --seed $(SEED) --prims 200000 --gpus 1,5,33,64
