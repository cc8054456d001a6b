/* SPDX-License-Identifier: MIT */
/* examples/frame_loop/main.c: the README's example, built and run by `make test`.
 * Two boxes and a circle; the circle falls onto the boxes over a few frames. */
#include <stdio.h>
#include "mbp.h"

static mbp_world world; /* the caller owns the memory: static, never malloc'd */

int main(void)
{
    mbp_body ground, crate, ball;
    mbp_aabb g = {{mbp_from_int(0), mbp_from_int(0)}, {mbp_from_int(20), mbp_from_int(1)}};
    mbp_aabb c = {{mbp_from_int(8), mbp_from_int(1)}, {mbp_from_int(10), mbp_from_int(3)}};
    mbp_sphere s = {{mbp_from_int(9), mbp_from_int(8)}, mbp_from_int(1)};

    if (mbp_init(&world, NULL) != MBP_OK || mbp_add_box(&world, &g, 100u, &ground) != MBP_OK ||
        mbp_add_box(&world, &c, 200u, &crate) != MBP_OK ||
        mbp_add_sphere(&world, &s, 300u, &ball) != MBP_OK) {
        return 1;
    }
    for (int frame = 0; frame < 4; frame++) {
        mbp_status st = mbp_update(&world);          /* one frame of the broad phase */
        uint32_t nb, ne, it = 0;
        const mbp_pair *begun = mbp_begun(&world, &nb); /* pairs that started touching */
        mbp_ended(&world, &ne);
        mbp_pair p;
        printf("frame %d: %s, %u pairs, %u begun, %u ended\n", frame, mbp_status_name(st),
               (unsigned)mbp_pair_count(&world), (unsigned)nb, (unsigned)ne);
        for (uint32_t i = 0; i < nb; i++) {
            printf("  begin %u-%u\n", (unsigned)mbp_user(&world, begun[i].a),
                   (unsigned)mbp_user(&world, begun[i].b));
        }
        while (mbp_next_pair(&world, &it, &p)) { /* all overlapping pairs, by index */
            /* your narrow phase goes here */
        }
        s.c[1] -= mbp_from_int(2); /* the ball falls 2 units a frame */
        mbp_move_sphere(&world, ball, &s);
    }
    (void)ground;
    (void)crate;
    return 0;
}
