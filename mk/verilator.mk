# Verilator builds: one macro for every verilated model (the lockstep harnesses of mk/p2g.mk, pe.mk, simt.mk,
# simt_fpu.mk, system.mk and their coverage and SystemC builds). Included by the Makefile before the other mk/*.mk.
#
#   $(eval $(call VL_MODEL,<mdir>,<binary>,<top>,<flavour>,<verilator options>,<RTL + .vlt files>,<-CFLAGS>,
#                 <shim .cpp>,<link inputs>,<prerequisites>,<model make variables>,<link libraries>[,<objs prereqs>]))
#
# builds <binary> in three steps, each its own rule:
#   1. <mdir>/V<top>.mk     verilate: `verilator --cc|--sc --exe` (no --build) with the flavour's options, -Wall and
#                           <verilator options>; depends on the RTL files, the shim sources and <prerequisites>
#   2. <mdir>/link.objs     compile the model and the shim: `$(MAKE) -C <mdir> -f sim/common/vl_model.mk` with
#                           <model make variables> (OPT_FAST=... OPT_GLOBAL=... OPT_SLOW=...), a sub-make under
#                           make's jobserver (so `make -jN` limits it); it does not compile the Verilator runtime,
#                           tracks the model's header dependencies itself, and rewrites link.objs only when an
#                           object changed (so an up-to-date model does not relink)
#   3. <binary>             link the model, the shared runtime of the flavour, <link inputs> (harness objects,
#                           libgpupd.a) and <link libraries>; a change of the C library or the harness relinks only
# The Verilator runtime (verilated.o, verilated_threads.o and verilated_fst_c.o or verilated_cov.o) is compiled once
# per flavour in $(VLRT)/<flavour>/ (sim/common/vl_runtime.mk) and linked into every model of that flavour:
#   cc   no tracing (--threads N models too: the runtime is the same)
#   fst  --trace-fst
#   cov  --coverage-line --coverage-toggle
#   sc   SystemC (--sc), no tracing
# Steps 1 and 2 write their output to <mdir>/verilate.log and <mdir>/build.log (the last 30 lines on failure).

VERILATOR ?= verilator
# evaluated once, when first used
VERILATOR_ROOT = $(eval VERILATOR_ROOT := $$(shell $(VERILATOR) --getenv VERILATOR_ROOT))$(VERILATOR_ROOT)
VLRT      := $(BUILD)/vlrt
VLRT_OPT  ?= -O2
# the model's optimisation (make variables of Verilator's makefile) unless a build names its own
VL_OPT_MK := OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1
SYSTEMC_ENV := SYSTEMC_INCLUDE=/usr/include SYSTEMC_LIBDIR=/usr/lib/x86_64-linux-gnu

VL_MODE_cc  := --cc
VL_MODE_fst := --cc --trace-fst
VL_MODE_cov := --cc --coverage-line --coverage-toggle
VL_MODE_sc  := --sc
VL_ENV_sc   := $(SYSTEMC_ENV)
VLRT_VM_cc  := VM_SC=0 VM_TRACE=0 VM_TRACE_FST=0 VM_COVERAGE=0
VLRT_VM_fst := VM_SC=0 VM_TRACE=1 VM_TRACE_FST=1 VM_COVERAGE=0
VLRT_VM_cov := VM_SC=0 VM_TRACE=0 VM_TRACE_FST=0 VM_COVERAGE=1
VLRT_VM_sc  := VM_SC=1 VM_TRACE=0 VM_TRACE_FST=0 VM_COVERAGE=0
VLRT_FLAVOURS := cc fst cov sc

# A recipe line that names $(MAKE) runs even under `make -n`; before the model directory exists (its mkdir or
# Verilator step is only printed under -n) such a line stops there instead of failing in the sub-make.
# $(call vl_skip_n,<file the sub-make needs>)
vl_skip_n = [ -e $(1) ] || { echo "(not built yet: $(1))"; exit 0; };

# link.objs / runtime.objs are remade by their sub-makes (which know the dependencies); FORCE runs them every time
.PHONY: FORCE
FORCE:

$(foreach f,$(VLRT_FLAVOURS),$(VLRT)/$(f)/runtime.objs): $(VLRT)/%/runtime.objs: sim/common/vl_runtime.mk FORCE
	@mkdir -p $(@D)
	@$(call vl_skip_n,$(@D)) $(VL_ENV_$*) $(MAKE) --no-print-directory -C $(@D) -f $(abspath sim/common/vl_runtime.mk) VERILATOR_ROOT=$(VERILATOR_ROOT) \
	  $(VLRT_VM_$*) OPT_GLOBAL="$(VLRT_OPT)" runtime.objs >$(@D)/build.log 2>&1 || { tail -30 $(@D)/build.log; exit 1; }

# the link command of step 3 (also used by mk/simt.mk's profile-training link): $(1) mdir, $(2) flavour,
# $(3) link inputs, $(4) link libraries (the objects' paths in link.objs are relative to the model directory)
vl_link_cmd = $$$$(sed 's\#[^ ][^ ]*\#$(1)/&\#g' $(1)/link.objs) $$$$(cat $(VLRT)/$(2)/runtime.objs) $(3) $$$$(cat $(1)/link.libs) $(4)

define VL_MODEL
$(1)/V$(3).mk: $(6) $(8) $(10) mk/verilator.mk
	@mkdir -p $$(@D) && rm -f $$@
	$(VL_ENV_$(4)) $(VERILATOR) $(VL_MODE_$(4)) --exe -Wall $(5) --top-module $(3) -Mdir $(1) -o $(notdir $(2)) \
	  -CFLAGS "$(7)" $(6) $(abspath $(8)) >$(1)/verilate.log 2>&1 || { tail -30 $(1)/verilate.log; exit 1; }

$(1)/link.objs: $(1)/V$(3).mk sim/common/vl_model.mk FORCE $(13) | $(GEN_HDRS)
	@$(call vl_skip_n,$(1)/V$(3).mk) $(VL_ENV_$(4)) $$(MAKE) --no-print-directory -C $(1) -f $(abspath sim/common/vl_model.mk) VM_MK=V$(3).mk $(11) link.objs \
	  >$(1)/build.log 2>&1 || { tail -30 $(1)/build.log; exit 1; }

$(2): $(1)/link.objs $(VLRT)/$(4)/runtime.objs $(9)
	$$(CXX) -o $$@.tmp $(call vl_link_cmd,$(1),$(4),$(9),$(12)) && mv $$@.tmp $$@
endef
