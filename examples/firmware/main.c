/* SPDX-License-Identifier: MIT */
/* examples/firmware/main.c: a firmware that uses mbp, built two ways for the mps2-an386
 * (Cortex-M4F): with make through lib/mbp.mk (Makefile) and with CMake (CMakeLists.txt). `make
 * test` builds both, runs them under QEMU and compares their output (check.sh).
 *
 * The scene, in units of your choice: three crates on a line, a cart driving along it 4 units a
 * frame, a ball falling onto the last crate, a round body beside the middle crate whose box
 * touches the crate's box but whose circle does not, and a ghost body that the filters keep out
 * of every pair. The pairs and events of each frame are worked out by hand in k_expect, so the
 * firmware checks itself: it runs the scene on every backend compiled in (app_mbp_config.h),
 * then three queries, and main() returns 0 only when every result is the expected one.
 *
 * Output goes through the port (port/cortex-m: semihosting under QEMU). Your firmware has its
 * own startup, output and assert hook; mbp itself needs only the hook (port/mbp_port.h).
 */
#include "mbp.h"
#include "mbp_port.h"

/* The bodies; each one's user value is its name here, so pairs are checked by user value and
 * do not depend on which index the world gives a body. */
enum body { CRATE_A, CRATE_B, CRATE_C, CART, BALL, ROUND, GHOST, BODIES };
static const char *const k_name[BODIES] = {"crate-a", "crate-b", "crate-c", "cart",
                                           "ball",    "round",   "ghost"};

/* A pair of bodies by user value, the smaller first. */
#define P(a, b) ((uint8_t)((a) << 4 | (b)))

#define FRAMES 8
#define MAXP 3
typedef struct frame_expect {
    uint8_t n_pairs, pairs[MAXP]; /* overlapping after the update */
    uint8_t n_begun, begun[MAXP]; /* began in this update */
    uint8_t n_ended, ended[MAXP]; /* ended in this update */
} frame_expect;

/* Crates: x 10..12, 20..22, 30..32, y 0..2. Cart: y 0..2, x from 2 + 4f to 4 + 4f in frame f.
 * Ball: radius 1 at x 31, y 10 - 3f until it rests at y 1 from frame 3. Round: radius 2 at
 * (23.5, 3.5); its box reaches down to y 1.5 and left to x 21.5, over crate-b's corner (22, 2),
 * but the corner is 2.12 from its centre. Ghost: x 14..16, y 0..2, category 2, mask 2. */
static const frame_expect k_expect[FRAMES] = {
    /* 0: cart 2..4: nothing; round's box overlaps crate-b's box, the exact test says no */
    {0, {0}, 0, {0}, 0, {0}},
    /* 1: cart 6..8 */
    {0, {0}, 0, {0}, 0, {0}},
    /* 2: cart 10..12 on crate-a */
    {1, {P(CRATE_A, CART)}, 1, {P(CRATE_A, CART)}, 0, {0}},
    /* 3: cart 14..16 over the ghost, which the filters leave out; the ball lands on crate-c */
    {1, {P(CRATE_C, BALL)}, 1, {P(CRATE_C, BALL)}, 1, {P(CRATE_A, CART)}},
    /* 4: cart 18..20 touches crate-b at x 20: boxes are closed, touching is overlapping */
    {2, {P(CRATE_B, CART), P(CRATE_C, BALL)}, 1, {P(CRATE_B, CART)}, 0, {0}},
    /* 5: cart 22..24 still touches crate-b at x 22, and round's circle reaches it (1.5 away) */
    {3, {P(CRATE_B, CART), P(CRATE_C, BALL), P(CART, ROUND)}, 1, {P(CART, ROUND)}, 0, {0}},
    /* 6: cart 26..28 leaves both */
    {1, {P(CRATE_C, BALL)}, 0, {0}, 2, {P(CRATE_B, CART), P(CART, ROUND)}},
    /* 7: cart 30..32 under the ball, on crate-c */
    {3, {P(CRATE_C, CART), P(CRATE_C, BALL), P(CART, BALL)}, 2, {P(CRATE_C, CART), P(CART, BALL)},
     0, {0}},
};

static mbp_world world; /* the firmware owns the world: static, never malloc'd */
static mbp_body body[BODIES];
static mbp_backend backend; /* the backend the world runs */
static int printing;    /* print the frames of the first backend only */
static int mismatches;

/* ---- output, without a C library ---- */

static void put(const char *s)
{
    if (printing) {
        mbp_port_write(s);
    }
}

static void put_u(uint32_t v)
{
    char buf[11];
    char *p = buf + sizeof buf - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    put(p);
}

/* v/100 with two decimals: 25 -> "0.25". */
static void put_hundredths(int32_t v)
{
    put_u((uint32_t)v / 100u);
    put((uint32_t)v % 100u < 10u ? ".0" : ".");
    put_u((uint32_t)v % 100u);
}

static uint8_t pair_code(mbp_pair p)
{
    uint32_t a = mbp_user(&world, p.a), b = mbp_user(&world, p.b);
    return a < b ? P(a, b) : P(b, a);
}

static void put_pair(uint8_t code)
{
    put(k_name[code >> 4]);
    put("+");
    put(k_name[code & 15u]);
}

static void mismatch(const char *what, int frame)
{
    int was = printing;
    printing = 1; /* always say what went wrong */
    put("MISMATCH ");
    put(mbp_backend_name(backend));
    put(" frame ");
    put_u((uint32_t)frame);
    put(": ");
    put(what);
    put("\n");
    printing = was;
    mismatches++;
}

/* True when the n codes of `got` are the n codes of `want`, in any order. */
static int same_set(const uint8_t *got, uint32_t n, const uint8_t *want, uint32_t n_want)
{
    if (n != n_want) {
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        int found = 0;
        for (uint32_t j = 0; j < n_want; j++) {
            found |= got[i] == want[j];
        }
        if (!found) {
            return 0;
        }
    }
    return 1;
}

/* Prints one event list (mbp_begun or mbp_ended); true when it is the expected one. */
static int check_events(const char *kind, const mbp_pair *ev, uint32_t n, const uint8_t *want,
                        uint32_t n_want)
{
    uint8_t got[MAXP];
    if (n > MAXP) {
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        got[i] = pair_code(ev[i]);
        if (i == 0) {
            put("; ");
            put(kind);
        }
        put(" ");
        put_pair(got[i]);
    }
    return same_set(got, n, want, n_want);
}

/* ---- the scene ---- */

static mbp_aabb box_at(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    mbp_aabb b = {{mbp_from_int(x0), mbp_from_int(y0)}, {mbp_from_int(x1), mbp_from_int(y1)}};
    return b;
}

static mbp_sphere ball_at(int32_t frame)
{
    int32_t y = 10 - 3 * frame;
    mbp_sphere s = {{mbp_from_int(31), mbp_from_int(y < 1 ? 1 : y)}, mbp_from_int(1)};
    return s;
}

/* Adds the bodies as they are at frame 0. */
static mbp_status add_bodies(void)
{
    static const int32_t crate_x[3] = {10, 20, 30};
    const mbp_sphere round = {{MBP_LIT(23.5), MBP_LIT(3.5)}, MBP_LIT(2)};
    const mbp_sphere ball = ball_at(0);
    mbp_aabb b;
    mbp_status st = MBP_OK;
    for (int i = 0; i < 3 && st == MBP_OK; i++) {
        b = box_at(crate_x[i], 0, crate_x[i] + 2, 2);
        st = mbp_add_box(&world, &b, (uint32_t)(CRATE_A + i), &body[CRATE_A + i]);
    }
    b = box_at(2, 0, 4, 2);
    if (st == MBP_OK) {
        st = mbp_add_box(&world, &b, CART, &body[CART]);
    }
    if (st == MBP_OK) {
        st = mbp_add_sphere(&world, &ball, BALL, &body[BALL]);
    }
    if (st == MBP_OK) {
        st = mbp_add_sphere(&world, &round, ROUND, &body[ROUND]);
    }
    b = box_at(14, 0, 16, 2);
    if (st == MBP_OK) {
        st = mbp_add_box(&world, &b, GHOST, &body[GHOST]);
    }
    if (st == MBP_OK) {
        /* Category 2 pairs only with bodies whose mask has bit 1, and its mask 2 only with
         * category-2 bodies: none here. */
        st = mbp_set_filter(&world, body[GHOST], 0x0002u, 0x0002u);
    }
    return st;
}

/* A world running backend b, with the bodies as they are at frame 0. */
static mbp_status start(mbp_backend b)
{
    mbp_params params;
    mbp_params_default(&params); /* every field; then change what you need */
    params.backend = b;
    mbp_status st = mbp_init(&world, &params);
    if (st != MBP_OK) {
        return st; /* MBP_E_BACKEND: b is not compiled in (MBP_WITH_<backend> 0) */
    }
    return add_bodies();
}

/* One frame: move, update, then read the pairs and the events, as a game loop would. */
static void run_frame(int f)
{
    const frame_expect *e = &k_expect[f];
    if (f > 0) {
        mbp_aabb cart = box_at(2 + 4 * f, 0, 4 + 4 * f, 2);
        mbp_sphere ball = ball_at(f);
        if (mbp_move_box(&world, body[CART], &cart) != MBP_OK ||
            mbp_move_sphere(&world, body[BALL], &ball) != MBP_OK) {
            mismatch("move refused", f);
        }
    }
    mbp_status st = mbp_update(&world);
    if (st != MBP_OK) {
        mismatch(mbp_status_name(st), f);
    }

    /* Every overlapping pair, in the pair set's own order: here the narrow phase would run. */
    uint8_t got[MAXP];
    uint32_t n = 0, it = 0;
    mbp_pair p;
    while (mbp_next_pair(&world, &it, &p)) {
        if (n < MAXP) {
            got[n] = pair_code(p);
        }
        n++;
    }
    put(mbp_backend_name(backend));
    put(" frame ");
    put_u((uint32_t)f);
    put(": ");
    put_u(n);
    put(n == 1 ? " pair" : " pairs");
    int pairs_ok = n <= MAXP && same_set(got, n, e->pairs, e->n_pairs);

    /* The events: what a game reacts to (a sound on contact, a trigger on leaving). */
    uint32_t nb, ne;
    const mbp_pair *begun = mbp_begun(&world, &nb);
    const mbp_pair *ended = mbp_ended(&world, &ne);
    int begun_ok = check_events("begun", begun, nb, e->begun, e->n_begun);
    int ended_ok = check_events("ended", ended, ne, e->ended, e->n_ended);
    put("\n");
    if (!pairs_ok) {
        mismatch("pairs", f);
    }
    if (!begun_ok) {
        mismatch("begun events", f);
    }
    if (!ended_ok) {
        mismatch("ended events", f);
    }
}

/* Three queries on the world as the scene left it (cart 30..32 under the ball on crate-c). */

/* Prints the names of the n bodies idx[] names and keeps their ids in got[]. */
static void put_bodies(const uint16_t *idx, uint32_t n, uint8_t *got)
{
    for (uint32_t i = 0; i < n && i < BODIES; i++) {
        got[i] = (uint8_t)mbp_user(&world, idx[i]);
        put(" ");
        put(k_name[got[i]]);
    }
    put("\n");
}
static void run_queries(void)
{
    uint16_t idx[BODIES];
    uint8_t got[BODIES];
    uint32_t n;

    /* Which bodies hold the point (31, 1)? crate-c, the cart and the ball. */
    static const uint8_t want_point[3] = {CRATE_C, CART, BALL};
    const mbp_scalar pt[2] = {mbp_from_int(31), mbp_from_int(1)};
    mbp_status st = mbp_query_point(&world, pt, MBP_DEFAULT_MASK, idx, BODIES, &n);
    put(mbp_backend_name(backend));
    put(" query point (31, 1):");
    put_bodies(idx, n, got);
    if (st != MBP_OK || !same_set(got, n, want_point, 3)) {
        mismatch("query point", FRAMES);
    }

    /* A ray along y = 1 from x 0 to 40 against category-1 bodies (not the ghost): the boxes it
     * enters, by entry fraction t then index: crate-a at t 0.25, crate-b at 0.5, then crate-c,
     * the cart and the ball at 0.75 (rays test a sphere body's circle itself: the ray passes
     * through its centre, so it enters at its box's t too). */
    static const uint8_t want_ray[5] = {CRATE_A, CRATE_B, CRATE_C, CART, BALL};
    static const uint8_t want_t100[5] = {25, 50, 75, 75, 75};
    const mbp_scalar p0[2] = {mbp_from_int(0), mbp_from_int(1)};
    const mbp_scalar p1[2] = {mbp_from_int(40), mbp_from_int(1)};
    mbp_hit hit[BODIES];
    st = mbp_raycast(&world, p0, p1, MBP_DEFAULT_CATEGORY, hit, BODIES, &n);
    put(mbp_backend_name(backend));
    put(" raycast (0, 1)-(40, 1):");
    int ray_ok = st == MBP_OK && n == 5u;
    for (uint32_t i = 0; i < n && i < BODIES; i++) {
        /* t in hundredths, rounded down: exact here in float; fixed point rounds t down. */
        int32_t t100 = mbp_to_int(mbp_mul(hit[i].t, mbp_from_int(100)) + MBP_LIT(0.01));
        got[i] = (uint8_t)mbp_user(&world, hit[i].index);
        put(" ");
        put(k_name[got[i]]);
        put("@");
        put_hundredths(t100);
        if (i < 5u && (t100 != want_t100[i] || (i < 2u && got[i] != want_ray[i]))) {
            ray_ok = 0;
        }
    }
    put("\n");
    if (!ray_ok || !same_set(got, n, want_ray, 5)) {
        mismatch("raycast", FRAMES);
    }

    /* Category-2 bodies anywhere in the scene: the filter bits select bodies in queries too. */
    static const uint8_t want_ghost[1] = {GHOST};
    const mbp_aabb all = box_at(0, 0, 40, 12);
    st = mbp_query_box(&world, &all, 0x0002u, idx, BODIES, &n);
    put(mbp_backend_name(backend));
    put(" query box, category 2:");
    put_bodies(idx, n, got);
    if (st != MBP_OK || !same_set(got, n, want_ghost, 1)) {
        mismatch("query box", FRAMES);
    }
}

int main(void)
{
    int backends = 0;
    printing = 1;
    put("mbp firmware example: ");
    put_u(MBP_DIM);
    put(MBP_SCALAR == MBP_FIXED ? "D fixed point" : "D float");
    put(", up to ");
    put_u(MBP_MAX_BODIES);
    put(" bodies, world ");
    put_u((uint32_t)sizeof world);
    put(" bytes\n");

    /* The same scene on every backend compiled in: mbp_init() refuses the others. */
    for (int b = MBP_BRUTE; b <= MBP_TREE; b++) {
        backend = (mbp_backend)b;
        int before = mismatches;
        mbp_status st = start(backend);
        if (st == MBP_E_BACKEND) {
            continue; /* off in app_mbp_config.h */
        }
        printing = backends == 0;
        if (st != MBP_OK) {
            mismatch(mbp_status_name(st), 0);
            continue;
        }
        for (int f = 0; f < FRAMES; f++) {
            run_frame(f);
        }
        run_queries();
        printing = 1;
        if (backends > 0 && mismatches == before) {
            put(mbp_backend_name(backend));
            put(": the same pairs, events and query results\n");
        }
        backends++;
    }

    printing = 1;
    if (backends == 0) {
        put("no backend compiled in\n");
        mismatches++;
    }
    put(mismatches == 0 ? "firmware: ok\n" : "firmware: FAILED\n");
    return mismatches == 0 ? 0 : 1;
}
