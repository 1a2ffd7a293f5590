/* Layout tables: checking, copying and fingerprinting a struct through its table (layout.h). */
#include "core/layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

uint64_t gait__fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The name of element i of row f under prefix: "prefix.name", "prefix.name[i]". */
static void member_name(char *out, size_t cap, const char *prefix, const gait__lfield *f,
                        size_t i) {
    size_t n = f->size / f->elem;
    const char *dot = prefix[0] ? "." : "";
    if (n > 1) snprintf(out, cap, "%s%s%s[%zu]", prefix, dot, f->name, i);
    else snprintf(out, cap, "%s%s%s", prefix, dot, f->name);
}

static void range_text(char *out, size_t cap, double lo, double hi, const char *unit) {
    snprintf(out, cap, "[%g, %g]%s%s", lo, hi, unit && unit[0] ? " " : "", unit ? unit : "");
}

static bool real_ok(const char *name, double v, double lo, double hi, const char *unit, char *err,
                    size_t cap) {
    if (v >= lo && v <= hi) return true;
    char range[96];
    range_text(range, sizeof range, lo, hi, unit);
    if (isnan(v)) snprintf(err, cap, "%s is NaN; allowed %s", name, range);
    else snprintf(err, cap, "%s = %g is %s; allowed %s", name, v,
                  isinf(v) ? "infinite" : "out of range", range);
    return false;
}

static int64_t read_int(const unsigned char *p, size_t size) {
    switch (size) {
    case 1: { int8_t v; memcpy(&v, p, 1); return v; }
    case 2: { int16_t v; memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

static uint64_t read_uint(const unsigned char *p, size_t size) {
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static bool check_table(const gait__ltable *t, const void *base, char *err, size_t cap);

/* Element k of row f at p: in its range. The name is only made for a message (a restore checks
 * every member of every character: no formatting on the way). */
static bool element_ok(const gait__lfield *f, const unsigned char *p, const char *prefix, size_t k,
                       char *err, size_t cap) {
    char name[160];
    switch (f->kind) {
    case GAIT__L_REAL: {
        double v;
        memcpy(&v, p, sizeof v);
        if (v >= f->min && v <= f->max) return true;
        member_name(name, sizeof name, prefix, f, k);
        return real_ok(name, v, f->min, f->max, f->unit, err, cap);
    }
    case GAIT__L_VEC3: {
        gait_vec3 v;
        memcpy(&v, p, sizeof v);
        const double c[3] = {v.x, v.y, v.z};
        for (int i = 0; i < 3; i++) {
            if (c[i] >= f->min && c[i] <= f->max) continue;
            char part[176];
            member_name(name, sizeof name, prefix, f, k);
            snprintf(part, sizeof part, "%.160s.%c", name, "xyz"[i]);
            return real_ok(part, c[i], f->min, f->max, f->unit, err, cap);
        }
        return true;
    }
    case GAIT__L_BOOL: {
        const bool no = false, yes = true;
        if (memcmp(p, &no, sizeof no) == 0 || memcmp(p, &yes, sizeof yes) == 0) return true;
        member_name(name, sizeof name, prefix, f, k);
        snprintf(err, cap, "%s = %u is not a boolean (0 or 1)", name, (unsigned)p[0]);
        return false;
    }
    case GAIT__L_INT: {
        int64_t v = read_int(p, f->elem);
        if ((double)v >= f->min && (double)v <= f->max) return true;
        member_name(name, sizeof name, prefix, f, k);
        snprintf(err, cap, "%s = %lld is out of range; allowed %.0f..%.0f", name, (long long)v,
                 f->min, f->max);
        return false;
    }
    case GAIT__L_UINT: {
        uint64_t v = read_uint(p, f->elem);
        if ((double)v >= f->min && (double)v <= f->max) return true;
        member_name(name, sizeof name, prefix, f, k);
        snprintf(err, cap, "%s = %llu is out of range; allowed %.0f..%.0f", name,
                 (unsigned long long)v, f->min, f->max);
        return false;
    }
    case GAIT__L_TEXT:
        if (memchr(p, 0, f->elem)) return true;
        member_name(name, sizeof name, prefix, f, k);
        snprintf(err, cap, "%s is not a string ended within its %zu bytes", name, f->elem);
        return false;
    case GAIT__L_STRUCT: {
        char inner[256];
        if (check_table(f->sub, p, inner, sizeof inner)) return true;
        member_name(name, sizeof name, prefix, f, k); /* the path into the struct */
        snprintf(err, cap, "%.100s.%.150s", name, inner);
        return false;
    }
    case GAIT__L_HOST:
    case GAIT__L_CACHE:
        return true;
    }
    return true;
}

/* The table's checks, messages relative to the struct (no prefix). */
static bool check_table(const gait__ltable *t, const void *base, char *err, size_t cap) {
    const unsigned char *b = base;
    if (t->schema) {
        const gait_schema *s = t->schema();
        for (int i = 0; i < s->count; i++) {
            const gait_schema_field *sf = &s->fields[i];
            double v = gait_schema_read(sf, b);
            if (gait_schema_valid(sf, v)) continue;
            char why[200];
            gait_schema_check_value(sf, v, why, sizeof why);
            snprintf(err, cap, "%s%s%s", sf->group, sf->group[0] ? "." : "", why);
            return false;
        }
    }
    for (int i = 0; i < t->count; i++) {
        const gait__lfield *f = &t->fields[i];
        size_t n = f->size / f->elem;
        for (size_t k = 0; k < n; k++)
            if (!element_ok(f, b + f->offset + k * f->elem, "", k, err, cap)) return false;
    }
    if (t->rules) {
        err[0] = 0;
        if (!t->rules(base, err, cap)) return false;
    }
    return true;
}

bool gait__layout_check(const gait__ltable *t, const void *base, const char *prefix, char *err,
                        size_t cap) {
    char why[256];
    if (check_table(t, base, why, sizeof why)) return true;
    snprintf(err, cap, "%s%s%s", prefix, prefix[0] ? "." : "", why);
    return false;
}

void gait__layout_copy(const gait__ltable *t, void *dst, const void *src, bool restore) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (t->schema) {
        const gait_schema *sc = t->schema();
        for (int i = 0; i < sc->count; i++)
            memcpy(d + sc->fields[i].offset, s + sc->fields[i].offset, sizeof(double));
    }
    for (int i = 0; i < t->count; i++) {
        const gait__lfield *f = &t->fields[i];
        switch (f->kind) {
        case GAIT__L_STRUCT:
            for (size_t k = 0; k < f->size / f->elem; k++) {
                size_t at = f->offset + k * f->elem;
                gait__layout_copy(f->sub, d + at, s + at, restore);
            }
            break;
        case GAIT__L_HOST:
            break; /* save: stays zero; restore: the host's stays */
        case GAIT__L_CACHE:
            if (restore) memset(d + f->offset, 0, f->size);
            break;
        default:
            memcpy(d + f->offset, s + f->offset, f->size);
        }
    }
}

static uint64_t hash_u64(uint64_t h, uint64_t v) { return gait__fnv1a(h, &v, sizeof v); }

uint64_t gait__layout_fingerprint(const gait__ltable *t, uint64_t h) {
    h = gait__fnv1a(h, t->type, strlen(t->type) + 1);
    h = hash_u64(h, t->size);
    if (t->schema) {
        const gait_schema *s = t->schema();
        for (int i = 0; i < s->count; i++) {
            h = gait__fnv1a(h, s->fields[i].group, strlen(s->fields[i].group) + 1);
            h = gait__fnv1a(h, s->fields[i].name, strlen(s->fields[i].name) + 1);
            h = hash_u64(h, s->fields[i].offset);
        }
    }
    for (int i = 0; i < t->count; i++) {
        const gait__lfield *f = &t->fields[i];
        h = gait__fnv1a(h, f->name, strlen(f->name) + 1);
        h = hash_u64(hash_u64(hash_u64(hash_u64(h, f->offset), f->size), f->elem), f->kind);
        if (f->kind == GAIT__L_STRUCT) h = gait__layout_fingerprint(f->sub, h);
    }
    return h;
}

void gait__layout_cover(const gait__ltable *t, unsigned char *covered, size_t offset) {
    if (t->schema) {
        const gait_schema *s = t->schema();
        for (int i = 0; i < s->count; i++)
            memset(covered + offset + s->fields[i].offset, 1, sizeof(double));
    }
    for (int i = 0; i < t->count; i++) {
        const gait__lfield *f = &t->fields[i];
        if (f->kind == GAIT__L_STRUCT) {
            for (size_t k = 0; k < f->size / f->elem; k++)
                gait__layout_cover(f->sub, covered, offset + f->offset + k * f->elem);
        } else {
            memset(covered + offset + f->offset, 1, f->size);
        }
    }
}
