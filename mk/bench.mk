# SPDX-License-Identifier: MIT
# mk/bench.mk: make bench, make size, make demo. Included at the end of the top-level Makefile
# (it uses LIB_SRC, LIB_HDR, WARN and mk/targets.mk from there). docs/bench.md explains the
# numbers; none of this is a test and nothing here asserts a speed.
#
#   make bench                   every compiled backend, every scene, on the host (n = 16..4096,
#                                and the recorded scenes) and under QEMU on mps2-an386 (n = 64,
#                                256, 1024, and a cut-down of the recorded scenes) and the
#                                microbit (n = 32); writes build/bench.csv, prints a table and,
#                                with gnuplot, build/bench.svg (time per frame against n)
#   make bench TARGET=host       one platform only (or TARGET=mps2-an386, TARGET=microbit)
#   make bench SCENE=file        replays a recorded scene on the host (format: docs/bench.md);
#                                writes build/bench-scene.csv
#   make scenes                  records the scenes make bench replays (pyramid, drum, impact)
#                                from Box2D: build/scenes/*.scene
#   make bench-replay-m4         only their cut-down on mps2-an386 (QEMU; part of make bench):
#                                appends to build/bench/mps2-an386.rows
#   make size                    flash and RAM per backend, Cortex-M0 and M4: build/size.csv
#   make profile-m4 [PROFILE_BACKEND=sap] [PROFILE_SCENE=sparse]
#                                instructions per frame of each function on mps2-an386 (QEMU's
#                                execution log): build/profile-<backend>-<scene>-<n>.txt
#   make bench-shapes            instructions per shape test on Cortex-M4 and M0 (QEMU) and the
#                                flash and RAM of each shape option; rewrites docs/shapes.md's
#                                figures (tools/bench/shapes.sh)
#   make demo [BACKEND=sap] [TARGET=host]
#                                the example of examples/demo/ on mps2-an386 (or the host);
#                                writes build/demo.svg. Installs arm-none-eabi-gcc and
#                                qemu-system-arm first when they are missing (tools/deps.sh cross)

BENCH_HOST_NS ?= 16 64 256 1024 4096
BENCH_M4_NS   ?= 64 256 1024
BENCH_M0_NS   ?= 32
# Cortex-M0 code at larger n: the microbit's 16 KB hold 32 bodies, so the same M0 build
# (-mcpu=cortex-m0, armv6-m) also runs on mps2-an385's 4 MB; -icount counts its instructions.
BENCH_M0BIG_NS ?= 256 1024
BENCH_QEMU_TIMEOUT ?= 600
# Measured frames per scene under QEMU, after 30 of warm-up (tools/bench/bench.c, docs/bench.md).
BENCH_QEMU_FRAMES ?= 100
BENCH_SRC := tools/bench/bench.c tools/bench/scene.c
BENCH_HDR := tools/bench/bench.h config/mbp_config_bench.h config/mbp_config_bench_m0.h
BENCH_HOST_CFLAGS := -std=c99 -O2 -g -ffp-contract=off $(WARN) -Ilib -Iport -Iconfig \
                     -Itools/bench -DBENCH_HOST -DBENCH_MAX_FRAMES=100000u
# Platforms make bench runs: TARGET alone when given.
BENCH_PLATFORMS := $(if $(TARGET),$(TARGET),host mps2-an386 microbit cortex-m0)
HAVE_CROSS = $(shell command -v arm-none-eabi-gcc >/dev/null 2>&1 && \
                     command -v qemu-system-arm >/dev/null 2>&1 && echo yes)

# ---- make bench ----

# One host program per n: the world's capacity is the scene's n, as a user would set it.
build/bench/host-%/bench: $(LIB_SRC) $(LIB_HDR) $(BENCH_SRC) $(BENCH_HDR) tools/bench/replay.c \
                          $(HOST_PORT_SRCS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_HOST_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_bench.h"' -DBENCH_N=$* \
	  $(LIB_SRC) $(BENCH_SRC) tools/bench/replay.c $(HOST_PORT_SRCS) -o $@

.PHONY: bench bench-platform-host bench-platform-mps2-an386 bench-platform-microbit \
        bench-platform-cortex-m0
ifeq ($(SCENE),)
bench:
	@mkdir -p build/bench
	@rm -f build/bench/*.rows
	@for p in $(BENCH_PLATFORMS); do \
	  $(MAKE) --no-print-directory -s TARGET= bench-platform-$$p || exit 1; \
	done
	@{ echo "backend,scene,n,platform,ns_per_frame,instr_per_frame,pairs_per_frame,ok,ram_bytes_per_body,worst_frame,move_per_body"; \
	   for p in $(BENCH_PLATFORMS); do cat build/bench/$$p.rows 2>/dev/null; done; } > build/bench.csv
	@tools/bench/commit.sh > build/bench.commit
	@tools/bench/table.sh build/bench.csv
	@echo "wrote build/bench.csv (commit $$(cat build/bench.commit))"
	@tools/bench/plot.sh build/bench.csv build/bench.svg
else
bench: build/bench/host-replay/bench
	@mkdir -p build/bench
	@echo "backend,scene,n,platform,ns_per_frame,instr_per_frame,pairs_per_frame,ok,ram_bytes_per_body,worst_frame,move_per_body" \
	  > build/bench-scene.csv
	@set -o pipefail; ./$< -s '$(SCENE)' | tools/bench/rows.sh >> build/bench-scene.csv
	@tools/bench/table.sh build/bench-scene.csv
	@echo "wrote build/bench-scene.csv"
endif

# A recorded scene can hold any number of bodies: this capacity bounds the distinct ids. The
# replay program is make bench's configuration with the grid's entries capped at their limit
# (tools/bench/peers/mbp_config_peers.h), so that it builds at 16384.
BENCH_REPLAY_N ?= 16384
build/bench/host-replay/bench: $(LIB_SRC) $(LIB_HDR) $(BENCH_SRC) $(BENCH_HDR) tools/bench/replay.c \
                               tools/bench/peers/mbp_config_peers.h $(HOST_PORT_SRCS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_HOST_CFLAGS) -Itools/bench/peers -DMBP_CONFIG_FILE='"mbp_config_peers.h"' \
	  -DBENCH_N=$(BENCH_REPLAY_N) $(LIB_SRC) $(BENCH_SRC) tools/bench/replay.c $(HOST_PORT_SRCS) -o $@

# ---- make test's guard that the bench programs build ----
# make test runs no bench, so an error that only the bench's configuration reaches (its
# capacities follow BENCH_N) would land unseen: this builds the host bench at its largest n, the
# host replay (16384 bodies) and the QEMU images at their largest n, runs make profile-m4 on a
# small scene (frames 2..4 of sap on static, 64 bodies: its program built twice, traced under
# QEMU), and fails when one does not build or the profile finds no instruction of the library.
.PHONY: test-bench-build
test-bench-build: build/bench/host-$(lastword $(BENCH_HOST_NS))/bench build/bench/host-replay/bench
	@$(MAKE) --no-print-directory -s TARGET=mps2-an386 BENCH_N=$(lastword $(BENCH_M4_NS)) \
	  BUILD_DIR=build/bench/n$(lastword $(BENCH_M4_NS)) MBP_CONFIG=bench bench-image
	@$(MAKE) --no-print-directory -s TARGET=microbit BENCH_N=$(lastword $(BENCH_M0_NS)) \
	  BUILD_DIR=build/bench/n$(lastword $(BENCH_M0_NS)) MBP_CONFIG=bench_m0 bench-image
	@mkdir -p build/profile && tools/bench/profile.sh sap static 64 2 4 build/profile/check.txt \
	  > build/profile/check.log
	@awk '$$1 == "LIBRARY" && $$2 > 0 { ok = 1 } END { exit !ok }' build/profile/check.txt || \
	  { echo "bench-build: make profile-m4 gave no library instructions (build/profile/check.txt)"; \
	    exit 1; }
	@echo "bench-build: 5 passed, 0 failed"

# ---- make profile-m4: where a frame's instructions go, function by function ----
# One backend on one generated scene on mps2-an386 (QEMU, one instruction a translation block,
# the execution log counted by address): instructions per frame of each function over frames
# PROFILE_FRAMES_FROM..PROFILE_FRAMES_TO (tools/bench/profile.sh, docs/bench.md). Backend and
# scene are named as in make bench's table.
PROFILE_BACKEND ?= sap
PROFILE_SCENE ?= sparse
PROFILE_N ?= 256
PROFILE_FRAMES_FROM ?= 30
PROFILE_FRAMES_TO ?= 60
.PHONY: profile-m4
profile-m4:
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "profile-m4: needs arm-none-eabi-gcc and qemu-system-arm (make deps)"; exit 1; fi
	@tools/bench/profile.sh $(PROFILE_BACKEND) $(PROFILE_SCENE) $(PROFILE_N) \
	  $(PROFILE_FRAMES_FROM) $(PROFILE_FRAMES_TO) \
	  build/profile-$(PROFILE_BACKEND)-$(PROFILE_SCENE)-$(PROFILE_N).txt

# ---- make scenes: the recorded scenes, from Box2D 2.4.1 (tools/bench/record/record.cpp) ----
# Made, not committed (26 MB compressed): Box2D is deterministic for one build, so Debian's
# libbox2d-dev gives the same files everywhere on x86-64. make bench replays them on the host.
BENCH_SCENES ?= pyramid drum impact
BENCH_SCENE_FILES := $(foreach s,$(BENCH_SCENES),build/scenes/$(s).scene)
build/scenes/record: tools/bench/record/record.cpp build/peers/deps.ok
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror $< -lbox2d -o $@
build/scenes/%.scene: build/scenes/record
	@echo "scenes: recording $* (Box2D)"
	@./build/scenes/record $* $@.tmp && mv $@.tmp $@
.PHONY: scenes
scenes: $(BENCH_SCENE_FILES)

# The recorded scenes, when they can be made: without libbox2d-dev (tools/deps.sh peers cannot
# install it) make bench skips them with this message instead of failing.
bench_scenes_or_skip = $(MAKE) --no-print-directory -s scenes > build/bench/scenes.log 2>&1 || { \
  echo "bench: $(1), recorded scenes: skipped, make scenes failed (it needs libbox2d-dev: \
tools/deps.sh peers): build/bench/scenes.log"; tail -3 build/bench/scenes.log; exit 0; }

bench-platform-host: $(foreach n,$(BENCH_HOST_NS),build/bench/host-$(n)/bench) \
                     build/bench/host-replay/bench
	@for n in $(BENCH_HOST_NS); do \
	  echo "bench: host, n=$$n"; \
	  set -o pipefail; ./build/bench/host-$$n/bench | tools/bench/rows.sh >> build/bench/host.rows || exit 1; \
	done
	@$(call bench_scenes_or_skip,host); for f in $(BENCH_SCENE_FILES); do \
	  echo "bench: host, recorded scene $$f"; \
	  set -o pipefail; ./build/bench/host-replay/bench -s $$f | tools/bench/rows.sh >> build/bench/host.rows || exit 1; \
	done

# A QEMU machine: one image per n, built by a sub-make in that machine's mode (below).
bench-platform-mps2-an386 bench-platform-microbit: bench-platform-%:
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "bench: $*: skipped (needs arm-none-eabi-gcc and qemu-system-arm: make deps)"; \
	else \
	  set -o pipefail; for n in $(if $(filter microbit,$*),$(BENCH_M0_NS),$(BENCH_M4_NS)); do \
	    echo "bench: $*, n=$$n (QEMU)"; \
	    if ! $(MAKE) --no-print-directory -s TARGET=$* BENCH_N=$$n BUILD_DIR=build/bench/n$$n \
	      MBP_CONFIG=$(if $(filter microbit,$*),bench_m0,bench) bench-image \
	      > build/bench/$*-n$$n.log 2>&1; then \
	      echo "bench: $*, n=$$n: skipped, the image does not build (RAM?): build/bench/$*-n$$n.log"; \
	      tail -3 build/bench/$*-n$$n.log; continue; \
	    fi; \
	    $(MAKE) --no-print-directory -s TARGET=$* BENCH_N=$$n BUILD_DIR=build/bench/n$$n \
	      MBP_CONFIG=$(if $(filter microbit,$*),bench_m0,bench) bench-run 2>&1 \
	      | tools/bench/rows.sh >> build/bench/$*.rows || exit 1; \
	  done; \
	fi
	@$(if $(filter mps2-an386,$*),$(MAKE) --no-print-directory -s bench-replay-m4)

# ---- the recorded scenes on the Cortex-M4 (mps2-an386, QEMU): a cut-down, built in ----
# The image reads no file: build/bench/scene2c (tools/bench/replay.c) turns each scene's first
# BENCH_M4_REPLAY_FRAMES measured frames (after frame 0) and at most BENCH_M4_REPLAY_BODIES of
# its bodies into a C table, build/bench/replay-<scene>/replay_table.h, compiled into that
# scene's image; its capacity is the cut's bodies. docs/bench.md gives the choice of bodies.
BENCH_M4_REPLAY_FRAMES ?= 60
BENCH_M4_REPLAY_BODIES ?= 2048
build/bench/scene2c: tools/bench/replay.c $(BENCH_HDR) tools/bench/peers/mbp_config_peers.h $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(BENCH_HOST_CFLAGS) -Itools/bench/peers -DMBP_CONFIG_FILE='"mbp_config_peers.h"' \
	  -DBENCH_N=$(BENCH_REPLAY_N) -DBENCH_SCENE2C $< -o $@

.PHONY: bench-replay-m4
bench-replay-m4:
	@mkdir -p build/bench
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "bench: mps2-an386, recorded scenes: skipped (needs arm-none-eabi-gcc and qemu-system-arm: make deps)"; \
	  exit 0; fi; \
	$(call bench_scenes_or_skip,mps2-an386); \
	$(MAKE) --no-print-directory -s build/bench/scene2c || exit 1; \
	set -o pipefail; for s in $(BENCH_SCENES); do \
	  d=build/bench/replay-$$s; mkdir -p $$d; \
	  ./build/bench/scene2c build/scenes/$$s.scene $(BENCH_M4_REPLAY_FRAMES) $(BENCH_M4_REPLAY_BODIES) \
	    > $$d/table.tmp || exit 1; \
	  if cmp -s $$d/table.tmp $$d/replay_table.h; then rm $$d/table.tmp; \
	  else mv $$d/table.tmp $$d/replay_table.h; fi; \
	  n=$$(sed -n 's/^#define REPLAY_BODIES \([0-9]*\)u$$/\1/p' $$d/replay_table.h); \
	  echo "bench: mps2-an386, recorded scene $$s: frame 0 and $(BENCH_M4_REPLAY_FRAMES) measured, $$n bodies (QEMU)"; \
	  flags="TARGET=mps2-an386 BENCH_N=$$n BUILD_DIR=$$d MBP_CONFIG=bench"; \
	  flags="$$flags BENCH_QEMU_FRAMES=$(BENCH_M4_REPLAY_FRAMES) BENCH_REPLAY_TABLE=$(CURDIR)/$$d/replay_table.h"; \
	  if ! $(MAKE) --no-print-directory -s $$flags bench-replay-image > $$d/build.log 2>&1; then \
	    echo "bench: mps2-an386, recorded scene $$s: skipped, the image does not build (RAM?): $$d/build.log"; \
	    tail -3 $$d/build.log; continue; \
	  fi; \
	  $(MAKE) --no-print-directory -s $$flags bench-replay-run 2>&1 \
	    | tools/bench/rows.sh >> build/bench/mps2-an386.rows || exit 1; \
	done

# Cortex-M0 code on mps2-an385 (see BENCH_M0BIG_NS): the M0's instruction set is a subset of
# the M3's, so the image runs there unchanged; the rows say "cortex-m0".
bench-platform-cortex-m0:
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "bench: cortex-m0: skipped (needs arm-none-eabi-gcc and qemu-system-arm: make deps)"; \
	else \
	  set -o pipefail; for n in $(BENCH_M0BIG_NS); do \
	    echo "bench: cortex-m0 code on mps2-an385, n=$$n (QEMU)"; \
	    flags="TARGET=mps2-an385 BENCH_N=$$n BUILD_DIR=build/bench/m0-n$$n MBP_CONFIG=bench_m0"; \
	    flags="$$flags BENCH_PLATFORM_NAME=cortex-m0"; \
	    if ! $(MAKE) --no-print-directory -s $$flags \
	      TARGET_CPU_FLAGS='-mcpu=cortex-m0 -mthumb -mfloat-abi=soft' bench-image \
	      > build/bench/cortex-m0-n$$n.log 2>&1; then \
	      echo "bench: cortex-m0, n=$$n: skipped, the image does not build: build/bench/cortex-m0-n$$n.log"; \
	      tail -3 build/bench/cortex-m0-n$$n.log; continue; \
	    fi; \
	    $(MAKE) --no-print-directory -s $$flags \
	      TARGET_CPU_FLAGS='-mcpu=cortex-m0 -mthumb -mfloat-abi=soft' bench-run 2>&1 \
	      | tools/bench/rows.sh >> build/bench/cortex-m0.rows || exit 1; \
	  done; \
	fi

# ---- make bench-shapes: the shape tests' cost and each shape option's flash (docs/shapes.md) ----

.PHONY: bench-shapes
bench-shapes:
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "bench-shapes: needs arm-none-eabi-gcc and qemu-system-arm (make deps)"; exit 1; fi
	@tools/bench/shapes.sh

# ---- make size ----

# deps-cross: arm-none-eabi-gcc and qemu-system-arm, installed when missing (tools/deps.sh), so
# that make demo and make size work on a fresh machine as make test does. A prerequisite, so it
# has run before HAVE_CROSS is looked at.
.PHONY: deps-cross
deps-cross:
	@tools/deps.sh cross

.PHONY: size size-platform
size: deps-cross
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "size: needs arm-none-eabi-gcc (make deps)"; exit 1; fi
	@mkdir -p build/size
	@echo "backend,target,config,flash_bytes,ram_bytes,bytes_per_body,bytes_per_pair,ram_bytes_bench,bytes_per_pair_no_events,bytes_per_body_alone" > build/size.csv
	@for t in microbit mps2-an386; do \
	  $(MAKE) --no-print-directory -s TARGET=$$t size-platform >> build/size.csv || exit 1; \
	done
	@tools/bench/size-table.sh build/size.csv
	@echo "wrote build/size.csv"

# ---- make demo ----

DEMO_TARGET  := $(if $(TARGET),$(TARGET),mps2-an386)
DEMO_NAME    := $(if $(BACKEND),$(BACKEND),default)
DEMO_BACKEND_FLAG = $(if $(BACKEND),-DDEMO_BACKEND=MBP_$(shell echo '$(BACKEND)' | tr a-z A-Z))
DEMO_SRC := examples/demo/demo.c examples/demo/svg.c
DEMO_HDR := examples/demo/svg.h

.PHONY: demo demo-image demo-run demo-check
demo-check:
	@[ -z "$(BACKEND)" ] || case " brute sweep sap grid hash hgrid tree quadtree " in *" $(BACKEND) "*) ;; \
	  *) echo "demo: BACKEND=$(BACKEND): use one of brute sweep sap grid hash hgrid tree quadtree"; exit 1;; esac
ifeq ($(DEMO_TARGET),host)
build/demo/host/demo-$(DEMO_NAME): $(LIB_SRC) $(LIB_HDR) $(DEMO_SRC) $(DEMO_HDR) $(HOST_PORT_SRCS)
	@mkdir -p $(@D)
	$(CC) -std=c99 -O2 -g $(WARN) -Ilib -Iport -Iconfig -Iexamples/demo \
	  -DMBP_CONFIG_FILE='"mbp_config_2d_float.h"' $(DEMO_BACKEND_FLAG) \
	  $(LIB_SRC) $(DEMO_SRC) $(HOST_PORT_SRCS) -o $@
demo: demo-check build/demo/host/demo-$(DEMO_NAME)
	@./build/demo/host/demo-$(DEMO_NAME) > build/demo.out; st=$$?; tools/bench/demo-out.sh build/demo.out build/demo.svg; exit $$st
else
demo: demo-check deps-cross
	@if [ "$(HAVE_CROSS)" != yes ]; then \
	  echo "demo: needs arm-none-eabi-gcc and qemu-system-arm (make deps), or TARGET=host"; \
	  exit 1; fi
	@$(MAKE) --no-print-directory -s TARGET=$(DEMO_TARGET) MBP_CONFIG=2d_float \
	  BUILD_DIR=build/demo demo-image
	@$(MAKE) --no-print-directory -s TARGET=$(DEMO_TARGET) MBP_CONFIG=2d_float \
	  BUILD_DIR=build/demo demo-run > build/demo.out; st=$$?; \
	  tools/bench/demo-out.sh build/demo.out build/demo.svg; exit $$st
endif

# ---- inside a sub-make for one QEMU machine (TARGET set: mk/targets.mk's variables) ----
ifneq ($(filter-out host cortex-m0,$(TARGET)),)

BENCH_PLATFORM_NAME ?= $(TARGET)
ifneq ($(BENCH_N),)
CROSS_CFLAGS += -Itools/bench -DBENCH_N=$(BENCH_N) -DBENCH_PLATFORM='"$(BENCH_PLATFORM_NAME)"' \
                -DBENCH_WARMUP=30u -DBENCH_FRAMES=$(BENCH_QEMU_FRAMES)u -DBENCH_RUNS=1u
endif

$(CROSS_BUILD)/bench.elf: $(call cross_objs,$(LIB_SRC) $(BENCH_SRC)) $(CROSS_PORT_OBJS)
	$(cross_link)
.PHONY: bench-image bench-run
bench-image: $(CROSS_BUILD)/bench.elf
bench-run:
	@$(call cross_run,$(CROSS_BUILD)/bench.elf,$(BENCH_QEMU_TIMEOUT))

# make profile-m4's program: tools/bench/profile.sh sets PROFILE_DEFS (backend, scene, frames),
# each set in a BUILD_DIR of its own (the objects do not depend on the flags).
CROSS_CFLAGS += $(PROFILE_DEFS)
$(CROSS_BUILD)/profile.elf: $(call cross_objs,$(LIB_SRC) tools/bench/scene.c tools/bench/profile.c) \
    $(CROSS_PORT_OBJS)
	$(cross_link)
.PHONY: profile-image
profile-image: $(CROSS_BUILD)/profile.elf

# A recorded scene's cut-down (bench-replay-m4): BENCH_REPLAY_TABLE names its table.
ifneq ($(BENCH_REPLAY_TABLE),)
CROSS_CFLAGS += -DBENCH_REPLAY_TABLE=\"$(BENCH_REPLAY_TABLE)\"
endif
$(CROSS_BUILD)/bench-replay.elf: $(call cross_objs,$(LIB_SRC) $(BENCH_SRC) tools/bench/replay.c) \
    $(CROSS_PORT_OBJS)
	$(cross_link)
.PHONY: bench-replay-image bench-replay-run
bench-replay-image: $(CROSS_BUILD)/bench-replay.elf
bench-replay-run:
	@$(call cross_run,$(CROSS_BUILD)/bench-replay.elf,$(BENCH_QEMU_TIMEOUT))

# make bench-shapes (tools/bench/shapes.sh): SHAPES_DEFS sets shape options for one build.
CROSS_CFLAGS += $(SHAPES_DEFS)
$(call cross_objs,tools/bench/shapes.c): CROSS_CFLAGS += -DSHAPES_CONFIG=\"$(MBP_CONFIG)\"
$(CROSS_BUILD)/shapes.elf: $(call cross_objs,$(LIB_SRC) tools/bench/shapes.c) $(CROSS_PORT_OBJS)
	$(cross_link)
$(CROSS_BUILD)/shapes_probe.elf: $(call cross_objs,$(LIB_SRC) tools/bench/shapes_probe.c) \
    $(CROSS_PORT_OBJS)
	$(cross_link)
.PHONY: shapes-image shapes-run shapes-probe
shapes-image: $(CROSS_BUILD)/shapes.elf
shapes-run:
	@$(call cross_run,$(CROSS_BUILD)/shapes.elf,$(BENCH_QEMU_TIMEOUT))
shapes-probe: $(CROSS_BUILD)/shapes_probe.elf
	@$(CROSS_SIZE) -B $< | awk 'NR == 2 { print $$1 + $$2 "," $$3 }'

# The demo: one object per backend choice, so switching BACKEND rebuilds only main.
$(CROSS_BUILD)/demo-$(DEMO_NAME).o: examples/demo/demo.c $(DEMO_HDR) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CROSS_CC) $(CROSS_CFLAGS) -Iexamples/demo $(DEMO_BACKEND_FLAG) -c $< -o $@
$(call cross_objs,examples/demo/svg.c): CROSS_CFLAGS += -Iexamples/demo
$(CROSS_BUILD)/demo-$(DEMO_NAME).elf: $(CROSS_BUILD)/demo-$(DEMO_NAME).o \
    $(call cross_objs,$(LIB_SRC) examples/demo/svg.c) $(CROSS_PORT_OBJS)
	$(cross_link)
demo-image: $(CROSS_BUILD)/demo-$(DEMO_NAME).elf
demo-run:
	@$(call cross_run,$(CROSS_BUILD)/demo-$(DEMO_NAME).elf,120)

# make size: per backend alone and all together; see tools/bench/size.sh. The configurations
# per machine, dimension:scalar:capacities: the microbit's 2D fixed point (its config/m0), the
# M4's 2D float at two capacities, and its 3D float and 2D fixed point at 256 bodies.
# SIZE_BENCH: make bench's pairs and grid entries per body on that machine (0: the default).
SIZE_CONFIGS_microbit   := 2:fixed:64,256
SIZE_CONFIGS_mps2-an386 := 2:float:64,256 3:float:256 2:fixed:256
SIZE_BENCH_microbit     := 8 0
SIZE_BENCH_mps2-an386   := 8 8
size-platform:
	@set -e; for c in $(SIZE_CONFIGS_$(TARGET)); do \
	  IFS=: read -r dim scalar caps <<< "$$c"; \
	  CC='$(CROSS_CC)' SIZE='$(CROSS_SIZE)' NM='$(CROSS_NM)' \
	  CFLAGS='$(TARGET_CPU_FLAGS) -std=c99 -Os -ffreestanding -fno-common -ffunction-sections -fdata-sections $(WARN) $(CROSS_FREESTANDING_INC) -Ilib -Iport -DMBP_PORT_INSN_PER_TICK_NUM=$(TARGET_INSN_PER_TICK_NUM) -DMBP_PORT_INSN_PER_TICK_SHIFT=$(TARGET_INSN_PER_TICK_SHIFT)' \
	  LDFLAGS='$(CROSS_LDFLAGS)' LDLIBS='$(CROSS_LDLIBS)' SIZE_CAPS="$${caps//,/ }" \
	  SIZE_BENCH='$(SIZE_BENCH_$(TARGET))' \
	  tools/bench/size.sh '$(if $(filter microbit,$(TARGET)),cortex-m0,cortex-m4)' \
	    "$$scalar" "build/size/$(TARGET)/$${dim}d_$$scalar" '$(LIB_SRC)' '$(CROSS_PORT_SRCS)' "$$dim"; \
	done

endif
