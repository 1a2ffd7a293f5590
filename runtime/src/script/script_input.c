/* Buttons as names, and gait.input (mask, names, buttons). */
#include "script_internal.h"

#include <string.h>

const char *const gait__button_names[GAIT_BUTTON_COUNT] = {
    "jump", "sprint", "drop", "attack", "skill", "burst", "walk", "crouch",
};

static uint32_t button_bit(lua_State *L, int idx, const char *what) {
    return 1u << gait__enum_at(L, idx, gait__button_names, GAIT_BUTTON_COUNT, what);
}

uint32_t gait__check_buttons(lua_State *L, int idx, const char *what) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (lua_isnoneornil(L, idx)) return 0;
    if (lua_type(L, idx) == LUA_TSTRING) return button_bit(L, idx, what);
    if (!lua_istable(L, idx))
        return (uint32_t)luaL_error(L, "%s must be a button name, a list of names or a set "
                                       "{name = true}, not a %s", what, luaL_typename(L, idx));
    uint32_t bits = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TNUMBER) { /* {"jump", "attack"} */
            bits |= button_bit(L, lua_gettop(L), what);
        } else { /* {jump = true} */
            uint32_t bit = button_bit(L, lua_gettop(L) - 1, what);
            if (lua_toboolean(L, -1)) bits |= bit;
        }
        lua_pop(L, 1);
    }
    return bits;
}

void gait__push_buttons(lua_State *L, uint32_t bits) {
    lua_createtable(L, 0, 4);
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        if (!(bits & (1u << i))) continue;
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, gait__button_names[i]);
    }
}

/* gait.input.mask(buttons) -> the gait_button bits */
static int l_input_mask(lua_State *L) {
    lua_pushnumber(L, gait__check_buttons(L, 1, "buttons"));
    return 1;
}

/* gait.input.names(bits) -> {name = true, ...} */
static int l_input_names(lua_State *L) {
    lua_Number v = luaL_checknumber(L, 1);
    if (!(v >= 0 && v <= GAIT_BUTTON_ALL)) return luaL_argerror(L, 1, "bits must be in 0..255");
    gait__push_buttons(L, (uint32_t)v);
    return 1;
}

int gait__open_input(lua_State *L) {
    static const luaL_Reg fns[] = {{"mask", l_input_mask}, {"names", l_input_names}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    lua_createtable(L, GAIT_BUTTON_COUNT, 0);
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        lua_pushstring(L, gait__button_names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "buttons");
    return 1;
}
