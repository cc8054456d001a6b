/* SPDX-License-Identifier: MIT */
/* mbp_tree_fat.c: the tree backend's fat boxes (how they work: mbp_tree.c's top comment): a
 * fresh fat box for a body that left its own, the check of a fat box grown too big after a fast
 * move, and the margins in force at each level. The frame that uses them: mbp_tree_update.c.
 */
#include "mbp_bp.h"
#include "mbp_tree_nodes.h"

#if MBP_WITH_TREE

/* One axis of a fat box (see mbp_tree.c): for a box [lo, hi] whose min corner moved by d since
 * the last update, the margin *m on each side and the sweep *s ahead (signed), with the margins in
 * force this frame (t->margin, t->frac) and a sweep of sw/16 frames. The sweep is capped at
 * twice the extent of the box with its margins: a jump is not a velocity. Fixed point: computed in
 * int64 and capped at 2 * MBP_RANGE, the most that can matter, so that they fit the int32 that
 * mbp_add_sat takes. */
typedef mbp__tree_wide wide_t;
MBP__HOT void fat_axis(const mbp_tree_state *t, mbp_scalar lo, mbp_scalar hi, mbp_scalar d,
                       uint32_t sw, wide_t *ext, wide_t *m, wide_t *s)
{
#if MBP_SCALAR == MBP_FIXED
    const int64_t cap = 2 * (int64_t)MBP_RANGE;
    int64_t e = (int64_t)hi - lo;
    int64_t mm = (int64_t)t->margin + ((e * t->frac) >> 8);
    mm = mm > cap ? cap : mm;
    int64_t smax = 2 * (e + 2 * mm);
    smax = smax > cap ? cap : smax;
    int64_t ss = ((int64_t)d * sw) >> 4;
#else
    float e = hi - lo;
    float mm = t->margin + e * (float)t->frac * (1.0f / 256.0f);
    float smax = 2 * (e + 2 * mm);
    float ss = d * ((float)sw * (1.0f / 16.0f));
#endif
    *ext = e;
    *m = mm;
    *s = ss > smax ? smax : (ss < -smax ? -smax : ss);
}

/* The sweep of a moving body's fresh fat box, in 16ths: of the MBP_TREE_SWEEPS lengths (16/16,
 * 14/16, 12/16 and 10/16 of t->sweep), the one whose exit frame (t->slot, set by
 * mbp__tree_set_margins) has the fewest exits due, the longest on a tie; its exit is then due
 * there (see "Bursts" in mbp_tree.c's top comment). A count that wraps around only misleads the
 * choice. */
static uint32_t pick_sweep(mbp_tree_state *t)
{
    uint32_t best = 0u;
    uint32_t load = t->due[t->slot[0]];
    for (uint32_t j = 1u; j < MBP_TREE_SWEEPS; j++) {
        uint32_t l = t->due[t->slot[j]];
        if (l < load) {
            best = j;
            load = l;
        }
    }
    t->due[t->slot[best]]++;
    return t->sweep * (16u - 2u * best);
}

/* The fat box of a body from its box b and its displacement d since the last update. Returns true
 * when the sweep is longer, on some axis, than the rest of the fat box: only such a leaf can
 * later become too big (see mbp__tree_too_big()). */
bool mbp__tree_make_fat(mbp_tree_state *t, const mbp_aabb *b, const mbp_scalar *d, mbp_aabb *out)
{
    bool swept = false;
    uint32_t sw = 16u * t->sweep;
    bool moving = false;
    for (int k = 0; k < MBP_DIM; k++) {
        moving = moving || d[k] != 0;
    }
    if (moving) {
        sw = pick_sweep(t);
    }
    for (int k = 0; k < MBP_DIM; k++) {
        wide_t e, m, s;
        fat_axis(t, b->min[k], b->max[k], d[k], sw, &e, &m, &s);
        swept = swept || (s < 0 ? -s : s) > e + 2 * m;
#if MBP_SCALAR == MBP_FIXED
        mbp_scalar lo = mbp_add_sat(b->min[k], (mbp_scalar)-m);
        mbp_scalar hi = mbp_add_sat(b->max[k], (mbp_scalar)m);
        if (s < 0) {
            lo = mbp_add_sat(lo, (mbp_scalar)s);
        } else {
            hi = mbp_add_sat(hi, (mbp_scalar)s);
        }
#else
        /* Float: a box within the range plus margins within it stays far inside float's range;
         * fat boxes are only compared, so they need no clamp. */
        mbp_scalar lo = b->min[k] - m + (s < 0 ? s : 0.0f);
        mbp_scalar hi = b->max[k] + m + (s > 0 ? s : 0.0f);
#endif
        out->min[k] = lo;
        out->max[k] = hi;
    }
    return swept;
}

/* True when the fat box is over twice as large, on some axis, as a fresh one for box, displaced
 * by d, would be with the full sweep: the body slowed down after a fast move. Strict (when the
 * fat candidates crowd the pair set): over 5/4 as large, as after the margins shrank. Kept out of
 * the update's loop of kept bodies (mbp_tree_update.c), which calls it for few bodies: inlined
 * there, its values took the loop's registers. */
bool mbp__tree_too_big(const mbp_tree_state *t, const mbp_aabb *fat, const mbp_aabb *box,
                       const mbp_scalar *d, bool strict)
{
    for (int k = 0; k < MBP_DIM; k++) {
        wide_t e, m, s;
        fat_axis(t, box->min[k], box->max[k], d[k], 16u * t->sweep, &e, &m, &s);
        wide_t fe = (wide_t)fat->max[k] - (wide_t)fat->min[k];
        wide_t fresh = e + 2 * m + (s < 0 ? -s : s);
#if MBP_SCALAR == MBP_FIXED
        wide_t lim = strict ? fresh + (fresh >> 2) : 2 * fresh;
#else
        wide_t lim = strict ? fresh * 1.25f : 2 * fresh;
#endif
        if (fe > lim) {
            return true;
        }
    }
    return false;
}

/* The margins in force: the parameters (t->param_*), halved t->level times; and the exit frame of
 * each sweep length (see pick_sweep), from t->tick. */
void mbp__tree_set_margins(mbp_tree_state *t)
{
#if MBP_SCALAR == MBP_FIXED
    t->margin = t->param_margin >> t->level;
#else
    static const float k_half[MBP_TREE_LEVELS + 1u] = {1.0f, 0.5f, 0.25f, 0.125f};
    t->margin = t->param_margin * k_half[t->level];
#endif
    t->frac = (uint16_t)(t->param_frac >> t->level);
    t->sweep = (uint8_t)(t->param_sweep >> t->level);
    for (uint32_t j = 0; j < MBP_TREE_SWEEPS; j++) {
        uint32_t frames = ((t->sweep * (16u - 2u * j)) >> 4) + 1u;
        t->slot[j] = (uint8_t)((t->tick + frames) & (MBP_TREE_DUE - 1u));
    }
}

#endif /* MBP_WITH_TREE */
