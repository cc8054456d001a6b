// SPDX-License-Identifier: MIT
// bullet.cpp: Bullet 3.24's broad phases (Debian's libbullet-dev, single precision), for make
// bench-peers: btAxisSweep3 (16-bit quantized sweep and prune over the scene's region) and
// btDbvtBroadphase (two dynamic AABB trees), each with its default hashed pair cache, which the
// walk reads. Bullet is 3D: every box spans z = [0, 1]. A move is setAabb(); the update is
// calculateOverlappingPairs(); the pair cache holds the pairs of overlapping (for the Dbvt: fat,
// and removed lazily) boxes, so the walk's exact test drops the stale ones. A scene's static
// bodies (the level's tiles) get Bullet's own static class, as btCollisionWorld gives a static
// object: group StaticFilter, mask AllFilter ^ StaticFilter, so the pair cache never takes a pair
// of two of them.
#include "peers.h"

#include <btBulletCollisionCommon.h>

#include <vector>

namespace {

struct bulletx {
    btBroadphaseInterface *bp;
    std::vector<btBroadphaseProxy *> proxy;
    uint32_t statics; // ids below this are static bodies
};

btVector3 lo3(const mbp_aabb &b)
{
    return btVector3(b.min[0], b.min[1], 0.0f);
}

btVector3 hi3(const mbp_aabb &b)
{
    return btVector3(b.max[0], b.max[1], 1.0f);
}

void *create(const peer_method *m, const bench_source *s)
{
    bulletx *x = new bulletx;
    x->proxy.resize(s->n, nullptr);
    x->statics = s->statics;
    if (m->variant == 0) {
        // The quantized region: the scene's, a unit wider (bodies stay in it).
        btVector3 lo(s->lo[0] - 1.0f, s->lo[1] - 1.0f, -1.0f), hi(s->hi[0] + 1.0f, s->hi[1] + 1.0f, 2.0f);
        x->bp = new btAxisSweep3(lo, hi, (unsigned short)(s->n + 1u), nullptr, true);
    } else {
        x->bp = new btDbvtBroadphase();
    }
    return x;
}

void add(void *v, uint32_t id)
{
    bulletx *x = static_cast<bulletx *>(v);
    const bool fixed = id < x->statics;
    const int group = fixed ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter;
    const int mask = fixed ? btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter
                           : btBroadphaseProxy::AllFilter;
    x->proxy[id] = x->bp->createProxy(lo3(g_box[id]), hi3(g_box[id]), 0,
                                      reinterpret_cast<void *>(static_cast<uintptr_t>(id)), group,
                                      mask, nullptr);
}

void move(void *v, uint32_t id)
{
    bulletx *x = static_cast<bulletx *>(v);
    x->bp->setAabb(x->proxy[id], lo3(g_box[id]), hi3(g_box[id]), nullptr);
}

void remove(void *v, uint32_t id)
{
    bulletx *x = static_cast<bulletx *>(v);
    x->bp->destroyProxy(x->proxy[id], nullptr);
    x->proxy[id] = nullptr;
}

void update(void *v)
{
    static_cast<bulletx *>(v)->bp->calculateOverlappingPairs(nullptr);
}

void walk(void *v)
{
    btOverlappingPairCache *c = static_cast<bulletx *>(v)->bp->getOverlappingPairCache();
    const btBroadphasePairArray &a = c->getOverlappingPairArray();
    for (int i = 0; i < a.size(); i++) {
        peer_pair(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(a[i].m_pProxy0->m_clientObject)),
                  static_cast<uint32_t>(reinterpret_cast<uintptr_t>(a[i].m_pProxy1->m_clientObject)));
    }
}

void destroy(void *v)
{
    bulletx *x = static_cast<bulletx *>(v);
    delete x->bp;
    delete x;
}

} // namespace

extern "C" void peers_bullet(peer_method *list, int *count)
{
    list[(*count)++] = peer_method{"bullet-sap", "peer", create, add, move, remove, update, walk,
                                   nullptr, destroy, 0};
    list[(*count)++] = peer_method{"bullet-dbvt", "peer", create, add, move, remove, update, walk,
                                   nullptr, destroy, 1};
}
