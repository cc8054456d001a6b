/* SPDX-License-Identifier: MIT */
/* mbp_backend.c: dispatch from the world to the backend it was initialised with.
 *
 * A switch rather than function pointers: nothing in the world can be overwritten into a jump,
 * each backend is removed from the build by its MBP_WITH_ option, and the compiler can inline.
 * Brute force keeps no state, so its add, move and remove hooks are empty.
 */
#include "mbp_internal.h"

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
        return mbp__sweep_init(w);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_init(w);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        return mbp__grid_init(w);
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        return mbp__hash_init(w);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__hgrid_init(w);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_init(w);
#endif
    default:
        return MBP_OK;
    }
}

mbp_status mbp__backend_add(mbp_world *w, uint16_t i)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        return mbp__sweep_add(w, i);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_add(w, i);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        return mbp__grid_add(w, i);
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        return mbp__hash_add(w, i);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__hgrid_add(w, i);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_add(w, i);
#endif
    default:
        (void)i;
        return MBP_OK;
    }
}

/* Called only for the backends mbp__backend_wants_moves() names: the grid, the hash and, as the
 * default, the hgrid. */
mbp_status mbp__backend_move(mbp_world *w, uint16_t i, const mbp_aabb *old)
{
    switch (w->params.backend) {
#if MBP_WITH_GRID
    case MBP_GRID:
        return mbp__grid_move(w, i, old);
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        return mbp__hash_move(w, i, old);
#endif
    default:
#if MBP_WITH_HGRID
        return mbp__hgrid_move(w, i, old);
#else
        (void)i;
        (void)old;
        return MBP_OK;
#endif
    }
}

void mbp__backend_remove(mbp_world *w, uint16_t i)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        mbp__sweep_remove(w, i);
        break;
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        mbp__sap_remove(w, i);
        break;
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        mbp__grid_remove(w, i);
        break;
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        mbp__hash_remove(w, i);
        break;
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        mbp__hgrid_remove(w, i);
        break;
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        mbp__tree_remove(w, i);
        break;
#endif
    default:
        (void)i;
        break;
    }
}

mbp_status mbp__backend_update(mbp_world *w)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        return mbp__sweep_update(w);
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        return mbp__sap_update(w);
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        return mbp__grid_update(w);
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        return mbp__hash_update(w);
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        return mbp__hgrid_update(w);
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        return mbp__tree_update(w);
#endif
    default: /* brute force: mbp_init() accepts only the backends compiled in */
#if MBP_WITH_BRUTE
        return mbp__brute_update(w);
#else
        return MBP_E_BACKEND;
#endif
    }
}

void mbp__backend_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    switch (w->params.backend) {
#if MBP_WITH_SWEEP
    case MBP_SWEEP:
        mbp__sweep_query(w, box, fn, ctx);
        break;
#endif
#if MBP_WITH_SAP
    case MBP_SAP:
        mbp__sap_query(w, box, fn, ctx);
        break;
#endif
#if MBP_WITH_GRID
    case MBP_GRID:
        mbp__grid_query(w, box, fn, ctx);
        break;
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        mbp__hash_query(w, box, fn, ctx);
        break;
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        mbp__hgrid_query(w, box, fn, ctx);
        break;
#endif
#if MBP_WITH_TREE
    case MBP_TREE:
        mbp__tree_query(w, box, fn, ctx);
        break;
#endif
    default: /* brute force, as in mbp__backend_update() */
#if MBP_WITH_BRUTE
        mbp__brute_query(w, box, fn, ctx);
#else
        (void)box;
        (void)fn;
        (void)ctx;
#endif
        break;
    }
}
