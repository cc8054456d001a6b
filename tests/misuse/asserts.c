/* SPDX-License-Identifier: MIT */
/* asserts.c: programmer errors reach the assert hook with a message a user can act on.
 *
 * The host port's hook prints "ASSERT <message> at <file>:<line>" and exits with status 3, so
 * the test suite (which must go on after a failure) cannot take these: tools/check-asserts.sh
 * runs this program once per case and checks what the hook printed. Usage: asserts <case>.
 */
#include <stdio.h>
#include <string.h>
#include "mbp.h"

static mbp_world w; /* zero: never initialised */

static mbp_aabb unit_box(void)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = 0;
        b.max[k] = MBP_ONE;
    }
    return b;
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    mbp_aabb b = unit_box();
    mbp_body h;
    uint32_t n;
    if (strcmp(c, "null_add") == 0) {
        (void)mbp_add_box(NULL, &b, 0u, &h);
    } else if (strcmp(c, "null_update") == 0) {
        (void)mbp_update(NULL);
    } else if (strcmp(c, "uninit_add") == 0) {
        (void)mbp_add_box(&w, &b, 0u, &h);
    } else if (strcmp(c, "uninit_update") == 0) {
        (void)mbp_update(&w);
    } else if (strcmp(c, "uninit_query") == 0) {
        (void)mbp_query_box(&w, &b, 0xFFFFu, NULL, 0u, &n);
    } else if (strcmp(c, "user_out_of_range") == 0) {
        if (mbp_init(&w, NULL) == MBP_OK) {
            (void)mbp_user(&w, 9999u);
        }
    } else if (strcmp(c, "user_in_range") == 0) {
        if (mbp_init(&w, NULL) == MBP_OK && mbp_add_box(&w, &b, 42u, &h) == MBP_OK) {
            return mbp_user(&w, mbp_index(h)) == 42u && mbp_user(&w, MBP_MAX_BODIES - 1u) == 0u
                       ? 0
                       : 1;
        }
        return 1;
    } else {
        fprintf(stderr, "asserts: unknown case '%s'\n", c);
        return 2;
    }
    return 0; /* the hook did not stop the program */
}
