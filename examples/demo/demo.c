/* SPDX-License-Identifier: MIT */
/* demo.c: 200 bodies bouncing in a box, and the mbp frame loop in one file.
 *
 *   make demo                  on Cortex-M4 under QEMU (mps2-an386), the best backend compiled in
 *   make demo BACKEND=sap      another backend (brute sweep sap grid hash hgrid tree quadtree)
 *   make demo TARGET=host      on this computer
 *
 * Each frame: move the bodies (the "physics" is straight lines and bounces off the walls), tell
 * the world where they are, mbp_update(), then read what happened: the begun and ended events
 * keep a contact count per body up to date, and the pair set says who touches whom now. One line
 * per frame; at the end a picture of the last frame (build/demo.svg). The numbers are integers
 * and the SVG is written with svg.c: no printf, so the same file runs on a bare Cortex-M.
 *
 * The world is the 2D float configuration (config/mbp_config_2d_float.h: 256 bodies, 2048 pairs).
 */
#include "mbp.h"
#include "mbp_port.h"
#include "svg.h"

#if MBP_SCALAR != MBP_FLOAT || MBP_DIM != 2
#error "the demo is written for a 2D float configuration, e.g. config/mbp_config_2d_float.h"
#endif

#define BODIES 200
#define FAST 5          /* bodies moving ten times faster than the rest */
#define FRAMES 60
#define SIDE 100.0f     /* the box the bodies bounce in: [0, SIDE] x [0, SIDE] */

typedef struct {
    float x, y;   /* centre */
    float vx, vy; /* velocity, units per frame */
    float hx, hy; /* half extents (a sphere uses hx as its radius) */
    bool sphere;
    mbp_body h;   /* its handle in the world */
    int contacts; /* overlapping bodies, kept up to date from the events */
} thing;

static mbp_world world; /* all of mbp's memory: no allocation anywhere */
static thing things[BODIES];

/* ---- a little deterministic randomness, so every run draws the same picture ---- */

static uint32_t rng = 12345u;

static float rnd(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return lo + (hi - lo) * (float)(rng >> 8) * (1.0f / 16777216.0f);
}

static void make_thing(thing *t, bool fast)
{
    float size = rnd(0.0f, 1.0f);
    /* Mixed sizes: mostly small, some medium, a few large. */
    float half = size < 0.75f ? rnd(0.5f, 1.5f) : size < 0.95f ? rnd(2.0f, 4.0f) : rnd(6.0f, 9.0f);
    t->sphere = rnd(0.0f, 1.0f) < 0.35f;
    t->hx = half;
    t->hy = t->sphere ? half : half * rnd(0.5f, 1.5f);
    t->x = rnd(t->hx, SIDE - t->hx);
    t->y = rnd(t->hy, SIDE - t->hy);
    float speed = fast ? 3.0f : 0.3f;
    t->vx = rnd(-speed, speed);
    t->vy = rnd(-speed, speed);
    t->contacts = 0;
}

/* The body's volume, as the world wants it. */
static void volume(const thing *t, mbp_aabb *box, mbp_sphere *s)
{
    box->min[0] = t->x - t->hx;
    box->min[1] = t->y - t->hy;
    box->max[0] = t->x + t->hx;
    box->max[1] = t->y + t->hy;
    s->c[0] = t->x;
    s->c[1] = t->y;
    s->r = t->hx;
}

static mbp_status add_to_world(uint32_t i)
{
    mbp_aabb box;
    mbp_sphere s;
    volume(&things[i], &box, &s);
    /* The user value is our own index: pairs and events come back as body indices, and
     * mbp_user() turns one into this index. */
    return things[i].sphere ? mbp_add_sphere(&world, &s, i, &things[i].h)
                            : mbp_add_box(&world, &box, i, &things[i].h);
}

static void step(thing *t)
{
    t->x += t->vx;
    t->y += t->vy;
    if (t->x - t->hx < 0.0f || t->x + t->hx > SIDE) {
        t->vx = -t->vx;
        t->x += 2.0f * t->vx;
    }
    if (t->y - t->hy < 0.0f || t->y + t->hy > SIDE) {
        t->vy = -t->vy;
        t->y += 2.0f * t->vy;
    }
}

static void say(const char *s)
{
    mbp_port_write(s);
}

static int fail(const char *what, mbp_status st)
{
    say("demo: ");
    say(what);
    say(": ");
    say(mbp_status_name(st));
    say("\n");
    return 1;
}

static void draw(uint32_t frame);

int main(void)
{
    /* 1. Initialise the world with the parameters' defaults and the backend we want. */
    mbp_params params;
    mbp_params_default(&params); /* picks the best general backend compiled in */
#ifdef DEMO_BACKEND
    params.backend = DEMO_BACKEND; /* make demo BACKEND=<name> */
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
    params.cell_size = 4.0f; /* about twice the usual body */
#endif
#if MBP_WITH_GRID
    params.grid_origin[0] = 0.0f;
    params.grid_origin[1] = 0.0f;
    params.grid_cells[0] = 25u; /* 25 x 25 cells of 4 units cover the box */
    params.grid_cells[1] = 25u;
#endif
    mbp_status st = mbp_init(&world, &params);
    if (st != MBP_OK) {
        return fail("mbp_init", st);
    }
    say("demo: ");
    svg_int(BODIES);
    say(" bodies, backend ");
    say(mbp_backend_name(params.backend));
    say(", cost in ");
    say(mbp_port_counter_unit());
    say("\n");

    /* 2. Add the bodies. */
    for (uint32_t i = 0; i < BODIES; i++) {
        make_thing(&things[i], i < FAST);
        st = add_to_world(i);
        if (st != MBP_OK) {
            return fail("add", st);
        }
    }

    for (uint32_t frame = 1; frame <= FRAMES; frame++) {
        /* Halfway, the fast bodies leave and new ones arrive: removed bodies end their pairs
         * in the next update's events. */
        if (frame == FRAMES / 2) {
            for (uint32_t i = 0; i < FAST; i++) {
                (void)mbp_remove(&world, things[i].h);
            }
        }

        /* 3. Move: tell the world every body's new volume. This is part of the frame's cost. */
        uint32_t t0 = mbp_port_counter();
        for (uint32_t i = 0; i < BODIES; i++) {
            thing *t = &things[i];
            if (!mbp_valid(&world, t->h)) {
                continue; /* removed this frame */
            }
            step(t);
            mbp_aabb box;
            mbp_sphere s;
            volume(t, &box, &s);
            st = t->sphere ? mbp_move_sphere(&world, t->h, &s) : mbp_move_box(&world, t->h, &box);
            if (st != MBP_OK) {
                return fail("move", st);
            }
        }
        /* 4. Update: finds the pairs overlapping now and the changes since the last update. */
        st = mbp_update(&world);
        uint32_t cost = mbp_port_counter() - t0;
        if (st != MBP_OK) {
            return fail("update", st); /* a full pair set, say: stats.lost_pairs tells how many */
        }

        /* 5. Events: a pair begins when two bodies start to overlap, ends when they part (or
         * one is removed). Each list is sorted and the same for every backend. */
        uint32_t nbegun, nended;
        const mbp_pair *begun = mbp_begun(&world, &nbegun);
        const mbp_pair *ended = mbp_ended(&world, &nended);
        for (uint32_t k = 0; k < nbegun; k++) {
            things[mbp_user(&world, begun[k].a)].contacts++;
            things[mbp_user(&world, begun[k].b)].contacts++;
        }
        for (uint32_t k = 0; k < nended; k++) {
            things[mbp_user(&world, ended[k].a)].contacts--;
            things[mbp_user(&world, ended[k].b)].contacts--;
        }

        if (frame == FRAMES / 2) {
            for (uint32_t i = 0; i < FAST; i++) { /* the index is free again: add new ones */
                make_thing(&things[i], true);
                st = add_to_world(i);
                if (st != MBP_OK) {
                    return fail("add", st);
                }
            }
        }

        say("frame ");
        svg_int((int32_t)frame);
        say(": ");
        svg_int((int32_t)mbp_body_count(&world));
        say(" bodies, ");
        svg_int((int32_t)mbp_pair_count(&world));
        say(" pairs, +");
        svg_int((int32_t)nbegun);
        say(" begun, -");
        svg_int((int32_t)nended);
        say(" ended, ");
        svg_int((int32_t)cost);
        say(" ");
        say(mbp_port_counter_unit());
        say("\n");
    }

    /* 6. Pairs: walk the current overlapping pairs. Each body's contacts, counted from the
     * events alone, must equal the number of pairs it is in now. */
    static int in_pairs[BODIES];
    uint32_t it = 0u;
    mbp_pair p;
    while (mbp_next_pair(&world, &it, &p)) {
        in_pairs[mbp_user(&world, p.a)]++;
        in_pairs[mbp_user(&world, p.b)]++;
    }
    uint32_t wrong = 0u;
    for (uint32_t i = 0; i < BODIES; i++) {
        wrong += things[i].contacts != in_pairs[i] ? 1u : 0u;
    }
    say(wrong == 0u ? "demo: contacts counted from the events match the pairs\n"
                    : "demo: contacts counted from the events DIFFER from the pairs\n");

    draw(FRAMES);
    return wrong == 0u ? 0 : 1;
}

/* ---- the picture: bodies, their boxes, the pairs (printed between marker lines; the Makefile
 * cuts it out into build/demo.svg) ---- */

#define PX 8 /* pixels per unit */
#define MARGIN 20
#define TOP 40 /* room for the title */

static int32_t px(float x)
{
    return MARGIN + (int32_t)(x * (float)PX + 0.5f);
}

static int32_t py(float y) /* SVG's y grows downwards */
{
    return TOP + (int32_t)((SIDE - y) * (float)PX + 0.5f);
}

static void draw(uint32_t frame)
{
    const int32_t size = (int32_t)(SIDE * (float)PX);
    say("-----BEGIN SVG-----\n");
    svg_begin(size + 2 * MARGIN, size + TOP + MARGIN);
    svg_rect(0, 0, size + 2 * MARGIN, size + TOP + MARGIN, "fill=\"white\"");
    svg_text_begin(MARGIN, 26, "font-family=\"sans-serif\" font-size=\"18\"");
    say("mbp demo, frame ");
    svg_int((int32_t)frame);
    say(": ");
    svg_int((int32_t)mbp_body_count(&world));
    say(" bodies, ");
    svg_int((int32_t)mbp_pair_count(&world));
    say(" overlapping pairs (red), backend ");
    say(mbp_backend_name(world.params.backend));
    svg_text_end();
    svg_rect(MARGIN, TOP, size, size, "fill=\"#f4f4f4\" stroke=\"black\" stroke-width=\"2\"");

    /* Bodies: grey (boxes) or blue (spheres) when alone, orange when in a pair; a sphere also
     * shows its box, which is what the broad phase sorts (dashed). Large ones first, so that
     * they do not hide the small ones. */
    for (uint32_t pass = 0; pass < 3u; pass++)
    for (uint32_t i = 0; i < BODIES; i++) {
        const thing *t = &things[i];
        const float big = t->hx > t->hy ? t->hx : t->hy;
        if ((pass == 0u) != (big >= 5.0f) || (pass == 1u) != (big >= 1.8f && big < 5.0f)) {
            continue;
        }
        const bool hit = t->contacts > 0;
        int32_t x0 = px(t->x - t->hx), y0 = py(t->y + t->hy);
        int32_t w = px(t->x + t->hx) - x0, h = py(t->y - t->hy) - y0;
        if (t->sphere) {
            svg_circle(px(t->x), py(t->y), (int32_t)(t->hx * (float)PX + 0.5f),
                       hit ? "fill=\"#ffb060\" fill-opacity=\"0.8\" stroke=\"#c05000\""
                           : "fill=\"#a8c8f0\" fill-opacity=\"0.8\" stroke=\"#3060a0\"");
            svg_rect(x0, y0, w, h, "fill=\"none\" stroke=\"#888\" stroke-dasharray=\"3,3\"");
        } else {
            svg_rect(x0, y0, w, h, hit ? "fill=\"#ffb060\" fill-opacity=\"0.8\" stroke=\"#c05000\""
                                       : "fill=\"#d0d0d0\" fill-opacity=\"0.8\" stroke=\"#606060\"");
        }
        if (i < FAST) { /* the fast ones: a black dot */
            svg_circle(px(t->x), py(t->y), 4, "fill=\"black\"");
        }
    }
    /* Pairs: a red line between the centres of every overlapping pair. */
    uint32_t it = 0u;
    mbp_pair p;
    while (mbp_next_pair(&world, &it, &p)) {
        const thing *a = &things[mbp_user(&world, p.a)];
        const thing *b = &things[mbp_user(&world, p.b)];
        svg_line(px(a->x), py(a->y), px(b->x), py(b->y), "stroke=\"red\" stroke-width=\"2\"");
    }
    svg_end();
    say("-----END SVG-----\n");
}
