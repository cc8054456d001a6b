/* SPDX-License-Identifier: MIT */
/* replay.c: a recorded scene replayed (docs/bench.md). One file, three builds:
 *
 *   host (BENCH_HOST): make bench SCENE=file and make bench's recorded scenes; bench_replay()
 *       reads the file, turns it into operations and runs every backend on them (stdio).
 *   converter (BENCH_HOST and BENCH_SCENE2C): build/bench/scene2c, a host program of its own
 *       (main below), writes a cut-down of a scene as a C table for the Cortex-M4 under QEMU:
 *           scene2c <scene-file> <frames> <bodies> > table.h
 *       the file's first <frames> + 1 frames (frame 0 and <frames> measured ones) and at most
 *       <bodies> of its bodies: when it has more, the ones nearest, at their first appearance,
 *       to the body that gets farthest from where it first was (ties: the smaller id), so that a
 *       scene's action (the impact's heavy box) stays in the cut. The same reading and diffing
 *       as the host replay; the output depends only on the file and the two numbers.
 *   target (no BENCH_HOST, BENCH_REPLAY_TABLE = the table's file name): bench.c's main calls
 *       bench_replay_table(), which runs every backend on the built-in operations.
 *
 * The file (docs/bench.md): one frame per block, blocks separated by blank lines, one box per
 * line "id minx miny [minz] maxx maxy [maxz]", '#' starts a comment line. Ids are any integers
 * 0..2^31-1, stable across frames: a new id is added, an id missing from a frame is removed, a
 * box that changed is moved (an unchanged one costs nothing, as in an application that only
 * tells the world about bodies that moved). The whole file is turned into operations first, so
 * the timed frames do only the world's work.
 */
#include "bench.h"

/* A replay's operations: frame f's are ops[first[f] .. first[f+1]). */
typedef struct {
    const bench_op *ops;
    const uint32_t *first;
} replay;

static const bench_op *frame(bench_source *s, uint32_t f, uint32_t *count)
{
    const replay *rp = (const replay *)s->ctx;
    *count = rp->first[f + 1u] - rp->first[f];
    return rp->ops + rp->first[f];
}

static void reset(bench_source *s)
{
    (void)s;
}

#ifdef BENCH_HOST

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_REPLAY_RUNS
#define BENCH_REPLAY_RUNS 5u
#endif

typedef struct {
    long id;
    double c[2 * MBP_DIM]; /* min..., max... */
} rec;

/* A scene read and turned into operations (load()): the source to run, and what it holds. */
typedef struct {
    bench_source s;
    replay rp;
    bench_op *ops;
    uint32_t *first;
    size_t nops, nframes, nid, nid_file;
} loaded;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) {
        return p;
    }
    size_t c = *cap ? *cap : 1024u;
    while (c < need) {
        c *= 2u;
    }
    void *q = realloc(p, c * size);
    if (q == NULL) {
        fprintf(stderr, "bench: out of memory reading the scene\n");
        exit(1);
    }
    *cap = c;
    return q;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static mbp_scalar to_scalar(double d)
{
#if MBP_SCALAR == MBP_FIXED
    double r = d * (double)MBP_ONE;
    r = r > 2147483647.0 ? 2147483647.0 : r < -2147483647.0 ? -2147483647.0 : r;
    return (mbp_scalar)(r < 0 ? r - 0.5 : r + 0.5); /* outside the range: MBP_E_RANGE on add */
#else
    return (mbp_scalar)d;
#endif
}

static void fill_box(const rec *r, mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        b->min[k] = to_scalar(r->c[k]);
        b->max[k] = to_scalar(r->c[MBP_DIM + k]);
    }
}

static int fail(const char *path, unsigned long line, const char *what)
{
    fprintf(stderr, "bench: %s:%lu: %s\n", path, line, what);
    return 1;
}

/* The cut-down's choice of bodies (see the top): squared distance of each dense id's first box
 * centre to the farthest traveller's (the body whose centre gets farthest from its first one);
 * qsort's comparator reads it here (host tool, one thread). */
static const double *g_dist;

static int cmp_by_dist(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (g_dist[x] != g_dist[y]) {
        return g_dist[x] < g_dist[y] ? -1 : 1;
    }
    return x < y ? -1 : x > y;
}

/* Keeps max_bodies of the nid dense ids (see the top of the file): keep[d] says which. */
static void choose_bodies(const rec *recs, const uint32_t *dense, size_t nrec, size_t nid,
                          size_t max_bodies, bool *keep)
{
    double *first = calloc(nid * MBP_DIM, sizeof *first), *reach = calloc(nid, sizeof *reach);
    double *dist = calloc(nid, sizeof *dist);
    bool *seen = calloc(nid, sizeof *seen);
    uint32_t *order = calloc(nid, sizeof *order);
    if (first == NULL || reach == NULL || dist == NULL || seen == NULL || order == NULL) {
        fprintf(stderr, "bench: out of memory choosing the bodies\n");
        exit(1);
    }
    for (size_t i = 0; i < nrec; i++) { /* records are in frame order */
        uint32_t d = dense[i];
        double r = 0.0; /* squared distance of the box centre from the first one */
        for (size_t k = 0; k < MBP_DIM; k++) {
            double c = 0.5 * (recs[i].c[k] + recs[i].c[MBP_DIM + k]);
            if (!seen[d]) {
                first[d * MBP_DIM + k] = c;
            }
            r += (c - first[d * MBP_DIM + k]) * (c - first[d * MBP_DIM + k]);
        }
        reach[d] = r > reach[d] ? r : reach[d];
        seen[d] = true;
    }
    uint32_t far = 0u;
    for (uint32_t d = 1u; d < nid; d++) {
        far = reach[d] > reach[far] ? d : far;
    }
    for (size_t d = 0; d < nid; d++) {
        dist[d] = 0.0;
        for (size_t k = 0; k < MBP_DIM; k++) {
            double dc = first[d * MBP_DIM + k] - first[far * MBP_DIM + k];
            dist[d] += dc * dc;
        }
        order[d] = (uint32_t)d;
        keep[d] = false;
    }
    g_dist = dist;
    qsort(order, nid, sizeof *order, cmp_by_dist);
    for (size_t j = 0; j < max_bodies && j < nid; j++) {
        keep[order[j]] = true;
    }
    free(first);
    free(reach);
    free(dist);
    free(seen);
    free(order);
}

/* Reads path into *out: its first max_frames frames (0: all) and at most max_bodies of its
 * bodies (0: all). Returns 0, or 1 after a message on stderr. */
static int load(const char *path, size_t max_frames, size_t max_bodies, loaded *out)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 1;
    }
    /* 1. Read the records and where each frame starts. */
    rec *recs = NULL;
    size_t nrec = 0u, caprec = 0u, *fstart = NULL, nframes = 0u, capf = 0u;
    char line[1024];
    unsigned long lineno = 0u;
    bool in_block = false;
    while (fgets(line, sizeof line, fp) != NULL) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        }
        if (*p == '#') {
            continue;
        }
        if (*p == '\0') { /* blank: ends the block */
            in_block = false;
            continue;
        }
        if (!in_block) {
            if (max_frames != 0u && nframes == max_frames) {
                break; /* the cut-down's frames are read */
            }
            fstart = grow(fstart, &capf, nframes + 2u, sizeof *fstart);
            fstart[nframes++] = nrec;
            in_block = true;
        }
        recs = grow(recs, &caprec, nrec + 1u, sizeof *recs);
        rec *r = &recs[nrec];
        char *end;
        r->id = strtol(p, &end, 10);
        if (end == p || r->id < 0 || r->id > 0x7FFFFFFFL) {
            fclose(fp);
            return fail(path, lineno, "expected an id (an integer 0..2^31-1) first");
        }
        for (int k = 0; k < 2 * MBP_DIM; k++) {
            p = end;
            r->c[k] = strtod(p, &end);
            if (end == p) {
                fclose(fp);
                return fail(path, lineno, MBP_DIM == 2 ? "expected: id minx miny maxx maxy"
                                                       : "expected: id minx miny minz maxx maxy maxz");
            }
        }
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') {
            end++;
        }
        if (*end != '\0') {
            fclose(fp);
            return fail(path, lineno, "too many numbers for this build's MBP_DIM");
        }
        nrec++;
    }
    fclose(fp);
    if (nframes == 0u) {
        return fail(path, lineno, "no frames");
    }
    fstart[nframes] = nrec;

    /* 2. Dense ids: the file's ids sorted; a dense id is the rank. A cut-down keeps some of
     * them (keep[]) and numbers those again, in the same order. */
    long *ids = malloc((nrec ? nrec : 1u) * sizeof *ids);
    uint32_t *dense = malloc((nrec ? nrec : 1u) * sizeof *dense);
    if (ids == NULL || dense == NULL) {
        return fail(path, 0u, "out of memory");
    }
    for (size_t i = 0; i < nrec; i++) {
        ids[i] = recs[i].id;
    }
    qsort(ids, nrec, sizeof *ids, cmp_long);
    size_t nid = 0u;
    for (size_t i = 0; i < nrec; i++) {
        if (nid == 0u || ids[nid - 1u] != ids[i]) {
            ids[nid++] = ids[i];
        }
    }
    for (size_t i = 0; i < nrec; i++) {
        const long *hit = bsearch(&recs[i].id, ids, nid, sizeof *ids, cmp_long);
        dense[i] = (uint32_t)(hit - ids);
    }
    out->nid_file = nid;
    if (max_bodies != 0u && nid > max_bodies) {
        bool *keep = malloc(nid * sizeof *keep);
        uint32_t *renum = malloc(nid * sizeof *renum);
        if (keep == NULL || renum == NULL) {
            return fail(path, 0u, "out of memory");
        }
        choose_bodies(recs, dense, nrec, nid, max_bodies, keep);
        uint32_t next = 0u;
        for (size_t d = 0; d < nid; d++) {
            renum[d] = keep[d] ? next++ : UINT32_MAX;
        }
        for (size_t i = 0; i < nrec; i++) {
            dense[i] = renum[dense[i]];
        }
        nid = next;
        free(keep);
        free(renum);
    }
    if (nid > MBP_MAX_BODIES) {
        fprintf(stderr,
                "bench: %s has %lu distinct ids, more than this build's capacity %lu: run\n"
                "  make bench SCENE=%s BENCH_REPLAY_N=<a capacity >= %lu>\n",
                path, (unsigned long)nid, (unsigned long)MBP_MAX_BODIES, path, (unsigned long)nid);
        return 1;
    }

    /* 3. Operations: diff each frame against the one before (ids left out of a cut-down:
     * skipped). */
    static int32_t last[MBP_MAX_BODIES];   /* record index of the id's box in the last frame */
    static uint32_t seen[MBP_MAX_BODIES];  /* frame + 1 where the id was last present */
    memset(seen, 0, sizeof seen);
    bench_op *ops = NULL;
    size_t nops = 0u, capops = 0u, nkept = 0u;
    uint32_t *first = malloc((nframes + 1u) * sizeof *first);
    if (first == NULL) {
        return fail(path, 0u, "out of memory");
    }
    double edge = 0.0;
    mbp_scalar lo[MBP_DIM], hi[MBP_DIM];
    bool any = false;
    for (size_t f = 0; f < nframes; f++) {
        first[f] = (uint32_t)nops;
        for (size_t i = fstart[f]; i < fstart[f + 1u]; i++) {
            uint32_t d = dense[i];
            if (d == UINT32_MAX) {
                continue;
            }
            if (seen[d] == f + 1u) {
                /* the line number is not kept per record; name the frame instead */
                fprintf(stderr, "bench: %s: frame %lu: id %ld twice in one frame\n", path,
                        (unsigned long)f, recs[i].id);
                return 1;
            }
            bool present = f > 0u && seen[d] == f;
            int kind = present ? BENCH_MOVE : BENCH_ADD;
            if (present && memcmp(recs[last[d]].c, recs[i].c, sizeof recs[i].c) == 0) {
                kind = -1; /* unchanged */
            }
            seen[d] = (uint32_t)f + 1u;
            last[d] = (int32_t)i;
            nkept++;
            for (int k = 0; k < MBP_DIM; k++) {
                edge += recs[i].c[MBP_DIM + k] - recs[i].c[k];
                mbp_scalar a = to_scalar(recs[i].c[k]), b = to_scalar(recs[i].c[MBP_DIM + k]);
                lo[k] = !any || a < lo[k] ? a : lo[k];
                hi[k] = !any || b > hi[k] ? b : hi[k];
            }
            any = true;
            if (kind < 0) {
                continue;
            }
            ops = grow(ops, &capops, nops + 1u, sizeof *ops);
            memset(&ops[nops], 0, sizeof ops[nops]);
            ops[nops].kind = (uint8_t)kind;
            ops[nops].id = (uint16_t)d;
            fill_box(&recs[i], &ops[nops].box);
            nops++;
        }
        if (f > 0u) { /* ids of the last frame that are gone */
            for (size_t i = fstart[f - 1u]; i < fstart[f]; i++) {
                uint32_t d = dense[i];
                if (d != UINT32_MAX && seen[d] == f) {
                    seen[d] = 0u; /* once only */
                    ops = grow(ops, &capops, nops + 1u, sizeof *ops);
                    memset(&ops[nops], 0, sizeof ops[nops]);
                    ops[nops].kind = BENCH_REMOVE;
                    ops[nops].id = (uint16_t)d;
                    nops++;
                }
            }
        }
    }
    first[nframes] = (uint32_t)nops;

    /* 4. The source: frame 0 (the bodies' arrival) is the warm-up, the rest is measured. */
    static char name[64];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = 0u;
    for (; base[len] != '\0' && base[len] != '.' && len + 1u < sizeof name; len++) {
        name[len] = base[len] == ',' ? '_' : base[len];
    }
    name[len] = '\0';
    bench_source *s = &out->s;
    memset(s, 0, sizeof *s);
    s->name = name;
    s->n = (uint32_t)nid;
    s->warmup = nframes > 1u ? 1u : 0u;
    s->frames = (uint32_t)nframes - s->warmup;
    s->runs = BENCH_REPLAY_RUNS;
    for (int k = 0; k < MBP_DIM; k++) {
        s->lo[k] = any ? lo[k] : 0;
        s->hi[k] = any ? hi[k] : 0;
    }
    edge = nkept ? 2.0 * edge / (double)(nkept * MBP_DIM) : 0.0;
    s->cell = edge > 0.0 ? to_scalar(edge) : (mbp_scalar)(s->hi[0] > s->lo[0] ? (s->hi[0] - s->lo[0]) / 64 : MBP_ONE);
    if (s->cell <= 0) {
        s->cell = MBP_ONE;
    }
    s->reset = reset;
    s->frame = frame;
    out->ops = ops;
    out->first = first;
    out->rp.ops = ops;
    out->rp.first = first;
    s->ctx = &out->rp;
    out->nops = nops;
    out->nframes = nframes;
    out->nid = nid;
    free(ids);
    free(dense);
    free(recs);
    free(fstart);
    return 0;
}

#ifndef BENCH_SCENE2C

int bench_replay(const char *path)
{
    static loaded l;
    if (load(path, 0u, 0u, &l) != 0) {
        return 1;
    }
    fprintf(stderr, "bench: %s: %lu frames, %lu bodies, %lu operations\n", path,
            (unsigned long)l.nframes, (unsigned long)l.nid, (unsigned long)l.nops);
    bench_source_run(&l.s);
    free(l.ops);
    free(l.first);
    return 0;
}

#else /* the converter */

static void put_scalar(mbp_scalar v)
{
#if MBP_SCALAR == MBP_FIXED
    printf("%ld", (long)v);
#else
    printf("%af", (double)v); /* hexadecimal: the exact float */
#endif
}

static void put_vec(const mbp_scalar *v)
{
    putchar('{');
    for (int k = 0; k < MBP_DIM; k++) {
        put_scalar(v[k]);
        putchar(k + 1 < MBP_DIM ? ',' : '}');
    }
}

int main(int argc, char **argv)
{
    static loaded l;
    char *end1 = NULL, *end2 = NULL;
    unsigned long frames = argc == 4 ? strtoul(argv[2], &end1, 10) : 0u;
    unsigned long bodies = argc == 4 ? strtoul(argv[3], &end2, 10) : 0u;
    if (argc != 4 || *end1 != '\0' || *end2 != '\0' || frames == 0u || bodies == 0u) {
        fputs("usage: scene2c <scene-file> <measured frames> <most bodies> > table.h\n", stderr);
        return 2;
    }
    if (load(argv[1], frames + 1u, bodies, &l) != 0) {
        return 1;
    }
    const bench_source *s = &l.s;
    printf("/* Generated by build/bench/scene2c (tools/bench/replay.c) from %s: its first %lu frames,\n"
           " * %lu of its %lu bodies. Do not edit; make bench makes it again. */\n",
           argv[1], (unsigned long)l.nframes, (unsigned long)l.nid, (unsigned long)l.nid_file);
    printf("#if MBP_DIM != %d || MBP_SCALAR != %s\n#error \"this table was made for another MBP_DIM or "
           "MBP_SCALAR\"\n#endif\n", MBP_DIM, MBP_SCALAR == MBP_FIXED ? "MBP_FIXED" : "MBP_FLOAT");
    printf("#define REPLAY_NAME \"%s\"\n#define REPLAY_BODIES %luu\n#define REPLAY_FRAMES %luu\n",
           s->name, (unsigned long)s->n, (unsigned long)l.nframes);
    printf("static const mbp_scalar k_replay_lo[MBP_DIM] = ");
    put_vec(s->lo);
    printf(";\nstatic const mbp_scalar k_replay_hi[MBP_DIM] = ");
    put_vec(s->hi);
    printf(";\n#define REPLAY_CELL ");
    put_scalar(s->cell);
    printf("\nstatic const uint32_t k_replay_first[REPLAY_FRAMES + 1u] = {");
    for (size_t f = 0; f <= l.nframes; f++) {
        printf("%s%lu", f ? "," : "", (unsigned long)l.first[f]);
    }
    printf("};\nstatic const bench_op k_replay_ops[%lu] = {\n", (unsigned long)(l.nops ? l.nops : 1u));
    for (size_t i = 0; i < l.nops; i++) {
        printf("{%u,%u,{", (unsigned)l.ops[i].kind, (unsigned)l.ops[i].id);
        put_vec(l.ops[i].box.min);
        putchar(',');
        put_vec(l.ops[i].box.max);
        printf("}},\n");
    }
    printf("};\n");
    free(l.ops);
    free(l.first);
    return ferror(stdout) ? 1 : 0;
}

#endif /* BENCH_SCENE2C */

#elif defined(BENCH_REPLAY_TABLE) /* the target */

#include BENCH_REPLAY_TABLE

/* bench.c checks the first BENCH_FRAMES measured frames against brute force: all of them. */
#if defined(BENCH_FRAMES) && REPLAY_FRAMES - 1u > BENCH_FRAMES
#error "the replay table has more measured frames than BENCH_FRAMES: build it with BENCH_FRAMES >= its frames"
#endif

int bench_replay_table(void);
int bench_replay_table(void)
{
    static replay rp = {k_replay_ops, k_replay_first};
    static bench_source s;
    s.name = REPLAY_NAME;
    s.n = REPLAY_BODIES;
    s.warmup = 1u;
    s.frames = REPLAY_FRAMES - 1u;
    s.runs = 1u;
    s.statics = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        s.lo[k] = k_replay_lo[k];
        s.hi[k] = k_replay_hi[k];
    }
    s.cell = REPLAY_CELL;
    s.reset = reset;
    s.frame = frame;
    s.ctx = &rp;
    bench_source_run(&s);
    return 0;
}

#endif
