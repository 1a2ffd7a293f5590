/* gait schema [--markdown]: every tuning number — its schema, struct, key, unit, range, default,
 * source and what it is — as the library's tables have them (gait/schema.h). --markdown prints
 * the tables docs/behaviour.md holds between its schema markers; tests/docs.sh checks the two
 * agree, so the docs cannot drift from the numbers the validators check. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* A number as the docs print it: %g, with infinity spelled out. */
static void number(char *out, size_t cap, double v) {
    if (v == 1.0 / 0.0) snprintf(out, cap, "inf");
    else if (v == -1.0 / 0.0) snprintf(out, cap, "-inf");
    else snprintf(out, cap, "%g", v);
}

static void print_markdown(const gait_schema *s) {
    printf("### %s (`%s`)\n\n", s->name, s->type);
    printf("| key | unit | range | default | file | source | what |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < s->count; i++) {
        const gait_schema_field *f = &s->fields[i];
        char lo[32], hi[32], def[32];
        number(lo, sizeof lo, f->min);
        number(hi, sizeof hi, f->max);
        number(def, sizeof def, f->value);
        printf("| %s%s%s | %s | %s%s, %s] | %s | %s | %s | %s |\n", f->group,
               f->group[0] ? "." : "", f->name, f->unit, f->open_min ? "(" : "[", lo, hi, def,
               f->file[0] ? f->file : "(a def)", f->source, f->doc);
    }
    printf("\n");
}

static void print_plain(const gait_schema *s) {
    for (int i = 0; i < s->count; i++) {
        const gait_schema_field *f = &s->fields[i];
        char range[96];
        gait_schema_range_text(f, range, sizeof range);
        printf("%s %s%s%s = %g  %s  (%s; %s)\n", s->name, f->group, f->group[0] ? "." : "",
               f->name, f->value, range, f->source, f->doc);
    }
}

int gait_cli_schema(int argc, char **argv) {
    bool markdown = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--markdown") == 0) markdown = true;
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) i++; /* not needed here */
        else {
            fprintf(stderr, "usage: gait schema [--markdown]\n");
            return 2;
        }
    }
    int n = 0;
    const gait_schema *const *list = gait_schema_list(&n);
    for (int i = 0; i < n; i++) {
        if (markdown) print_markdown(list[i]);
        else print_plain(list[i]);
    }
    return 0;
}
