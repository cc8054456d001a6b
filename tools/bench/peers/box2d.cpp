// SPDX-License-Identifier: MIT
// box2d.cpp: Box2D 2.4.1's broad phase (Debian's libbox2d-dev): b2DynamicTree through
// b2BroadPhase, for make bench-peers. b2BroadPhase keeps no pair set: UpdatePairs() reports the
// new candidate pairs of the proxies that left their fat boxes, and Box2D's contact manager keeps
// them. This adapter does what b2ContactManager does for the broad phase: AddPair() skips a pair
// the body already has (a scan of the body's pair list, as Box2D scans its contact edges), and
// the walk drops a pair whose fat boxes stopped overlapping (TestOverlap, as Collide() does)
// before the shared exact test. A move is MoveProxy() with the box centre's displacement, as
// b2Fixture::Synchronize passes it. A scene's static bodies (the level's tiles) are static as in
// Box2D: AddPair() drops a pair of two of them after the scan, as b2ContactManager does with
// b2Body::ShouldCollide (at least one body must be dynamic); they are never moved.
#include "peers.h"

#include <box2d/b2_broad_phase.h>

#include <vector>

namespace {

struct box2dx {
    b2BroadPhase bp;
    std::vector<int32> proxy;
    std::vector<b2Vec2> centre;
    std::vector<std::vector<uint32_t>> partners; // per body: the ids it has a pair with
    std::vector<uint32_t> pairs;                 // a << 16 | b
    uint32_t statics;                            // ids below this are static bodies

    // Called by UpdatePairs for each new candidate pair.
    void AddPair(void *ua, void *ub)
    {
        uint32_t a = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ua));
        uint32_t b = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ub));
        std::vector<uint32_t> &pa = partners[a];
        for (uint32_t o : pa) {
            if (o == b) {
                return;
            }
        }
        if (a < statics && b < statics) {
            return;
        }
        pa.push_back(b);
        partners[b].push_back(a);
        pairs.push_back(a < b ? a << 16 | b : b << 16 | a);
    }
};

b2AABB box(uint32_t id)
{
    b2AABB r;
    r.lowerBound.Set(g_box[id].min[0], g_box[id].min[1]);
    r.upperBound.Set(g_box[id].max[0], g_box[id].max[1]);
    return r;
}

void drop_partner(std::vector<uint32_t> &list, uint32_t id)
{
    for (size_t i = 0; i < list.size(); i++) {
        if (list[i] == id) {
            list[i] = list.back();
            list.pop_back();
            return;
        }
    }
}

void *create(const peer_method *, const bench_source *s)
{
    box2dx *x = new box2dx;
    x->proxy.resize(s->n, b2BroadPhase::e_nullProxy);
    x->centre.resize(s->n);
    x->partners.resize(s->n);
    x->statics = s->statics;
    return x;
}

void add(void *v, uint32_t id)
{
    box2dx *x = static_cast<box2dx *>(v);
    b2AABB b = box(id);
    x->proxy[id] = x->bp.CreateProxy(b, reinterpret_cast<void *>(static_cast<uintptr_t>(id)));
    x->centre[id] = b.GetCenter();
}

void move(void *v, uint32_t id)
{
    box2dx *x = static_cast<box2dx *>(v);
    b2AABB b = box(id);
    b2Vec2 c = b.GetCenter();
    x->bp.MoveProxy(x->proxy[id], b, c - x->centre[id]);
    x->centre[id] = c;
}

void remove(void *v, uint32_t id)
{
    box2dx *x = static_cast<box2dx *>(v);
    x->bp.DestroyProxy(x->proxy[id]);
    x->proxy[id] = b2BroadPhase::e_nullProxy;
    for (uint32_t o : x->partners[id]) { // the body's contacts go with it
        drop_partner(x->partners[o], id);
        uint32_t k = id < o ? id << 16 | o : o << 16 | id;
        for (size_t i = 0; i < x->pairs.size(); i++) {
            if (x->pairs[i] == k) {
                x->pairs[i] = x->pairs.back();
                x->pairs.pop_back();
                break;
            }
        }
    }
    x->partners[id].clear();
}

void update(void *v)
{
    box2dx *x = static_cast<box2dx *>(v);
    x->bp.UpdatePairs(x);
}

void walk(void *v)
{
    box2dx *x = static_cast<box2dx *>(v);
    for (size_t i = 0; i < x->pairs.size();) {
        uint32_t a = x->pairs[i] >> 16, b = x->pairs[i] & 0xFFFFu;
        if (!x->bp.TestOverlap(x->proxy[a], x->proxy[b])) {
            drop_partner(x->partners[a], b);
            drop_partner(x->partners[b], a);
            x->pairs[i] = x->pairs.back();
            x->pairs.pop_back();
            continue;
        }
        peer_pair(a, b);
        i++;
    }
}

void destroy(void *v)
{
    delete static_cast<box2dx *>(v);
}

} // namespace

extern "C" void peers_box2d(peer_method *list, int *count)
{
    list[(*count)++] = peer_method{"box2d-tree", "peer", create, add, move, remove, update, walk,
                                   nullptr, destroy, 0};
}
