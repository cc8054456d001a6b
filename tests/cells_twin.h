/* SPDX-License-Identifier: MIT */
/* cells_twin.h: the grid, hash and hgrid tests' twin worlds (used by test_grid.c, test_hash.c
 * and test_hgrid.c): every operation goes to test_w (the backend under test) and test_w2 (brute
 * force), and after each update pairs, events and queries must agree. */
#ifndef CELLS_TWIN_H
#define CELLS_TWIN_H

#include "diff.h"
#include "test_util.h"

/* The engine's state in a world, for white-box checks: grid and hash share a union member. */
#if MBP_WITH_GRID || MBP_WITH_HASH
#define CELLS(w) (&(w).be.grid)
#elif MBP_WITH_HGRID
#define CELLS(w) (&(w).be.hgrid)
#endif

/* True when body i of test_w is a large body (no entries) as of the last update. */
#define CELLS_LARGE(i) ((CELLS(test_w)->bflag[i] & 0x01u) != 0u)

/* The frame mode the next twin_init() pins in test_w: 0 chosen by cost (the default), 1
 * incremental whenever the candidates fit, 2 full frames only. */
void cells_pin(uint8_t pin);
/* After an incremental update: the pair set holds exactly the pairs the candidate rule names
 * (checked by twin_update(); true when test_w runs full frames or another backend). */
bool cells_check_candidates(void);
/* True when test_w runs a cell backend in incremental frames. */
bool cells_incremental(void);

/* Default params for backend b with cells of `cell` whole units. */
void cells_params(mbp_params *p, mbp_backend b, int32_t cell);
/* Initialises test_w with p and test_w2 with the same params on brute force. */
void twin_init(const mbp_params *p);
/* Adds to both worlds; returns the status of test_w, and the index in *index on MBP_OK. */
mbp_status twin_add(const mbp_aabb *b, uint16_t *index);
#if MBP_WITH_SPHERES
mbp_status twin_add_sphere(const mbp_sphere *s);
#endif
/* Moves in both worlds; on failure test_w must keep the old box, and test_w2 is not moved. */
mbp_status twin_move(uint16_t i, const mbp_aabb *b);
void twin_remove(uint16_t i);
bool twin_live(uint16_t i);
/* Updates both worlds and compares everything; true when all agrees. */
bool twin_update(void);
/* A box query in both worlds: the same bodies, each once. */
bool twin_query(const mbp_aabb *q);
/* Whole units in [lo, hi - size] with a size in [0, maxsize]. */
mbp_aabb rand_box(uint32_t *r, int32_t lo, int32_t hi, int32_t maxsize);
/* A random scene of n bodies in [lo, hi] run on both worlds; frames that disagreed. */
uint32_t twin_scene(const mbp_params *p, uint32_t seed, uint32_t n, uint32_t frames, int32_t lo,
                    int32_t hi, int32_t maxsize);
/* Three more seeds of every differential scene for one backend. */
void cells_extra_diff(mbp_backend b, uint32_t first_seed);
/* Every pair sharing many cells is box-tested exactly once (stats.tests). */
void cells_tested_once_check(const mbp_params *p);
/* A full entry pool returns MBP_E_NOROOM, changes nothing, and recovers after a remove. */
void cells_noroom_check(mbp_backend backend);
/* Moves within the cells leave the structure alone and cost no backend test; a border crossing
 * is one pending change. */
void cells_incremental_check(mbp_backend backend);
/* A body crossing a cell border back and forth, every frame and twice within one frame. */
void cells_border_check(mbp_backend backend);
/* Every body in one cell, in incremental frames (the candidates fit) and in full ones. */
void cells_one_cell_check(mbp_backend backend);
/* Entries promised to pending changes: a move may use what another move of the same frame
 * frees, whatever their order in the pending list. */
void cells_pending_room_check(mbp_backend backend);
/* Candidates outgrowing the pair set within one frame: that frame turns into an exact full one
 * (nothing lost), full frames follow, incremental frames again when the candidates fit. */
void cells_overflow_check(mbp_backend backend);

#endif
