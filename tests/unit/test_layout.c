/* Layout tables (core/layout.h, character/layouts.h): every member of the structs a snapshot
 * holds has a row, rows are well formed, and a row's range refuses what it should.
 *
 * The member check walks each table in offset order: between one row's end and the next row's
 * start there may be only the padding the next member's alignment asks for, and at the struct's
 * end only what its own alignment asks. A member added without its row leaves a gap wider than
 * that (or moves the next row off its aligned place) and fails here, naming the rows around the
 * gap. The one member it cannot see is a small one that fits in padding already there (a bool
 * after a bool before a double); tests/unit/test_snapshot_forged.c's byte flips under make asan
 * catch such a member that matters. (GCC's __builtin_clear_padding would show the padding
 * exactly, but GCC 12.2 misplaces it in structs that follow an array of structs.) */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "character/layouts.h"
#include "character/world_internal.h"
#include "collide/collide_layout.h"

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define HAVE_CLEAR_PADDING 1
#endif

/* The alignment of a double and of a uint64_t inside a struct (4 on some 32-bit ABIs). */
#define ALIGN_DOUBLE offsetof(struct { char c; double d; }, d)
#define ALIGN_U64 offsetof(struct { char c; uint64_t u; }, u)

static size_t align_of_table(const gait__ltable *t);

/* A row's alignment, exact where its kind says the C type (exact = true), else the largest any
 * member may ask (a host's struct, a cache, a string: a wider gap passes, a false failure never). */
static size_t align_of_row(const gait__lfield *f, bool *exact) {
    *exact = true;
    switch (f->kind) {
    case GAIT__L_REAL:
    case GAIT__L_VEC3: return ALIGN_DOUBLE;
    case GAIT__L_BOOL: return _Alignof(bool);
    case GAIT__L_INT:
    case GAIT__L_UINT: return f->elem < ALIGN_U64 ? f->elem : ALIGN_U64;
    case GAIT__L_STRUCT: return align_of_table(f->sub);
    default: *exact = false; return 8;
    }
}

static size_t align_of_table(const gait__ltable *t) {
    size_t a = t->schema ? ALIGN_DOUBLE : 1;
    for (int i = 0; i < t->count; i++) {
        bool exact;
        size_t r = align_of_row(&t->fields[i], &exact);
        if (r > a) a = r;
    }
    return a;
}

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

typedef struct span {
    size_t offset, size, align;
    bool exact;
    const char *name;
} span;

static int by_offset(const void *a, const void *b) {
    const span *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Table t's own rows (a schema's numbers too) in offset order: no overlap, no gap a member could
 * hide in; then the same for every struct inside it. Returns the problems found, each a line
 * appended to why (a string). */
static int check_table(const gait__ltable *t, char *why, size_t cap) {
    enum { CAP = 512 };
    span rows[CAP];
    int n = 0, problems = 0;
    if (t->schema) {
        const gait_schema *s = t->schema();
        for (int i = 0; i < s->count && n < CAP; i++)
            rows[n++] = (span){s->fields[i].offset, sizeof(double), ALIGN_DOUBLE, true,
                               s->fields[i].name};
    }
    for (int i = 0; i < t->count && n < CAP; i++) {
        const gait__lfield *f = &t->fields[i];
        bool exact;
        size_t a = align_of_row(f, &exact);
        rows[n++] = (span){f->offset, f->size, a, exact, f->name};
        if (f->kind == GAIT__L_STRUCT) problems += check_table(f->sub, why, cap);
    }
    qsort(rows, (size_t)n, sizeof rows[0], by_offset);
    size_t end = 0;
    const char *before = "(the start)";
    for (int i = 0; i <= n; i++) {
        const span *r = i < n ? &rows[i] : NULL;
        size_t at = r ? r->offset : t->size;
        bool fits = !r ? at >= end && at == align_up(end, align_of_table(t))
                       : at >= end && (r->exact ? at == align_up(end, r->align) : at - end < r->align);
        if (!fits) { /* every problem, one a line */
            problems++;
            size_t used = strlen(why);
            snprintf(why + used, cap - used, "\n    %s: %ld bytes between row %s and %s that no "
                     "row names: give the new member its row in %s's table", t->type,
                     (long)at - (long)end, before, r ? r->name : "the end", t->type);
        }
        if (r) {
            end = r->offset + r->size;
            before = r->name;
        }
    }
    return problems;
}

static const gait__ltable *const all_tables[] = {
    &gait__character_layout, &gait__world_layout, &gait__phase_layout, &gait__contact_layout,
    &gait__locomotion_layout, &gait__stamina_layout, &gait__camera_layout, &gait__anim_layout,
    &gait__body_layout, &gait__crouch_layout, &gait__traverse_layout,
    &gait__traverse_query_layout, &gait__traverse_scan_layout, &gait__filter_layout,
    &gait__landmark_id_layout, &gait__clock_layout};

TEST(every_member_has_a_row) {
    /* the two records a snapshot holds, and through them every struct inside */
    char why[2000] = "";
    CHECK_MSG(check_table(&gait__character_layout, why, sizeof why) == 0, "%s", why);
    why[0] = 0;
    CHECK_MSG(check_table(&gait__world_layout, why, sizeof why) == 0, "%s", why);
    CHECK_EQ_INT(gait__character_layout.size, sizeof(gait__character));
    CHECK_EQ_INT(gait__world_layout.size, sizeof(struct gait_world));
}

TEST(layout_rows_are_well_formed) {
    /* every STRUCT row's element is its table's struct; every row's size a whole number of
     * elements; REAL and VEC3 rows hold doubles with a range */
    for (size_t i = 0; i < sizeof all_tables / sizeof all_tables[0]; i++) {
        const gait__ltable *t = all_tables[i];
        for (int k = 0; k < t->count; k++) {
            const gait__lfield *f = &t->fields[k];
            CHECK_MSG(f->elem > 0 && f->size % f->elem == 0, "%s.%s: size %zu is not a whole "
                      "number of %zu-byte elements", t->type, f->name, f->size, f->elem);
            if (f->kind == GAIT__L_STRUCT)
                CHECK_MSG(f->sub && f->sub->size == f->elem, "%s.%s: its table is for another "
                          "struct", t->type, f->name);
            if (f->kind == GAIT__L_REAL || f->kind == GAIT__L_VEC3)
                CHECK_MSG(f->min <= f->max && f->elem == (f->kind == GAIT__L_REAL ? 8u : 24u),
                          "%s.%s: not a double's row", t->type, f->name);
        }
    }
}

/* The check finds a member left out: gait__crouch's table without its `hover` row (an int
 * between a bool and a bool), and without its last row. */
TEST(the_member_check_finds_a_missing_row) {
    for (int drop = 0; drop < 2; drop++) {
        const char *name = drop == 0 ? "hover" : "air";
        gait__lfield rows[16];
        int n = 0;
        for (int i = 0; i < gait__crouch_layout.count; i++)
            if (strcmp(gait__crouch_layout.fields[i].name, name) != 0)
                rows[n++] = gait__crouch_layout.fields[i];
        CHECK_EQ_INT(n, gait__crouch_layout.count - 1);
        gait__ltable missing = gait__crouch_layout;
        missing.fields = rows;
        missing.count = n;
        char why[400] = "";
        CHECK_MSG(check_table(&missing, why, sizeof why) > 0, "a table without %s passed", name);
        CHECK_MSG(strstr(why, "no row names") != NULL, "%s", why);
    }
}

/* A row's range: NaN, infinities and out-of-range values refused with the member's name. */
TEST(a_row_refuses_what_its_range_does_not_hold) {
    gait__crouch c;
    memset(&c, 0, sizeof c);
    char err[256];
    CHECK(gait__layout_check(&gait__crouch_layout, &c, "crouch", err, sizeof err));
    c.auto_seconds = NAN;
    CHECK(!gait__layout_check(&gait__crouch_layout, &c, "crouch", err, sizeof err));
    CHECK_MSG(strstr(err, "crouch.auto_seconds is NaN") != NULL, "%s", err);
    c.auto_seconds = -INFINITY;
    CHECK(!gait__layout_check(&gait__crouch_layout, &c, "", err, sizeof err));
    CHECK_MSG(strstr(err, "auto_seconds = -inf is infinite") != NULL, "%s", err);
    c.auto_seconds = 0;
    c.hover = -1;
    CHECK(!gait__layout_check(&gait__crouch_layout, &c, "", err, sizeof err));
    CHECK_MSG(strstr(err, "hover = -1 is out of range") != NULL, "%s", err);
    c.hover = 0;
    unsigned char seven = 7;
    memcpy(&c.air, &seven, 1);
    CHECK(!gait__layout_check(&gait__crouch_layout, &c, "", err, sizeof err));
    CHECK_MSG(strstr(err, "air = 7 is not a boolean") != NULL, "%s", err);
}

/* The fingerprint sees a member moved, renamed or resized; not a range. */
TEST(the_fingerprint_follows_the_layout) {
    uint64_t a = gait__layout_fingerprint(&gait__crouch_layout, GAIT__FNV_BASIS);
    CHECK(a == gait__layout_fingerprint(&gait__crouch_layout, GAIT__FNV_BASIS));
    gait__lfield rows[8];
    memcpy(rows, gait__crouch_layout.fields, sizeof rows[0] * (size_t)gait__crouch_layout.count);
    gait__ltable t = gait__crouch_layout;
    t.fields = rows;
    rows[2].max = 1; /* a range */
    CHECK(a == gait__layout_fingerprint(&t, GAIT__FNV_BASIS));
    rows[2].offset += 8; /* a move */
    CHECK(a != gait__layout_fingerprint(&t, GAIT__FNV_BASIS));
    rows[2].offset -= 8;
    rows[2].name = "seconds"; /* a rename */
    CHECK(a != gait__layout_fingerprint(&t, GAIT__FNV_BASIS));
}
