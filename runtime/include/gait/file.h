/* gait — reading files that may not be files.
 *
 * Levels, heightmaps, replays, scripts and watched files are content: a name a script or a
 * replay gives may be a FIFO (open() blocks until a writer comes), a device (/dev/zero never
 * ends), a directory or a huge file. Everything gait reads from a path goes through these:
 * the path is checked with stat() before it is opened, opened non-blocking, checked again on
 * the open descriptor (the name could have been swapped in between), and its size is capped
 * before a byte is read. */
#ifndef GAIT_FILE_H
#define GAIT_FILE_H

#include "gait/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GAIT_OK when path names a regular file (after symlinks) of at most max_bytes; otherwise
 * GAIT_ERR_IO (missing, unreadable, a FIFO, device, socket or directory) or GAIT_ERR_CAPACITY
 * (bigger than max_bytes), with "path: why" in err (may be NULL). Opens nothing.
 * *out_size (may be NULL) receives the size. */
gait_status gait_file_check(const char *path, size_t max_bytes, size_t *out_size, char *err,
                            size_t err_cap);

/* Reads the whole regular file (at most max_bytes) into memory from the hooks' allocator (NULL
 * hooks: malloc). *out_data gets size + 1 bytes, the last a NUL (text can be used as a C
 * string); free it with gait_file_free(data, size, hooks). Refusals as gait_file_check, plus a
 * file that grows past max_bytes while it is read (CAPACITY) and a failed read (IO). Nothing
 * is allocated on failure. */
gait_status gait_file_read(const char *path, size_t max_bytes, const gait_hooks *hooks,
                           void **out_data, size_t *out_size, char *err, size_t err_cap);
void gait_file_free(void *data, size_t size, const gait_hooks *hooks);

#ifdef __cplusplus
}
#endif
#endif
