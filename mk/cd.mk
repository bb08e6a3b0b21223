# One GPU's C-PD datapath (docs/cd-unit.md): the P2G -> PE adapter (rtl/cd_adapter.v, C cycle model
# cmodel/cd/cd_adapter_hw.c, Icarus testbench tb/cd) and the unit top rtl/cd_unit.v (P2G mapper + adapter + PE),
# which the N-GPU system co-simulation instantiates per GPU (mk/system.mk). Synthesis rows: mk/synth.mk.
# (This file is read before p2g.mk and pe.mk: the P2G/PE file lists are used in recipes only.)

CD_RTL      := rtl/cd_adapter.v
CD_UNIT_RTL  = $(P2G_RTL) $(PE_RTL) $(CD_RTL) rtl/cd_unit.v
CD_UNIT_SX_RTL = $(P2G_RTL) $(SX_RTL) $(CD_RTL) rtl/cd_unit_stream.v   # the gpupd-stream sibling (docs/cd-unit.md)
CD_FLIT_VH  := $(BUILD)/gen/gpupd_flit.vh

# ------------------------------------------------------------------ lint
.PHONY: lint-cd
lint-cd: $(CD_FLIT_VH)
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(CD_RTL) --top-module cd_adapter
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(CD_RTL) --top-module cd_adapter -GMAX_GPUS=64 -GAQ_DEPTH=5 -GDQ_DEPTH=3
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(CD_RTL) --top-module cd_adapter -GMAX_GPUS=1 -GAQ_DEPTH=2 -GDQ_DEPTH=1
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_RTL) --top-module cd_unit
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_RTL) --top-module cd_unit -GMAX_GPUS=64 -GROWS=4
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_RTL) --top-module cd_unit -GMAX_GPUS=1 -GROWS=1 -GLQ_DEPTH=2 -GRQ_DEPTH=3 -GAQ_DEPTH=2 -GDQ_DEPTH=1
	iverilog -g2012 -Wall -Wno-timescale -o /dev/null -s cd_adapter $(CD_RTL)
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -o /dev/null -s cd_unit $(CD_UNIT_RTL)
	yosys -q -p "read_verilog -I$(BUILD)/gen $(CD_UNIT_RTL); hierarchy -check -top cd_unit; proc; check -assert"
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_SX_RTL) --top-module cd_unit_stream
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_SX_RTL) --top-module cd_unit_stream -GMAX_GPUS=64 -GROWS=4 -GK=8 -GDEPTH=16
	$(VERILATOR) --lint-only -Wall -I$(BUILD)/gen rtl/lint.vlt $(CD_UNIT_SX_RTL) --top-module cd_unit_stream -GMAX_GPUS=1 -GROWS=1 -GK=1 -GDEPTH=2 -GAQ_DEPTH=2 -GDQ_DEPTH=1
	iverilog -g2012 -Wall -Wno-timescale -I$(BUILD)/gen -o /dev/null -s cd_unit_stream $(CD_UNIT_SX_RTL)
	yosys -q -p "read_verilog -I$(BUILD)/gen $(CD_UNIT_SX_RTL); hierarchy -check -top cd_unit_stream -chparam DEPTH 8; proc; check -assert"
	@echo "lint-cd: clean (verilator -Wall: adapter at 3, cd_unit at 3 and cd_unit_stream at 3 parameter sets; iverilog -g2012; yosys check -assert; each file on its own: test-rtl-headers)"
TEST_TARGETS += lint-cd
LINT_TARGETS += lint-cd

# ------------------------------------------------------------------ Icarus self-checking testbench
# Vectors from the C cycle model driven by a seeded environment (tb/cd/cd_adapter_vectors.c, which also checks
# the model against the definition: per chunk its primitives, then END {tag, count}); the testbench compares
# every output every cycle. Sets MAX_GPUS_AQDEPTH_DQDEPTH (defs/cfg_cd_adapter.tbl, use tb): the default, the
# smallest queues, deeper queues.
CD_TB_SETS      ?= $(CD_ADAPTER_CFG_USE_tb)
CD_SIM_SEED     ?= 1
CD_SIM_SCENARIOS ?= 20
CD_SIM_CYCLES   ?= 3000

$(BUILD)/tb/cd-adapter-vectors: tb/cd/cd_adapter_vectors.c cmodel/cd/cd_adapter_hw.c cmodel/cd/cd_adapter_hw.h
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) tb/cd/cd_adapter_vectors.c cmodel/cd/cd_adapter_hw.c -o $@

$(BUILD)/tb/tb_cd_adapter_%.vvp: tb/cd/tb_cd_adapter.v tb/common/tb_vectors.vh $(CD_RTL)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Wno-timescale -o $@ -s tb_cd_adapter $(call cd_adapter_cfg_pflags,$*,tb_cd_adapter) \
	  tb/cd/tb_cd_adapter.v $(CD_RTL)

.PHONY: sim-cd test-cd-sim
sim-cd: $(BUILD)/tb/cd-adapter-vectors $(foreach v,$(CD_TB_SETS),$(BUILD)/tb/tb_cd_adapter_$(v).vvp)
	@set -e; for v in $(CD_TB_SETS); do \
	  set -- $$(echo $$v | tr _ ' '); \
	  $(BUILD)/tb/cd-adapter-vectors --max-gpus $$1 --aq $$2 --dq $$3 --scenarios $(CD_SIM_SCENARIOS) \
	    --cycles $(CD_SIM_CYCLES) --seed $(CD_SIM_SEED) -o $(BUILD)/tb/cd_adapter_$$v.hex; \
	  vvp -n $(BUILD)/tb/tb_cd_adapter_$$v.vvp +vectors=$(BUILD)/tb/cd_adapter_$$v.hex \
	    +nrec=$$(wc -l < $(BUILD)/tb/cd_adapter_$$v.hex) +vseed=$(CD_SIM_SEED) | tee $(BUILD)/tb/cd_adapter_$$v.log; \
	  grep -q '^PASS' $(BUILD)/tb/cd_adapter_$$v.log; \
	done

# sim-cd-cfg (make test, docs/configurations.md "Coverage"): the same testbench at the configuration-coverage builds
# of defs/cfg_cd_adapter.tbl (use tb-cfg: the deepest queues, MAX_GPUS 2, 3, 63), shorter runs.
CD_TB_CFG_SETS ?= $(CD_ADAPTER_CFG_USE_tb-cfg)
CD_SIM_CFG_SCENARIOS ?= 4
CD_SIM_CFG_CYCLES ?= 1500
.PHONY: sim-cd-cfg
sim-cd-cfg: $(BUILD)/tb/cd-adapter-vectors $(foreach v,$(CD_TB_CFG_SETS),$(BUILD)/tb/tb_cd_adapter_$(v).vvp)
	@set -e; for v in $(CD_TB_CFG_SETS); do \
	  set -- $$(echo $$v | tr _ ' '); \
	  $(BUILD)/tb/cd-adapter-vectors --max-gpus $$1 --aq $$2 --dq $$3 --scenarios $(CD_SIM_CFG_SCENARIOS) \
	    --cycles $(CD_SIM_CFG_CYCLES) --seed $(CD_SIM_SEED) -o $(BUILD)/tb/cd_adapter_cfg_$$v.hex > /dev/null; \
	  vvp -n $(BUILD)/tb/tb_cd_adapter_$$v.vvp +vectors=$(BUILD)/tb/cd_adapter_cfg_$$v.hex \
	    +nrec=$$(wc -l < $(BUILD)/tb/cd_adapter_cfg_$$v.hex) +vseed=$(CD_SIM_SEED) > $(BUILD)/tb/cd_adapter_cfg_$$v.log 2>&1 || true; \
	  if grep -q '^PASS' $(BUILD)/tb/cd_adapter_cfg_$$v.log; then echo "sim-cd-cfg $$v: $$(grep -m1 '^PASS' $(BUILD)/tb/cd_adapter_cfg_$$v.log)"; \
	  else tail -20 $(BUILD)/tb/cd_adapter_cfg_$$v.log; echo "sim-cd-cfg: FAIL at $$v; reproduce: make sim-cd-cfg CD_TB_CFG_SETS=$$v"; exit 1; fi; \
	done
TEST_TARGETS += sim-cd-cfg

# The testbench must catch a wrong beat and a wrong handshake: flip one expected pe_prim_id bit of a cycle with
# pe_valid, and one expected p2g_ready, and expect FAIL both times.
test-cd-sim: sim-cd
	@set -e; f=$(BUILD)/tb/cd_adapter_16_4_2.hex; \
	for what in pe_prim_id p2g_ready; do \
	  $(PYTHON) -c "import sys; w=sys.argv[2]; L=open(sys.argv[1]).read().split(); \
	    sel=[i for i,l in enumerate(L) if l[0]=='2' and ((int(l,16)>>150)&1 if w=='pe_prim_id' else 1)]; \
	    i=sel[len(sel)//2]; v=int(L[i],16) ^ (1<<110 if w=='pe_prim_id' else 1<<151); L[i]='%080x'%v; \
	    open(sys.argv[1]+'.bad','w').write('\n'.join(L)+'\n')" $$f $$what; \
	  vvp -n $(BUILD)/tb/tb_cd_adapter_16_4_2.vvp +vectors=$$f.bad +nrec=$$(wc -l < $$f.bad) > $$f.bad.log 2>&1 || true; \
	  if grep -q '^FAIL' $$f.bad.log && grep -q "$$what DUT" $$f.bad.log && ! grep -q '^PASS' $$f.bad.log; then \
	    echo "test-cd-sim: corrupted expected $$what caught: $$(grep -m1 "$$what DUT" $$f.bad.log)"; \
	  else echo "test-cd-sim: FAIL: the testbench accepted a corrupted expected $$what"; exit 1; fi; \
	done
TEST_TARGETS += test-cd-sim
