/* SPDX-License-Identifier: MIT */
/* det.c: one scripted scene, run on every backend compiled in; prints a hash of everything the
 * library reported. make determinism (tools/determinism/det.mk) runs it on the host and on every
 * QEMU machine and fails unless all hashes agree.
 *
 * The scene (DET_FRAMES frames): boxes and spheres at coordinates in tenths of a unit (inexact
 * in float and in fixed point alike, so rounding is exercised), moving and bouncing, touching
 * edges, teleports, removals and re-adds, filter changes; two pairs of spheres placed each frame
 * at exactly touching distance in real numbers (a 3-4-5 or 1-2-2 triangle), where the rounding of
 * the squared distances decides (built with -ffp-contract=fast on an x86 with FMA, the float
 * hashes change: the test sees fused multiply-adds); after each update a box, a point and a ray
 * query (and the first hit). The hashes are FNV-1a 64 over bytes written in a fixed order,
 * so they do not depend on the machine's endianness or struct layout:
 *
 *   events  per frame: the update's status; stats pairs, begun, ended, lost_pairs, lost_events;
 *           the pairs after mbp_sort_pairs(); the begun and ended lists; each query's status,
 *           count and results (ray hits with the bits of t); for a ray query with room for
 *           2 hits, its status and count. The same for every backend.
 *   order   per frame: the pairs in the pair set's own walking order, and stats.tests: the same
 *           on every machine for one backend, different between backends.
 *
 * Output, one line per backend, then the check that every backend gave the same events hash:
 *   det <platform> <config> <backend> <events hash> <order hash>
 *   det <platform> <config> all <events hash>              (or "... all MISMATCH", exit 1)
 */
#include "mbp.h"
#include "mbp_port.h"

#ifndef DET_PLATFORM
#define DET_PLATFORM "host"
#endif
#ifndef DET_CONFIG
#define DET_CONFIG "?"
#endif
#ifndef DET_FRAMES
#define DET_FRAMES 120u
#endif

#define N_RANDOM (MBP_MAX_BODIES - 8u) /* room to add before removed slots free up */
#define N_BODIES (N_RANDOM + 4u)       /* and two pairs of probe spheres that just touch */
#define SPAN 300                      /* the scene is 30 units wide, in tenths */

static mbp_world w;
static mbp_body h[N_BODIES];
static int32_t pos[N_BODIES][MBP_DIM], vel[N_BODIES][MBP_DIM], size[N_BODIES];
static bool live[N_BODIES];
static uint32_t rng;

/* ---- FNV-1a 64, fed with little-endian words ---- */
typedef struct {
    uint64_t h;
} fnv;

static void fnv_byte(fnv *f, uint8_t b)
{
    f->h ^= b;
    f->h *= 0x100000001B3ull;
}

static void fnv_u32(fnv *f, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        fnv_byte(f, (uint8_t)(v >> (8 * i)));
    }
}

static void fnv_scalar(fnv *f, mbp_scalar s)
{
#if MBP_SCALAR == MBP_FIXED
    fnv_u32(f, (uint32_t)s);
#else
    union {
        float f;
        uint32_t u;
    } bits;
    bits.f = s;
    fnv_u32(f, bits.u);
#endif
}

static void fnv_pair(fnv *f, mbp_pair p)
{
    fnv_u32(f, ((uint32_t)p.a << 16) | p.b);
}

/* ---- the scene ---- */
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (uint32_t)(((uint64_t)rng * n) >> 32);
}

static mbp_scalar tenths(int32_t t)
{
    return mbp_from_ratio(t, 10);
}

/* Body i's volume from pos and size: spheres for every fourth body, boxes otherwise. */
static bool is_sphere(uint32_t i)
{
    return i >= N_RANDOM || (i & 3u) == 3u;
}

static mbp_status place(uint32_t i, bool add)
{
    if (is_sphere(i)) {
        mbp_sphere s;
        for (int k = 0; k < MBP_DIM; k++) {
            s.c[k] = tenths(pos[i][k]);
        }
        s.r = tenths(size[i]);
        return add ? mbp_add_sphere(&w, &s, i, &h[i]) : mbp_move_sphere(&w, h[i], &s);
    }
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        /* Boxes on even tenths with even sizes touch exactly, edge to edge, now and then. */
        b.min[k] = tenths(pos[i][k]);
        b.max[k] = tenths(pos[i][k] + size[i] + (int32_t)k);
    }
    return add ? mbp_add_box(&w, &b, i, &h[i]) : mbp_move_box(&w, h[i], &b);
}

static void spawn(uint32_t i)
{
    for (int k = 0; k < MBP_DIM; k++) {
        pos[i][k] = (int32_t)rnd(SPAN);
        vel[i][k] = (int32_t)rnd(15u) - 7;
    }
    size[i] = 1 + (int32_t)rnd(is_sphere(i) ? 25u : 40u);
}

/* Probe spheres i and i + 1: centres k * (3, 4) apart with radii 2k and 3k (3D: k * (1, 2, 2),
 * radii k and 2k), so they touch exactly in real numbers. */
static void probe(uint32_t i)
{
    int32_t k = 1 + (int32_t)rnd(20u);
    for (int c = 0; c < MBP_DIM; c++) {
        pos[i][c] = (int32_t)rnd(SPAN);
    }
#if MBP_DIM == 2
    pos[i + 1u][0] = pos[i][0] + 3 * k;
    pos[i + 1u][1] = pos[i][1] + 4 * k;
    size[i] = 2 * k;
    size[i + 1u] = 3 * k;
#else
    pos[i + 1u][0] = pos[i][0] + k;
    pos[i + 1u][1] = pos[i][1] + 2 * k;
    pos[i + 1u][2] = pos[i][2] + 2 * k;
    size[i] = k;
    size[i + 1u] = 2 * k;
#endif
}

static bool check(mbp_status st, mbp_status want, const char *what)
{
    if (st == want) {
        return true;
    }
    mbp_port_write("det: ");
    mbp_port_write(what);
    mbp_port_write(" returned ");
    mbp_port_write(mbp_status_name(st));
    mbp_port_write("\n");
    return false;
}

static void hash_query(fnv *ev, mbp_status st, uint32_t count, const uint16_t *idx,
                       const mbp_hit *hits)
{
    fnv_u32(ev, (uint32_t)st);
    fnv_u32(ev, count);
    if (idx == NULL && hits == NULL) {
        return; /* a truncated call: status and count only */
    }
    for (uint32_t j = 0; j < count && j < N_BODIES; j++) {
        if (hits != NULL) {
            fnv_u32(ev, hits[j].index);
            fnv_scalar(ev, hits[j].t);
        } else {
            fnv_u32(ev, idx[j]);
        }
    }
}

/* Runs the scene on backend b; false on an unexpected status. */
static bool scene(mbp_backend b, fnv *ev, fnv *ord)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    p.cell_size = mbp_from_int(8);
    rng = 0x2545F491u;
    if (!check(mbp_init(&w, &p), MBP_OK, "mbp_init")) {
        return false;
    }
    for (uint32_t i = 0; i < N_BODIES; i++) {
        if (i < N_RANDOM) {
            spawn(i);
        } else if (((i - N_RANDOM) & 1u) == 0u) {
            probe(i);
        }
        live[i] = true;
        if (!check(place(i, true), MBP_OK, "add")) {
            return false;
        }
        if (i % 5u == 4u) { /* category 2 does not pair with category 2 */
            (void)mbp_set_filter(&w, h[i], 0x0002u, 0xFFFDu);
        }
    }
    for (uint32_t f = 0; f < DET_FRAMES; f++) {
        /* Removals, and re-adds of the bodies removed a frame earlier (their slots are free). */
        for (uint32_t i = 0; i < N_RANDOM; i++) {
            if (!live[i] && f % 10u == 6u) {
                spawn(i);
                live[i] = true;
                if (!check(place(i, true), MBP_OK, "re-add")) {
                    return false;
                }
            }
        }
        if (f % 10u == 5u) {
            for (uint32_t r = 0; r < 2u; r++) {
                uint32_t i = rnd(N_RANDOM);
                if (live[i]) {
                    live[i] = false;
                    if (!check(mbp_remove(&w, h[i]), MBP_OK, "remove")) {
                        return false;
                    }
                }
            }
        }
        if (f % 20u == 9u) {
            uint32_t i = rnd(N_RANDOM);
            uint16_t cat = (uint16_t)(1u << rnd(3u)); /* one draw per statement: C leaves the */
            uint16_t mask = (uint16_t)(0xFFFFu ^ (1u << rnd(3u))); /* order of arguments open */
            if (live[i]) {
                (void)mbp_set_filter(&w, h[i], cat, mask);
            }
        }
        for (uint32_t i = N_RANDOM; i < N_BODIES; i += 2u) {
            probe(i);
            if (!check(place(i, false), MBP_OK, "move") || !check(place(i + 1u, false), MBP_OK, "move")) {
                return false;
            }
        }
        for (uint32_t i = 0; i < N_RANDOM; i++) {
            if (!live[i]) {
                continue;
            }
            bool teleport = f % 15u == 7u && rnd(8u) == 0u;
            if (!teleport && rnd(2u) == 0u) {
                continue; /* half the bodies rest each frame */
            }
            for (int k = 0; k < MBP_DIM; k++) {
                if (teleport) {
                    pos[i][k] = (int32_t)rnd(SPAN);
                    continue;
                }
                pos[i][k] += vel[i][k];
                if (pos[i][k] < 0 || pos[i][k] > SPAN) {
                    vel[i][k] = -vel[i][k];
                    pos[i][k] += 2 * vel[i][k];
                }
            }
            if (!check(place(i, false), MBP_OK, "move")) {
                return false;
            }
        }

        mbp_status st = mbp_update(&w);
        if (!check(st, MBP_OK, "mbp_update")) {
            return false; /* the configuration has room: any loss is a failure here */
        }
        const mbp_stats *s = mbp_get_stats(&w);
        fnv_u32(ev, (uint32_t)st);
        fnv_u32(ev, s->pairs);
        fnv_u32(ev, s->begun);
        fnv_u32(ev, s->ended);
        fnv_u32(ev, s->lost_pairs);
        fnv_u32(ev, s->lost_events);
        fnv_u32(ord, s->tests);

        uint32_t it = 0u;
        mbp_pair pr;
        while (mbp_next_pair(&w, &it, &pr)) {
            fnv_pair(ord, pr);
        }
        mbp_sort_pairs(&w);
        it = 0u;
        while (mbp_next_pair(&w, &it, &pr)) {
            fnv_pair(ev, pr);
        }
        uint32_t n;
        const mbp_pair *e = mbp_begun(&w, &n);
        fnv_u32(ev, n);
        for (uint32_t j = 0; j < n; j++) {
            fnv_pair(ev, e[j]);
        }
        e = mbp_ended(&w, &n);
        fnv_u32(ev, n);
        for (uint32_t j = 0; j < n; j++) {
            fnv_pair(ev, e[j]);
        }

        /* Queries: a box, a point, a ray and its first hit, at places drawn from the scene, with
         * room for every result; then the ray again with room for 2 (a truncated result keeps the
         * first hits, whatever the backend's order). */
        uint16_t idx[N_BODIES];
        mbp_hit hits[N_BODIES];
        mbp_aabb q;
        mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t lo = (int32_t)rnd(SPAN);
            q.min[k] = tenths(lo);
            q.max[k] = tenths(lo + 1 + (int32_t)rnd(60u));
            p0[k] = tenths((int32_t)rnd(SPAN));
            p1[k] = tenths((int32_t)rnd(SPAN));
        }
        st = mbp_query_box(&w, &q, 0xFFFFu, idx, N_BODIES, &n);
        hash_query(ev, st, n, idx, NULL);
        st = mbp_query_point(&w, p0, 0xFFFFu, idx, N_BODIES, &n);
        hash_query(ev, st, n, idx, NULL);
        st = mbp_raycast(&w, p0, p1, 0xFFFFu, hits, N_BODIES, &n);
        hash_query(ev, st, n, NULL, hits);
        st = mbp_raycast(&w, p0, p1, 0xFFFFu, hits, 2u, &n);
        hash_query(ev, st, n, NULL, NULL);
        hash_query(ev, MBP_OK, n < 2u ? n : 2u, NULL, hits); /* the two first hits it keeps */
        bool found = false;
        st = mbp_raycast_first(&w, p0, p1, 0xFFFFu, hits, &found);
        hash_query(ev, st, found ? 1u : 0u, NULL, hits);
    }
    return true;
}

static void put_hex(uint64_t v)
{
    char buf[17];
    for (int i = 15; i >= 0; i--) {
        buf[i] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    }
    buf[16] = '\0';
    mbp_port_write(buf);
}

static void put_head(const char *what)
{
    mbp_port_write("det " DET_PLATFORM " " DET_CONFIG " ");
    mbp_port_write(what);
    mbp_port_write(" ");
}

int main(void)
{
    uint64_t first = 0u;
    uint32_t runs = 0u;
    bool ok = true, same = true;
    for (int b = (int)MBP_BRUTE; b <= (int)MBP_QUADTREE; b++) {
        mbp_params p;
        mbp_params_default(&p);
        p.backend = (mbp_backend)b;
        if (mbp_init(&w, &p) == MBP_E_BACKEND) {
            continue; /* not compiled in */
        }
        fnv ev = {0xCBF29CE484222325ull}, ord = {0xCBF29CE484222325ull};
        if (!scene((mbp_backend)b, &ev, &ord)) {
            ok = false;
        }
        put_head(mbp_backend_name((mbp_backend)b));
        put_hex(ev.h);
        mbp_port_write(" ");
        put_hex(ord.h);
        mbp_port_write("\n");
        if (runs++ == 0u) {
            first = ev.h;
        } else if (ev.h != first) {
            same = false;
        }
    }
    put_head("all");
    if (ok && same && runs > 0u) {
        put_hex(first);
        mbp_port_write("\n");
        return 0;
    }
    mbp_port_write(ok ? "MISMATCH\n" : "FAILED\n");
    return 1;
}
