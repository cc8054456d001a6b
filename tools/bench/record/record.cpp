// SPDX-License-Identifier: MIT
// record.cpp: real scenes for make bench, recorded from Box2D 2.4.1 (Debian's libbox2d-dev).
//
//   record <scene> <out-file>     scene: pyramid, drum or impact
//
// Simulates one classic scene at 60 steps per second (8 velocity and 3 position iterations,
// Box2D's defaults) and writes, after each step, the box of every fixture in the scene-file format
// of docs/bench.md: one block per frame, one line "id minx miny maxx maxy" per fixture, the
// fixtures numbered in creation order. A box is the fixture's shape's exact box at the body's
// transform (b2Shape::ComputeAABB), printed with 9 significant digits so that a float survives
// the round trip; a body that did not move prints the same line again, which the replay skips
// (an application tells the broad phase about moved bodies only).
//
//   pyramid  the Box2D testbed's pyramid: 30 rows of unit boxes (465) on a static ground,
//            settling from rest; 240 frames
//   drum     a kinematic drum (a ring of 40 wall boxes, radius 16) turning at 0.6 rad/s, full of
//            1,200 small boxes (half sizes 0.2 to 0.35) tumbling under gravity; 240 frames
//   impact   top view, no gravity: a packed 120 x 80 grid of 9,600 resting unit boxes, 0.02
//            apart, hit by a heavy 3 x 3 box at 40 m/s; linear damping 0.8 brings them to rest;
//            120 frames
//
// The simulation is deterministic for a given Box2D build and machine (Box2D has no threads
// and no randomness; the small box sizes come from a fixed integer sequence).
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

std::vector<b2Fixture *> g_fix;

b2Body *box_body(b2World &w, b2BodyType type, float x, float y, float hx, float hy, float density,
                 float angle = 0.0f)
{
    b2BodyDef bd;
    bd.type = type;
    bd.position.Set(x, y);
    bd.angle = angle;
    b2Body *b = w.CreateBody(&bd);
    b2PolygonShape s;
    s.SetAsBox(hx, hy);
    g_fix.push_back(b->CreateFixture(&s, density));
    return b;
}

void write_frame(FILE *out)
{
    for (size_t i = 0; i < g_fix.size(); i++) {
        b2AABB a;
        g_fix[i]->GetShape()->ComputeAABB(&a, g_fix[i]->GetBody()->GetTransform(), 0);
        std::fprintf(out, "%zu %.9g %.9g %.9g %.9g\n", i, (double)a.lowerBound.x,
                     (double)a.lowerBound.y, (double)a.upperBound.x, (double)a.upperBound.y);
    }
    std::fputc('\n', out);
}

int pyramid(b2World &w)
{
    box_body(w, b2_staticBody, 0.0f, -1.0f, 40.0f, 1.0f, 0.0f);
    const int rows = 30;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < rows - r; c++) {
            float x = -0.5f * (float)(rows - r - 1) * 1.125f + (float)c * 1.125f;
            box_body(w, b2_dynamicBody, x, 0.5f + (float)r * 1.0f, 0.5f, 0.5f, 5.0f);
        }
    }
    return 240;
}

int drum(b2World &w)
{
    b2BodyDef bd;
    bd.type = b2_kinematicBody;
    b2Body *d = w.CreateBody(&bd);
    const int walls = 40;
    const float radius = 16.0f;
    for (int i = 0; i < walls; i++) {
        float a = 2.0f * b2_pi * (float)i / (float)walls;
        b2PolygonShape s;
        s.SetAsBox(1.35f, 0.5f, b2Vec2(radius * std::cos(a), radius * std::sin(a)), a + 0.5f * b2_pi);
        g_fix.push_back(d->CreateFixture(&s, 0.0f));
    }
    d->SetAngularVelocity(0.6f);
    unsigned seq = 12345u;
    for (int i = 0; i < 1200; i++) {
        seq = seq * 1103515245u + 12345u;
        float hx = 0.2f + 0.15f * (float)((seq >> 16) % 100u) / 100.0f;
        seq = seq * 1103515245u + 12345u;
        float hy = 0.2f + 0.15f * (float)((seq >> 16) % 100u) / 100.0f;
        int cx = i % 30, cy = i / 30;
        box_body(w, b2_dynamicBody, -13.0f + 0.85f * (float)cx, -13.0f + 0.65f * (float)cy, hx, hy, 1.0f);
    }
    return 240;
}

int impact(b2World &w)
{
    w.SetGravity(b2Vec2(0.0f, 0.0f));
    for (int y = 0; y < 80; y++) {
        for (int x = 0; x < 120; x++) {
            b2Body *b = box_body(w, b2_dynamicBody, (float)x * 1.02f, (float)y * 1.02f, 0.5f, 0.5f, 1.0f);
            b->SetLinearDamping(0.8f);
            b->SetAngularDamping(0.8f);
            b->SetAwake(false);
        }
    }
    b2Body *h = box_body(w, b2_dynamicBody, -8.0f, 40.0f, 1.5f, 1.5f, 50.0f);
    h->SetBullet(true);
    h->SetLinearVelocity(b2Vec2(40.0f, 0.0f));
    return 120;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fputs("usage: record pyramid|drum|impact <out-file>\n", stderr);
        return 2;
    }
    b2World w(b2Vec2(0.0f, -10.0f));
    int frames;
    if (std::strcmp(argv[1], "pyramid") == 0) {
        frames = pyramid(w);
    } else if (std::strcmp(argv[1], "drum") == 0) {
        frames = drum(w);
    } else if (std::strcmp(argv[1], "impact") == 0) {
        frames = impact(w);
    } else {
        std::fprintf(stderr, "record: no scene %s (pyramid, drum, impact)\n", argv[1]);
        return 2;
    }
    FILE *out = std::fopen(argv[2], "w");
    if (out == nullptr) {
        std::fprintf(stderr, "record: cannot write %s\n", argv[2]);
        return 1;
    }
    std::fprintf(out, "# %s: recorded from Box2D %d.%d.%d by tools/bench/record/record.cpp\n", argv[1],
                 b2_version.major, b2_version.minor, b2_version.revision);
    write_frame(out); // frame 0: the scene as built
    for (int f = 1; f < frames; f++) {
        w.Step(1.0f / 60.0f, 8, 3);
        write_frame(out);
    }
    return std::fclose(out) == 0 ? 0 : 1;
}
