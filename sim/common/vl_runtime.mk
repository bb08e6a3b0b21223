# Run by mk/verilator.mk in $(BUILD)/vlrt/<flavour>/: compiles the Verilator runtime of one flavour (verilated.o,
# verilated_threads.o, and verilated_fst_c.o with FST tracing or verilated_cov.o with coverage) with the flags of
# Verilator's own verilated.mk, and lists the objects (absolute paths) in runtime.objs, rewritten only when an
# object changed. Every model of the flavour links these objects (mk/verilator.mk, VL_MODEL).
# usage: make -C DIR -f sim/common/vl_runtime.mk VERILATOR_ROOT=.. VM_SC=0|1 VM_TRACE=0|1 VM_TRACE_FST=0|1
#             VM_COVERAGE=0|1 [OPT_GLOBAL=..] runtime.objs
# (verilated.mk makes the runtime objects depend on $(VM_PREFIX).mk: this file)
VM_PREFIX := $(basename $(abspath $(lastword $(MAKEFILE_LIST))))
VM_PROFC := 0
VM_TRACE_VCD := 0
VM_TIMING := 0
VM_PARALLEL_BUILDS := 0
VM_GLOBAL_FAST := verilated verilated_threads $(if $(filter 1,$(VM_TRACE_FST)),verilated_fst_c) $(if $(filter 1,$(VM_COVERAGE)),verilated_cov)
VM_GLOBAL_SLOW :=
include $(VERILATOR_ROOT)/include/verilated.mk

runtime.objs: $(VK_GLOBAL_OBJS)
	@echo $(addprefix $(CURDIR)/,$(VK_GLOBAL_OBJS)) > $@.tmp && mv $@.tmp $@
