/* gait.image: writing pictures from Lua (the headless demo's top-down map of a path).
 * stb_image_write is compiled here with static linkage, so a host that compiles its own copy
 * (the sandbox's screenshots) links without a clash. */
#include <math.h>
#include <string.h>

#include "script_internal.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

/* gait.image.write_png(path, width, height, channels, bytes) -> true | nil, msg
 * bytes: a string of width * height * channels bytes, rows top to bottom. It writes a file: for
 * trusted scripts only (the host's own, e.g. `gait run --trusted`). */
static int l_write_png(lua_State *L) {
    gait__require_trusted(L, "gait.image.write_png (it writes files)");
    const char *path = luaL_checkstring(L, 1);
    lua_Number w = luaL_checknumber(L, 2), h = luaL_checknumber(L, 3), c = luaL_checknumber(L, 4);
    size_t len = 0;
    const char *bytes = luaL_checklstring(L, 5, &len);
    if (!(w >= 1 && w <= 16384 && w == floor(w))) return luaL_argerror(L, 2, "width must be a whole number in [1, 16384]");
    if (!(h >= 1 && h <= 16384 && h == floor(h))) return luaL_argerror(L, 3, "height must be a whole number in [1, 16384]");
    if (!(c >= 1 && c <= 4 && c == floor(c))) return luaL_argerror(L, 4, "channels must be 1, 2, 3 or 4");
    size_t need = (size_t)w * (size_t)h * (size_t)c;
    if (len != need)
        return luaL_argerror(L, 5, lua_pushfstring(L, "%d bytes of pixels given, %d x %d x %d = %d "
                                                      "needed", (int)len, (int)w, (int)h, (int)c,
                                                   (int)need));
    if (!stbi_write_png(path, (int)w, (int)h, (int)c, bytes, (int)w * (int)c)) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: could not write the PNG", path);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

int gait__open_image(lua_State *L) {
    static const luaL_Reg fns[] = {{"write_png", l_write_png}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}
