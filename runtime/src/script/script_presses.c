/* The gait.presses type: what a kit's on_presses reads, the held input as the next step will
 * read it, live (gait_character_input). Keys: the button names (pressed this frame, not yet
 * read by a step), "<button>_held" (levels), move_x, move_y, dt (the frame's seconds). */
#include "script_internal.h"

#include <string.h>

void gait__push_presses(lua_State *L, gait__wbox *box, gait_character_id id) {
    gait__presses *p = (gait__presses *)lua_newuserdata(L, sizeof *p);
    p->box = box;
    p->id = id;
    p->dt = 0;
    luaL_getmetatable(L, GAIT__MT_PRESSES);
    lua_setmetatable(L, -2);
}

static int l_presses_index(lua_State *L) {
    gait__presses *p = (gait__presses *)luaL_checkudata(L, 1, GAIT__MT_PRESSES);
    size_t klen = 0;
    const char *k = luaL_checklstring(L, 2, &klen);
    gait_input in;
    if (!p->box->world || gait_character_input(p->box->world, p->id, &in) != GAIT_OK)
        return luaL_error(L, "presses: character #%d is stale", p->id.index1);
    /* the names' lengths (gait__button_names), so a key is matched without a strlen per name */
    static const size_t lens[GAIT_BUTTON_COUNT] = {4, 6, 4, 6, 5, 5, 4, 6};
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        size_t n = lens[i];
        if ((klen != n && klen != n + 5) || memcmp(k, gait__button_names[i], n) != 0) continue;
        if (k[n] == 0) {
            lua_pushboolean(L, (in.pressed >> i) & 1u);
            return 1;
        }
        if (strcmp(k + n, "_held") == 0) {
            lua_pushboolean(L, (in.held >> i) & 1u);
            return 1;
        }
    }
    if (strcmp(k, "move_x") == 0) { lua_pushnumber(L, in.move_x); return 1; }
    if (strcmp(k, "move_y") == 0) { lua_pushnumber(L, in.move_y); return 1; }
    if (strcmp(k, "dt") == 0) { lua_pushnumber(L, p->dt); return 1; }
    return luaL_error(L, "presses has no field \"%s\" (fields: a button name, <button>_held, "
                         "move_x, move_y, dt; buttons: jump, sprint, drop, attack, skill, burst, "
                         "walk, crouch)", k);
}

static int l_presses_tostring(lua_State *L) {
    gait__presses *p = (gait__presses *)luaL_checkudata(L, 1, GAIT__MT_PRESSES);
    gait_input in;
    if (!p->box->world || gait_character_input(p->box->world, p->id, &in) != GAIT_OK) {
        lua_pushliteral(L, "gait.presses (stale)");
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "gait.presses {");
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++)
        if ((in.pressed >> i) & 1u) {
            luaL_addchar(&b, ' ');
            luaL_addstring(&b, gait__button_names[i]);
        }
    luaL_addstring(&b, " }");
    luaL_pushresult(&b);
    return 1;
}

void gait__presses_register(lua_State *L) {
    luaL_newmetatable(L, GAIT__MT_PRESSES);
    gait__set_function(L, "__index", l_presses_index);
    gait__set_function(L, "__tostring", l_presses_tostring);
    lua_pop(L, 1);
}
