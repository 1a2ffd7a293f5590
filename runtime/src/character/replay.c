/* Replay files: record a world's input stream, save, load and play it back (replay.h).
 *
 * Recorder and player share one in-memory form: the header (world name, meta pairs, the
 * characters) and two growable arrays, frames and inputs (a frame owns a run of inputs).
 * Buffers grow through the hooks allocator (doubling; the hooks have no realloc, so a grow
 * copies). Recording and loading are not steps: they may allocate. */
#include "gait/replay.h"
#include "gait/file.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#define WORLD_NAME_MAX 1024
#define META_MAX 256
#define MAX_FILE_BYTES ((size_t)1 << 30) /* 1 GiB: far beyond any honest replay */
#define MAX_FRAMES 100000000              /* 1e8 frames: 19 days at 60 fps */

typedef struct replay_input {
    gait_character_id id;
    gait_input in;
} replay_input;

typedef struct replay_frame {
    double seconds;
    size_t first, count; /* inputs[first .. first + count) */
} replay_frame;

typedef struct replay_data {
    gait_hooks hooks;
    char world[WORLD_NAME_MAX];
    int meta_count;
    char meta_key[GAIT_REPLAY_MAX_META][META_MAX];
    char meta_value[GAIT_REPLAY_MAX_META][META_MAX];
    int character_count;
    gait_character_id characters[GAIT_REPLAY_MAX_CHARACTERS];
    replay_frame *frames;
    size_t frame_count, frame_cap;
    replay_input *inputs;
    size_t input_count, input_cap;
    char error[512];
} replay_data;

struct gait_replay_recorder {
    replay_data d;
    size_t open_first; /* first input of the frame being recorded */
};

struct gait_replay_player {
    replay_data d;
    size_t next;       /* the next frame to play */
};

#define FAIL(d, status, ...) gait__fail((d)->error, sizeof (d)->error, (status), __VA_ARGS__)

/* Grows *p (elements of `elem` bytes, *cap of them) to hold at least `need`. */
static bool grow(const gait_hooks *h, void **p, size_t *cap, size_t elem, size_t need) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        if (n > ((size_t)-1 / 2) / elem) return false;
        n *= 2;
    }
    void *q = gait__alloc(h, n * elem);
    if (!q) return false;
    if (*p) {
        memcpy(q, *p, *cap * elem);
        gait__free(h, *p, *cap * elem);
    }
    *p = q;
    *cap = n;
    return true;
}

static void data_free(replay_data *d) {
    gait__free(&d->hooks, d->frames, d->frame_cap * sizeof *d->frames);
    gait__free(&d->hooks, d->inputs, d->input_cap * sizeof *d->inputs);
    d->frames = NULL;
    d->inputs = NULL;
    d->frame_cap = d->input_cap = d->frame_count = d->input_count = 0;
}

static bool one_line(const char *s, size_t max) {
    return s && strlen(s) < max && !strchr(s, '\n') && !strchr(s, '\r');
}

static int character_index(const replay_data *d, gait_character_id id) {
    for (int i = 0; i < d->character_count; i++)
        if (d->characters[i].index1 == id.index1 && d->characters[i].generation == id.generation)
            return i;
    return -1;
}

static bool input_finite(const gait_input *in) {
    return isfinite(in->move_x) && isfinite(in->move_y) && isfinite(in->look_yaw) &&
           isfinite(in->look_pitch) && isfinite(in->look_zoom);
}

/* ---- recorder ---------------------------------------------------------------------------- */

gait_replay_recorder *gait_replay_recorder_create(const gait_hooks *hooks_in, const char *world) {
    gait_hooks hooks = hooks_in ? *hooks_in : gait_default_hooks();
    gait__hooks_resolve(&hooks);
    if (world && !one_line(world, WORLD_NAME_MAX)) {
        gait__logf(&hooks, GAIT_LOG_ERROR, "replay: the world name must be one line of at most "
                   "%d bytes", WORLD_NAME_MAX - 1);
        return NULL;
    }
    gait_replay_recorder *r = gait__alloc(&hooks, sizeof *r);
    if (!r) return NULL;
    r->d.hooks = hooks;
    if (world) memcpy(r->d.world, world, strlen(world) + 1);
    return r;
}

void gait_replay_recorder_destroy(gait_replay_recorder *r) {
    if (!r) return;
    gait_hooks h = r->d.hooks;
    data_free(&r->d);
    gait__free(&h, r, sizeof *r);
}

const char *gait_replay_recorder_last_error(const gait_replay_recorder *r) {
    return r ? r->d.error : "recorder is NULL";
}

static gait_status meta_set(replay_data *d, const char *key, const char *value) {
    if (!one_line(key, META_MAX) || !key[0] || strchr(key, ' ') || strchr(key, '\t') ||
        !one_line(value, META_MAX))
        return FAIL(d, GAIT_ERR_INVALID_ARGUMENT, "replay meta: key (no blank) and value must be "
                    "one line of at most %d bytes", META_MAX - 1);
    for (int i = 0; i < d->meta_count; i++)
        if (strcmp(d->meta_key[i], key) == 0) {
            memcpy(d->meta_value[i], value, strlen(value) + 1);
            return GAIT_OK;
        }
    if (d->meta_count == GAIT_REPLAY_MAX_META)
        return FAIL(d, GAIT_ERR_CAPACITY, "replay meta: more than %d keys", GAIT_REPLAY_MAX_META);
    memcpy(d->meta_key[d->meta_count], key, strlen(key) + 1);
    memcpy(d->meta_value[d->meta_count], value, strlen(value) + 1);
    d->meta_count++;
    return GAIT_OK;
}

gait_status gait_replay_recorder_set_meta(gait_replay_recorder *r, const char *key, const char *value) {
    if (!r) return GAIT_ERR_INVALID_ARGUMENT;
    return meta_set(&r->d, key, value);
}

static gait_status character_add(replay_data *d, gait_character_id id) {
    if (id.index1 <= 0)
        return FAIL(d, GAIT_ERR_STALE_ID, "replay: character id %d is null or negative", id.index1);
    if (character_index(d, id) >= 0) return GAIT_OK;
    if (d->character_count == GAIT_REPLAY_MAX_CHARACTERS)
        return FAIL(d, GAIT_ERR_CAPACITY, "replay: more than %d characters",
                    GAIT_REPLAY_MAX_CHARACTERS);
    d->characters[d->character_count++] = id;
    return GAIT_OK;
}

gait_status gait_replay_recorder_add_character(gait_replay_recorder *r, gait_character_id id) {
    if (!r) return GAIT_ERR_INVALID_ARGUMENT;
    return character_add(&r->d, id);
}

gait_status gait_replay_recorder_input(gait_replay_recorder *r, gait_character_id id,
                                       const gait_input *in) {
    if (!r) return GAIT_ERR_INVALID_ARGUMENT;
    replay_data *d = &r->d;
    if (!in) return FAIL(d, GAIT_ERR_INVALID_ARGUMENT, "replay input: input is NULL");
    if (!input_finite(in))
        return FAIL(d, GAIT_ERR_INVALID_ARGUMENT, "replay input: move and look must be finite");
    if (character_index(d, id) < 0)
        return FAIL(d, GAIT_ERR_STALE_ID, "replay input: character %d (generation %u) was not "
                    "added to the recorder", id.index1, id.generation);
    if (!grow(&d->hooks, (void **)&d->inputs, &d->input_cap, sizeof *d->inputs, d->input_count + 1))
        return FAIL(d, GAIT_ERR_OUT_OF_MEMORY, "replay input: out of memory");
    d->inputs[d->input_count].id = id;
    d->inputs[d->input_count].in = *in;
    d->input_count++;
    return GAIT_OK;
}

gait_status gait_replay_recorder_end_frame(gait_replay_recorder *r, double seconds) {
    if (!r) return GAIT_ERR_INVALID_ARGUMENT;
    replay_data *d = &r->d;
    if (!isfinite(seconds) || seconds < 0)
        return FAIL(d, GAIT_ERR_INVALID_ARGUMENT, "replay frame: seconds %g must be finite and "
                    ">= 0", seconds);
    if (d->frame_count >= MAX_FRAMES)
        return FAIL(d, GAIT_ERR_CAPACITY, "replay frame: more than %d frames", MAX_FRAMES);
    if (!grow(&d->hooks, (void **)&d->frames, &d->frame_cap, sizeof *d->frames, d->frame_count + 1))
        return FAIL(d, GAIT_ERR_OUT_OF_MEMORY, "replay frame: out of memory");
    replay_frame *f = &d->frames[d->frame_count++];
    f->seconds = seconds;
    f->first = r->open_first;
    f->count = d->input_count - r->open_first;
    r->open_first = d->input_count;
    return GAIT_OK;
}

int gait_replay_recorder_frame_count(const gait_replay_recorder *r) {
    return r ? (int)r->d.frame_count : 0;
}

gait_status gait_replay_recorder_truncate(gait_replay_recorder *r, int frames) {
    if (!r || frames < 0) return GAIT_ERR_INVALID_ARGUMENT;
    replay_data *d = &r->d;
    size_t keep = (size_t)frames >= d->frame_count ? 0 : d->frame_count - (size_t)frames;
    d->frame_count = keep;
    d->input_count = keep ? d->frames[keep - 1].first + d->frames[keep - 1].count : 0;
    r->open_first = d->input_count;
    return GAIT_OK;
}

static int write_data(const replay_data *d, FILE *f) {
    fprintf(f, "gait-replay %d\n", GAIT_REPLAY_VERSION);
    fprintf(f, "world %s\n", d->world);
    for (int i = 0; i < d->meta_count; i++) fprintf(f, "meta %s %s\n", d->meta_key[i], d->meta_value[i]);
    for (int i = 0; i < d->character_count; i++)
        fprintf(f, "character %d %u\n", (int)d->characters[i].index1, d->characters[i].generation);
    fprintf(f, "frames %zu\n", d->frame_count);
    for (size_t k = 0; k < d->frame_count; k++) {
        const replay_frame *fr = &d->frames[k];
        fprintf(f, "f %a %zu\n", fr->seconds, fr->count);
        for (size_t j = fr->first; j < fr->first + fr->count; j++) {
            const replay_input *ri = &d->inputs[j];
            const gait_input *in = &ri->in;
            fprintf(f, "i %d %u %a %a %a %a %a %u %u\n", (int)ri->id.index1, ri->id.generation,
                    in->move_x, in->move_y, in->look_yaw, in->look_pitch, in->look_zoom,
                    (unsigned)in->held, (unsigned)in->pressed);
        }
    }
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}

gait_status gait_replay_recorder_save(gait_replay_recorder *r, const char *path) {
    if (!r) return GAIT_ERR_INVALID_ARGUMENT;
    replay_data *d = &r->d;
    if (!path || !path[0]) return FAIL(d, GAIT_ERR_INVALID_ARGUMENT, "replay save: path is empty");
    FILE *f = fopen(path, "w");
    if (!f) return FAIL(d, GAIT_ERR_IO, "%s: cannot write the replay: %s", path, strerror(errno));
    int bad = write_data(d, f);
    if (fclose(f) != 0) bad = -1;
    if (bad) return FAIL(d, GAIT_ERR_IO, "%s: writing the replay failed: %s", path, strerror(errno));
    return GAIT_OK;
}

/* ---- loading --------------------------------------------------------------------------------- */

typedef struct parser {
    const char *p, *end;
    const char *name;
    int line;
    replay_data *d;
} parser;

#define PFAIL(ps, status, ...) parse_fail((ps), (status), __VA_ARGS__)

static gait_status parse_fail(parser *ps, gait_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static gait_status parse_fail(parser *ps, gait_status status, const char *fmt, ...) {
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return FAIL(ps->d, status, "%s:%d: %s", ps->name, ps->line, msg);
}

/* The next line into buf (without its newline); false at the end of the data. */
static bool next_line(parser *ps, char *buf, size_t cap, bool *too_long) {
    *too_long = false;
    if (ps->p >= ps->end) return false;
    const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
    const char *stop = nl ? nl : ps->end;
    size_t n = (size_t)(stop - ps->p);
    ps->line++;
    if (n >= cap || memchr(ps->p, 0, n)) *too_long = true;
    else {
        memcpy(buf, ps->p, n);
        buf[n] = 0;
        if (n && buf[n - 1] == '\r') buf[n - 1] = 0;
    }
    ps->p = nl ? nl + 1 : ps->end;
    return true;
}

static bool parse_double(char **s, double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(*s, &end);
    if (end == *s || !isfinite(v) || (*end != ' ' && *end != 0)) return false;
    *out = v;
    *s = end;
    return true;
}

static bool parse_ulong(char **s, unsigned long long max, unsigned long long *out) {
    while (**s == ' ') ++*s;
    if (**s < '0' || **s > '9') return false; /* no sign, no blank: strtoull would take "-1" */
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(*s, &end, 10);
    if (end == *s || errno == ERANGE || v > max || (*end != ' ' && *end != 0)) return false;
    *out = v;
    *s = end;
    return true;
}

#define LINE_MAX_BYTES 4096

/* The first line: "gait-replay VERSION". */
static gait_status parse_version(parser *ps, char *line, size_t cap) {
    bool too_long;
    if (!next_line(ps, line, cap, &too_long) || too_long) {
        ps->line = 1; /* an empty file fails on its first line */
        return PFAIL(ps, GAIT_ERR_FORMAT, "not a gait replay (empty, or the first line is not "
                     "\"gait-replay %d\")", GAIT_REPLAY_VERSION);
    }
    int version = 0;
    char tail = 0;
    if (sscanf(line, "gait-replay %d%c", &version, &tail) != 1)
        return PFAIL(ps, GAIT_ERR_FORMAT, "not a gait replay (the first line is not \"gait-replay "
                     "%d\")", GAIT_REPLAY_VERSION);
    if (version != GAIT_REPLAY_VERSION)
        return PFAIL(ps, GAIT_ERR_FORMAT, "replay format version %d; this build reads version %d",
                     version, GAIT_REPLAY_VERSION);
    return GAIT_OK;
}

/* The header, up to and with its "frames N" line: world, meta, character lines. */
static gait_status parse_header(parser *ps, char *line, size_t cap,
                                unsigned long long *frames_declared) {
    replay_data *d = ps->d;
    bool too_long, have_world = false;
    for (;;) {
        if (!next_line(ps, line, cap, &too_long))
            return PFAIL(ps, GAIT_ERR_FORMAT, "the file ends inside the header (no \"frames\" line)");
        if (too_long) return PFAIL(ps, GAIT_ERR_FORMAT, "line longer than %zu bytes", cap - 1);
        if (!line[0] || line[0] == '#') continue;
        if (strncmp(line, "world ", 6) == 0 || strcmp(line, "world") == 0) {
            const char *w = line[5] ? line + 6 : "";
            if (strlen(w) >= WORLD_NAME_MAX)
                return PFAIL(ps, GAIT_ERR_FORMAT, "the world name is longer than %d bytes",
                             WORLD_NAME_MAX - 1);
            memcpy(d->world, w, strlen(w) + 1);
            have_world = true;
        } else if (strncmp(line, "meta ", 5) == 0) {
            char *key = line + 5, *sp = strchr(key, ' ');
            const char *value = "";
            if (sp) { *sp = 0; value = sp + 1; }
            if (meta_set(d, key, value) != GAIT_OK) return PFAIL(ps, GAIT_ERR_FORMAT, "%s", d->error);
        } else if (strncmp(line, "character ", 10) == 0) {
            char *s = line + 10;
            unsigned long long idx, gen;
            if (!parse_ulong(&s, 0x7fffffff, &idx) || !parse_ulong(&s, 0xffffffffu, &gen) || *s || !idx)
                return PFAIL(ps, GAIT_ERR_FORMAT, "\"character INDEX1 GENERATION\" expected "
                             "(INDEX1 >= 1)");
            gait_character_id id = {(int32_t)idx, (uint32_t)gen};
            if (character_index(d, id) >= 0)
                return PFAIL(ps, GAIT_ERR_FORMAT, "character %llu %llu is named twice", idx, gen);
            if (character_add(d, id) != GAIT_OK) return PFAIL(ps, GAIT_ERR_FORMAT, "%s", d->error);
        } else if (strncmp(line, "frames ", 7) == 0) {
            char *s = line + 7;
            if (!parse_ulong(&s, MAX_FRAMES, frames_declared) || *s)
                return PFAIL(ps, GAIT_ERR_FORMAT, "\"frames N\" expected, N in 0..%d", MAX_FRAMES);
            break;
        } else {
            return PFAIL(ps, GAIT_ERR_FORMAT, "unknown header line \"%.40s\" (world, meta, "
                         "character or frames expected)", line);
        }
    }
    if (!have_world) return PFAIL(ps, GAIT_ERR_FORMAT, "no \"world\" line before \"frames\"");
    return GAIT_OK;
}

/* Input j of frame k: "i INDEX1 GENERATION MOVE_X MOVE_Y LOOK_YAW LOOK_PITCH LOOK_ZOOM HELD
 * PRESSED", for a character the header names. */
static gait_status parse_input(parser *ps, char *line, size_t cap, unsigned long long k,
                               unsigned long long j, unsigned long long count) {
    replay_data *d = ps->d;
    bool too_long;
    if (!next_line(ps, line, cap, &too_long))
        return PFAIL(ps, GAIT_ERR_FORMAT, "the file ends inside frame %llu", k + 1);
    if (too_long) return PFAIL(ps, GAIT_ERR_FORMAT, "line longer than %zu bytes", cap - 1);
    char *s = line;
    replay_input ri;
    memset(&ri, 0, sizeof ri);
    unsigned long long idx, gen, held, pressed;
    if (strncmp(s, "i ", 2) != 0)
        return PFAIL(ps, GAIT_ERR_FORMAT, "frame %llu: input %llu of %llu: \"i ...\" "
                     "expected", k + 1, j + 1, count);
    s += 2;
    if (!parse_ulong(&s, 0x7fffffff, &idx) || !parse_ulong(&s, 0xffffffffu, &gen) ||
        !parse_double(&s, &ri.in.move_x) || !parse_double(&s, &ri.in.move_y) ||
        !parse_double(&s, &ri.in.look_yaw) || !parse_double(&s, &ri.in.look_pitch) ||
        !parse_double(&s, &ri.in.look_zoom) || !parse_ulong(&s, 0xffffffffu, &held) ||
        !parse_ulong(&s, 0xffffffffu, &pressed) || *s)
        return PFAIL(ps, GAIT_ERR_FORMAT, "frame %llu: input %llu: \"i INDEX1 GENERATION "
                     "MOVE_X MOVE_Y LOOK_YAW LOOK_PITCH LOOK_ZOOM HELD PRESSED\" with finite "
                     "numbers expected", k + 1, j + 1);
    ri.id.index1 = (int32_t)idx;
    ri.id.generation = (uint32_t)gen;
    ri.in.held = (uint32_t)held;
    ri.in.pressed = (uint32_t)pressed;
    if (character_index(d, ri.id) < 0)
        return PFAIL(ps, GAIT_ERR_FORMAT, "frame %llu: input for character %llu %llu, "
                     "which the header does not name", k + 1, idx, gen);
    if (!grow(&d->hooks, (void **)&d->inputs, &d->input_cap, sizeof *d->inputs, d->input_count + 1))
        return PFAIL(ps, GAIT_ERR_OUT_OF_MEMORY, "out of memory");
    d->inputs[d->input_count++] = ri;
    return GAIT_OK;
}

/* Frame k of `declared`: "f SECONDS INPUTS" and its inputs. The declared counts are not trusted
 * for the allocation (a lie would cost memory the file does not hold): the arrays grow a frame
 * and an input at a time, as the lines come. */
static gait_status parse_frame(parser *ps, char *line, size_t cap, unsigned long long k,
                               unsigned long long declared) {
    replay_data *d = ps->d;
    bool too_long;
    if (!next_line(ps, line, cap, &too_long))
        return PFAIL(ps, GAIT_ERR_FORMAT, "the file ends after %llu of %llu frames", k, declared);
    if (too_long) return PFAIL(ps, GAIT_ERR_FORMAT, "line longer than %zu bytes", cap - 1);
    char *s = line;
    double seconds;
    unsigned long long count;
    if (strncmp(s, "f ", 2) != 0)
        return PFAIL(ps, GAIT_ERR_FORMAT, "frame %llu: \"f SECONDS INPUTS\" expected", k + 1);
    s += 2;
    if (!parse_double(&s, &seconds) || seconds < 0 ||
        !parse_ulong(&s, (unsigned long long)GAIT_REPLAY_MAX_CHARACTERS * 64, &count) || *s)
        return PFAIL(ps, GAIT_ERR_FORMAT, "frame %llu: seconds must be finite and >= 0, then "
                     "an input count", k + 1);
    if (!grow(&d->hooks, (void **)&d->frames, &d->frame_cap, sizeof *d->frames, d->frame_count + 1))
        return PFAIL(ps, GAIT_ERR_OUT_OF_MEMORY, "out of memory");
    replay_frame *fr = &d->frames[d->frame_count++];
    fr->seconds = seconds;
    fr->first = d->input_count;
    fr->count = (size_t)count;
    for (unsigned long long j = 0; j < count; j++) {
        gait_status st = parse_input(ps, line, cap, k, j, count);
        if (st != GAIT_OK) return st;
    }
    return GAIT_OK;
}

/* After the frames, blank lines and then "end". */
static gait_status parse_end(parser *ps, char *line, size_t cap, unsigned long long declared) {
    bool too_long;
    for (;;) {
        if (!next_line(ps, line, cap, &too_long))
            return PFAIL(ps, GAIT_ERR_FORMAT, "no \"end\" line after the %llu frames (truncated, "
                         "or more frames than declared)", declared);
        if (too_long) return PFAIL(ps, GAIT_ERR_FORMAT, "line longer than %zu bytes", cap - 1);
        if (!line[0]) continue;
        if (strcmp(line, "end") != 0)
            return PFAIL(ps, GAIT_ERR_FORMAT, "\"end\" expected after %llu frames, found \"%.40s\"",
                         declared, line);
        return GAIT_OK;
    }
}

static gait_status parse(parser *ps) {
    char line[LINE_MAX_BYTES];
    unsigned long long frames_declared = 0;
    gait_status st = parse_version(ps, line, sizeof line);
    if (st == GAIT_OK) st = parse_header(ps, line, sizeof line, &frames_declared);
    for (unsigned long long k = 0; st == GAIT_OK && k < frames_declared; k++)
        st = parse_frame(ps, line, sizeof line, k, frames_declared);
    if (st == GAIT_OK) st = parse_end(ps, line, sizeof line, frames_declared);
    return st;
}

static gait_status player_new(const gait_hooks *hooks_in, gait_replay_player **out) {
    gait_hooks hooks = hooks_in ? *hooks_in : gait_default_hooks();
    gait__hooks_resolve(&hooks);
    gait_replay_player *p = gait__alloc(&hooks, sizeof *p);
    if (!p) return GAIT_ERR_OUT_OF_MEMORY;
    p->d.hooks = hooks;
    *out = p;
    return GAIT_OK;
}

static void put_err(char *err, size_t cap, const char *msg) {
    if (err && cap) snprintf(err, cap, "%s", msg);
}

gait_status gait_replay_player_open_buffer(const char *data, size_t size, const char *name,
                                           const gait_hooks *hooks, gait_replay_player **out,
                                           char *err, size_t err_cap) {
    if (out) *out = NULL;
    if (!out || (!data && size)) {
        put_err(err, err_cap, "replay: NULL output or data");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    gait_replay_player *p = NULL;
    if (player_new(hooks, &p) != GAIT_OK) {
        put_err(err, err_cap, "replay: out of memory");
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    parser ps = {data, data + size, name ? name : "(buffer)", 0, &p->d};
    gait_status s = parse(&ps);
    if (s != GAIT_OK) {
        put_err(err, err_cap, p->d.error);
        gait_replay_player_destroy(p);
        return s;
    }
    *out = p;
    return GAIT_OK;
}

gait_status gait_replay_player_open(const char *path, const gait_hooks *hooks_in,
                                    gait_replay_player **out, char *err, size_t err_cap) {
    char msg[512];
    if (out) *out = NULL;
    if (!path || !out) {
        put_err(err, err_cap, "replay: NULL path or output");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    gait_hooks hooks = hooks_in ? *hooks_in : gait_default_hooks();
    gait__hooks_resolve(&hooks);
    /* content: a regular file only (a FIFO or a device is refused without blocking), its size
     * capped before it is read (gait/file.h) */
    void *buf = NULL;
    size_t len = 0;
    char why[400];
    gait_status s = gait_file_read(path, MAX_FILE_BYTES, &hooks, &buf, &len, why, sizeof why);
    if (s != GAIT_OK) {
        snprintf(msg, sizeof msg, "cannot read the replay %s", why);
        put_err(err, err_cap, msg);
        return s == GAIT_ERR_CAPACITY ? GAIT_ERR_FORMAT : s;
    }
    s = gait_replay_player_open_buffer((const char *)buf, len, path, &hooks, out, err, err_cap);
    gait_file_free(buf, len, &hooks);
    return s;
}

gait_status gait_replay_player_from_recorder(const gait_replay_recorder *r, gait_replay_player **out) {
    if (!r || !out) return GAIT_ERR_INVALID_ARGUMENT;
    *out = NULL;
    gait_replay_player *p = NULL;
    if (player_new(&r->d.hooks, &p) != GAIT_OK) return GAIT_ERR_OUT_OF_MEMORY;
    replay_data *d = &p->d;
    const replay_data *src = &r->d;
    memcpy(d->world, src->world, sizeof d->world);
    d->meta_count = src->meta_count;
    memcpy(d->meta_key, src->meta_key, sizeof d->meta_key);
    memcpy(d->meta_value, src->meta_value, sizeof d->meta_value);
    d->character_count = src->character_count;
    memcpy(d->characters, src->characters, sizeof d->characters);
    if (!grow(&d->hooks, (void **)&d->frames, &d->frame_cap, sizeof *d->frames, src->frame_count) ||
        !grow(&d->hooks, (void **)&d->inputs, &d->input_cap, sizeof *d->inputs, src->input_count)) {
        gait_replay_player_destroy(p);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    if (src->frame_count) memcpy(d->frames, src->frames, src->frame_count * sizeof *d->frames);
    if (src->input_count) memcpy(d->inputs, src->inputs, src->input_count * sizeof *d->inputs);
    d->frame_count = src->frame_count;
    /* inputs of a frame still open are not played */
    d->input_count = src->frame_count ? src->frames[src->frame_count - 1].first +
                                            src->frames[src->frame_count - 1].count : 0;
    *out = p;
    return GAIT_OK;
}

void gait_replay_player_destroy(gait_replay_player *p) {
    if (!p) return;
    gait_hooks h = p->d.hooks;
    data_free(&p->d);
    gait__free(&h, p, sizeof *p);
}

const char *gait_replay_player_last_error(const gait_replay_player *p) {
    return p ? p->d.error : "player is NULL";
}
const char *gait_replay_player_world_name(const gait_replay_player *p) { return p ? p->d.world : ""; }

const char *gait_replay_player_meta(const gait_replay_player *p, const char *key) {
    if (!p || !key) return NULL;
    for (int i = 0; i < p->d.meta_count; i++)
        if (strcmp(p->d.meta_key[i], key) == 0) return p->d.meta_value[i];
    return NULL;
}

int gait_replay_player_character_count(const gait_replay_player *p) { return p ? p->d.character_count : 0; }

gait_character_id gait_replay_player_character(const gait_replay_player *p, int i) {
    gait_character_id none = GAIT_NULL_ID_INIT;
    if (!p || i < 0 || i >= p->d.character_count) return none;
    return p->d.characters[i];
}

int gait_replay_player_frame_count(const gait_replay_player *p) { return p ? (int)p->d.frame_count : 0; }
int gait_replay_player_frame_index(const gait_replay_player *p) { return p ? (int)p->next : 0; }

void gait_replay_player_rewind(gait_replay_player *p) {
    if (p) p->next = 0;
}

gait_status gait_replay_player_next(gait_replay_player *p, gait_world *w, double *out_seconds) {
    if (!p || !w) return GAIT_ERR_INVALID_ARGUMENT;
    replay_data *d = &p->d;
    if (p->next >= d->frame_count)
        return FAIL(d, GAIT_ERR_CAPACITY, "replay: all %zu frames were played", d->frame_count);
    const replay_frame *fr = &d->frames[p->next];
    /* every character first, so a stale one leaves the world untouched */
    for (size_t j = fr->first; j < fr->first + fr->count; j++)
        if (!gait_character_valid(w, d->inputs[j].id))
            return FAIL(d, GAIT_ERR_STALE_ID, "replay frame %zu: character %d (generation %u) is "
                        "not alive in this world (was it built as when recording?)", p->next + 1,
                        (int)d->inputs[j].id.index1, d->inputs[j].id.generation);
    for (size_t j = fr->first; j < fr->first + fr->count; j++) {
        gait_status s = gait_character_set_input(w, d->inputs[j].id, &d->inputs[j].in);
        if (s != GAIT_OK) /* the loader checked every number: only a world hook could refuse */
            return FAIL(d, s, "replay frame %zu: %s", p->next + 1, gait_world_last_error(w));
    }
    if (out_seconds) *out_seconds = fr->seconds;
    p->next++;
    return GAIT_OK;
}

gait_status gait_replay_player_play(gait_replay_player *p, gait_world *w, uint64_t *out_hash) {
    if (!p || !w) return GAIT_ERR_INVALID_ARGUMENT;
    double dt = 0;
    while (p->next < p->d.frame_count) {
        gait_status s = gait_replay_player_next(p, w, &dt);
        if (s != GAIT_OK) return s;
        s = gait_world_update(w, dt, NULL);
        if (s != GAIT_OK)
            return FAIL(&p->d, s, "replay frame %zu: %s", p->next, gait_world_last_error(w));
    }
    if (out_hash) *out_hash = gait_world_state_hash(w);
    return GAIT_OK;
}
