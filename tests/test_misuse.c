/* SPDX-License-Identifier: MIT */
/* test_misuse.c: handles across re-initialisation. (Misuse that asserts is checked outside the
 * suite, by tools/check-asserts.sh: the host's assert hook stops the program.) */
#include "test_util.h"

TEST(a_handle_from_before_re_initialising_the_world_is_refused_afterwards)
{
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body old, nw;
    CHECK_ST(mbp_init(&test_w, NULL), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 1u, &old), MBP_OK);
    CHECK_ST(mbp_init(&test_w, NULL), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 2u, &nw), MBP_OK);
    CHECK_EQ(mbp_index(nw), mbp_index(old)); /* the same slot: only the generation tells them */
    CHECK(!mbp_valid(&test_w, old));
    CHECK_ST(mbp_remove(&test_w, old), MBP_E_STALE);
    CHECK(mbp_valid(&test_w, nw));
    CHECK_EQ(mbp_user(&test_w, mbp_index(nw)), 2u);
}

TEST(every_re_initialisation_gives_the_first_slot_a_new_generation)
{
    enum { INITS = 8 };
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body h[INITS];
    for (int k = 0; k < INITS; k++) {
        CHECK_ST(mbp_init(&test_w, NULL), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h[k]), MBP_OK);
        /* a removed body's handle too stays refused across the next init */
        CHECK_ST(mbp_remove(&test_w, h[k]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h[k]), MBP_OK);
    }
    for (int k = 0; k < INITS; k++) {
        CHECK(h[k].gen != 0u);
        for (int j = 0; j < k; j++) {
            CHECK(h[j].gen != h[k].gen || h[j].slot1 != h[k].slot1);
        }
        CHECK_EQ(mbp_valid(&test_w, h[k]), k == INITS - 1);
    }
}

TEST(a_world_initialised_in_fresh_memory_refuses_the_null_handle)
{
    mbp_body null = {0u, 0u};
    test_w.magic = 0u; /* as a struct never initialised */
    CHECK_ST(mbp_init(&test_w, NULL), MBP_OK);
    CHECK(!mbp_valid(&test_w, null));
    mbp_body h = mbp_handle(&test_w, 0u);
    CHECK_EQ(h.slot1, 0u);
}
