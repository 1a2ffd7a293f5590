/* Paths and files. */
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>

void sb_path_join(char *out, size_t cap, const char *dir, const char *file) {
    if (!dir || !dir[0] || file[0] == '/') snprintf(out, cap, "%s", file);
    else snprintf(out, cap, "%s/%s", dir, file);
}

void sb_path_dir(char *out, size_t cap, const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) { snprintf(out, cap, "."); return; }
    if (slash == path) { snprintf(out, cap, "/"); return; }
    snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

char *sb_read_file(const char *path, size_t *out_len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0) { fclose(f); return NULL; }
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (out_len) *out_len = (size_t)n;
    }
    return buf;
}

bool sb_copy_file(const char *from, const char *to) {
    size_t n = 0;
    char *data = sb_read_file(from, &n);
    if (!data) return false;
    FILE *f = fopen(to, "wb");
    bool ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = false;
    free(data);
    return ok;
}
