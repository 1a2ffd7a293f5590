/* HUD text through stb_easy_font: its glyphs are axis-aligned quads, each drawn here as one
 * HUD rectangle (scaled, with a one-pixel shadow so it reads over sky and snow alike). */
#include "sandbox.h"

#include <string.h>

#include <stb_easy_font.h>

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

/* Text as a banner shows it: tabs expanded to the next multiple of 4 columns, "→" (UTF-8) as
 * "->", other bytes stb_easy_font has no glyph for as '?', and lines wrapped at spaces (or hard,
 * for a word longer than the line) to fit max_width pixels. Writes at most max_lines lines; the
 * last one ends in "..." when the text goes on. Returns the number of lines written. */
int sb_hud_wrap(const char *text, float scale, float max_width, int max_lines, char *out, size_t cap) {
    char flat[4096];
    size_t n = 0;
    int col = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 8 < sizeof flat; p++) {
        if (*p == '\t') {
            do flat[n++] = ' ', col++; while (col % 4 && n + 1 < sizeof flat);
        } else if (p[0] == 0xE2 && p[1] == 0x86 && p[2] == 0x92) {   /* U+2192 */
            flat[n++] = '-', flat[n++] = '>', col += 2, p += 2;
        } else if (*p == '\n') {
            flat[n++] = '\n', col = 0;
        } else if (*p >= 0x80) {
            flat[n++] = '?', col++;
            while ((p[1] & 0xC0) == 0x80) p++;                          /* one '?' per character */
        } else if (*p >= 32 || *p == '\n') {
            flat[n++] = (char)*p, col++;
        }
    }
    flat[n] = '\0';
    size_t o = 0;
    int lines = 0;
    const char *p = flat;
    bool more = false;
    while (*p || p == flat) {
        if (lines == max_lines) { more = *p != '\0'; break; }
        /* the longest prefix of this line that fits, cut at its last space when there is one */
        size_t len = strcspn(p, "\n"), take = len;
        char buf[4096];
        while (take > 0) {
            memcpy(buf, p, take);
            buf[take] = '\0';
            if ((float)stb_easy_font_width(buf) * scale <= max_width) break;
            take--;
        }
        if (take < len && take > 0) {
            size_t sp = take;
            while (sp > 0 && p[sp] != ' ') sp--;
            if (sp > 0) take = sp;
        }
        if (take == 0 && len > 0) take = 1;
        if (o + take + 2 >= cap) break;
        if (lines) out[o++] = '\n';
        memcpy(out + o, p, take);
        o += take;
        lines++;
        p += take;
        while (*p == ' ') p++;
        if (*p == '\n') p++;
        else if (!*p) break;
    }
    if (more && o > 3) memcpy(out + o - 3, "...", 3);
    out[o < cap ? o : cap - 1] = '\0';
    return lines;
}
