/* SPDX-License-Identifier: MIT */
/* ops.c: the decoder and checker of ops.h. No C library: it also runs on the QEMU targets
 * (tests/test_regress.c includes this file).
 *
 * Input layout: byte 0 picks the backend, byte 1 tweaks its parameters, then each operation is
 * an opcode byte followed by its arguments; a missing byte reads as 0, and the run ends when
 * the input does. Coordinates are mostly small multiples of 1/2 (so bodies overlap and touch),
 * sometimes a special value (0, -0, the range and one step past it, NaN, infinities, denormals,
 * INT32_MIN) or 32 raw bits.
 */
#include "ops.h"
#include "../test_events.h" /* test_begun(), test_ended() */
#include "mbp_internal.h" /* mbp__sort_pairs: the library's heap sort, no qsort on the targets */

typedef struct {
    const uint8_t *p;
    size_t n, i;
} reader;

static uint8_t u8(reader *r)
{
    return r->i < r->n ? r->p[r->i++] : 0u;
}

static uint16_t u16(reader *r)
{
    uint16_t lo = u8(r);
    return (uint16_t)(lo | (uint16_t)(u8(r) << 8));
}

static uint32_t u32(reader *r)
{
    uint32_t lo = u16(r);
    return lo | (uint32_t)u16(r) << 16;
}

/* ---- scalars ---- */

#if MBP_SCALAR == MBP_FIXED
static mbp_scalar halves(int32_t i)
{
    return (mbp_scalar)(((int64_t)i * ((int64_t)1 << MBP_FIXED_FRAC_BITS)) / 2);
}
static mbp_scalar from_bits(uint32_t b)
{
    return (mbp_scalar)(int64_t)(b >= 0x80000000u ? (int64_t)b - 0x100000000LL : (int64_t)b);
}
/* One raw step (1 unit of the last place), wrapping as the caller's garbage may. */
static mbp_scalar step(mbp_scalar s, int32_t d)
{
    return from_bits((uint32_t)s + (uint32_t)d);
}
static mbp_scalar add(mbp_scalar a, mbp_scalar b)
{
    return from_bits((uint32_t)a + (uint32_t)b);
}
static const uint32_t k_special[] = {0u,          1u,          0xFFFFFFFFu, 0x3FFFFFFFu,
                                     0xC0000001u, 0x40000000u, 0xC0000000u, 0x7FFFFFFFu,
                                     0x80000000u, 0x20000000u, 0x00010000u, 0xFFFF0000u};
#else
typedef union {
    float f;
    uint32_t u;
} fbits;
static mbp_scalar halves(int32_t i)
{
    return (float)i * 0.5f;
}
static mbp_scalar from_bits(uint32_t b)
{
    fbits x;
    x.u = b;
    return x.f;
}
/* The d-th float next to s (in bit order), for values a hair apart. */
static mbp_scalar step(mbp_scalar s, int32_t d)
{
    fbits x;
    x.f = s;
    return from_bits(x.u + (uint32_t)d);
}
static mbp_scalar add(mbp_scalar a, mbp_scalar b)
{
    return a + b;
}
static const uint32_t k_special[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x00800000u, /* 0, -0, smallest denormal, FLT_MIN */
    0x5D800000u, 0xDD800000u, 0x5D800001u, 0xDD800001u, /* +-2^60 (the range), one step past */
    0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u, /* +-FLT_MAX, +-infinity */
    0x7FC00000u, 0x7F800001u, 0xFFC00000u, 0x0DA24260u  /* NaN, signalling NaN, -NaN, 1e-30 */
};
#endif
#define N_SPECIAL (sizeof k_special / sizeof k_special[0])

static mbp_scalar coord(reader *r)
{
    uint8_t m = u8(r);
    switch (m >> 5) {
    case 5:
        return from_bits(k_special[u8(r) % N_SPECIAL]);
    case 6:
        return from_bits(u32(r));
    case 7:
        return step(halves((int8_t)u8(r)), (int32_t)(m & 3u) - 1);
    default:
        return halves((int8_t)u8(r) / 2);
    }
}

/* Mostly a size of 0..7.5 units; sometimes anything (negative, NaN: a bad box). */
static mbp_scalar extent(reader *r)
{
    uint8_t m = u8(r);
    return m < 0xF0u ? halves((int32_t)(m % 16u)) : coord(r);
}

/* Boxes and points always take three axes' bytes (2D drops the third), so an input is the same
 * sequence of operations in 2D and 3D. */
static void read_box(reader *r, mbp_aabb *b)
{
    for (int k = 0; k < 3; k++) {
        mbp_scalar lo = coord(r), hi = add(lo, extent(r));
        if (k < MBP_DIM) {
            b->min[k] = lo;
            b->max[k] = hi;
        }
    }
}

static void read_point(reader *r, mbp_scalar p[MBP_DIM])
{
    for (int k = 0; k < 3; k++) {
        mbp_scalar v = coord(r);
        if (k < MBP_DIM) {
            p[k] = v;
        }
    }
}

/* ---- shapes (byte 0's top bit: see fuzz_ops_run) ---- */

#if MBP__SHAPES
static mbp_scalar neg(mbp_scalar v)
{
#if MBP_SCALAR == MBP_FIXED
    return from_bits(0u - (uint32_t)v); /* wraps as add() does: -INT32_MIN stays INT32_MIN */
#else
    return -v;
#endif
}

static const mbp_unit k_cos_sin[][2] = {
    {MBP_UNIT_LIT(1.0), MBP_UNIT_LIT(0.0)},
    {MBP_UNIT_LIT(0.6), MBP_UNIT_LIT(0.8)},
    {MBP_UNIT_LIT(0.8), MBP_UNIT_LIT(0.6)},
    {MBP_UNIT_LIT(0.70710678), MBP_UNIT_LIT(0.70710678)},
    {MBP_UNIT_LIT(0.0), MBP_UNIT_LIT(1.0)},
    {MBP_UNIT_LIT(0.28), MBP_UNIT_LIT(0.96)},
    {MBP_UNIT_LIT(0.9995), MBP_UNIT_LIT(0.0316)}, /* c^2 + s^2 = 1 - 2^-11: within tolerance */
    {MBP_UNIT_LIT(1.0), MBP_UNIT_LIT(0.05)},      /* 1.0025: refused */
};
#define N_COS_SIN (sizeof k_cos_sin / sizeof k_cos_sin[0])

/* Always 1 byte, then 9 entries of 4 bytes when the byte asks for raw bits, so that the same
 * input is the same sequence of operations in 2D and 3D. Otherwise a rotation by an angle from
 * k_cos_sin in the plane of two axes (the other axis, in 3D, unchanged), a row's sign flipped
 * by bit 6 (a reflection: still orthonormal). */
static void read_rot(reader *r, mbp_unit rot[MBP_DIM][MBP_DIM])
{
    uint8_t m = u8(r);
    if (m >= 0xE0u) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                mbp_unit v = (mbp_unit)from_bits(u32(r)); /* any bit pattern */
                if (i < MBP_DIM && j < MBP_DIM) {
                    rot[i][j] = v;
                }
            }
        }
        return;
    }
    const mbp_unit *cs = k_cos_sin[m % N_COS_SIN];
    mbp_unit c = (m & 8u) ? -cs[0] : cs[0], sn = (m & 16u) ? -cs[1] : cs[1];
    int a = 0, b = 1;
#if MBP_DIM == 3
    a = (int)((m >> 5) % 3u);
    b = (a + 1) % 3;
#endif
    for (int i = 0; i < MBP_DIM; i++) {
        for (int j = 0; j < MBP_DIM; j++) {
            rot[i][j] = i == j ? MBP_UNIT_ONE : 0;
        }
    }
    rot[a][a] = c;
    rot[a][b] = sn;
    rot[b][a] = -sn;
    rot[b][b] = c;
    if (m & 64u) {
        for (int j = 0; j < MBP_DIM; j++) {
            rot[0][j] = -rot[0][j];
        }
    }
}

/* The k-DOP's diagonal axes, as signs of x, y, z (mbp.h). */
#if MBP_DIM == 2
static const int8_t k_diag[][MBP_DIM] = {{1, 1}, {1, -1}};
#else
static const int8_t k_diag[][MBP_DIM] = {{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
#endif

/* A k-DOP: a box, then each diagonal's bounds cut in from the box's corners by 0..3.5 units
 * (an empty k-DOP now and then), or any value; four diagonals' bytes in 2D too. */
static void read_kdop(reader *r, mbp_kdop *k)
{
    mbp_aabb b;
    read_box(r, &b);
    for (int j = 0; j < MBP_DIM; j++) {
        k->min[j] = b.min[j];
        k->max[j] = b.max[j];
    }
    for (uint32_t d = 0; d < 4u; d++) {
        mbp_scalar cut[2];
        for (int e = 0; e < 2; e++) {
            uint8_t m = u8(r);
            cut[e] = m < 0xF8u ? halves((int32_t)(m % 8u)) : coord(r);
        }
        if (d >= MBP_KDOP_AXES - MBP_DIM) {
            continue;
        }
        mbp_scalar lo = 0, hi = 0;
        for (int j = 0; j < MBP_DIM; j++) {
            lo = add(lo, k_diag[d][j] > 0 ? b.min[j] : neg(b.max[j]));
            hi = add(hi, k_diag[d][j] > 0 ? b.max[j] : neg(b.min[j]));
        }
        k->min[MBP_DIM + d] = add(lo, cut[0]);
        k->max[MBP_DIM + d] = add(hi, neg(cut[1]));
    }
}

/* Any kind, valid or not: a box, sphere, oriented box, k-DOP, capsule, or an unknown kind. */
static void read_shape(reader *r, mbp_shape *s)
{
    static const mbp_shape k_zero;
    uint8_t k = u8(r);
    *s = k_zero; /* an unknown kind, or a known one read as a box, sees no stale bytes */
    switch (k % 8u) {
    case 0:
        s->kind = MBP_SHAPE_BOX;
        read_box(r, &s->u.box);
        break;
    case 1:
        s->kind = MBP_SHAPE_SPHERE;
        read_point(r, s->u.sphere.c);
        s->u.sphere.r = extent(r);
        break;
    case 2:
    case 3:
        s->kind = MBP_SHAPE_OBB;
        read_point(r, s->u.obb.c);
        for (int j = 0; j < 3; j++) {
            mbp_scalar h = extent(r);
            if (j < MBP_DIM) {
                s->u.obb.h[j] = h;
            }
        }
        read_rot(r, s->u.obb.rot);
        break;
    case 4:
    case 5:
        s->kind = MBP_SHAPE_KDOP;
        read_kdop(r, &s->u.kdop);
        break;
    case 6: {
        s->kind = MBP_SHAPE_CAPSULE;
        read_point(r, s->u.capsule.a);
        mbp_scalar d[3];
        for (int j = 0; j < 3; j++) {
            d[j] = halves((int8_t)u8(r) / 16);
        }
        for (int j = 0; j < MBP_DIM; j++) {
            s->u.capsule.b[j] = add(s->u.capsule.a[j], d[j]);
        }
        s->u.capsule.r = extent(r);
        break;
    }
    default:
        s->kind = (uint8_t)(k >> 3); /* 0, or 6 and up: unknown (MBP_E_PARAM); or a known one */
        read_box(r, &s->u.box);
        break;
    }
}
#endif

/* ---- state of a run ---- */

#define NH (2u * MBP_MAX_BODIES + 2u)
typedef struct {
    mbp_body w, r; /* the same body in both worlds (the same index; generations differ) */
} handles;

static handles g_h[NH];
static uint32_t g_nh;
/* Reported pairs, sorted: [world][this update or the previous one]. */
static mbp_pair g_pairs[2][2][MBP_MAX_PAIRS];
static uint32_t g_np[2][2];
static uint32_t g_cur;
static bool g_sync; /* both worlds reported the same pairs at the last update */
static uint16_t g_qw[MBP_MAX_BODIES], g_qr[MBP_MAX_BODIES], g_qall[MBP_MAX_BODIES];
static mbp_hit g_hw[MBP_MAX_BODIES], g_hr[MBP_MAX_BODIES], g_hall[MBP_MAX_BODIES];
static const char *g_why;
static uint32_t g_updates;

uint32_t fuzz_ops_updates(void)
{
    return g_updates;
}

#define FAIL(msg) (g_why = (msg), false)

static handles pick(reader *r)
{
    uint8_t b = u8(r);
    handles h = {{0u, 0u}, {0u, 0u}};
    uint32_t j = b % (g_nh + 2u);
    if (j < g_nh) {
        return g_h[j];
    }
    if (j == g_nh && g_nh > 0u) { /* a forged handle: right index, wrong generation */
        h = g_h[b % g_nh];
        h.w.gen ^= 0x5A5Au;
        h.r.gen ^= 0x5A5Au;
    } else if (b & 1u) { /* an index past the world */
        h.w.slot1 = h.r.slot1 = (uint16_t)(MBP_MAX_BODIES + 1u);
        h.w.gen = h.r.gen = 1u;
    }
    return h;
}

/* Keeps the live handles and every fourth stale one (stale handles must stay refused). */
static void compact(const mbp_world *w)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < g_nh; j++) {
        if (mbp_valid(w, g_h[j].w) || j % 4u == 0u) {
            g_h[k++] = g_h[j];
        }
    }
    g_nh = k;
}

static void track(const mbp_world *w, mbp_body hw, mbp_body hr)
{
    if (g_nh == NH) {
        compact(w); /* at most MBP_MAX_BODIES are live: this frees room */
    }
    if (g_nh < NH) {
        g_h[g_nh].w = hw;
        g_h[g_nh].r = hr;
        g_nh++;
    }
}

static bool pair_less(mbp_pair a, mbp_pair b)
{
    return a.a < b.a || (a.a == b.a && a.b < b.b);
}

static bool pair_eq(mbp_pair a, mbp_pair b)
{
    return a.a == b.a && a.b == b.b;
}

static bool has(const mbp_pair *v, uint32_t n, mbp_pair p)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2u;
        if (pair_eq(v[m], p)) {
            return true;
        }
        if (pair_less(v[m], p)) {
            lo = m + 1u;
        } else {
            hi = m;
        }
    }
    return false;
}

static bool sorted_unique(const mbp_pair *v, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (v[k].a >= v[k].b || v[k].b >= MBP_MAX_BODIES || (k > 0u && !pair_less(v[k - 1u], v[k]))) {
            return false;
        }
    }
    return true;
}

static bool documented(mbp_status st, uint32_t allowed)
{
    return ((uint32_t)st < 32u) && ((allowed >> (uint32_t)st) & 1u) != 0u;
}
#define S(x) (1u << (uint32_t)(x))
#define ST_ADD (S(MBP_OK) | S(MBP_E_BADBOX) | S(MBP_E_RANGE) | S(MBP_E_FULL) | S(MBP_E_NOROOM))
#define ST_MOVE (S(MBP_OK) | S(MBP_E_STALE) | S(MBP_E_BADBOX) | S(MBP_E_RANGE) | S(MBP_E_NOROOM))
#define ST_HANDLE (S(MBP_OK) | S(MBP_E_STALE))
#define ST_UPDATE (S(MBP_OK) | S(MBP_E_PAIRS_FULL) | S(MBP_E_EVENTS_FULL) | S(MBP_E_NOROOM))
#define ST_QUERY (S(MBP_OK) | S(MBP_E_TRUNCATED) | S(MBP_E_BADBOX) | S(MBP_E_RANGE))
#define ST_RAY1 (S(MBP_OK) | S(MBP_E_BADBOX) | S(MBP_E_RANGE))
#define ST_ADD_SHAPE (ST_ADD | S(MBP_E_PARAM))
#define ST_MOVE_SHAPE (ST_MOVE | S(MBP_E_PARAM) | S(MBP_E_FULL))
#define ST_FAST (S(MBP_OK) | S(MBP_E_STALE) | S(MBP_E_FULL) | S(MBP_E_NOROOM))

/* What a move of body h may return: a fast body's move may also find the shape pool full
 * (MBP_E_FULL: mbp_set_fast() says a fast box body keeps its box in the pool; mbp_move_box()
 * and mbp_move_sphere() do not list that status yet). */
static uint32_t move_allowed(const mbp_world *w, mbp_body h, uint32_t base)
{
#if MBP_WITH_FAST
    if (mbp_valid(w, h) && (w->flags[h.slot1 - 1u] & MBP__FAST) != 0u) {
        return base | S(MBP_E_FULL);
    }
#else
    (void)w;
    (void)h;
#endif
    return base;
}

/* Result of comparing one call in both worlds. */
typedef enum { SAME, NOROOM_STOP, DIFFER } verdict;

/* A sphere body added or moved to, or without sphere bodies (MBP_WITH_SPHERES 0) a box body at
 * the sphere's box: the same bytes then mean the same operations in every build (a sphere the
 * library would refuse is refused with mbp_sphere_check()'s status, as mbp_add_sphere() does). */
static mbp_status add_sphere(mbp_world *w, const mbp_sphere *s, mbp_body *h)
{
#if MBP_WITH_SPHERES
    return mbp_add_sphere(w, s, 7u, h);
#else
    mbp_aabb b;
    mbp_status st = mbp_sphere_check(s);
    if (st == MBP_OK) {
        mbp_sphere_aabb(s, &b);
        st = mbp_add_box(w, &b, 7u, h);
    }
    return st;
#endif
}

static mbp_status move_sphere(mbp_world *w, mbp_body h, const mbp_sphere *s)
{
#if MBP_WITH_SPHERES
    return mbp_move_sphere(w, h, s);
#else
    mbp_aabb b;
    mbp_status st = mbp_sphere_check(s);
    if (st == MBP_OK) {
        mbp_sphere_aabb(s, &b);
        st = mbp_move_box(w, h, &b);
    }
    return st;
#endif
}

static verdict compare(mbp_status sw, mbp_status sr, uint32_t allowed)
{
    if (!documented(sw, allowed) || !documented(sr, allowed & ~S(MBP_E_NOROOM))) {
        g_why = "a status that the call does not document";
        return DIFFER;
    }
    if (sw == MBP_E_NOROOM && sr == MBP_OK) {
        return NOROOM_STOP;
    }
    if (sw != sr) {
        g_why = "the backend and brute force returned different statuses";
        return DIFFER;
    }
    return SAME;
}

/* Copies the world's pairs into g_pairs[s][g_cur], sorted, and checks the counters. */
static bool collect(const mbp_world *w, uint32_t s)
{
    mbp_pair *v = g_pairs[s][g_cur];
    uint32_t n = 0, it = 0;
    mbp_pair p;
    while (mbp_next_pair(w, &it, &p)) {
        if (n == MBP_MAX_PAIRS) {
            return FAIL("more pairs walked than MBP_MAX_PAIRS");
        }
        v[n++] = p;
    }
    mbp__sort_pairs(v, NULL, n);
    g_np[s][g_cur] = n;
    if (n != mbp_pair_count(w) || n != mbp_get_stats(w)->pairs) {
        return FAIL("pairs walked, mbp_pair_count and stats.pairs disagree");
    }
    if (!sorted_unique(v, n)) {
        return FAIL("a pair twice, with a >= b, or past MBP_MAX_BODIES");
    }
    for (uint32_t k = 0; k < n; k++) {
        if (mbp_handle(w, v[k].a).slot1 == 0u || mbp_handle(w, v[k].b).slot1 == 0u) {
            return FAIL("a pair with a body that is not live");
        }
    }
    return true;
}

/* The events of world s are the difference between its pairs now and at the previous update. */
static bool events_ok(const mbp_world *w, uint32_t s)
{
    const mbp_pair *cur = g_pairs[s][g_cur], *prev = g_pairs[s][g_cur ^ 1u];
    uint32_t nc = g_np[s][g_cur], np = g_np[s][g_cur ^ 1u];
    const mbp_stats *st = mbp_get_stats(w);
    uint32_t nb, ne;
    const mbp_pair *b = test_begun(w, &nb), *e = test_ended(w, &ne);
    if (nb != st->begun || ne != st->ended) {
        return FAIL("event list lengths differ from stats.begun/ended");
    }
    if (b != NULL && (!sorted_unique(b, nb) || !sorted_unique(e, ne))) { /* NULL: no lists */
        return FAIL("events not strictly ascending or not valid pairs");
    }
    uint32_t diff = 0;
    for (uint32_t k = 0; k < nc; k++) {
        diff += has(prev, np, cur[k]) ? 0u : 1u;
    }
    for (uint32_t k = 0; k < np; k++) {
        diff += has(cur, nc, prev[k]) ? 0u : 1u;
    }
    for (uint32_t k = 0; b != NULL && k < nb; k++) {
        if (!has(cur, nc, b[k]) || has(prev, np, b[k])) {
            return FAIL("a begun event for a pair that did not begin");
        }
    }
    for (uint32_t k = 0; e != NULL && k < ne; k++) {
        if (has(cur, nc, e[k]) || !has(prev, np, e[k])) {
            return FAIL("an ended event for a pair that did not end");
        }
    }
    if (nb + ne + st->lost_events != diff) {
        return FAIL("events stored + lost_events differ from the pairs that began and ended");
    }
    return true;
}

static bool subset(const mbp_pair *a, uint32_t na, const mbp_pair *b, uint32_t nb)
{
    for (uint32_t k = 0; k < na; k++) {
        if (!has(b, nb, a[k])) {
            return false;
        }
    }
    return true;
}

/* True when w's count of bodies with a special flag (a volume or filter) is theirs, and after an
 * update w->special is set exactly when there is one: the frame takes a backend's log of pair
 * changes only without them (mbp_update.c). */
static bool special_counted(const mbp_world *w)
{
    uint32_t n = 0u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        n += (w->flags[i] & MBP__SPECIAL) != 0u ? 1u : 0u;
    }
    return n == w->special_count && (n != 0u) == (w->special != 0u);
}

/* After an update in both worlds. Returns false on a finding; *stop on MBP_E_NOROOM. */
static bool check_update(mbp_world *w, mbp_world *ref, mbp_status sw, mbp_status sr, bool *stop)
{
    if (!documented(sw, ST_UPDATE) || !documented(sr, ST_UPDATE & ~S(MBP_E_NOROOM))) {
        return FAIL("mbp_update returned an undocumented status");
    }
    if (sw == MBP_E_NOROOM) {
        *stop = true;
        return true;
    }
    if (!collect(w, 0u) || !collect(ref, 1u) || !events_ok(w, 0u) || !events_ok(ref, 1u)) {
        return false;
    }
    const mbp_stats *tw = mbp_get_stats(w), *tr = mbp_get_stats(ref);
    if ((sw == MBP_E_PAIRS_FULL) != (tw->lost_pairs != 0u) ||
        (sr == MBP_E_PAIRS_FULL) != (tr->lost_pairs != 0u)) {
        return FAIL("MBP_E_PAIRS_FULL without lost_pairs, or lost_pairs without the status");
    }
    if (sw == MBP_OK && tw->lost_events != 0u) {
        return FAIL("lost_events but MBP_OK");
    }
    if (!special_counted(w) || !special_counted(ref)) {
        return FAIL("the count of special bodies differs from their flags");
    }
    const mbp_pair *pw = g_pairs[0][g_cur], *pr = g_pairs[1][g_cur];
    uint32_t nw = g_np[0][g_cur], nr = g_np[1][g_cur];
    /* Brute force counts its losses exactly (each pair is reported once, and tested before it
     * is stored), so stored + lost_pairs is the number of true pairs: the same in every backend
     * but the tree, which may count more (candidates lost, not pairs; SAFETY.md, invariant 7). */
    uint32_t true_pairs = nr + tr->lost_pairs;
    if (nw + tw->lost_pairs < true_pairs) {
        return FAIL("pairs lost but not counted: stored + lost_pairs < true pairs");
    }
    if (nw + tw->lost_pairs != true_pairs && w->params.backend != MBP_TREE) {
        return FAIL("stored + lost_pairs differ from brute force's: lost pairs miscounted");
    }
    bool full_w = sw == MBP_E_PAIRS_FULL, full_r = sr == MBP_E_PAIRS_FULL;
    if (!full_w && !full_r) {
        if (nw != nr || !subset(pw, nw, pr, nr)) {
            return FAIL("pairs differ from brute force");
        }
        /* The events share the pair set's free entries: a backend that keeps candidates has
         * fewer, and the pass order decides which event finds an entry, so only MBP_OK against
         * MBP_E_EVENTS_FULL may differ (events_ok() checked each world's events and losses). */
        bool events_only = (sw == MBP_OK || sw == MBP_E_EVENTS_FULL) &&
                           (sr == MBP_OK || sr == MBP_E_EVENTS_FULL);
        if (g_sync && sw != sr && !events_only) {
            return FAIL("same pairs before and after, but different update statuses");
        }
    } else if (!full_r) {
        if (!subset(pw, nw, pr, nr)) {
            return FAIL("the pair set overflowed and holds a pair brute force does not find");
        }
    } else if (!full_w) {
        if (!subset(pr, nr, pw, nw)) {
            return FAIL("brute force overflowed and the backend, complete, misses its pair");
        }
    }
    g_sync = nw == nr && subset(pw, nw, pr, nr);
    g_cur ^= 1u;
    g_updates++;
    return true;
}

/* Same status, same results; a truncated result is a subset of the full one. */
static bool check_ids(mbp_status sw, uint32_t cw, mbp_status sr, uint32_t cr, uint32_t cap,
                      uint32_t call)
{
    if (sw != sr || cw != cr) {
        return FAIL("query status or count differs from brute force");
    }
    if (sw != MBP_OK && sw != MBP_E_TRUNCATED) {
        return true;
    }
    uint32_t n = cw < cap ? cw : cap;
    for (uint32_t k = 0; k < n; k++) {
        if ((k > 0u && g_qw[k - 1u] >= g_qw[k]) || g_qw[k] >= MBP_MAX_BODIES) {
            return FAIL("query results not strictly ascending");
        }
        bool found = false;
        for (uint32_t j = 0; j < call && !found; j++) {
            found = g_qall[j] == g_qw[k];
        }
        if (!found || (sw == MBP_OK && g_qw[k] != g_qr[k])) {
            return FAIL("query results differ from brute force");
        }
    }
    return true;
}

static bool hit_before(mbp_hit a, mbp_hit b)
{
    return a.t < b.t || (!(b.t < a.t) && a.index < b.index);
}

static bool check_hits(mbp_status sw, uint32_t cw, mbp_status sr, uint32_t cr, uint32_t cap,
                       uint32_t call)
{
    if (sw != sr || cw != cr) {
        return FAIL("raycast status or count differs from brute force");
    }
    if (sw != MBP_OK && sw != MBP_E_TRUNCATED) {
        return true;
    }
    uint32_t n = cw < cap ? cw : cap;
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0u && !hit_before(g_hw[k - 1u], g_hw[k])) {
            return FAIL("raycast hits not in order of t, then index");
        }
        bool found = false;
        for (uint32_t j = 0; j < call && !found; j++) {
            found = g_hall[j].index == g_hw[k].index && !(g_hall[j].t < g_hw[k].t) &&
                    !(g_hw[k].t < g_hall[j].t);
        }
        if (!found) {
            return FAIL("a raycast hit brute force does not find (or with another t)");
        }
        if (sw == MBP_OK && (g_hw[k].index != g_hr[k].index || hit_before(g_hw[k], g_hr[k]) ||
                             hit_before(g_hr[k], g_hw[k]))) {
            return FAIL("raycast hits differ from brute force");
        }
    }
    return true;
}

mbp_backend fuzz_ops_backend(uint8_t first)
{
    /* The backends compiled in, in enum order, as the library's dispatch knows them. */
    uint32_t count = 0u;
    for (int b = MBP_BRUTE; b <= MBP_QUADTREE; b++) {
        count += mbp__backend_compiled((mbp_backend)b) ? 1u : 0u;
    }
    uint32_t pick = (first & 0x7Fu) % count; /* bit 7: the shape operations (fuzz_ops_run) */
    for (int b = MBP_BRUTE;; b++) {
        if (mbp__backend_compiled((mbp_backend)b) && pick-- == 0u) {
            return (mbp_backend)b;
        }
    }
}

/* Byte 1: parameters off their defaults, within their documented ranges (or not: init may
 * refuse with MBP_E_PARAM, which ends the run). */
static void tweak(mbp_params *p, uint8_t t, reader *r)
{
    (void)p;
    (void)r;
    if ((t & 1u) == 0u) {
        return;
    }
#if MBP_WITH_SAP
    p->sap_budget = (uint16_t)(1u + (t >> 4)); /* tiny budgets: the rebuild path */
#endif
#if MBP_WITH_SWEEP
    uint32_t axis = (uint32_t)(t >> 1) % (MBP_DIM + 1u);
    p->sweep_axis = (uint8_t)(axis == MBP_DIM ? MBP_AXIS_AUTO : axis);
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
    p->cell_size = halves((int32_t)(1u + (t >> 3)));
#endif
#if MBP_WITH_HASH || MBP_WITH_HGRID
    p->hash_buckets = 1u << ((t >> 2) & 3u); /* 1..8 buckets: collisions everywhere */
#endif
#if MBP_WITH_TREE
    p->tree_margin = (t & 2u) ? 0 : halves((int32_t)(t >> 4));
    p->tree_sweep = (uint8_t)((t >> 2) & 7u);
#endif
}

uint32_t fuzz_ops_run(const uint8_t *data, size_t size, mbp_world *w, mbp_world *ref,
                      const char **why)
{
    reader r = {data, size, 0u};
    mbp_params pw, pr;
    g_why = "";
    *why = "";
    g_nh = 0u;
    g_cur = 0u;
    g_updates = 0u;
    g_np[0][0] = g_np[0][1] = g_np[1][0] = g_np[1][1] = 0u;
    g_sync = true;
    mbp_params_default(&pw);
    mbp_params_default(&pr);
    /* Byte 0's bit 7 adds the shape operations: opcodes are then code % 16, 13..15 being add
     * shape, move shape and set fast. Without it they are code % 13, as in the scenes of
     * tests/test_regress.c, which stay the same scenes. */
    uint8_t first = u8(&r);
    uint32_t n_ops = (first & 0x80u) ? 16u : 13u;
    pw.backend = fuzz_ops_backend(first);
    pr.backend = MBP_BRUTE;
    tweak(&pw, u8(&r), &r);
    if (mbp_init(ref, &pr) != MBP_OK) {
        *why = "brute force refused its default parameters";
        return 1u;
    }
    mbp_status si = mbp_init(w, &pw);
    if (si == MBP_E_PARAM) {
        return 0u; /* a tweak out of range: documented, nothing to run */
    }
    if (si != MBP_OK) {
        *why = "mbp_init returned an undocumented status";
        return 1u;
    }
    uint32_t op = 1;
    for (; r.i < r.n; op++) {
        bool ok = true, stop = false;
        verdict v = SAME;
        uint8_t code = u8(&r);
        switch (code % n_ops) {
        case 0:
        case 1: { /* add a box (twice as likely: bodies are what everything else needs) */
            mbp_aabb b;
            mbp_body hw = {0u, 0u}, hr = {0u, 0u};
            read_box(&r, &b);
            uint32_t user = u8(&r);
            v = compare(mbp_add_box(w, &b, user, &hw), mbp_add_box(ref, &b, user, &hr), ST_ADD);
            if (v == SAME && hw.slot1 != 0u) {
                ok = hw.slot1 == hr.slot1 || FAIL("add gave different indices");
                track(w, hw, hr);
            }
            break;
        }
        case 2: { /* add a sphere */
            mbp_sphere s;
            mbp_body hw = {0u, 0u}, hr = {0u, 0u};
            read_point(&r, s.c);
            s.r = extent(&r);
            v = compare(add_sphere(w, &s, &hw), add_sphere(ref, &s, &hr), ST_ADD);
            if (v == SAME && hw.slot1 != 0u) {
                ok = hw.slot1 == hr.slot1 || FAIL("add gave different indices");
                track(w, hw, hr);
            }
            break;
        }
        case 3: { /* move to a new box */
            handles h = pick(&r);
            mbp_aabb b;
            read_box(&r, &b);
            v = compare(mbp_move_box(w, h.w, &b), mbp_move_box(ref, h.r, &b),
                        move_allowed(w, h.w, ST_MOVE));
            break;
        }
        case 4: { /* move to a sphere */
            handles h = pick(&r);
            mbp_sphere s;
            read_point(&r, s.c);
            s.r = extent(&r);
            v = compare(move_sphere(w, h.w, &s), move_sphere(ref, h.r, &s),
                        move_allowed(w, h.w, ST_MOVE));
            break;
        }
        case 5:
        case 6: { /* nudge: a small step, the coherent motion incremental backends live on */
            handles h = pick(&r);
            mbp_aabb bw, br;
            mbp_scalar d[3];
            for (int k = 0; k < 3; k++) {
                d[k] = halves((int8_t)u8(&r) / 32);
            }
            mbp_status gw = mbp_get_box(w, h.w, &bw), gr = mbp_get_box(ref, h.r, &br);
            v = compare(gw, gr, ST_HANDLE);
            if (v == SAME && gw == MBP_OK) {
                for (int k = 0; k < MBP_DIM; k++) {
                    ok = ok && !(bw.min[k] < br.min[k]) && !(br.min[k] < bw.min[k]) &&
                         !(bw.max[k] < br.max[k]) && !(br.max[k] < bw.max[k]);
                    bw.min[k] = add(bw.min[k], d[k]);
                    bw.max[k] = add(bw.max[k], d[k]);
                }
                if (!ok) {
                    (void)FAIL("mbp_get_box differs from brute force");
                    break;
                }
                /* half the time by its index (a live body here: mbp_get_box() took it) */
                mbp_status sw = (code & 0x80u) != 0u
                                    ? mbp_move_box_at(w, (uint16_t)(h.w.slot1 - 1u), &bw)
                                    : mbp_move_box(w, h.w, &bw);
                v = compare(sw, mbp_move_box(ref, h.r, &bw), move_allowed(w, h.w, ST_MOVE));
            }
            break;
        }
        case 7: { /* remove: by handle, or a live body half the time by its index (a stale
                   * handle's slot may hold another body: an index names whatever is there) */
            handles h = pick(&r);
            mbp_status sw = (code & 0x80u) != 0u && mbp_valid(w, h.w)
                                ? mbp_remove_at(w, (uint16_t)(h.w.slot1 - 1u))
                                : mbp_remove(w, h.w);
            v = compare(sw, mbp_remove(ref, h.r), ST_HANDLE);
            break;
        }
        case 8: { /* filter */
            handles h = pick(&r);
            uint16_t cat = u16(&r), mask = u16(&r);
            v = compare(mbp_set_filter(w, h.w, cat, mask), mbp_set_filter(ref, h.r, cat, mask),
                        ST_HANDLE);
            break;
        }
        case 9:
        case 10: { /* update and check */
            ok = check_update(w, ref, mbp_update(w), mbp_update(ref), &stop);
            if (ok && (code & 0x80u)) {
                mbp_sort_pairs(w); /* changes the walking order only */
            }
            if (g_nh > MBP_MAX_BODIES) {
                compact(w);
            }
            break;
        }
        case 11: { /* box or point query */
            mbp_aabb b;
            uint16_t mask = (code & 0x40u) ? 0xFFFFu : u16(&r);
            uint32_t cap = u8(&r) % (MBP_MAX_BODIES + 1u), cw = 0, cr = 0, call = 0;
            mbp_status sw, sr;
            if (code & 0x80u) {
                read_point(&r, b.min);
                sw = mbp_query_point(w, b.min, mask, g_qw, cap, &cw);
                sr = mbp_query_point(ref, b.min, mask, g_qr, cap, &cr);
                (void)mbp_query_point(ref, b.min, mask, g_qall, MBP_MAX_BODIES, &call);
            } else {
                read_box(&r, &b);
                sw = mbp_query_box(w, &b, mask, g_qw, cap, &cw);
                sr = mbp_query_box(ref, &b, mask, g_qr, cap, &cr);
                (void)mbp_query_box(ref, &b, mask, g_qall, MBP_MAX_BODIES, &call);
            }
            ok = documented(sw, ST_QUERY) ? check_ids(sw, cw, sr, cr, cap, call)
                                          : FAIL("a query returned an undocumented status");
            break;
        }
        case 12: { /* ray */
            mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
            read_point(&r, p0);
            read_point(&r, p1);
            uint16_t mask = (code & 0x40u) ? 0xFFFFu : u16(&r);
            if (code & 0x80u) {
                mbp_hit a = {0u, 0}, b = {0u, 0};
                bool fa = false, fb = false;
                mbp_status sw = mbp_raycast_first(w, p0, p1, mask, &a, &fa);
                mbp_status sr = mbp_raycast_first(ref, p0, p1, mask, &b, &fb);
                ok = documented(sw, ST_RAY1) && sw == sr && fa == fb &&
                         (!fa || (a.index == b.index && !hit_before(a, b) && !hit_before(b, a)))
                     ? true
                     : FAIL("mbp_raycast_first differs from brute force");
            } else {
                uint32_t cap = u8(&r) % (MBP_MAX_BODIES + 1u), cw = 0, cr = 0, call = 0;
                mbp_status sw = mbp_raycast(w, p0, p1, mask, g_hw, cap, &cw);
                mbp_status sr = mbp_raycast(ref, p0, p1, mask, g_hr, cap, &cr);
                (void)mbp_raycast(ref, p0, p1, mask, g_hall, MBP_MAX_BODIES, &call);
                ok = documented(sw, ST_QUERY) ? check_hits(sw, cw, sr, cr, cap, call)
                                              : FAIL("mbp_raycast returned an undocumented status");
            }
            break;
        }
        case 13: { /* add a shape of any kind */
#if MBP__SHAPES
            mbp_shape sh;
            mbp_body hw = {0u, 0u}, hr = {0u, 0u};
            read_shape(&r, &sh);
            uint32_t user = u8(&r);
            v = compare(mbp_add_shape(w, &sh, user, &hw), mbp_add_shape(ref, &sh, user, &hr),
                        ST_ADD_SHAPE);
            if (v == SAME && hw.slot1 != 0u) {
                ok = hw.slot1 == hr.slot1 || FAIL("add gave different indices");
                track(w, hw, hr);
            }
#endif
            break;
        }
        case 14: { /* move to a shape of any kind */
#if MBP__SHAPES
            handles h = pick(&r);
            mbp_shape sh;
            read_shape(&r, &sh);
            v = compare(mbp_move_shape(w, h.w, &sh), mbp_move_shape(ref, h.r, &sh),
                        ST_MOVE_SHAPE);
#endif
            break;
        }
        case 15: { /* fast on or off */
#if MBP_WITH_FAST
            handles h = pick(&r);
            bool fast = (u8(&r) & 1u) != 0u;
            v = compare(mbp_set_fast(w, h.w, fast), mbp_set_fast(ref, h.r, fast), ST_FAST);
#endif
            break;
        }
        default:
            break;
        }
        if (v == DIFFER) {
            ok = false;
        }
        if (!ok) {
            *why = g_why;
            return op;
        }
        if (v == NOROOM_STOP || stop) {
            return 0u; /* the backend's storage is full, documented; the worlds now differ */
        }
    }
    /* A last update, so that every input ends checked. */
    bool stop = false;
    if (!check_update(w, ref, mbp_update(w), mbp_update(ref), &stop)) {
        *why = g_why;
        return op;
    }
    return 0u;
}
