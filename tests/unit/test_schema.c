/* The tuning schema (gait/schema.h): every table is whole (unit, range, default, source, doc),
 * its defaults are the struct's defaults, and the C validators refuse exactly what the schema
 * says is out of range — the range a tuning file is checked against is the range C checks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gait/gait.h"

static bool filled(const char *s) { return s && s[0]; }

TEST(schema_every_table_is_whole) {
    int n = 0;
    const gait_schema *const *list = gait_schema_list(&n);
    CHECK_EQ_INT(n, 6);
    for (int i = 0; i < n; i++) {
        const gait_schema *s = list[i];
        CHECK(gait_schema_named(s->name) == s);
        CHECK(s->count > 0);
        for (int k = 0; k < s->count; k++) {
            const gait_schema_field *f = &s->fields[k];
            CHECK_MSG(filled(f->unit) && filled(f->source) && filled(f->doc),
                      "%s.%s: unit, source and doc", s->name, f->name);
            CHECK_MSG(f->min <= f->max && !isnan(f->min) && !isnan(f->max), "%s.%s: range",
                      s->name, f->name);
            CHECK_MSG(gait_schema_valid(f, f->value), "%s.%s: default %g outside its range",
                      s->name, f->name, f->value);
            CHECK(gait_schema_find(s, f->group, f->name) == f);
        }
    }
    CHECK(gait_schema_named("nothing") == NULL);
}

/* The defaults a module hands out are its schema's. */
TEST(schema_defaults_are_the_structs_defaults) {
    gait_locomotion n = gait_default_locomotion(), m;
    memset(&m, 0, sizeof m);
    gait_schema_defaults(gait_locomotion_schema(), &m);
    CHECK(memcmp(&n, &m, sizeof n) == 0);
    CHECK_NEAR(n.walk_speed, 1.9, 0);
    CHECK_NEAR(n.costs.dash, 18, 0);
    CHECK_NEAR(n.max_walk_slope, 45.0 * M_PI / 180.0, 0);
    gait_stamina_def sd = gait_default_stamina_def();
    CHECK_NEAR(sd.refill_rate, 25, 0);
    CHECK_NEAR(sd.start, -1, 0);
    gait_traverse_table t = gait_default_traverse_table();
    CHECK_NEAR(t.cooldown, 0.15, 0);
    CHECK_NEAR(t.reach_max, 3.5, 0);
    CHECK_EQ_INT(t.count, 4);
    gait_camera_def cd = gait_default_camera_def();
    CHECK_NEAR(cd.distance, 4.5, 0);
    gait_anim_def ad = gait_default_anim_def();
    CHECK_NEAR(ad.crossfade_seconds, 0.2, 0);
}

/* Each number just outside its range, in the struct its validator checks: refused, and the
 * message names the number and the range; at each end: accepted. */
static void edges(const gait_schema *s, void *base, size_t size,
                  gait_status (*check)(const void *base, char *err, size_t cap)) {
    unsigned char keep[4096];
    CHECK(size <= sizeof keep);
    memcpy(keep, base, size);
    for (int k = 0; k < s->count; k++) {
        const gait_schema_field *f = &s->fields[k];
        double outside[2] = {f->min - (fabs(f->min) * 0.01 + 0.001),
                             isinf(f->max) ? NAN : f->max + (fabs(f->max) * 0.01 + 0.001)};
        for (int j = 0; j < 2; j++) {
            if (isinf(outside[j])) continue; /* an open end: -inf is in (start's) range */
            memcpy(base, keep, size);
            gait_schema_write(f, base, outside[j]);
            char err[256] = "";
            CHECK_MSG(check(base, err, sizeof err) != GAIT_OK, "%s.%s = %g accepted", s->name,
                      f->name, outside[j]);
            CHECK_MSG(strstr(err, f->name) != NULL, "%s.%s: message \"%s\"", s->name, f->name, err);
        }
        double ends[2] = {f->open_min ? f->min + 1e-9 : f->min, f->max};
        for (int j = 0; j < 2; j++) {
            if (isinf(ends[j])) continue;
            memcpy(base, keep, size);
            gait_schema_write(f, base, ends[j]);
            char err[256] = "";
            gait_status st = check(base, err, sizeof err);
            /* an end may still break a rule between numbers (a capsule at least twice its
             * radius, a band's end above its start): then the message says which */
            CHECK_MSG(st == GAIT_OK || (!strstr(err, "allowed") && strlen(err) > 0),
                      "%s.%s = %g: %s", s->name, f->name, ends[j], err);
        }
    }
    memcpy(base, keep, size);
}

static gait_status check_locomotion(const void *b, char *err, size_t cap) {
    return gait_locomotion_validate(b, err, cap);
}
static gait_status check_table(const void *b, char *err, size_t cap) {
    return gait_traverse_table_validate(b, err, cap);
}
static gait_status check_row(const void *b, char *err, size_t cap) {
    gait_traverse_table t = gait_default_traverse_table();
    memcpy(&t.actions[0], b, sizeof t.actions[0]);
    return gait_traverse_table_validate(&t, err, cap);
}
/* An init that answers with a status alone: the message names the number as the schema does,
 * or says a rule between numbers failed. */
static gait_status said(gait_status s, const gait_schema *schema, const void *b, char *err,
                        size_t cap) {
    if (s != GAIT_OK && gait_schema_check(schema, b, err, cap) == GAIT_OK)
        snprintf(err, cap, "a rule between numbers");
    return s;
}
static gait_status check_stamina(const void *b, char *err, size_t cap) {
    gait_stamina p;
    return said(gait_stamina_init(&p, b), gait_stamina_schema(), b, err, cap);
}
static gait_status check_camera(const void *b, char *err, size_t cap) {
    gait_camera c;
    return said(gait_camera_init(&c, b), gait_camera_schema(), b, err, cap);
}
static gait_status check_anim(const void *b, char *err, size_t cap) {
    gait_anim a;
    return said(gait_anim_init(&a, b), gait_anim_schema(), b, err, cap);
}

TEST(schema_ranges_are_the_validators_ranges) {
    gait_locomotion n = gait_default_locomotion();
    edges(gait_locomotion_schema(), &n, sizeof n, check_locomotion);
    gait_traverse_table t = gait_default_traverse_table();
    edges(gait_traverse_table_schema(), &t, sizeof t, check_table);
    gait_traverse_action_def a = gait_default_traverse_table().actions[1];
    edges(gait_traverse_action_schema(), &a, sizeof a, check_row);
    gait_stamina_def sd = gait_default_stamina_def();
    edges(gait_stamina_schema(), &sd, sizeof sd, check_stamina);
    gait_camera_def cd = gait_default_camera_def();
    edges(gait_camera_schema(), &cd, sizeof cd, check_camera);
    gait_anim_def ad = gait_default_anim_def();
    edges(gait_anim_schema(), &ad, sizeof ad, check_anim);
}

TEST(schema_messages_name_the_number_its_range_and_unit) {
    const gait_schema_field *f = gait_schema_find(gait_locomotion_schema(), "", "walk_speed");
    char err[160];
    CHECK_EQ_INT(gait_schema_check_value(f, 50, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err, "walk_speed = 50 is out of range; allowed [0.1, 20] m/s") == 0);
    CHECK_EQ_INT(gait_schema_check_value(f, NAN, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err, "walk_speed is NaN; allowed [0.1, 20] m/s") == 0);
    CHECK_EQ_INT(gait_schema_check_value(f, INFINITY, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err, "infinite") != NULL);
    CHECK_EQ_INT(gait_schema_check_value(f, 1.9, err, sizeof err), GAIT_OK);
    const gait_schema_field *dash = gait_schema_find(gait_locomotion_schema(), "costs", "dash");
    CHECK(dash != NULL);
    CHECK(gait_schema_find(gait_locomotion_schema(), "", "dash") == NULL);
    gait_locomotion n = gait_default_locomotion();
    n.costs.dash = -1;
    CHECK_EQ_INT(gait_locomotion_validate(&n, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err, "costs.dash = -1 is out of range; allowed [0, 1000] stamina") == 0);
    const gait_schema_field *mx = gait_schema_find(gait_stamina_schema(), "", "max");
    gait_schema_range_text(mx, err, sizeof err);
    CHECK(strcmp(err, "(0, 1e+06] stamina") == 0);
}

TEST(schema_refill_is_set_only_in_range) {
    gait_stamina_def d = gait_default_stamina_def();
    gait_stamina p;
    CHECK_EQ_INT(gait_stamina_init(&p, &d), GAIT_OK);
    CHECK_EQ_INT(gait_stamina_set_refill(&p, 30, 2), GAIT_OK);
    CHECK_NEAR(p.refill_rate, 30, 0);
    CHECK_EQ_INT(gait_stamina_set_refill(&p, -1, 2), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_set_refill(&p, 30, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_set_refill(&p, 1e5, 2), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_NEAR(p.refill_rate, 30, 0); /* nothing half-applied */
    CHECK_NEAR(p.refill_delay, 2, 0);
}
