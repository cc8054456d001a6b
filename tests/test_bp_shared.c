/* SPDX-License-Identifier: MIT */
/* test_bp_shared.c: the helpers that backends share from lib/mbp_bp.h, tested apart from any
 * backend, so that a build without the quadtree or the grids still runs them. */
#include "mbp_bp.h"
#include "test_util.h"

#if MBP_SCALAR == MBP_FIXED
TEST(bp_cellmap_keeps_a_shift_for_the_powers_of_two_and_only_them)
{
    CHECK_EQ(mbp__cellmap_of(0xFFFFFFFFu).shift, -1);
    CHECK_EQ(mbp__cellmap_of(0xFFFFFFFFu).edge, 0xFFFFFFFFu);
    for (int32_t k = 0; k < 32; k++) {
        uint32_t v = 1u << k;
        CHECK_EQ(mbp__cellmap_of(v).shift, k);
        CHECK_EQ(mbp__cellmap_of(v).edge, v);
        if (k >= 2) {
            CHECK_EQ(mbp__cellmap_of(v - 1u).shift, -1);
            CHECK_EQ(mbp__cellmap_of(v + 1u).shift, -1);
            CHECK_EQ(mbp__cellmap_of(v | 2u).shift, -1);
        }
    }
}

/* The shift a power-of-two cell takes gives the quotient a division gives, and a cell without a
 * shift divides: at 0, at the largest offset, on multiples of the cell and one unit either side,
 * and at random offsets. */
TEST(bp_cell_div_by_shift_or_division_gives_the_floor_of_the_quotient)
{
    const uint32_t cells[] = {1u, 2u, 3u, 8u, 12u, 1000u, 1u << 16, 65537u, 1u << 31};
    uint32_t seed = 11u, wrong = 0u, checked = 0u;
    for (uint32_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
        uint32_t cell = cells[c];
        mbp__cellmap map = mbp__cellmap_of(cell);
        for (uint32_t r = 0; r < 200u; r++) {
            uint32_t x = r == 0u ? 0u : r == 1u ? 0xFFFFFFFFu : test_rand(&seed);
            uint32_t m = x - x % cell; /* the multiple at or below x, and that multiple +- 1 */
            const uint32_t us[] = {x, m, m - 1u, m + 1u};
            for (uint32_t j = 0; j < 4u; j++) {
                wrong += mbp__cell_div(map, us[j]) != us[j] / cell ? 1u : 0u;
                checked++;
            }
        }
    }
    /* Which path ran: the powers of two shift; 3, 12, 1000 and 65537 divide. */
    const mbp__cellmap by8 = {8u, 3}, by12 = {12u, -1}, odd = {12u, 2};
    CHECK_EQ(mbp__cell_div(by8, 100u), 12u);
    CHECK_EQ(mbp__cell_div(by12, 100u), 8u);
    CHECK_EQ(mbp__cell_div(odd, 100u), 25u); /* a shift, when there is one, wins */
    CHECK_EQ(wrong, 0u);
    CHECK_EQ(checked, 9u * 200u * 4u);
}
#endif
