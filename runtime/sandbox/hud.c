/* HUD text through stb_easy_font: its glyphs are axis-aligned quads, each drawn here as one
 * HUD rectangle (scaled, with a one-pixel shadow so it reads over sky and snow alike). */
#include "sandbox.h"

#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* stb_easy_font writes 4 vertices of 16 bytes (x, y, z floats and 4 colour bytes) per quad. */
typedef struct easy_vertex {
    float x, y, z;
    unsigned char color[4];
} easy_vertex;

static void draw_line(sb_renderer *r, float x, float y, float scale, char *line, float cr,
                      float cg, float cb, float *width) {
    easy_vertex buf[4 * 1000]; /* 64 KB of stack: ~250 glyphs' segments */
    int quads = stb_easy_font_print(0, 0, line, NULL, buf, (int)sizeof buf);
    for (int pass = 0; pass < 2; pass++) {
        float off = pass == 0 ? 1.0f : 0.0f;
        for (int q = 0; q < quads; q++) {
            const easy_vertex *v = &buf[4 * q];
            float x0 = v[0].x, y0 = v[0].y, x1 = v[2].x, y1 = v[2].y;
            float w = (x1 - x0) * scale, h = (y1 - y0) * scale;
            if (pass == 0) sb_hud_rect(r, x + x0 * scale + off, y + y0 * scale + off, w, h, 0, 0, 0, 0.8f);
            else sb_hud_rect(r, x + x0 * scale, y + y0 * scale, w, h, cr, cg, cb, 1.0f);
        }
    }
    float lw = (float)stb_easy_font_width(line) * scale;
    if (lw > *width) *width = lw;
}

float sb_hud_text(sb_renderer *r, float x, float y, float scale, const char *text, float cr,
                  float cg, float cb) {
    char line[240];
    float width = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        draw_line(r, x, y, scale, line, cr, cg, cb, &width);
        y += 12.0f * scale;
        if (!nl) break;
        p = nl + 1;
    }
    return width;
}
