# Synthesis flows (docs/synthesis.md): Yosys generic, OSU 0.18 um standard cells + OpenSTA, iCE40 + nextpnr.
#
# A unit registers itself with ONE line at the end of this file (this file is included after p2g.mk/pe.mk/
# simt.mk, so the template exists only from here on):
#   $(eval $(call SYNTH_UNIT,<name>,<top module>,<rtl files>,<parameter sets>,<sdc>[,<clock port, default clk_i>]))
# <parameter sets>: space-separated; each NAME=VALUE[:NAME=VALUE...], or "default" for the RTL's defaults.
# It defines, per parameter set P (tag: '=' dropped, ':' -> '_', e.g. MAX_GPUS16_ROWS2):
#   $(SYNTH_OUT)/<top>-<tag>/...      logs, netlists, reports, the exact commands (*.cmd)
#   $(SYNTH_OUT)/<top>-<tag>.json     the results (scripts/synth_report.py result)
#   synth-<name>                      all parameter sets of the unit; appended to SYNTH_TARGETS
# `make synth` then writes $(SYNTH_OUT)/summary.md, the table that docs/synthesis.md carries.
# Everything runs under `nice`; seeds are independent targets, so `make -j2 synth` runs two at once.

SYNTH_OUT          ?= out/synth
YOSYS              ?= yosys
STA                ?= sta
NEXTPNR            ?= nextpnr-ice40
SYNTH_OSU_LIB      ?= /usr/share/qflow/tech/osu018/osu018_stdcells.lib
SYNTH_OSU_CONSTR   ?= constraints/osu018_abc.constr
SYNTH_ICE40_DEVICE ?= hx8k
SYNTH_ICE40_PACKAGE ?= ct256
SYNTH_ICE40_FREQ   ?= 25
SYNTH_SEEDS        ?= 1 2 3 4 5
SYNTH_FLOW         := scripts/synth_flow.sh
SYNTH_REPORT       := scripts/synth_report.py
SYNTH_ENV           = YOSYS=$(YOSYS) STA=$(STA) NEXTPNR=$(NEXTPNR) PYTHON=$(PYTHON) LIB=$(SYNTH_OSU_LIB) \
                      CONSTR=$(SYNTH_OSU_CONSTR) ICE40_DEVICE=$(SYNTH_ICE40_DEVICE) \
                      ICE40_PACKAGE=$(SYNTH_ICE40_PACKAGE) ICE40_FREQ=$(SYNTH_ICE40_FREQ)
SYNTH_RESULTS      :=

synth_tag = $(subst :,_,$(subst =,,$1))

# SYNTH_PSET(name, top, files, pset, sdc, dir[, clock port]): the rules for one parameter set, output in dir
# (+ dir.json). The clock port (default clk_i) is what the iCE40 wrapper drives from its clock pin.
define SYNTH_PSET
$(6)/generic.stat: $(3) $(SYNTH_FLOW) scripts/synth_lib.sh
	$(SYNTH_ENV) $(SYNTH_FLOW) generic $$(@D) $(2) $(4) $(3)

$(6)/osu.stat: $(3) $(5) $(SYNTH_OSU_CONSTR) $(SYNTH_FLOW) scripts/synth_lib.sh
	$(SYNTH_ENV) SDC=$(5) $(SYNTH_FLOW) osu $$(@D) $(2) $(4) $(3)

$(6)/sta.log: $(6)/osu.stat $(5) scripts/synth_sta.tcl
	$(SYNTH_ENV) SDC=$(5) $(SYNTH_FLOW) sta $$(@D) $(2)

$(6)/ice40.json: $(3) $(SYNTH_FLOW) scripts/synth_lib.sh scripts/synth_wrap.py
	$(SYNTH_ENV) CLOCK=$(or $(7),clk_i) $(SYNTH_FLOW) ice40 $$(@D) $(2) $(4) $(3)

$(foreach s,$(SYNTH_SEEDS),$(6)/pnr-seed$(s).status): \
  $(6)/pnr-seed%.status: $(6)/ice40.json
	$(SYNTH_ENV) $(SYNTH_FLOW) pnr $$(@D) $$*

$(6).json: $(addprefix $(6)/,generic.stat sta.log \
    $(foreach s,$(SYNTH_SEEDS),pnr-seed$(s).status)) $(SYNTH_REPORT) scripts/synth_logs.py
	$(PYTHON) $(SYNTH_REPORT) result --name $(1) --top $(2) --params $(4) --dir $(6) \
	  --lib $(SYNTH_OSU_LIB) --sdc $(5) --seeds "$(SYNTH_SEEDS)" --device $(SYNTH_ICE40_DEVICE) \
	  --package $(SYNTH_ICE40_PACKAGE) --freq $(SYNTH_ICE40_FREQ) --out $$@

synth-$(1): $(6).json
SYNTH_RESULTS += $(6).json
endef

# SYNTH_UNIT(name, top, files, psets, sdc[, clock port]): every parameter set of a unit under $(SYNTH_OUT).
define SYNTH_UNIT
.PHONY: synth-$(1)
$(foreach p,$(4),$(eval $(call SYNTH_PSET,$(1),$(2),$(3),$(p),$(5),$(SYNTH_OUT)/$(2)-$(call synth_tag,$(p)),$(6))))
SYNTH_TARGETS += synth-$(1)
SYNTH_SAMPLE_$(1) := $(SYNTH_OUT)/$(2)-$(call synth_tag,$(firstword $(4))).json
endef

# ---------------------------------------------------------------------------------------------- units
# P2G mapper: the default build and the 64-GPU build (override on the command line, e.g.
#   make synth-p2g P2G_SYNTH_PARAMS="MAX_GPUS=32:ROWS=2"
P2G_SYNTH_PARAMS ?= MAX_GPUS=16:ROWS=2 MAX_GPUS=64:ROWS=4
$(eval $(call SYNTH_UNIT,p2g,p2g_mapper,$(P2G_RTL),$(P2G_SYNTH_PARAMS),constraints/p2g_mapper.sdc))
# P P2G mappers merged in order (rtl/p2g_merge.v; docs/p2g.md section 6): the 4-triangle/cycle front end.
P2G_MERGE_SYNTH_PARAMS ?= P=4:MAX_GPUS=16:ROWS=2
$(eval $(call SYNTH_UNIT,p2g-merge,p2g_merge,$(P2G_MERGE_RTL),$(P2G_MERGE_SYNTH_PARAMS),constraints/p2g_merge.sdc))

# Primitive exchanger: 16 and 64 GPUs at the default queue depths (LQ_DEPTH = RQ_DEPTH = 8). The generated
# flit header is listed as a file: synth_flow.sh turns *.vh into an include path.
PE_SYNTH_PARAMS ?= MAX_GPUS=16 MAX_GPUS=64
$(eval $(call SYNTH_UNIT,pe,pe_exchanger,$(PE_RTL) $(PE_VH),$(PE_SYNTH_PARAMS),constraints/pe_exchanger.sdc))

# One GPU's C-PD datapath (docs/cd-unit.md): the P2G -> PE adapter alone (default depths, 16 GPUs), and the
# unit top (P2G + adapter + PE) at 16 and 64 GPUs. The iCE40 wrapper leaves the top's observation outputs
# (obs_*, the lockstep's view of the internal handshakes) open: they add no logic.
CD_ADAPTER_SYNTH_PARAMS ?= default
CD_UNIT_SYNTH_PARAMS ?= MAX_GPUS=16:ROWS=2 MAX_GPUS=64:ROWS=4
$(eval $(call SYNTH_UNIT,cd-adapter,cd_adapter,$(CD_RTL),$(CD_ADAPTER_SYNTH_PARAMS),constraints/cd_adapter.sdc))
$(eval $(call SYNTH_UNIT,cd-unit,cd_unit,$(CD_UNIT_RTL) $(PE_VH),$(CD_UNIT_SYNTH_PARAMS),constraints/cd_unit.sdc))
$(SYNTH_OUT)/cd_unit-%/ice40.json: export WRAP_DROP := obs_*

# ---------------------------------------------------------------------------------------------- summary
# Runs after every unit's results (it depends on all of them); prints the table and writes summary.md.
.PHONY: synth-summary
synth-summary: $(SYNTH_RESULTS)
	$(PYTHON) $(SYNTH_REPORT) table $^ | tee $(SYNTH_OUT)/summary.md
SYNTH_TARGETS += synth-summary

# ---------------------------------------------------------------------------------------------- tests
# test-synth-p2g (make test, ~5 s CPU): the default P2G build through Yosys generic synthesis (check -assert: no
# combinational loop, no undriven or multiply-driven net; no latch; cells and flip-flops present), plus a
# self-test that the latch assertion really fires, on a 4-line latch (tests/synth/latch.v).
# test-long-synth-p2g (make test-long): the same, and the OSU flow + OpenSTA on it (nonzero area, only liberty
# cells, a finite critical path): the full flows run in make synth (synth-p2g, both parameter sets).
SYNTH_TEST_DIR := $(BUILD)/synth-test
$(eval $(call SYNTH_PSET,p2g-test,p2g_mapper,$(P2G_RTL),default,constraints/p2g_mapper.sdc,$(SYNTH_TEST_DIR)/p2g_mapper-default))

# $(1): its own work directory under $(SYNTH_TEST_DIR) (test and test-long may run at once)
define SYNTH_LATCH_SELFTEST
	@if $(SYNTH_ENV) $(SYNTH_FLOW) generic $(SYNTH_TEST_DIR)/$(1) synth_latch default tests/synth/latch.v \
	    >$(SYNTH_TEST_DIR)/$(1).out 2>&1; then \
	  echo "FAIL: the no-latch assertion passed on tests/synth/latch.v (it holds a latch)"; \
	  echo "  reproduce: $(SYNTH_FLOW) generic $(SYNTH_TEST_DIR)/$(1) synth_latch default tests/synth/latch.v"; exit 1; \
	elif ! grep -q 'Assertion failed: selection is not empty' $(SYNTH_TEST_DIR)/$(1)/generic.log; then \
	  echo "FAIL: synthesis of tests/synth/latch.v failed, but not on the latch assertion:"; \
	  tail -5 $(SYNTH_TEST_DIR)/$(1)/generic.log; exit 1; \
	fi
endef

.PHONY: test-synth-p2g test-long-synth-p2g
test-synth-p2g: $(SYNTH_TEST_DIR)/p2g_mapper-default/generic.stat
	@$(PYTHON) $(SYNTH_REPORT) check --generic-only --dir $(SYNTH_TEST_DIR)/p2g_mapper-default --lib $(SYNTH_OSU_LIB)
	$(call SYNTH_LATCH_SELFTEST,latch)
	@echo "test-synth-p2g: generic check -assert, no latch: OK; latch detector fires: OK (OSU + STA: make test-long-synth-p2g)"
TEST_TARGETS += test-synth-p2g

test-long-synth-p2g: $(SYNTH_TEST_DIR)/p2g_mapper-default/generic.stat $(SYNTH_TEST_DIR)/p2g_mapper-default/sta.log
	@$(PYTHON) $(SYNTH_REPORT) check --dir $(SYNTH_TEST_DIR)/p2g_mapper-default --lib $(SYNTH_OSU_LIB)
	$(call SYNTH_LATCH_SELFTEST,latch-long)
	@echo "test-long-synth-p2g: generic check -assert, no latch, OSU area and STA: OK; latch detector fires: OK"
test-long: test-long-synth-p2g

# SIMT lane datapaths (mk/simt_fpu.mk, docs/simt-fpu.md): the default latency (every pipeline boundary a
# register), the target of the 200 MHz goal. Override e.g. make synth-simt-fpu SIMT_FPU_SYNTH_PARAMS="LAT=3".
SIMT_FPU_SYNTH_PARAMS ?= default
SIMT_SFU_SYNTH_PARAMS ?= default
$(eval $(call SYNTH_UNIT,simt-fpu,simt_fpu,$(BUILD)/gen/isa_defs.vh rtl/simt_fp_fn.vh $(SIMT_FPU_RTL),$(SIMT_FPU_SYNTH_PARAMS),constraints/simt_fpu.sdc))
$(eval $(call SYNTH_UNIT,simt-sfu,simt_sfu,$(BUILD)/gen/isa_defs.vh rtl/simt_fp_fn.vh $(SIMT_SFU_RTL),$(SIMT_SFU_SYNTH_PARAMS),constraints/simt_sfu.sdc))
# the SFU reads its tables with $$readmemh at synthesis time
$(foreach p,$(SIMT_SFU_SYNTH_PARAMS),$(addprefix $(SYNTH_OUT)/simt_sfu-$(call synth_tag,$(p))/,generic.stat osu.stat ice40.json)): $(ISA_SFU_HEX)

# ---------------------------------------------------------------------------------------------- regression gate
# make synth-check (docs/synthesis.md "Regression gate"; in make test-long): the units of SYNTH_CHECK_UNITS at their
# sample configuration (the first of their parameter sets) through the full flows, in their own directory
# (SYNTH_CHECK_OUT) with the nextpnr seeds SYNTH_CHECK_SEEDS, then the OSU018 area and Fmax and the iCE40 LCs
# and median Fmax compared with tests/synth/baseline.tsv: more than SYNTH_CHECK_TOL percent away in either
# direction fails (a gain means the table is stale), printing both rows and the commands that reproduce and
# that accept (make synth-baseline, in the commit that moves the number). Not in make test: the flows of one
# unit take minutes of CPU (docs/synthesis.md).
SYNTH_BASELINE    ?= tests/synth/baseline.tsv
SYNTH_CHECK_TOL   ?= 3
SYNTH_CHECK_UNITS ?= pe p2g
SYNTH_CHECK_OUT   ?= $(BUILD)/synth-check
SYNTH_CHECK_SEEDS ?= 1 2
SYNTH_CHECK_JSONS  = $(foreach u,$(SYNTH_CHECK_UNITS),$(or $(SYNTH_SAMPLE_$(u)),$(error synth-check: no unit $(u) in mk/synth.mk)))
SYNTH_CHECK_MAKE   = $(MAKE) --no-print-directory SYNTH_OUT=$(SYNTH_CHECK_OUT) SYNTH_SEEDS="$(SYNTH_CHECK_SEEDS)"
.PHONY: synth-check synth-baseline synth-check-run synth-baseline-run
synth-check:
	+$(SYNTH_CHECK_MAKE) synth-check-run
synth-baseline:
	+$(SYNTH_CHECK_MAKE) synth-baseline-run
synth-check-run: $(SYNTH_CHECK_JSONS)
	$(PYTHON) scripts/synth_check.py check --baseline $(SYNTH_BASELINE) --tol $(SYNTH_CHECK_TOL) \
	  --reproduce "make synth-check SYNTH_CHECK_UNITS='$(SYNTH_CHECK_UNITS)'" $^
synth-baseline-run: $(SYNTH_CHECK_JSONS)
	$(PYTHON) scripts/synth_check.py update --baseline $(SYNTH_BASELINE) $^
test-long: synth-check
