/* SPDX-License-Identifier: MIT */
/* svg.h: a tiny SVG writer for the demo, without printf (it runs on a bare Cortex-M too).
 *
 * Everything goes out through mbp_port_write(). Coordinates are integers in the picture's own
 * units; the caller scales. Styles are passed as ready-made attribute strings. */
#ifndef DEMO_SVG_H
#define DEMO_SVG_H

#include <stdint.h>

void svg_begin(int32_t width, int32_t height);
void svg_rect(int32_t x, int32_t y, int32_t w, int32_t h, const char *style);
void svg_circle(int32_t cx, int32_t cy, int32_t r, const char *style);
void svg_line(int32_t x1, int32_t y1, int32_t x2, int32_t y2, const char *style);
/* Text at (x, y): write the words with mbp_port_write() and the numbers with svg_int()
 * between svg_text_begin() and svg_text_end(). */
void svg_text_begin(int32_t x, int32_t y, const char *style);
void svg_text_end(void);
void svg_end(void);

/* Writes a decimal integer (also used for the demo's console lines). */
void svg_int(int32_t v);

#endif
