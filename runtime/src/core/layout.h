/* Internal: layout tables — every member of a struct the simulation keeps, with the values it may
 * hold (docs/design.md, "Snapshots").
 *
 * The module that owns a struct describes it, next to the code that writes it: a row per member,
 * its kind and its range (a def's numbers come from the def's schema, gait/schema.h), and a
 * `rules` function for what one member's range cannot say (a value up to the pool's max, a def's
 * order). Snapshots are written and read through these tables: restore checks every member of
 * every record before it changes anything, so a value out of range is refused with its name, and
 * a host's pointers are never read from a buffer. tests/unit/test_layout.c fails when a struct
 * holds a member no row names, so a new member cannot be forgotten.
 *
 * Rows are in member order. A struct member has its own table (STRUCT). */
#ifndef GAIT_LAYOUT_H
#define GAIT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "gait/schema.h"
#include "gait/types.h"

typedef enum gait__lkind {
    GAIT__L_REAL,    /* double in [min, max]: never NaN, +-infinity only where the range holds it */
    GAIT__L_VEC3,    /* gait_vec3: each component as a REAL */
    GAIT__L_BOOL,    /* bool: false or true, no other byte */
    GAIT__L_INT,     /* a signed integer or an enum, in [min, max] */
    GAIT__L_UINT,    /* an unsigned integer, in [min, max] */
    GAIT__L_TEXT,    /* char[n]: a string ended inside its n bytes */
    GAIT__L_STRUCT,  /* a struct with its own table */
    GAIT__L_HOST,    /* not simulation state: the host's (a hook, user data) or the world's own (an
                        allocation, a setting the snapshot does not carry). Zero in a snapshot,
                        kept as it is on restore */
    GAIT__L_CACHE    /* a shortcut that gives the same bits when dropped: zero in a snapshot,
                        dropped (zeroed) on restore */
} gait__lkind;

struct gait__ltable;

typedef struct gait__lfield {
    const char *name;
    size_t offset;                   /* bytes into the struct */
    size_t size;                     /* the member's bytes (every element of an array) */
    size_t elem;                     /* one element's bytes */
    gait__lkind kind;
    double min, max;                 /* REAL, VEC3, INT, UINT: the range, inclusive */
    const char *unit;                /* REAL, VEC3: for messages ("m", "s", "rad", "") */
    const struct gait__ltable *sub;  /* STRUCT */
} gait__lfield;

typedef struct gait__ltable {
    const char *type;                /* the struct's C name */
    size_t size;                     /* its sizeof */
    const gait__lfield *fields;
    int count;
    /* When set, every field of this schema is a REAL member of the struct, checked against the
     * schema's range (a def: its numbers are its schema's). */
    const gait_schema *(*schema)(void);
    /* The rules the rows cannot say; NULL, or writes "member ...: why" (up to cap) and returns
     * false. Called once every row has passed, so it may rely on their ranges. */
    bool (*rules)(const void *base, char *err, size_t cap);
} gait__ltable;

/* A row for member m of struct T. Arrays of REAL, VEC3 and BOOL take the same rows; arrays of the
 * other kinds take the plural ones (the element's size from m[0]). */
#define GAIT__LROW(T, m, kind, elem, lo, hi, unit, sub) \
    {#m, offsetof(T, m), sizeof(((T *)0)->m), (elem), (kind), (lo), (hi), (unit), (sub)}
#define GAIT__LREAL(T, m, lo, hi, unit) GAIT__LROW(T, m, GAIT__L_REAL, sizeof(double), lo, hi, unit, NULL)
#define GAIT__LVEC3(T, m, lo, hi, unit) GAIT__LROW(T, m, GAIT__L_VEC3, sizeof(gait_vec3), lo, hi, unit, NULL)
#define GAIT__LBOOL(T, m) GAIT__LROW(T, m, GAIT__L_BOOL, sizeof(bool), 0, 1, "", NULL)
#define GAIT__LINT(T, m, lo, hi) GAIT__LROW(T, m, GAIT__L_INT, sizeof(((T *)0)->m), lo, hi, "", NULL)
#define GAIT__LUINT(T, m, lo, hi) GAIT__LROW(T, m, GAIT__L_UINT, sizeof(((T *)0)->m), lo, hi, "", NULL)
#define GAIT__LTEXT(T, m) GAIT__LROW(T, m, GAIT__L_TEXT, sizeof(((T *)0)->m), 0, 0, "", NULL)
#define GAIT__LSTRUCT(T, m, table) \
    GAIT__LROW(T, m, GAIT__L_STRUCT, sizeof(((T *)0)->m), 0, 0, "", &(table))
#define GAIT__LHOST(T, m) GAIT__LROW(T, m, GAIT__L_HOST, sizeof(((T *)0)->m), 0, 0, "", NULL)
#define GAIT__LCACHE(T, m) GAIT__LROW(T, m, GAIT__L_CACHE, sizeof(((T *)0)->m), 0, 0, "", NULL)
#define GAIT__LINTS(T, m, lo, hi) GAIT__LROW(T, m, GAIT__L_INT, sizeof(((T *)0)->m[0]), lo, hi, "", NULL)
#define GAIT__LTEXTS(T, m) GAIT__LROW(T, m, GAIT__L_TEXT, sizeof(((T *)0)->m[0]), 0, 0, "", NULL)
#define GAIT__LSTRUCTS(T, m, table) \
    GAIT__LROW(T, m, GAIT__L_STRUCT, sizeof(((T *)0)->m[0]), 0, 0, "", &(table))

/* The table `name` of struct T from a static array of rows; schema and rules may be NULL. */
#define GAIT__LTABLE(name, T, rows, schema, rules) \
    const gait__ltable name = {#T, sizeof(T), rows, (int)(sizeof rows / sizeof rows[0]), schema, rules}
/* A struct whose members are exactly its schema's numbers (a def). */
#define GAIT__LTABLE_SCHEMA(name, T, schema, rules) \
    const gait__ltable name = {#T, sizeof(T), NULL, 0, schema, rules}

/* Largest finite double: a REAL row's range when any finite value is valid. */
#define GAIT__LFINITE 1.7976931348623157e308

/* Checks every member of the struct at base: each row's range (into STRUCT members, depth first),
 * the schema's, then the rules. True, or false with "prefix.member = value is out of range;
 * allowed [min, max] unit" (or "is NaN", "is not a boolean", "is not terminated", the rules' own
 * words) in err. prefix may be "" (no leading dot then). */
bool gait__layout_check(const gait__ltable *t, const void *base, const char *prefix, char *err,
                        size_t cap);

/* Copies the members that are simulation state from src to dst, into STRUCT members depth first.
 * save: dst is a zeroed record; HOST and CACHE members stay zero there (no address of the host's
 * goes into a snapshot, no padding byte of src either). restore: HOST members of dst are kept,
 * CACHE members are zeroed. */
void gait__layout_copy(const gait__ltable *t, void *dst, const void *src, bool restore);

/* Continues FNV-1a hash h over the layout: each member's name, offset, size, element size and
 * kind, depth first (not the ranges). Two builds with the same fingerprint lay the state out the
 * same way. */
uint64_t gait__layout_fingerprint(const gait__ltable *t, uint64_t h);

/* Sets covered[offset + i] to 1 for every byte a row of the table names (a schema's numbers,
 * into STRUCT members): the rest of a record is padding, or a member no row names (the test's
 * question). */
void gait__layout_cover(const gait__ltable *t, unsigned char *covered, size_t offset);

/* FNV-1a, 64-bit: the snapshot's checksum and fingerprint, and the state hashes. */
#define GAIT__FNV_BASIS 14695981039346656037ull
uint64_t gait__fnv1a(uint64_t h, const void *data, size_t n);

/* Any value of a uint64_t (a UINT row's max). */
#define GAIT__LU64_ANY 18446744073709551615.0

/* The core's tables (clock.c). */
extern const gait__ltable gait__clock_layout;   /* gait_clock */

#endif
