/* SPDX-License-Identifier: MIT */
/* svg.c: see svg.h. */
#include "svg.h"

#include "mbp_port.h"

void svg_int(int32_t v)
{
    char buf[12];
    int i = 11;
    uint32_t u = v < 0 ? (uint32_t)(-(v + 1)) + 1u : (uint32_t)v;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(u % 10u));
        u /= 10u;
    } while (u != 0u);
    if (v < 0) {
        buf[--i] = '-';
    }
    mbp_port_write(&buf[i]);
}

static void attr(const char *name, int32_t v)
{
    mbp_port_write(" ");
    mbp_port_write(name);
    mbp_port_write("=\"");
    svg_int(v);
    mbp_port_write("\"");
}

static void close_tag(const char *style)
{
    mbp_port_write(" ");
    mbp_port_write(style);
    mbp_port_write("/>\n");
}

void svg_begin(int32_t width, int32_t height)
{
    mbp_port_write("<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr("width", width);
    attr("height", height);
    mbp_port_write(" viewBox=\"0 0 ");
    svg_int(width);
    mbp_port_write(" ");
    svg_int(height);
    mbp_port_write("\">\n");
}

void svg_rect(int32_t x, int32_t y, int32_t w, int32_t h, const char *style)
{
    mbp_port_write("<rect");
    attr("x", x);
    attr("y", y);
    attr("width", w);
    attr("height", h);
    close_tag(style);
}

void svg_circle(int32_t cx, int32_t cy, int32_t r, const char *style)
{
    mbp_port_write("<circle");
    attr("cx", cx);
    attr("cy", cy);
    attr("r", r);
    close_tag(style);
}

void svg_line(int32_t x1, int32_t y1, int32_t x2, int32_t y2, const char *style)
{
    mbp_port_write("<line");
    attr("x1", x1);
    attr("y1", y1);
    attr("x2", x2);
    attr("y2", y2);
    close_tag(style);
}

void svg_text_begin(int32_t x, int32_t y, const char *style)
{
    mbp_port_write("<text");
    attr("x", x);
    attr("y", y);
    mbp_port_write(" ");
    mbp_port_write(style);
    mbp_port_write(">");
}

void svg_text_end(void)
{
    mbp_port_write("</text>\n");
}

void svg_end(void)
{
    mbp_port_write("</svg>\n");
}
