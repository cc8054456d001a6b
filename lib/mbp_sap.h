/* SPDX-License-Identifier: MIT */
/* mbp_sap.h: the state of the incremental sweep-and-prune backend (mbp_sap.c). Not for users:
 * read it through mbp.h.
 *
 * RAM per body and axis: two endpoint values (4 bytes each, 2 with MBP_SAP_QUANTIZED), two
 * endpoint ids and two positions (2 bytes each): 16 bytes (12 quantized), so 32 bytes in 2D and
 * 48 in 3D (24 and 36 quantized), plus two sentinels per axis, a few words and the held-back
 * jumpers' room: 4 endpoint indices per MBP_SAP_JUMPS (about half a byte per body).
 */
#ifndef MBP_SAP_H
#define MBP_SAP_H


#if MBP_SAP_QUANTIZED
typedef uint16_t mbp_sap_val;
#else
typedef mbp_scalar mbp_sap_val;
#endif

/* An endpoint id is body << 1 | (1 for a max); positions count the left sentinel as 0. */
#if 2 * MBP_MAX_BODIES + 2 <= 65535
typedef uint16_t mbp_sap_idx;
#else
typedef uint32_t mbp_sap_idx;
#endif

#define MBP_SAP_SLOTS (2 * MBP_MAX_BODIES + 2)

/* A moved body whose min would pass at least this many endpoints of its axis 0 is taken out and
 * put back by binary search and block moves (a jump) instead of being sorted into place. */
#define MBP_SAP_JUMP 32u
/* Jumps an update that moves many bodies can hold back until its sort is done; more jumpers
 * than this in one update are sorted into place like the others. */
#define MBP_SAP_JUMPS (MBP_MAX_BODIES / 16 + 4)

typedef struct mbp_sap_state {
    mbp_sap_val val[MBP_DIM][MBP_SAP_SLOTS];     /* per axis: sentinel, endpoints sorted, sentinel */
    mbp_sap_idx id[MBP_DIM][MBP_SAP_SLOTS];      /* the endpoint at each position */
    mbp_sap_idx pos[MBP_DIM][2 * MBP_MAX_BODIES]; /* the position of each endpoint id */
    uint32_t n;          /* endpoints per axis, sentinels excluded */
    uint32_t budget;     /* mbp_params.sap_budget: swaps a body before an update rebuilds */
    uint32_t removed;    /* bodies removed since the last update: their endpoints go then */
    mbp_sap_val ext;     /* at least the extent on axis 0 of every stored body but big's */
    uint32_t big;        /* 0, or 1 + the body ext need not cover (queries test it on its own) */
    uint32_t swaps_last; /* endpoint swaps of the last update (the incremental work) */
    uint32_t rebuilds;   /* updates that rebuilt from scratch: budget exceeded or pairs lost */
    uint32_t jumps_last; /* bodies the last update moved by block moves (jumps) */
    uint8_t batch_last;  /* the last update sorted in one pass per axis (many bodies moved) */
    uint8_t incomplete;  /* the last update lost candidates (pair set full): the next rebuilds */
    uint8_t merged_last; /* the last update's held jumpers jumped together (mbp__sap_jump_all) */
    /* The held-back jumpers' endpoint ids, then (scratch) their old places on one axis. */
    mbp_sap_idx jump[4 * MBP_SAP_JUMPS];
#if MBP_SAP_QUANTIZED
    mbp_scalar wmin[MBP_DIM]; /* sap_world.min */
#if MBP_SCALAR == MBP_FIXED
    uint32_t span[MBP_DIM];   /* sap_world.max - min, raw units */
    uint64_t mult[MBP_DIM];   /* 65532 * 2^32 / span */
#else
    mbp_scalar span[MBP_DIM];
    mbp_scalar scale[MBP_DIM]; /* 65532 / span */
#endif
#endif
} mbp_sap_state;

#if MBP_SAP_QUANTIZED
/* The default quantization box (called by mbp_params_default()): +-1024 units, clamped. */
void mbp__sap_default_world(mbp_aabb *box);
#endif

#endif /* MBP_SAP_H */
