/* SPDX-License-Identifier: MIT */
/* bench.c: the bench runner, the same source on the host and on the QEMU targets.
 *
 * For each scene, every compiled backend runs the same frames: a warm-up (frame 0 adds the
 * bodies), then measured frames. A frame's cost is the body operations plus mbp_update(), read
 * with mbp_port_counter() (ns on the host, instructions on Cortex-M under QEMU -icount) minus
 * the counter's own cost, measured once. Brute force runs first: on its first run it records,
 * for every measured frame, the pair count and an order-independent 64-bit digest of the pairs;
 * every other backend's pairs are compared with them on every measured frame (ok column).
 * The host repeats each run and reports the median; QEMU's counts repeat exactly, one run.
 *
 * Output: one "CSV,<row>" line per backend and scene, in the columns of build/bench.csv
 * (docs/bench.md), and "# ..." lines for anything that went wrong. No stdio: the target has none.
 */
#include "bench.h"

#include <stddef.h>

#ifndef BENCH_PLATFORM
#define BENCH_PLATFORM "host"
#endif
/* Bodies of the generated scenes: the capacity, as a user would configure it. */
#ifndef BENCH_N
#define BENCH_N MBP_MAX_BODIES
#endif
#ifndef BENCH_WARMUP
#define BENCH_WARMUP 30u
#endif
/* 100: a backend's cost can come in bursts (bodies added together leave their fat boxes together,
 * every few frames), so a short window would give the phase of the bursts, not the mean. */
#ifndef BENCH_FRAMES
#define BENCH_FRAMES (BENCH_N >= 4096 ? 20u : 100u)
#endif
/* The pile is measured while it settles (frames 3 to 22): after that most of it sleeps. */
#define BENCH_CLUSTER_FRAMES (BENCH_FRAMES < 20u ? BENCH_FRAMES : 20u)
#ifndef BENCH_RUNS
#define BENCH_RUNS (BENCH_N >= 4096 ? 3u : BENCH_N >= 1024 ? 5u : 7u)
#endif
/* Measured frames a run can check against brute force: all of a generated scene's (16 bytes
 * each; the host raises it for recorded scenes, which may have more). */
#ifndef BENCH_MAX_FRAMES
#define BENCH_MAX_FRAMES BENCH_FRAMES
#endif
#define BENCH_MAX_RUNS 15u

typedef struct {
    mbp_backend b;
    uint32_t state_bytes; /* its member of the world's backend union */
} be_info;

static mbp_world g_w;

static const be_info k_backends[] = {
#if MBP_WITH_BRUTE
    {MBP_BRUTE, 0u}, /* first: it is the reference */
#endif
#if MBP_WITH_SWEEP
    {MBP_SWEEP, (uint32_t)sizeof g_w.be.sweep},
#endif
#if MBP_WITH_SAP
    {MBP_SAP, (uint32_t)sizeof g_w.be.sap},
#endif
#if MBP_WITH_GRID
    {MBP_GRID, (uint32_t)sizeof g_w.be.grid},
#endif
#if MBP_WITH_HASH
    {MBP_HASH, (uint32_t)sizeof g_w.be.grid},
#endif
#if MBP_WITH_HGRID
    {MBP_HGRID, (uint32_t)sizeof g_w.be.hgrid},
#endif
#if MBP_WITH_TREE
    {MBP_TREE, (uint32_t)sizeof g_w.be.tree},
#endif
#if MBP_WITH_QUADTREE
    {MBP_QUADTREE, (uint32_t)sizeof g_w.be.quadtree},
#endif
};
#define BACKEND_COUNT (sizeof k_backends / sizeof k_backends[0])

typedef struct {
    uint32_t count;
    uint64_t sum; /* sum of mix(key) over the pairs: the same for any order of the same set */
} digest;

static mbp_body g_h[MBP_MAX_BODIES]; /* id -> handle */
/* A frame of moves only, as an application keeps it: handles and boxes side by side, given to
 * mbp_move_boxes() in one call (filled before the frame's timing starts). */
static mbp_body g_mh[MBP_MAX_BODIES];
static mbp_aabb g_mbox[MBP_MAX_BODIES];
static digest g_ref[BENCH_MAX_FRAMES];
static uint32_t g_ref_frames; /* frames recorded in g_ref for the current scene, 0 = none */
static uint32_t g_overhead;   /* counter reads back to back */
/* The moves of the measured frames of moves only, in the first run of a backend and scene: the
 * counter's units spent in mbp_move_boxes(), and the bodies it moved. */
static uint64_t g_move_cost, g_moved;

/* ---- output ---- */

void bench_puts(const char *str)
{
    mbp_port_write(str);
}

void bench_putu(uint64_t v)
{
    char buf[24];
    int i = 23;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    mbp_port_write(&buf[i]);
}

/* num / den rounded to one decimal: "12.3". */
static void put_dec1(uint64_t num, uint64_t den)
{
    uint64_t tenths = den != 0u ? (num * 10u + den / 2u) / den : 0u;
    bench_putu(tenths / 10u);
    bench_puts(".");
    bench_putu(tenths % 10u);
}

static void note(const be_info *be, const bench_source *s, const char *what, uint32_t frame,
                 mbp_status st)
{
    bench_puts("# ");
    bench_puts(mbp_backend_name(be->b));
    bench_puts(" ");
    bench_puts(s->name);
    bench_puts(" n=");
    bench_putu(s->n);
    bench_puts(" frame ");
    bench_putu(frame);
    bench_puts(": ");
    bench_puts(what);
    if (st != MBP_OK) {
        bench_puts(" ");
        bench_puts(mbp_status_name(st));
    }
    bench_puts("\n");
}

/* ---- the pair digest ---- */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static digest pair_digest(const mbp_world *w)
{
    digest d = {0u, 0u};
    uint32_t it = 0u;
    mbp_pair p;
    while (mbp_next_pair(w, &it, &p)) {
        d.count++;
        d.sum += mix64((uint64_t)p.a << 16 | p.b);
    }
    return d;
}

/* ---- one run ---- */

typedef enum { RUN_TIME, RUN_RECORD, RUN_CHECK } run_mode;

/* Runs s once on backend be. Returns false when an operation or an update failed (a note says
 * which); *cost is the sum over measured frames, *worst the dearest of them, *pairs the sum of
 * pair counts, *match whether
 * every checked frame had the reference's pairs. */
static bool run_once(bench_source *s, const be_info *be, run_mode mode, uint64_t *cost,
                     uint64_t *worst, uint64_t *pairs, bool *match)
{
    *cost = 0u;
    *worst = 0u;
    *pairs = 0u;
    *match = true;
    mbp_params p;
    bench_params(&p, be->b, s);
    mbp_status st = mbp_init(&g_w, &p);
    if (st != MBP_OK) {
        note(be, s, "init failed:", 0u, st);
        return false;
    }
    s->reset(s);
    for (uint32_t i = 0; i < s->n; i++) {
        g_h[i].slot1 = 0u;
        g_h[i].gen = 0u;
    }
    bool good = true;
    for (uint32_t f = 0; f < s->warmup + s->frames; f++) {
        uint32_t m;
        const bench_op *ops = s->frame(s, f, &m);
        mbp_status bad = MBP_OK;
        bool moves_only = bench_gather_moves(ops, m, g_h, g_mh, g_mbox);

        uint32_t t0 = mbp_port_counter();
        if (moves_only) {
            bad = mbp_move_boxes(&g_w, m, g_mh, g_mbox, NULL);
            if (f >= s->warmup && mode != RUN_TIME) {
                uint32_t dm = mbp_port_counter() - t0;
                g_move_cost += dm > g_overhead ? dm - g_overhead : 0u;
                g_moved += m;
            }
        }
        for (uint32_t j = 0; j < m && !moves_only; j++) {
            mbp_status r = bench_apply_op(&g_w, s, g_h, &ops[j]);
            if (r != MBP_OK) {
                bad = r;
            }
        }
        st = mbp_update(&g_w);
        uint32_t t1 = mbp_port_counter();

        if (bad != MBP_OK || st != MBP_OK) {
            if (good) {
                note(be, s, bad != MBP_OK ? "body operation failed:" : "update failed:", f,
                     bad != MBP_OK ? bad : st);
            }
            good = false;
        }
        if (f < s->warmup) {
            continue;
        }
        uint32_t dt = t1 - t0;
        uint64_t c = dt > g_overhead ? dt - g_overhead : 0u;
        *cost += c;
        *worst = c > *worst ? c : *worst;
        uint32_t k = f - s->warmup;
        if (mode == RUN_TIME || k >= BENCH_MAX_FRAMES) {
            *pairs += mbp_pair_count(&g_w);
            continue;
        }
        digest d = pair_digest(&g_w);
        *pairs += d.count;
        if (mode == RUN_RECORD) {
            g_ref[k] = d;
            g_ref_frames = k + 1u;
        } else if (k < g_ref_frames && (d.count != g_ref[k].count || d.sum != g_ref[k].sum)) {
            if (*match) {
                note(be, s, "pairs differ from brute force", f, MBP_OK);
            }
            *match = false;
        }
    }
    return good;
}

static void sort_u64(uint64_t *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        uint32_t j = i;
        for (; j > 0u && a[j - 1u] > v; j--) {
            a[j] = a[j - 1u];
        }
        a[j] = v;
    }
}

void bench_source_run(bench_source *s)
{
    const bool instr = mbp_port_counter_unit()[0] == 'i';
    uint32_t runs = s->runs < 1u ? 1u : s->runs > BENCH_MAX_RUNS ? BENCH_MAX_RUNS : s->runs;
    g_ref_frames = 0u;
    for (uint32_t bi = 0; bi < BACKEND_COUNT; bi++) {
        const be_info *be = &k_backends[bi];
        uint64_t costs[BENCH_MAX_RUNS], worsts[BENCH_MAX_RUNS], pairs = 0u;
        /* Brute force above 1024 bodies: one run (it takes most of the bench's time). */
        uint32_t be_runs = be->b == MBP_BRUTE && s->n > 1024u ? 1u : runs;
        bool good = true, match = true;
        g_move_cost = 0u;
        g_moved = 0u;
        for (uint32_t r = 0; r < be_runs && good; r++) {
            run_mode mode = r > 0u ? RUN_TIME : be->b == MBP_BRUTE ? RUN_RECORD : RUN_CHECK;
            uint64_t pr = 0u;
            bool mr = true;
            good = run_once(s, be, mode, &costs[r], &worsts[r], &pr, &mr);
            if (r == 0u) {
                pairs = pr;
                match = mr;
            }
        }
        uint64_t frames = s->frames;
        bench_puts("CSV,");
        bench_puts(mbp_backend_name(be->b));
        bench_puts(",");
        bench_puts(s->name);
        bench_puts(",");
        bench_putu(s->n);
        bench_puts("," BENCH_PLATFORM ",");
        if (good) {
            sort_u64(costs, be_runs);
            uint64_t per = (costs[be_runs / 2u] + frames / 2u) / frames;
            if (!instr) {
                bench_putu(per);
            }
            bench_puts(",");
            if (instr) {
                bench_putu(per);
            }
        } else {
            bench_puts(",");
        }
        bench_puts(",");
        put_dec1(pairs, frames);
        bench_puts(",");
        /* ok: 1 when every measured frame matched brute force (brute itself is the reference);
         * empty when brute force is not compiled in, so nothing could be checked. */
        if (g_ref_frames > 0u) {
            bench_puts(good && match ? "1" : "0");
        }
        bench_puts(",");
        uint64_t world = offsetof(mbp_world, be) + be->state_bytes;
        bench_putu((world + MBP_MAX_BODIES / 2u) / MBP_MAX_BODIES);
        bench_puts(",");
        if (good) { /* the dearest measured frame: the median over the runs */
            sort_u64(worsts, be_runs);
            bench_putu(worsts[be_runs / 2u]);
        }
        bench_puts(",");
        if (good && g_moved > 0u) { /* one moved body, in frames of moves only */
            put_dec1(g_move_cost, g_moved);
        }
        bench_puts("\n");
    }
}

static void measure_overhead(void)
{
    uint32_t best = 0xFFFFFFFFu;
    for (int i = 0; i < 32; i++) {
        uint32_t a = mbp_port_counter();
        uint32_t b = mbp_port_counter();
        if (b - a < best) {
            best = b - a;
        }
    }
    g_overhead = best;
}

#ifdef BENCH_HOST
int bench_replay(const char *path); /* replay.c */

int main(int argc, char **argv)
{
    mbp_port_counter_init();
    measure_overhead();
    if (argc == 3 && argv[1][0] == '-' && argv[1][1] == 's') { /* -s file */
        return bench_replay(argv[2]);
    }
    if (argc != 1) {
        bench_puts("usage: bench [-s scene-file]\n");
        return 2;
    }
#else
int bench_replay_table(void); /* replay.c: a recorded scene's cut-down, built in */

int main(void)
{
    mbp_port_counter_init();
    measure_overhead();
#endif
#ifdef BENCH_REPLAY_TABLE
    return bench_replay_table();
#else
    static bench_source s;
    for (int sc = 0; sc < SCENE_COUNT; sc++) {
        scene_make(&s, (bench_scene)sc, BENCH_N);
        s.warmup = sc == SCENE_CLUSTER ? 3u : BENCH_WARMUP;
        s.frames = sc == SCENE_CLUSTER ? BENCH_CLUSTER_FRAMES : BENCH_FRAMES;
        s.runs = BENCH_RUNS;
        bench_source_run(&s);
    }
    return 0;
#endif
}
