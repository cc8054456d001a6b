/* SPDX-License-Identifier: MIT */
/* mbp_backend.c: dispatch from the world to the backend it was initialised with.
 *
 * A switch rather than function pointers: nothing in the world can be overwritten into a jump,
 * each backend is removed from the build by its MBP_WITH_ option, and the compiler can inline.
 * This file is where the world meets the backends: it hands each one its own state, the body's
 * box, or a view of the bodies and the pair sink (mbp_bp.h), never the world. The grid and the
 * hash share the cell engine's state and hooks (mbp__cells_*), so they share their cases.
 */
#include "mbp_internal.h"

/* What a backend may read of the bodies at update and query. */
MBP__HOT mbp__bodies view_of(const mbp_world *w)
{
    mbp__bodies v;
    v.box = w->box;
    v.flags = w->flags;
    v.moved = w->dirty;
    v.moved_count = w->dirty_count;
    v.high = w->high;
    v.live = w->live_count;
    return v;
}

bool mbp__backend_compiled(mbp_backend b)
{
    switch (b) {
#if MBP_WITH_BRUTE
    case MBP_BRUTE:
#endif
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
#endif
        return true;
    default:
        return false;
    }
}

mbp_status mbp__backend_init(mbp_world *w)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        return mbp__sweep_init(&w->be.sweep, &w->params);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_init(&w->be.sap, &w->params);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        return mbp__grid_init(&w->be.grid, &w->params);
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        return mbp__hash_init(&w->be.grid, &w->params);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__hgrid_init(&w->be.hgrid, &w->params);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_init(&w->be.tree, &w->params);
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
        return mbp__quadtree_init(&w->be.quadtree, &w->params);
#endif
    default: /* brute force keeps no state */
        return MBP_OK;
    }
}

mbp_status mbp__backend_add(mbp_world *w, uint16_t i)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        return mbp__sweep_add(&w->be.sweep, i, &w->box[i]);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_add(&w->be.sap, i, &w->box[i]);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
        return mbp__cells_add(&w->be.grid, i, &w->box[i]);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__cells_add(&w->be.hgrid, i, &w->box[i]);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_add(&w->be.tree, i, &w->box[i]);
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
        return mbp__quadtree_add(&w->be.quadtree, i, &w->box[i]);
#endif
    default:
        (void)i;
        return MBP_OK;
    }
}

/* Called only for the backends mbp__backend_wants_moves() names: the grid, the hash and, as the
 * default, the hgrid. */
mbp_status mbp__backend_move(mbp_world *w, uint16_t i, const mbp_aabb *box)
{
    switch (w->params.backend) {
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
        return mbp__cells_move(&w->be.grid, i, &w->box[i], box);
#endif
    default:
#if MBP_WITH_HGRID
        return mbp__cells_move(&w->be.hgrid, i, &w->box[i], box);
#else
        (void)i;
        (void)box;
        return MBP_OK;
#endif
    }
}

void mbp__backend_remove(mbp_world *w, uint16_t i)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        mbp__sweep_remove(&w->be.sweep, i, &w->box[i]);
        break;
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        mbp__sap_remove(&w->be.sap, i, &w->box[i]);
        break;
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
        mbp__cells_remove(&w->be.grid, i, &w->box[i]);
        break;
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        mbp__cells_remove(&w->be.hgrid, i, &w->box[i]);
        break;
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        mbp__tree_remove(&w->be.tree, i, &w->box[i]);
        break;
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
        mbp__quadtree_remove(&w->be.quadtree, i, &w->box[i]);
        break;
#endif
    default:
        (void)i;
        break;
    }
}

mbp_status mbp__backend_update(mbp_world *w, mbp__sink *out)
{
    mbp__bodies v = view_of(w);
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        return mbp__sweep_update(&w->be.sweep, &v, out);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_update(&w->be.sap, &v, out);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
        return mbp__cells_update(&w->be.grid, &v, out);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__cells_update(&w->be.hgrid, &v, out);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_update(&w->be.tree, &v, out);
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
        return mbp__quadtree_update(&w->be.quadtree, &v, out);
#endif
    default:
        /* brute force: mbp_init() accepts only the backends compiled in */
#if MBP_WITH_BRUTE
        return mbp__brute_update(&v, out);
#else
        (void)v;
        (void)out;
        return MBP_E_BACKEND;
#endif
    }
}

void mbp__backend_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    mbp__bodies v = view_of(w);
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        mbp__sweep_query(&w->be.sweep, &v, box, fn, ctx);
        break;
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        mbp__sap_query(&w->be.sap, &v, box, fn, ctx);
        break;
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
        mbp__cells_query(&w->be.grid, &v, box, fn, ctx);
        break;
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        mbp__cells_query(&w->be.hgrid, &v, box, fn, ctx);
        break;
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        mbp__tree_query(&w->be.tree, &v, box, fn, ctx);
        break;
#endif
#if MBP_WITH_QUADTREE
    case MBP_QUADTREE:
        mbp__quadtree_query(&w->be.quadtree, &v, box, fn, ctx);
        break;
#endif
    default:
        /* brute force, as in mbp__backend_update() */
#if MBP_WITH_BRUTE
        mbp__brute_query(&v, box, fn, ctx);
#else
        (void)v;
        (void)box;
        (void)fn;
        (void)ctx;
#endif
        break;
    }
}
