/* gait/file.h: regular files only, sizes capped before reading. */
#include "gait/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

/* A message into err (when given) and the status back (gait__fail wants a buffer). */
#define file_fail(err, cap, st, ...) \
    ((err) && (cap) ? gait__fail((err), (cap), (st), __VA_ARGS__) : (st))

static const char *kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* One stat result against the rules. */
static gait_status check_stat(const char *path, const struct stat *st, size_t max_bytes,
                              char *err, size_t cap) {
    if (!S_ISREG(st->st_mode))
        return file_fail(err, cap, GAIT_ERR_IO, "%s: %s, not a regular file: refused", path,
                         kind_of(st->st_mode));
    if (st->st_size < 0 || (unsigned long long)st->st_size > (unsigned long long)max_bytes)
        return file_fail(err, cap, GAIT_ERR_CAPACITY, "%s: %lld bytes is more than the %zu "
                         "allowed: refused", path, (long long)st->st_size, max_bytes);
    return GAIT_OK;
}

gait_status gait_file_check(const char *path, size_t max_bytes, size_t *out_size, char *err,
                            size_t err_cap) {
    if (!path || !path[0]) return file_fail(err, err_cap, GAIT_ERR_IO, "(no path): no file named");
    struct stat st;
    if (stat(path, &st) != 0)
        return file_fail(err, err_cap, GAIT_ERR_IO, "%s: %s", path, strerror(errno));
    gait_status s = check_stat(path, &st, max_bytes, err, err_cap);
    if (s == GAIT_OK && out_size) *out_size = (size_t)st.st_size;
    return s;
}

gait_status gait_file_read(const char *path, size_t max_bytes, const gait_hooks *hooks_in,
                           void **out_data, size_t *out_size, char *err, size_t err_cap) {
    if (!out_data || !out_size)
        return file_fail(err, err_cap, GAIT_ERR_INVALID_ARGUMENT, "file: no place for the data");
    *out_data = NULL;
    *out_size = 0;
    gait_status s = gait_file_check(path, max_bytes, NULL, err, err_cap);
    if (s != GAIT_OK) return s;
    /* O_NONBLOCK: a FIFO swapped in after the stat opens at once instead of waiting for a
     * writer; O_NOCTTY: a terminal never becomes ours */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return file_fail(err, err_cap, GAIT_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return file_fail(err, err_cap, GAIT_ERR_IO, "%s: %s", path, strerror(errno));
    }
    s = check_stat(path, &st, max_bytes, err, err_cap);
    if (s != GAIT_OK) {
        close(fd);
        return s;
    }
    gait_hooks hooks = hooks_in ? *hooks_in : gait_default_hooks();
    gait__hooks_resolve(&hooks);
    size_t size = (size_t)st.st_size, cap = size + 1;
    unsigned char *data = (unsigned char *)hooks.alloc(cap, hooks.user);
    if (!data) {
        close(fd);
        return file_fail(err, err_cap, GAIT_ERR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes",
                         path, size);
    }
    size_t got = 0;
    for (;;) {
        /* one byte past the size: a file that grew since the stat is refused, not cut */
        ssize_t n = read(fd, data + got, cap - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            hooks.free(data, cap, hooks.user);
            return file_fail(err, err_cap, GAIT_ERR_IO, "%s: read: %s", path, strerror(e));
        }
        if (n == 0) break;
        got += (size_t)n;
        if (got == cap) {
            close(fd);
            hooks.free(data, cap, hooks.user);
            return file_fail(err, err_cap, GAIT_ERR_CAPACITY, "%s: grew while it was read: refused",
                             path);
        }
    }
    close(fd);
    data[got] = 0;
    /* a file that shrank keeps its buffer: free with the size asked for, the allocation's */
    if (got != size) {
        unsigned char *exact = (unsigned char *)hooks.alloc(got + 1, hooks.user);
        if (!exact) {
            hooks.free(data, cap, hooks.user);
            return file_fail(err, err_cap, GAIT_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
        memcpy(exact, data, got + 1);
        hooks.free(data, cap, hooks.user);
        data = exact;
    }
    *out_data = data;
    *out_size = got;
    return GAIT_OK;
}

void gait_file_free(void *data, size_t size, const gait_hooks *hooks_in) {
    if (!data) return;
    gait_hooks hooks = hooks_in ? *hooks_in : gait_default_hooks();
    gait__hooks_resolve(&hooks);
    hooks.free(data, size + 1, hooks.user);
}
