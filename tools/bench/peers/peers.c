/* SPDX-License-Identifier: MIT */
/* peers.c: the make bench-peers program (host only): every mbp backend, Bullet, Box2D and
 * Chipmunk's broad phases, brute force and a plain sort-and-sweep, on make bench's scenes.
 *
 *   peers check [-m method] [-S scene,...] [-s scene-file]   every frame's pairs of every method
 *       compared with brute force's; the median wall time per measured frame; the bytes each
 *       method holds (-m: that method only; -S: those generated scenes only; -s: a recorded one)
 *   peers count [-m method] [-S scene,...] [-s scene-file]   the same frames with no check, for
 *       valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no: instructions are
 *       collected inside the measured frames only, and dumped once per method and scene, labelled
 *       "method,scene,n,frames" (tools/bench/peers/run.sh adds them up)
 *
 * Output: "CSV,..." (check) or "CG,..." (count) lines, one per method and scene; the columns are
 * in run.sh and docs/bench.md. A method whose pairs differ from brute force is reported with the
 * pairs it missed and added over all frames; the program fails (status 1) only when an mbp
 * backend differs.
 */
#include "peers.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#ifndef BENCH_N
#define BENCH_N MBP_MAX_BODIES
#endif
/* Frames: fewer at large n, so that a full run stays within minutes under callgrind. */
#define PEERS_WARMUP (BENCH_N >= 16384 ? 10u : 30u)
#define PEERS_FRAMES (BENCH_N >= 16384 ? 5u : BENCH_N >= 4096 ? 20u : 100u)
/* A recorded scene: its first frames only (a second at 60 frames per second). */
#define PEERS_REPLAY_FRAMES 60u
/* Brute force (the reference and mbp's) is counted under callgrind up to this n only: its n^2/2
 * tests would take most of the run above it. The check runs it at every n. */
#ifndef PEERS_COUNT_BRUTE_MAX
#define PEERS_COUNT_BRUTE_MAX 256u
#endif

static mbp_aabb g_boxes[MBP_MAX_BODIES];
mbp_aabb *g_box = g_boxes;

/* The pairs of the current frame: keys a << 16 | b, a < b. */
static uint32_t *g_keys;
static size_t g_nkeys, g_capkeys;

static bool g_count;        /* count mode: no check, callgrind dumps */
static const char *g_only;   /* -m: one method */
static const char *g_scenes; /* -S: generated scenes named in this comma list only */
static bool g_mbp_differs;
/* Ids below this are the scene's static bodies (bench_source.statics): two of them never make a
 * pair. mbp adds them with mbp_add_static_box and reports no such pair; the peers' structures
 * have no static class here and find them, and this test drops them. */
static uint32_t g_statics;

__attribute__((noinline)) void peer_pair(uint32_t a, uint32_t b)
{
    const mbp_aabb *p = &g_box[a], *q = &g_box[b];
    if (a < g_statics && b < g_statics) {
        return;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        if (p->min[k] > q->max[k] || q->min[k] > p->max[k]) {
            return;
        }
    }
    if (g_nkeys == g_capkeys) { /* main() reserves room enough for the usual scenes */
        g_capkeys = 2u * g_capkeys;
        g_keys = realloc(g_keys, g_capkeys * sizeof *g_keys);
        if (g_keys == NULL) {
            fputs("peers: out of memory\n", stderr);
            exit(2);
        }
    }
    g_keys[g_nkeys++] = a < b ? a << 16 | b : b << 16 | a;
}

/* One frame, the measured unit: the frame's operations, the update, the pair walk. */
__attribute__((noinline)) static void run_frame(const peer_method *m, void *x, const bench_op *ops,
                                                uint32_t count)
{
    for (uint32_t j = 0; j < count; j++) {
        const bench_op *o = &ops[j];
        if (o->kind == BENCH_ADD) {
            g_box[o->id] = o->box;
            m->add(x, o->id);
        } else if (o->kind == BENCH_MOVE) {
            g_box[o->id] = o->box;
            m->move(x, o->id);
        } else {
            m->remove(x, o->id);
        }
    }
    m->update(x);
    g_nkeys = 0u;
    m->walk(x);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The reference: brute force's sorted pairs of every frame, frame f at g_ref[g_refat[f]..]. */
static uint32_t *g_ref;
static size_t g_nref, g_capref, *g_refat;

/* Sorts the frame's keys and takes the duplicates out; returns how many there were. */
static size_t sort_unique(void)
{
    qsort(g_keys, g_nkeys, sizeof *g_keys, cmp_u32);
    size_t u = 0u;
    for (size_t i = 0; i < g_nkeys; i++) {
        if (u == 0u || g_keys[u - 1u] != g_keys[i]) {
            g_keys[u++] = g_keys[i];
        }
    }
    size_t dup = g_nkeys - u;
    g_nkeys = u;
    return dup;
}

typedef struct {
    uint64_t missed, added, dup, pairs;
    uint32_t frames_bad;
} check;

static void compare(uint32_t f, check *c)
{
    const uint32_t *r = g_ref + g_refat[f];
    size_t nr = g_refat[f + 1u] - g_refat[f], i = 0u, j = 0u;
    uint64_t missed = 0u, added = 0u;
    while (i < nr || j < g_nkeys) {
        if (j == g_nkeys || (i < nr && r[i] < g_keys[j])) {
            missed++, i++;
        } else if (i == nr || g_keys[j] < r[i]) {
            added++, j++;
        } else {
            i++, j++;
        }
    }
    c->missed += missed;
    c->added += added;
    c->frames_bad += missed + added > 0u;
}

static void record(uint32_t f)
{
    if (g_nref + g_nkeys > g_capref) {
        g_capref = 2u * (g_nref + g_nkeys) + 65536u;
        g_ref = realloc(g_ref, g_capref * sizeof *g_ref);
    }
    if (g_ref == NULL) {
        fputs("peers: out of memory\n", stderr);
        exit(2);
    }
    memcpy(g_ref + g_nref, g_keys, g_nkeys * sizeof *g_keys);
    g_nref += g_nkeys;
    g_refat[f + 1u] = g_nref;
}

static void run_method(bench_source *s, const peer_method *m)
{
    const bool brute = strstr(m->name, "brute") != NULL;
    const bool is_ref = strcmp(m->name, "brute") == 0;
    const uint32_t total = s->warmup + s->frames;
    if (g_count && brute && s->n > PEERS_COUNT_BRUTE_MAX) {
        return;
    }
    if (!g_count && !is_ref && g_refat == NULL) {
        return; /* no reference for this scene */
    }
    uint64_t *ns = malloc((s->frames + 1u) * sizeof *ns);
    size_t heap0 = mallinfo2().uordblks;
    void *x = m->create(m, s);
    if (x == NULL) {
        printf("# %s %s n=%u: could not be created\n", m->name, s->name, (unsigned)s->n);
        free(ns);
        return;
    }
    s->reset(s);
    check c = {0u, 0u, 0u, 0u, 0u};
    for (uint32_t f = 0; f < total; f++) {
        uint32_t count;
        const bench_op *ops = s->frame(s, f, &count);
        const bool measured = f >= s->warmup;
        if (g_count && f == s->warmup) {
            CALLGRIND_START_INSTRUMENTATION;
        }
        uint64_t t0 = now_ns();
        if (g_count && measured) {
            CALLGRIND_TOGGLE_COLLECT;
            run_frame(m, x, ops, count);
            CALLGRIND_TOGGLE_COLLECT;
        } else {
            run_frame(m, x, ops, count);
        }
        uint64_t t1 = now_ns();
        if (measured) {
            ns[f - s->warmup] = t1 - t0;
        }
        if (g_count) {
            continue;
        }
        c.dup += sort_unique();
        if (measured) {
            c.pairs += g_nkeys;
        }
        if (is_ref) {
            record(f);
        } else {
            compare(f, &c);
        }
    }
    size_t held = mallinfo2().uordblks - heap0;
    size_t bytes = m->state_bytes != NULL ? m->state_bytes(x) : held;
    m->destroy(x);
    if (g_count) {
        CALLGRIND_STOP_INSTRUMENTATION;
        char label[160];
        snprintf(label, sizeof label, "%s,%s,%u,%u", m->name, s->name, (unsigned)s->n,
                 (unsigned)s->frames);
        CALLGRIND_DUMP_STATS_AT(label);
        printf("CG,%s\n", label);
    } else {
        qsort(ns, s->frames, sizeof *ns, cmp_u64);
        bool ok = c.missed + c.added == 0u;
        printf("CSV,%s,%s,%s,%u,%llu,%.1f,%.1f,%llu,%llu,%llu,%u,%u,%d\n", m->name, m->family,
               s->name, (unsigned)s->n, (unsigned long long)ns[s->frames / 2u],
               (double)c.pairs / s->frames, (double)bytes / s->n, (unsigned long long)c.missed,
               (unsigned long long)c.added, (unsigned long long)c.dup, (unsigned)total,
               (unsigned)c.frames_bad, ok);
        if (!ok) {
            printf("# %s %s n=%u: pairs differ from brute force on %u of %u frames: %llu missed, "
                   "%llu added\n", m->name, s->name, (unsigned)s->n, (unsigned)c.frames_bad,
                   (unsigned)total, (unsigned long long)c.missed, (unsigned long long)c.added);
            if (strcmp(m->family, "mbp") == 0) {
                g_mbp_differs = true;
            }
        }
    }
    fflush(stdout);
    free(ns);
}

static peer_method g_methods[32];
static int g_nmethods;

/* Every method on s: brute force first (the reference), then the others. Replay.c calls this
 * for a recorded scene too. */
void bench_source_run(bench_source *s)
{
    if (s->warmup == 1u && s->frames > PEERS_REPLAY_FRAMES) { /* replay.c's */
        s->frames = PEERS_REPLAY_FRAMES;
    }
    const uint32_t total = s->warmup + s->frames;
    g_statics = s->statics;
    free(g_refat);
    g_refat = NULL;
    g_nref = 0u;
    if (!g_count) {
        g_refat = calloc(total + 1u, sizeof *g_refat);
    }
    for (int i = 0; i < g_nmethods; i++) {
        const peer_method *m = &g_methods[i];
        bool ref = !g_count && strcmp(m->name, "brute") == 0;
        if (ref || g_only == NULL || strcmp(m->name, g_only) == 0) {
            run_method(s, m);
        }
    }
}

int bench_replay(const char *path); /* replay.c */

/* Whether name is one of the comma-separated list's items. */
static bool in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p != NULL; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0')) {
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    const char *scene = NULL;
    if (argc >= 2 && strcmp(argv[1], "count") == 0) {
        g_count = true;
    } else if (argc < 2 || strcmp(argv[1], "check") != 0) {
        fputs("usage: peers check|count [-m method] [-S scene,...] [-s scene-file]\n", stderr);
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-m") == 0) {
            g_only = argv[i + 1];
        } else if (strcmp(argv[i], "-S") == 0) {
            g_scenes = argv[i + 1];
        } else if (strcmp(argv[i], "-s") == 0) {
            scene = argv[i + 1];
        }
    }
    /* The runner's pair buffer is reserved first: the heap a method holds is measured. */
    g_capkeys = 64u * MBP_MAX_BODIES;
    g_keys = malloc(g_capkeys * sizeof *g_keys);
    peers_ref(g_methods, &g_nmethods);
    peers_mbp(g_methods, &g_nmethods);
    peers_bullet(g_methods, &g_nmethods);
    peers_box2d(g_methods, &g_nmethods);
    peers_chipmunk(g_methods, &g_nmethods);
    if (scene != NULL) {
        if (bench_replay(scene) != 0) {
            return 2;
        }
    } else {
        static bench_source s;
        for (int sc = 0; sc < SCENE_COUNT; sc++) {
            scene_make(&s, (bench_scene)sc, BENCH_N);
            if (g_scenes != NULL && !in_list(g_scenes, s.name)) {
                continue;
            }
            s.warmup = sc == SCENE_CLUSTER ? 3u : PEERS_WARMUP;
            s.frames = sc == SCENE_CLUSTER && PEERS_FRAMES > 20u ? 20u : PEERS_FRAMES;
            bench_source_run(&s);
        }
    }
    return g_mbp_differs ? 1 : 0;
}
