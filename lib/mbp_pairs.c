/* SPDX-License-Identifier: MIT */
/* mbp_pairs.c: the fixed-capacity pair set, and the sink backends report into (mbp_bp.h).
 *
 * Pairs live in a dense array (walked in order, removed by moving the last entry into the hole)
 * indexed by an open-addressing hash table with linear probing. The table has 1.5 times as many
 * slots as the set can hold entries (MBP_PAIR_HASH_SIZE), so a full set loads it to 2/3 and the
 * usual set, far below its capacity, much less. Deletion shifts the following cluster back
 * instead of leaving tombstones, so the table never degrades and its layout depends only on the
 * sequence of inserts and removes: the same on every CPU.
 */
#include "mbp_bp.h"

#define HASH_SIZE ((uint32_t)MBP_PAIR_HASH_SIZE)

static uint32_t home(uint32_t w)
{
    /* Fibonacci hashing: the top 16 bits of w * 2^32/phi spread neighbouring indices apart.
     * Range reduction by a multiply instead of a power-of-two mask: h * HASH_SIZE / 2^16, in two
     * parts so that no product overflows 32 bits (for a table of at most 2^16 slots the first
     * part is 0 and the compiler drops it: one 16x16->32 multiply, which the Cortex-M0 has). */
    uint32_t h = (uint32_t)(w * 2654435761u) >> 16;
    return h * (HASH_SIZE >> 16) + ((h * (HASH_SIZE & 0xFFFFu)) >> 16);
}

/* The slot after s, cyclically. */
static uint32_t next_slot(uint32_t s)
{
    return s + 1u == HASH_SIZE ? 0u : s + 1u;
}

/* The table hashes a pair as one word with b in the high half, not as its key (a in the high
 * half): on a little-endian CPU that word is the pair's own 4 bytes, so a probe compares it with
 * one load. */
static uint32_t word_at(const mbp_pairset *ps, uint32_t k)
{
    return (uint32_t)ps->pair[k].b << 16 | ps->pair[k].a;
}

static uint32_t word_of(uint32_t key)
{
    return key << 16 | key >> 16;
}

void mbp__pairs_clear(mbp_pairset *ps)
{
    for (uint32_t i = 0; i < HASH_SIZE; i++) {
        ps->slot[i] = 0;
    }
    ps->count = 0;
    ps->hits = 0;
    ps->lost = 0;
    ps->ev_end = 0;
    ps->split = 1u;
    mbp__pairs_start_update(ps);
}

/* The slot holding the pair of word w, or the empty slot where it would go; inlined into the
 * set's own callers (a call costs as much as the hash). */
MBP__HOT uint32_t probe_word(const mbp_pairset *ps, uint32_t w)
{
    uint32_t s = home(w);
    for (;;) {
        mbp_pidx e = ps->slot[s];
        if (e == 0 || word_at(ps, e - 1u) == w) {
            return s;
        }
        s = next_slot(s);
    }
}

MBP__HOT uint32_t probe(const mbp_pairset *ps, uint32_t key)
{
    return probe_word(ps, word_of(key));
}

uint32_t mbp__pairs_probe(const mbp_pairset *ps, uint32_t key)
{
    return probe(ps, key);
}

int32_t mbp__pairs_find(const mbp_pairset *ps, uint32_t key)
{
    mbp_pidx e = ps->slot[probe(ps, key)];
    return (int32_t)e - 1;
}

int32_t mbp__pairs_insert(mbp_pairset *ps, uint32_t key, uint8_t flag)
{
    uint32_t s = probe(ps, key);
    if (ps->slot[s] != 0) {
        return (int32_t)ps->slot[s] - 1;
    }
    if (ps->count >= (uint32_t)MBP_MAX_PAIRS) {
        ps->lost++;
        return -1;
    }
    uint32_t k = ps->count++;
    ps->pair[k].a = (uint16_t)(key >> 16);
    ps->pair[k].b = (uint16_t)(key & 0xFFFFu);
    ps->flag[k] = flag;
#if MBP_PAIR_USER
    ps->user[k] = 0u;
#endif
    ps->slot[s] = (mbp_pidx)(k + 1u);
    return (int32_t)k;
}

/* Empties slot s and shifts back the entries after it whose probe sequence passes through s. */
static void erase_slot(mbp_pairset *ps, uint32_t s)
{
    uint32_t hole = s;
    uint32_t j = s;
    for (;;) {
        j = next_slot(j);
        mbp_pidx e = ps->slot[j];
        if (e == 0) {
            break;
        }
        uint32_t h = home(word_at(ps, e - 1u));
        /* Entry at j may move to hole unless its home lies cyclically in (hole, j]. */
        bool stays = (hole <= j) ? (hole < h && h <= j) : (hole < h || h <= j);
        if (!stays) {
            ps->slot[hole] = e;
            hole = j;
        }
    }
    ps->slot[hole] = 0;
}

void mbp__pairs_remove_at(mbp_pairset *ps, uint32_t k)
{
    MBP__ASSERT(k < ps->count);
    mbp__pairs_remove_slot(ps, probe_word(ps, word_at(ps, k)));
}

void mbp__pairs_remove_slot(mbp_pairset *ps, uint32_t s)
{
    MBP__ASSERT(s < HASH_SIZE && ps->slot[s] != 0u);
    uint32_t k = (uint32_t)ps->slot[s] - 1u;
    erase_slot(ps, s);
    uint32_t last = ps->count - 1u;
    if (k != last) {
        uint32_t at = probe_word(ps, word_at(ps, last));
        ps->pair[k] = ps->pair[last];
        ps->flag[k] = ps->flag[last];
#if MBP_PAIR_USER
        ps->user[k] = ps->user[last];
#endif
        ps->slot[at] = (mbp_pidx)(k + 1u);
    }
    ps->count = last;
}

/* Swaps the entries at dense indices i and j, and their hash slots. */
static void swap_at(mbp_pairset *ps, uint32_t i, uint32_t j)
{
    uint32_t si = probe_word(ps, word_at(ps, i));
    uint32_t sj = probe_word(ps, word_at(ps, j));
    mbp_pair p = ps->pair[i];
    uint8_t f = ps->flag[i];
    ps->pair[i] = ps->pair[j];
    ps->flag[i] = ps->flag[j];
    ps->pair[j] = p;
    ps->flag[j] = f;
#if MBP_PAIR_USER
    uint32_t u = ps->user[i];
    ps->user[i] = ps->user[j];
    ps->user[j] = u;
#endif
    ps->slot[si] = (mbp_pidx)(j + 1u);
    ps->slot[sj] = (mbp_pidx)(i + 1u);
}

void mbp__pairs_split(mbp_pairset *ps)
{
    uint32_t i = 0u, j = ps->count;
    for (;;) {
        while (i < j && (ps->flag[i] & MBP__HIT) != 0u) {
            i++;
        }
        while (i < j && (ps->flag[j - 1u] & MBP__HIT) == 0u) {
            j--;
        }
        if (i >= j) {
            break;
        }
        j--;
        swap_at(ps, i, j); /* a hit from the back takes the place of a candidate in front */
        i++;
    }
    ps->split = 1u;
}

void mbp__pairs_sort(mbp_pairset *ps)
{
    /* Hits first, each part ascending: mbp_pairs() stays a prefix. */
    mbp__pairs_split(ps);
#if MBP_PAIR_USER
    mbp__sort_pairs_user(ps->pair, ps->flag, ps->user, ps->hits);
    mbp__sort_pairs_user(&ps->pair[ps->hits], &ps->flag[ps->hits], &ps->user[ps->hits],
                         ps->count - ps->hits);
#else
    mbp__sort_pairs(ps->pair, ps->flag, ps->hits);
    mbp__sort_pairs(&ps->pair[ps->hits], &ps->flag[ps->hits], ps->count - ps->hits);
#endif
    for (uint32_t i = 0; i < HASH_SIZE; i++) {
        ps->slot[i] = 0;
    }
    for (uint32_t k = 0; k < ps->count; k++) {
        ps->slot[probe_word(ps, word_at(ps, k))] = (mbp_pidx)(k + 1u);
    }
}

/* ---- the sink ---- */

void mbp__sink_full_frame(mbp__sink *out, bool keep_candidates)
{
    /* keep_candidates: an incremental backend rebuilding; pairs that fail the exact test stay as
     * candidates, since later frames re-test them only when their bodies move. Otherwise the hit
     * is decided as each pair is reported and only hits are stored. */
    mbp_pairset *ps = out->ps;
    uint8_t clear = keep_candidates ? MBP__CAND : (MBP__CAND | MBP__HIT | MBP__NEW);
    ps->full_frame = (uint8_t)(keep_candidates ? 0u : 1u);
    ps->touched = 1u;
    ps->dropped = 1u;
    ps->log_count = (uint32_t)MBP_PAIR_LOG + 1u; /* every pair anew: walk the set */
    for (uint32_t k = 0; k < ps->count; k++) {
        ps->flag[k] &= (uint8_t)~clear;
    }
}

/* Notes that pair key became or stopped being a candidate in this update. */
MBP__HOT void log_change(mbp_pairset *ps, uint32_t key)
{
    if (ps->log_count < (uint32_t)MBP_PAIR_LOG) {
        ps->log[ps->log_count] = key;
    }
    if (ps->log_count <= (uint32_t)MBP_PAIR_LOG) {
        ps->log_count++; /* one past the log: it overflowed, and stays so */
    }
}

/* A full frame's pair that overlaps: stored as a hit. Full frames decide the hit when the pair
 * is reported (mbp__volumes_meet(), exact): only pairs that overlap take room, so a full set
 * loses exactly the overlapping pairs it counts. */
MBP__HOT void store_hit(mbp_pairset *ps, uint32_t key)
{
    ps->touched = 1u;
    int32_t k = mbp__pairs_insert(ps, key, 0u);
    if (k >= 0) {
        ps->flag[k] |= (uint8_t)(MBP__CAND | MBP__HIT);
    }
}

void mbp__sink_begin(mbp__sink *out, uint16_t a, uint16_t b)
{
    MBP__ASSERT(a != b);
    mbp_pairset *ps = out->ps;
    uint32_t key = mbp__key(a, b);
    if (ps->full_frame != 0u) {
        if (mbp__volumes_meet(&out->vol, a, b)) {
            store_hit(ps, key);
        }
        return;
    }
    if ((out->vol.flags[a] & out->vol.flags[b] & MBP__STATIC) != 0u) {
        /* Static bodies never pair: not even a candidate, so they take no room. The world's
         * re-test of moved bodies' pairs counts on it (mbp_update.c, hit_now()). */
        return;
    }
    ps->touched = 1u;
    int32_t k = mbp__pairs_insert(ps, key, MBP__NEW);
    if (k >= 0 && (ps->flag[k] & MBP__CAND) == 0u) {
        ps->flag[k] |= MBP__CAND;
        log_change(ps, key);
    }
}

void mbp__sink_begin_met(mbp__sink *out, uint16_t a, uint16_t b)
{
    MBP__ASSERT(a != b && out->ps->full_frame != 0u);
    if (mbp__volumes_meet_if(&out->vol, a, b, true)) {
        store_hit(out->ps, mbp__key(a, b));
    }
}

void mbp__sink_end(mbp__sink *out, uint16_t a, uint16_t b)
{
    mbp_pairset *ps = out->ps;
    uint32_t key = mbp__key(a, b);
    uint32_t s = probe(ps, key);
    if (ps->slot[s] == 0u) {
        return;
    }
    uint32_t k = (uint32_t)ps->slot[s] - 1u;
    ps->touched = 1u;
    if ((ps->flag[k] & MBP__PREV) == 0u) {
        mbp__pairs_remove_slot(ps, s); /* no end event to give: gone at once */
    } else if ((ps->flag[k] & MBP__CAND) != 0u) {
        ps->flag[k] &= (uint8_t)~MBP__CAND; /* the world's update ends it */
        ps->dropped = 1u;
        log_change(ps, key);
    }
}

void mbp__sink_end_moved(mbp__sink *out)
{
    mbp_pairset *ps = out->ps;
    ps->exact = 1u;
    const uint8_t *flags = out->vol.flags;
    for (uint32_t k = 0; k < ps->count;) {
        mbp_pair p = ps->pair[k];
        uint8_t f = ps->flag[k];
        if ((((uint32_t)flags[p.a] | flags[p.b]) & MBP__DIRTY) == 0u || (f & MBP__CAND) == 0u) {
            k++;
            continue;
        }
        ps->touched = 1u;
        if ((f & MBP__PREV) == 0u) {
            mbp__pairs_remove_at(ps, k); /* the last entry moves to k: look at k again */
        } else {
            ps->flag[k] = (uint8_t)(f & ~MBP__CAND); /* the world's update ends it */
            ps->dropped = 1u;
            log_change(ps, mbp__key(p.a, p.b));
            k++;
        }
    }
}

void mbp__sink_drop_new(mbp__sink *out)
{
    mbp_pairset *ps = out->ps;
    for (uint32_t k = 0; k < ps->count;) {
        if ((ps->flag[k] & (MBP__NEW | MBP__PREV)) == MBP__NEW) {
            mbp__pairs_remove_at(ps, k); /* the last entry moves to k: look at k again */
        } else {
            k++;
        }
    }
}
