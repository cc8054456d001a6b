/* SPDX-License-Identifier: MIT */
/* shapes.c: the cost of the shape tests (docs/shapes.md, make bench-shapes).
 *
 * For every pair of shape kinds compiled in, 64 random pairs placed near each other (about half
 * of them overlapping, the same on every machine), each mbp_shape_overlap() call timed on its
 * own with mbp_port_counter() (instructions under QEMU -icount; ns on the host) minus the
 * counter's own cost; and mbp_shape_aabb() for each kind (what a move pays). Output lines:
 *   SHAPE,<config>,<kind a>,<kind b>,<mean>,<mean when overlapping>,<mean when apart>,<overlapping>,<pairs>
 *   AABB,<config>,<kind>,<mean>
 * No floating point in the fixed-point builds (rotations come from rational cosines).
 */
#include "mbp.h"
#include "mbp_port.h"

#ifndef SHAPES_CONFIG
#define SHAPES_CONFIG "?"
#endif
#define PAIRS 64u
#define KINDS 6

static mbp_shape g_a[PAIRS], g_b[PAIRS];
static const char *const k_name[KINDS + 1] = {"", "box", "sphere", "obb", "kdop", "capsule", "rss"};

static void put(const char *s)
{
    mbp_port_write(s);
}

static void putu(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    put(&buf[i]);
}

static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/* uniform in [lo, hi] */
static int32_t between(uint32_t *s, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(rnd(s) % (uint32_t)(hi - lo + 1));
}

static mbp_scalar e8(int32_t n)
{
    return mbp_from_ratio(n, 8);
}

/* cos and sin of the angle with tan(angle / 2) = t / 16: (256 - t^2, 32 t) / (256 + t^2). */
static void cos_sin(int32_t t, mbp_unit *c, mbp_unit *s)
{
    int32_t den = 256 + t * t;
#if MBP_SCALAR == MBP_FIXED
    *c = (mbp_unit)(((int64_t)(256 - t * t) << 30) / den);
    *s = (mbp_unit)(((int64_t)(32 * t) << 30) / den);
#else
    *c = (float)(256 - t * t) / (float)den;
    *s = (float)(32 * t) / (float)den;
#endif
}

#if MBP_DIM == 3
static mbp_unit mul_u(mbp_unit a, mbp_unit b)
{
#if MBP_SCALAR == MBP_FIXED
    return (mbp_unit)(((int64_t)a * b) >> 30);
#else
    return a * b;
#endif
}
#endif

static void rotation(uint32_t *s, mbp_unit r[MBP_DIM][MBP_DIM])
{
    mbp_unit c, sn;
    cos_sin(between(s, -40, 40), &c, &sn);
#if MBP_DIM == 2
    r[0][0] = c;
    r[0][1] = sn;
    r[1][0] = -sn;
    r[1][1] = c;
#else
    mbp_unit c2, s2; /* about z, then about x */
    cos_sin(between(s, -40, 40), &c2, &s2);
    r[0][0] = c;
    r[0][1] = sn;
    r[0][2] = 0;
    r[1][0] = mul_u(-sn, c2);
    r[1][1] = mul_u(c, c2);
    r[1][2] = s2;
    r[2][0] = mul_u(sn, s2);
    r[2][1] = mul_u(-c, s2);
    r[2][2] = c2;
#endif
}

static void make(uint32_t *s, int kind, const int32_t *at, mbp_shape *out)
{
    out->kind = (uint8_t)kind;
    int32_t c[3];
    for (int k = 0; k < 3; k++) {
        c[k] = at[k] + between(s, -8, 8);
    }
    switch (kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < MBP_DIM; k++) {
            out->u.box.min[k] = e8(c[k] - between(s, 1, 24));
            out->u.box.max[k] = e8(c[k] + between(s, 1, 24));
        }
        break;
    case MBP_SHAPE_SPHERE:
        for (int k = 0; k < MBP_DIM; k++) {
            out->u.sphere.c[k] = e8(c[k]);
        }
        out->u.sphere.r = e8(between(s, 2, 24));
        break;
    case MBP_SHAPE_OBB:
        for (int k = 0; k < MBP_DIM; k++) {
            out->u.obb.c[k] = e8(c[k]);
            out->u.obb.h[k] = e8(between(s, 2, 24));
        }
        rotation(s, out->u.obb.rot);
        break;
    case MBP_SHAPE_KDOP: {
        mbp_scalar p[5][MBP_DIM];
        for (int i = 0; i < 5; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                p[i][k] = e8(c[k] + between(s, -24, 24));
            }
        }
#if MBP_WITH_KDOP
        (void)mbp_kdop_from_points((const mbp_scalar(*)[MBP_DIM])p, 5u, &out->u.kdop);
#endif
        break;
    }
    case MBP_SHAPE_RSS: /* sizes like the oriented box's, the radius like the capsule's */
        for (int k = 0; k < MBP_DIM; k++) {
            out->u.rss.c[k] = e8(c[k]);
        }
        out->u.rss.h[0] = e8(between(s, 2, 24));
        out->u.rss.h[1] = e8(between(s, 2, 24));
        out->u.rss.r = e8(between(s, 1, 16));
        rotation(s, out->u.rss.rot);
        break;
    default:
        for (int k = 0; k < MBP_DIM; k++) {
            out->u.capsule.a[k] = e8(c[k]);
            out->u.capsule.b[k] = e8(c[k] + between(s, -32, 32));
        }
        out->u.capsule.r = e8(between(s, 1, 16));
        break;
    }
}

static bool on(int kind)
{
    return (kind != MBP_SHAPE_OBB || MBP_WITH_OBB) && (kind != MBP_SHAPE_KDOP || MBP_WITH_KDOP) &&
           (kind != MBP_SHAPE_CAPSULE || MBP_WITH_CAPSULE) && (kind != MBP_SHAPE_RSS || MBP_WITH_RSS);
}

int main(void)
{
    mbp_port_counter_init();
    uint32_t overhead = 0xFFFFFFFFu;
    for (int i = 0; i < 16; i++) {
        uint32_t t0 = mbp_port_counter();
        uint32_t t1 = mbp_port_counter();
        overhead = t1 - t0 < overhead ? t1 - t0 : overhead;
    }
    volatile bool sink = false;
    for (int ka = 1; ka <= KINDS; ka++) {
        for (int kb = ka; kb <= KINDS; kb++) {
            if (!on(ka) || !on(kb)) {
                continue;
            }
            uint32_t seed = (uint32_t)(ka * 31 + kb) * 2654435761u + 1u;
            for (uint32_t i = 0; i < PAIRS; i++) {
                int32_t o[3] = {0, 0, 0}, d[3];
                for (int k = 0; k < 3; k++) {
                    d[k] = between(&seed, -32, 32);
                }
                make(&seed, ka, o, &g_a[i]);
                make(&seed, kb, d, &g_b[i]);
            }
            uint64_t sum[2] = {0u, 0u};
            uint32_t n[2] = {0u, 0u};
            for (uint32_t i = 0; i < PAIRS; i++) {
                uint32_t t0 = mbp_port_counter();
                bool r = mbp_shape_overlap(&g_a[i], &g_b[i]);
                uint32_t t1 = mbp_port_counter();
                sink = r;
                uint32_t dt = t1 - t0;
                sum[r] += dt > overhead ? dt - overhead : 0u;
                n[r]++;
            }
            put("SHAPE," SHAPES_CONFIG ",");
            put(k_name[ka]);
            put(",");
            put(k_name[kb]);
            put(",");
            putu((uint32_t)((sum[0] + sum[1]) / PAIRS));
            put(",");
            putu(n[1] ? (uint32_t)(sum[1] / n[1]) : 0u);
            put(",");
            putu(n[0] ? (uint32_t)(sum[0] / n[0]) : 0u);
            put(",");
            putu(n[1]);
            put(",");
            putu(PAIRS);
            put("\n");
        }
    }
    for (int k = 1; k <= KINDS; k++) {
        if (!on(k)) {
            continue;
        }
        uint32_t seed = (uint32_t)k * 40503u + 7u;
        int32_t o[3] = {0, 0, 0};
        uint64_t sum = 0u;
        for (uint32_t i = 0; i < PAIRS; i++) {
            mbp_aabb box;
            make(&seed, k, o, &g_a[i]);
            uint32_t t0 = mbp_port_counter();
            mbp_shape_aabb(&g_a[i], &box);
            uint32_t t1 = mbp_port_counter();
            sink = box.min[0] < box.max[0];
            sum += t1 - t0 > overhead ? t1 - t0 - overhead : 0u;
        }
        put("AABB," SHAPES_CONFIG ",");
        put(k_name[k]);
        put(",");
        putu((uint32_t)(sum / PAIRS));
        put("\n");
    }
    (void)sink;
    mbp_port_exit(0);
}
