/* Screenshots: glReadPixels of the frame just drawn, written as PNG by stb_image_write.
 * stb_image's implementation is compiled into libgait.a (runtime/src/stb_impl.c); only the
 * writer's is here, once for the whole sandbox. */
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

bool sb_screenshot(const char *path, int width, int height, char *err, size_t cap) {
    unsigned char *px = malloc((size_t)width * (size_t)height * 3);
    if (!px) { snprintf(err, cap, "out of memory"); return false; }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, px);
    /* GL's rows run bottom-up; PNG's top-down. Flip by hand (stbi's flip flag is a global). */
    size_t row = (size_t)width * 3;
    unsigned char *tmp = malloc(row);
    for (int y = 0; tmp && y < height / 2; y++) {
        memcpy(tmp, px + row * (size_t)y, row);
        memcpy(px + row * (size_t)y, px + row * (size_t)(height - 1 - y), row);
        memcpy(px + row * (size_t)(height - 1 - y), tmp, row);
    }
    free(tmp);
    int ok = stbi_write_png(path, width, height, 3, px, (int)row);
    free(px);
    if (!ok) snprintf(err, cap, "%s: could not write the PNG", path);
    return ok != 0;
}
