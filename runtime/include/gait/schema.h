/* gait — the tuning schema: every tuning number with its unit, valid range, default and source.
 *
 * One table per struct, kept by the module that owns the struct (gait_locomotion_schema(),
 * gait_stamina_schema(), ...). The C validators check against these tables, the Lua tuning
 * loader reads tuning files through them, error messages name their ranges and units, and a
 * host's tuning panel can list them all (gait_schema_list). A number's range is the same
 * wherever it is checked. Docs: docs/behaviour.md lists the same tables. */
#ifndef GAIT_SCHEMA_H
#define GAIT_SCHEMA_H

#include "gait/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One number: a double member of its struct. */
typedef struct gait_schema_field {
    const char *name;           /* the member's name and the tuning file's key */
    const char *group;          /* "" or the sub-table the key sits in ("costs" in stamina.lua) */
    size_t offset;              /* bytes into the struct */
    double min, max;            /* valid range, inclusive (min exclusive when open_min) */
    bool open_min;              /* the value must be above min, not at it */
    double value;               /* the default */
    const char *unit;           /* "m", "s", "m/s", "rad", "stamina", "stamina/s", ... */
    const char *file;           /* the tuning file it is set in ("locomotion.lua", ...; "" for
                                   none: a C def's number) */
    const char *source;         /* where the default comes from ("provisional", "Genshin Impact
                                   Wiki, Stamina", "GASP 5.4", ...) */
    const char *doc;            /* what it is, in a line */
} gait_schema_field;

typedef struct gait_schema {
    const char *name;           /* "locomotion", "stamina", "traversal", "traversal_action",
                                   "camera", "anim" */
    const char *type;           /* the struct it describes: "gait_locomotion", ... */
    const gait_schema_field *fields;
    int count;
} gait_schema;

/* Every schema, in a fixed order; *count (may be NULL) receives how many. */
const gait_schema *const *gait_schema_list(int *count);
/* The schema named `name`, or NULL. */
const gait_schema *gait_schema_named(const char *name);
/* The field named `name` (group "" or group, e.g. "costs"), or NULL. */
const gait_schema_field *gait_schema_find(const gait_schema *schema, const char *group,
                                          const char *name);

/* The field's value in the struct at base. */
double gait_schema_read(const gait_schema_field *field, const void *base);
/* Sets the field in the struct at base (no check: gait_schema_check_value first). */
void gait_schema_write(const gait_schema_field *field, void *base, double value);
/* Whether v is valid for the field (in range, not NaN). */
bool gait_schema_valid(const gait_schema_field *field, double value);
/* Checks one value: GAIT_OK, or INVALID_ARGUMENT with "name = v is out of range; allowed
 * [min, max] unit" (or "name is NaN; ...", "name = inf is infinite; ...") in err. */
gait_status gait_schema_check_value(const gait_schema_field *field, double value, char *err,
                                    size_t err_cap);
/* Checks every field of the struct at base, in table order; the first failure's message in err. */
gait_status gait_schema_check(const gait_schema *schema, const void *base, char *err,
                              size_t err_cap);
/* Writes every field's default into the struct at base (other members are left alone). */
void gait_schema_defaults(const gait_schema *schema, void *base);
/* "[min, max] unit" (or "(min, max] unit"), the range as messages and docs print it. */
void gait_schema_range_text(const gait_schema_field *field, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
