# SPDX-License-Identifier: MIT
# mk/peers.mk: make bench-peers (docs/bench.md, "make bench-peers"). Included from the top-level
# Makefile after mk/bench.mk. Not part of make test; nothing here asserts a speed.
#
#   make bench-peers             installs Debian's libbullet-dev, libbox2d-dev and
#                                libchipmunk-dev when they are missing (tools/deps.sh peers),
#                                then runs every mbp backend, Bullet, Box2D, Chipmunk, brute force
#                                and a plain sort-and-sweep on make bench's generated scenes
#                                (n = PEERS_NS) and on the recorded scenes (make scenes): every
#                                frame checked against brute force, instructions counted by
#                                callgrind, wall time, bytes; writes build/peers.csv and
#                                build/peers.svg (tools/bench/peers/run.sh)
#   make bench-peers PEERS_NS=256 PEERS_SCENES=   a quick run: one n, no recorded scene

PEERS_NS ?= 256 1024 4096 16384
PEERS_SCENES ?= $(BENCH_SCENE_FILES)
PEERS_DIR := tools/bench/peers
PEERS_C   := $(PEERS_DIR)/peers.c $(PEERS_DIR)/ref.c $(PEERS_DIR)/mbp.c $(PEERS_DIR)/chipmunk.c \
             tools/bench/scene.c tools/bench/replay.c
PEERS_CXX := $(PEERS_DIR)/bullet.cpp $(PEERS_DIR)/box2d.cpp
PEERS_CFLAGS := -O2 -g -ffp-contract=off -Ilib -Iport -Iconfig -Itools/bench -I$(PEERS_DIR) \
                -DBENCH_HOST -DBENCH_MAX_FRAMES=100000u -DMBP_CONFIG_FILE='"mbp_config_peers.h"'
PEERS_LIBS := -lBulletCollision -lLinearMath -lbox2d -lchipmunk -lm

# One program per n (the mbp world's capacity is n, as make bench builds it). The C files are
# compiled as one command with the library; the peers' C++ adapters alone.
build/peers/n%/peers: $(LIB_SRC) $(LIB_HDR) $(PEERS_C) $(PEERS_CXX) $(PEERS_DIR)/peers.h \
                      tools/bench/bench.h config/mbp_config_bench.h $(PEERS_DIR)/mbp_config_peers.h $(HOST_PORT_SRCS) \
                      build/peers/deps.ok
	@mkdir -p $(@D)
	@for f in $(PEERS_CXX); do \
	  $(CXX) -std=c++17 $(PEERS_CFLAGS) -DBENCH_N=$* -Wall -Wextra -Werror -I/usr/include/bullet \
	    -c $$f -o $(@D)/$$(basename $$f .cpp).o || exit 1; \
	done
	$(CC) -std=c99 -D_GNU_SOURCE $(PEERS_CFLAGS) -DBENCH_N=$* $(WARN) \
	  $(LIB_SRC) $(PEERS_C) $(HOST_PORT_SRCS) $(@D)/bullet.o $(@D)/box2d.o \
	  -lstdc++ $(PEERS_LIBS) -o $@

build/peers/deps.ok: tools/deps.sh
	@mkdir -p $(@D)
	@tools/deps.sh peers && touch $@

.PHONY: bench-peers
bench-peers: $(foreach n,$(sort $(PEERS_NS) 16384),build/peers/n$(n)/peers) $(PEERS_SCENES)
	@PEERS_NS='$(PEERS_NS)' PEERS_SCENES='$(PEERS_SCENES)' $(PEERS_DIR)/run.sh
