/* The schema's reading, writing and checking of one struct's numbers (gait/schema.h). The tables
 * themselves belong to the modules that own the structs; gait_schema_list gathers them
 * (character/schema.c). */
#include "gait/schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const gait_schema_field *gait_schema_find(const gait_schema *s, const char *group,
                                          const char *name) {
    if (!s || !name) return NULL;
    if (!group) group = "";
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->fields[i].name, name) == 0 && strcmp(s->fields[i].group, group) == 0)
            return &s->fields[i];
    return NULL;
}

double gait_schema_read(const gait_schema_field *f, const void *base) {
    double v;
    memcpy(&v, (const char *)base + f->offset, sizeof v);
    return v;
}

void gait_schema_write(const gait_schema_field *f, void *base, double v) {
    memcpy((char *)base + f->offset, &v, sizeof v);
}

bool gait_schema_valid(const gait_schema_field *f, double v) {
    if (!(v <= f->max)) return false; /* NaN too */
    return f->open_min ? v > f->min : v >= f->min;
}

void gait_schema_range_text(const gait_schema_field *f, char *out, size_t cap) {
    snprintf(out, cap, "%s%g, %g] %s", f->open_min ? "(" : "[", f->min, f->max, f->unit);
}

gait_status gait_schema_check_value(const gait_schema_field *f, double v, char *err, size_t cap) {
    if (gait_schema_valid(f, v)) return GAIT_OK;
    if (err && cap) {
        char range[96];
        gait_schema_range_text(f, range, sizeof range);
        if (isnan(v))
            snprintf(err, cap, "%s is NaN; allowed %s", f->name, range);
        else
            snprintf(err, cap, "%s = %g is %s; allowed %s", f->name, v,
                     isinf(v) ? "infinite" : "out of range", range);
    }
    return GAIT_ERR_INVALID_ARGUMENT;
}

gait_status gait_schema_check(const gait_schema *s, const void *base, char *err, size_t cap) {
    for (int i = 0; i < s->count; i++) {
        const gait_schema_field *f = &s->fields[i];
        char why[160];
        if (gait_schema_check_value(f, gait_schema_read(f, base), why, sizeof why) != GAIT_OK) {
            if (err && cap) {
                if (f->group[0]) snprintf(err, cap, "%s.%s", f->group, why);
                else snprintf(err, cap, "%s", why);
            }
            return GAIT_ERR_INVALID_ARGUMENT;
        }
    }
    if (err && cap) err[0] = 0;
    return GAIT_OK;
}

void gait_schema_defaults(const gait_schema *s, void *base) {
    for (int i = 0; i < s->count; i++) gait_schema_write(&s->fields[i], base, s->fields[i].value);
}
