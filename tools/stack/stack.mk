# SPDX-License-Identifier: MIT
# tools/stack/stack.mk: static stack bounds of the public functions, and the test that checks them.
# Included at the end of the top-level Makefile (it uses LIB_SRC, LIB_HDR and mk/targets.mk).
#
#   make stack     docs/stack.md: the worst-case stack depth of every function of lib/mbp.h on the
#                  Cortex-M0 (microbit, config m0) and the M4 (mps2-an386, config 2d_float), next to
#                  the peak that stack painting measures under QEMU
#
# With TARGET=<machine>, lib/ and the port are compiled once more with that machine's own flags plus
# -fstack-usage -fcallgraph-info=su into $(CROSS_BUILD)/stack/, and tools/stack/report.sh turns that
# into bounds.txt and mbp_stack_bound.h. tests/test_stack.c includes the header: on every QEMU
# machine it paints the stack, runs the public functions and fails when a measured peak is above
# its bound, so the test image cannot be built without the bound and a wrong bound fails the test.

STACK_TARGETS := microbit mps2-an386
# A machine's configuration, from its target.mk
stack_config = $(shell sed -n 's/^TARGET_CONFIG *:= *//p' targets/$(1)/target.mk)

ifneq ($(CROSS_BUILD),)
STACK_DIR    := $(CROSS_BUILD)/stack
STACK_SRC    := $(LIB_SRC) port/cortex-m/mbp_port_cm.c
STACK_OBJS   := $(patsubst %.c,$(STACK_DIR)/obj/%.o,$(STACK_SRC))
STACK_LIBGCC  = $(shell $(CROSS_CC) $(TARGET_CPU_FLAGS) -print-libgcc-file-name)

$(STACK_DIR)/obj/%.o: %.c $(LIB_HDR)
	@mkdir -p $(@D)
	@$(CROSS_CC) $(CROSS_CFLAGS) -fstack-usage -fcallgraph-info=su -c $< -o $@

$(STACK_DIR)/bounds.txt: $(STACK_OBJS) tools/stack/report.sh
	@tools/stack/report.sh $(STACK_DIR)/obj $(STACK_LIBGCC) "$(TARGET) $(MBP_CONFIG)" >$@.tmp
	@mv $@.tmp $@

# mbp_init is a macro; its bound is the symbol behind it (mbp_init_2d_fixed, ...).
$(STACK_DIR)/mbp_stack_bound.h: $(STACK_DIR)/bounds.txt
	@{ echo '/* Generated from $< by tools/stack/stack.mk: do not edit. */'; \
	   echo '#define MBP_STACK_TARGET "$(TARGET) $(MBP_CONFIG)"'; \
	   awk '$$2 != "inline" { n = $$1; sub(/^mbp_init_[23]d_(fixed|float)$$/, "mbp_init", n); \
	        printf "#define MBP_STACK_BOUND_%s %du\n", n, $$2 }' $<; } >$@

# The stack test needs the bound of this machine and configuration.
$(CROSS_OBJDIR)/tests/test_stack.o: $(STACK_DIR)/mbp_stack_bound.h
$(CROSS_OBJDIR)/tests/test_stack.o: CROSS_CFLAGS += -I$(STACK_DIR)

# The same test, printing every figure (TEST_STACK_REPORT), for docs/stack.md.
$(STACK_DIR)/test_stack_report.o: tests/test_stack.c $(STACK_DIR)/mbp_stack_bound.h $(LIB_HDR) \
                                  $(wildcard tests/*.h)
	@$(CROSS_CC) $(CROSS_CFLAGS) -I$(STACK_DIR) -DTEST_STACK_REPORT=1 -c $< -o $@

$(STACK_DIR)/paint.elf: $(CROSS_BUILD)/split/test_stack/mbp_test.o $(STACK_DIR)/test_stack_report.o \
                        $(call cross_objs,$(LIB_SRC)) $(CROSS_PORT_OBJS)
	$(cross_link)

.PHONY: stack-target
stack-target: $(STACK_DIR)/bounds.txt $(STACK_DIR)/paint.elf
	@$(call cross_run,$(STACK_DIR)/paint.elf,120) >$(STACK_DIR)/measured.txt || \
	  { cat $(STACK_DIR)/measured.txt; exit 1; }
endif

.PHONY: stack
stack:
	@for t in $(STACK_TARGETS); do $(MAKE) --no-print-directory -s TARGET=$$t stack-target || exit 1; done
	@tools/stack/doc.sh $(foreach t,$(STACK_TARGETS),build/$(t)/$(call stack_config,$(t))/stack) >docs/stack.md.tmp
	@mv docs/stack.md.tmp docs/stack.md
	@echo "docs/stack.md"
