/* SPDX-License-Identifier: MIT */
/* replay.c: make bench SCENE=file, a recorded scene replayed on the host (host only: stdio).
 *
 * The file (docs/bench.md): one frame per block, blocks separated by blank lines, one box per
 * line "id minx miny [minz] maxx maxy [maxz]", '#' starts a comment line. Ids are any integers
 * 0..2^31-1, stable across frames: a new id is added, an id missing from a frame is removed, a
 * box that changed is moved (an unchanged one costs nothing, as in an application that only
 * tells the world about bodies that moved). The whole file is turned into operations first, so
 * the timed frames do only the world's work.
 */
#include "bench.h"

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

typedef struct {
    bench_op *ops;
    size_t *first; /* frame f's operations are ops[first[f] .. first[f+1]) */
} replay;

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

static const bench_op *frame(bench_source *s, uint32_t f, uint32_t *count)
{
    const replay *rp = (const replay *)s->ctx;
    *count = (uint32_t)(rp->first[f + 1u] - rp->first[f]);
    return rp->ops + rp->first[f];
}

static void reset(bench_source *s)
{
    (void)s;
}

static int fail(const char *path, unsigned long line, const char *what)
{
    fprintf(stderr, "bench: %s:%lu: %s\n", path, line, what);
    return 1;
}

int bench_replay(const char *path)
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

    /* 2. Dense ids: the file's ids sorted; a dense id is the rank. */
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
    if (nid > MBP_MAX_BODIES) {
        fprintf(stderr,
                "bench: %s has %lu distinct ids, more than this build's capacity %lu: run\n"
                "  make bench SCENE=%s BENCH_REPLAY_N=<a capacity >= %lu>\n",
                path, (unsigned long)nid, (unsigned long)MBP_MAX_BODIES, path, (unsigned long)nid);
        return 1;
    }
    for (size_t i = 0; i < nrec; i++) {
        const long *hit = bsearch(&recs[i].id, ids, nid, sizeof *ids, cmp_long);
        dense[i] = (uint32_t)(hit - ids);
    }

    /* 3. Operations: diff each frame against the one before. */
    static int32_t last[MBP_MAX_BODIES];   /* record index of the id's box in the last frame */
    static uint32_t seen[MBP_MAX_BODIES];  /* frame + 1 where the id was last present */
    replay rp = {NULL, NULL};
    size_t nops = 0u, capops = 0u;
    rp.first = malloc((nframes + 1u) * sizeof *rp.first);
    if (rp.first == NULL) {
        return fail(path, 0u, "out of memory");
    }
    double edge = 0.0;
    mbp_scalar lo[MBP_DIM], hi[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        lo[k] = to_scalar(recs[0].c[k]);
        hi[k] = to_scalar(recs[0].c[MBP_DIM + k]);
    }
    for (size_t f = 0; f < nframes; f++) {
        rp.first[f] = nops;
        for (size_t i = fstart[f]; i < fstart[f + 1u]; i++) {
            uint32_t d = dense[i];
            if (seen[d] == f + 1u) {
                char msg[64];
                snprintf(msg, sizeof msg, "id %ld twice in one frame", recs[i].id);
                /* the line number is not kept per record; name the frame instead */
                fprintf(stderr, "bench: %s: frame %lu: %s\n", path, (unsigned long)f, msg);
                return 1;
            }
            bool present = f > 0u && seen[d] == f;
            int kind = present ? BENCH_MOVE : BENCH_ADD;
            if (present && memcmp(recs[last[d]].c, recs[i].c, sizeof recs[i].c) == 0) {
                kind = -1; /* unchanged */
            }
            seen[d] = (uint32_t)f + 1u;
            last[d] = (int32_t)i;
            for (int k = 0; k < MBP_DIM; k++) {
                edge += recs[i].c[MBP_DIM + k] - recs[i].c[k];
                mbp_scalar a = to_scalar(recs[i].c[k]), b = to_scalar(recs[i].c[MBP_DIM + k]);
                lo[k] = a < lo[k] ? a : lo[k];
                hi[k] = b > hi[k] ? b : hi[k];
            }
            if (kind < 0) {
                continue;
            }
            rp.ops = grow(rp.ops, &capops, nops + 1u, sizeof *rp.ops);
            rp.ops[nops].kind = (uint8_t)kind;
            rp.ops[nops].id = (uint16_t)d;
            fill_box(&recs[i], &rp.ops[nops].box);
            nops++;
        }
        if (f > 0u) { /* ids of the last frame that are gone */
            for (size_t i = fstart[f - 1u]; i < fstart[f]; i++) {
                uint32_t d = dense[i];
                if (seen[d] == f) {
                    seen[d] = 0u; /* once only */
                    rp.ops = grow(rp.ops, &capops, nops + 1u, sizeof *rp.ops);
                    rp.ops[nops].kind = BENCH_REMOVE;
                    rp.ops[nops].id = (uint16_t)d;
                    nops++;
                }
            }
        }
    }
    rp.first[nframes] = nops;

    /* 4. Run: frame 0 (the bodies' arrival) is the warm-up, the rest is measured. */
    static char name[64];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = 0u;
    for (; base[len] != '\0' && base[len] != '.' && len + 1u < sizeof name; len++) {
        name[len] = base[len] == ',' ? '_' : base[len];
    }
    name[len] = '\0';
    bench_source s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.n = (uint32_t)nid;
    s.warmup = nframes > 1u ? 1u : 0u;
    s.frames = (uint32_t)nframes - s.warmup;
    s.runs = BENCH_REPLAY_RUNS;
    for (int k = 0; k < MBP_DIM; k++) {
        s.lo[k] = lo[k];
        s.hi[k] = hi[k];
    }
    edge = nrec ? 2.0 * edge / (double)(nrec * MBP_DIM) : 0.0;
    s.cell = edge > 0.0 ? to_scalar(edge) : (mbp_scalar)(hi[0] > lo[0] ? (hi[0] - lo[0]) / 64 : MBP_ONE);
    if (s.cell <= 0) {
        s.cell = MBP_ONE;
    }
    s.reset = reset;
    s.frame = frame;
    s.ctx = &rp;
    fprintf(stderr, "bench: %s: %lu frames, %lu bodies, %lu operations\n", path,
            (unsigned long)nframes, (unsigned long)nid, (unsigned long)nops);
    bench_source_run(&s);
    free(rp.ops);
    free(rp.first);
    free(ids);
    free(dense);
    free(recs);
    free(fstart);
    return 0;
}
