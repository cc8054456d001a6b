/* SPDX-License-Identifier: MIT */
/* mbp_output.c: what the user reads after an update: the statistics, the overlapping pairs (one
 * by one, or as a plain array and its user slots), the begun and ended events, and the names of
 * statuses and backends. Each O(1), except mbp_next_pair() (O(p) over a whole walk), the first
 * mbp_pairs() or mbp_pair_users() after an update that left non-overlapping pairs in the set
 * (O(p)), and mbp_sort_pairs() (O(p log p)). The frame that makes them is in mbp_update.c.
 */
#include "mbp_internal.h"

const mbp_stats *mbp_get_stats(const mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    return &w->stats;
}

/* ---- pairs and events ---- */

bool mbp_next_pair(const mbp_world *w, uint32_t *it, mbp_pair *out)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(it != NULL && out != NULL);
    const mbp_pairset *ps = &w->pairs;
    for (uint32_t k = *it; k < ps->count; k++) {
        if (ps->flag[k] & MBP__HIT) {
            *out = ps->pair[k];
            *it = k + 1u;
            return true;
        }
    }
    *it = ps->count;
    return false;
}

uint32_t mbp_pair_count(const mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    return w->pairs.hits;
}

void mbp_sort_pairs(mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    mbp__pairs_sort(&w->pairs);
}

const mbp_pair *mbp_pairs(mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    mbp_pairset *ps = &w->pairs;
    if (!ps->split) {
        mbp__pairs_split(ps);
    }
    *count = ps->hits;
    return ps->pair;
}

#if MBP_WITH_EVENTS
const mbp_pair *mbp_begun(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.begun;
    return &w->pairs.pair[(uint32_t)MBP__PAIR_ROOM - w->stats.begun];
}

const mbp_pair *mbp_ended(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.ended;
    return &w->pairs.pair[w->pairs.ev_end];
}
#endif

#if MBP_PAIR_USER
uint32_t *mbp_pair_users(mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    mbp_pairset *ps = &w->pairs;
    if (!ps->split) {
        mbp__pairs_split(ps); /* as mbp_pairs() does: the same order, whichever comes first */
    }
    *count = ps->hits;
    return ps->user;
}

const uint32_t *mbp_ended_users(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.ended;
    return &w->pairs.user[w->pairs.ev_end];
}
#endif

const char *mbp_status_name(mbp_status s)
{
    switch (s) {
    case MBP_OK:
        return "MBP_OK";
    case MBP_E_BADBOX:
        return "MBP_E_BADBOX";
    case MBP_E_RANGE:
        return "MBP_E_RANGE";
    case MBP_E_FULL:
        return "MBP_E_FULL";
    case MBP_E_STALE:
        return "MBP_E_STALE";
    case MBP_E_PAIRS_FULL:
        return "MBP_E_PAIRS_FULL";
    case MBP_E_EVENTS_FULL:
        return "MBP_E_EVENTS_FULL";
    case MBP_E_BACKEND:
        return "MBP_E_BACKEND";
    case MBP_E_CONFIG:
        return "MBP_E_CONFIG";
    case MBP_E_PARAM:
        return "MBP_E_PARAM";
    case MBP_E_NOROOM:
        return "MBP_E_NOROOM";
    case MBP_E_TRUNCATED:
        return "MBP_E_TRUNCATED";
    default:
        return "MBP_E_?";
    }
}

const char *mbp_backend_name(mbp_backend b)
{
    switch (b) {
    case MBP_BRUTE:
        return "brute";
    case MBP_SWEEP:
        return "sweep";
    case MBP_SAP:
        return "sap";
    case MBP_GRID:
        return "grid";
    case MBP_HASH:
        return "hash";
    case MBP_HGRID:
        return "hgrid";
    case MBP_TREE:
        return "tree";
    case MBP_QUADTREE:
        return "quadtree";
    default:
        return "?";
    }
}
