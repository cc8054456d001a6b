/* SPDX-License-Identifier: MIT */
/* twin.c: see twin.h. */
#include "twin.h"

tbody g_tb[MBP_MAX_BODIES];

mbp_aabb t_box(const tbody *b)
{
    mbp_aabb x;
    for (int k = 0; k < MBP_DIM; k++) {
        x.min[k] = mbp_from_ratio(b->lo[k], 4);
        x.max[k] = mbp_from_ratio(b->hi[k], 4);
    }
    return x;
}

void t_place(uint32_t *rng, tbody *b, int32_t ext)
{
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t size = (int32_t)test_below(rng, 9u); /* zero-size boxes too */
        b->lo[k] = (int32_t)test_below(rng, (uint32_t)(ext - size + 1));
        b->hi[k] = b->lo[k] + size;
        b->vel[k] = (int32_t)test_below(rng, 5u) - 2;
    }
}

/* True when both worlds hold the same sorted pairs (and the same events when asked). */
bool twin_same(bool events)
{
    mbp_sort_pairs(&test_w);
    mbp_sort_pairs(&test_w2);
    uint32_t i1 = 0, i2 = 0;
    mbp_pair p1, p2;
    bool ok = mbp_pair_count(&test_w) == mbp_pair_count(&test_w2);
    while (ok && mbp_next_pair(&test_w, &i1, &p1)) {
        ok = mbp_next_pair(&test_w2, &i2, &p2) && p1.a == p2.a && p1.b == p2.b;
    }
    for (int kind = 0; events && ok && kind < 2; kind++) {
        uint32_t n1, n2;
        const mbp_pair *e1 = kind ? test_ended(&test_w, &n1) : test_begun(&test_w, &n1);
        const mbp_pair *e2 = kind ? test_ended(&test_w2, &n2) : test_begun(&test_w2, &n2);
        ok = n1 == n2;
        for (uint32_t i = 0; ok && e1 != NULL && i < n1; i++) {
            ok = e1[i].a == e2[i].a && e1[i].b == e2[i].b;
        }
    }
    return ok;
}

static void t_add(uint32_t *rng, uint32_t i, int32_t ext)
{
    (void)i;
    tbody b;
    t_place(rng, &b, ext);
    mbp_aabb x = t_box(&b);
    mbp_body h2;
    mbp_status st = mbp_add_box(&test_w, &x, 0u, &b.h);
    CHECK_ST(mbp_add_box(&test_w2, &x, 0u, &h2), st);
    if (st != MBP_OK) {
        return;
    }
    CHECK_EQ(mbp_index(b.h), mbp_index(h2));
    b.live = true;
    g_tb[mbp_index(b.h)] = b;
}

uint32_t twin_run(const mbp_params *p, const twin_opts *o)
{
    mbp_params p2 = *p;
    p2.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, p), MBP_OK);
    CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
    uint32_t rng = o->seed * 2654435761u + 7u;
    int32_t ext = o->extent;
    if (ext == 0) {
        ext = 8;
        while ((uint32_t)ext * (uint32_t)ext * (MBP_DIM == 3 ? (uint32_t)ext : 1u) <
               o->bodies * (MBP_DIM == 3 ? 20u : 10u)) {
            ext++;
        }
    }
    ext *= 4;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_tb[i].live = false;
    }
    uint32_t bad = 0;
    for (uint32_t f = 0; f < o->frames && bad < 3u; f++) {
        uint32_t live = 0;
        for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
            tbody *b = &g_tb[i];
            if (!b->live) {
                continue;
            }
            if (test_below(&rng, 1000u) < o->churn) {
                CHECK_ST(mbp_remove(&test_w, b->h), MBP_OK);
                CHECK_ST(mbp_remove(&test_w2, mbp_handle(&test_w2, (uint16_t)i)), MBP_OK);
                b->live = false;
                continue;
            }
            live++;
            if (test_below(&rng, 1000u) < o->teleport) {
                t_place(&rng, b, ext);
            } else {
                for (int k = 0; k < MBP_DIM; k++) {
                    if (b->lo[k] + b->vel[k] < 0 || b->hi[k] + b->vel[k] > ext) {
                        b->vel[k] = -b->vel[k];
                    }
                    b->lo[k] += b->vel[k];
                    b->hi[k] += b->vel[k];
                }
            }
            mbp_aabb x = t_box(b);
            CHECK_ST(mbp_move_box(&test_w, b->h, &x), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &x), MBP_OK);
        }
        for (; live < o->bodies; live++) {
            t_add(&rng, live, ext);
        }
        mbp_status s1 = mbp_update(&test_w);
        mbp_status s2 = mbp_update(&test_w2);
        CHECK_ST(s1, s2);
        if (s1 != s2 || !twin_same(true)) {
            test_puts("  twin mismatch at frame ");
            test_putu(f);
            test_puts("\n");
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
    return bad;
}
