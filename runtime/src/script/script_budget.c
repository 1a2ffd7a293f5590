/* The instruction budget: a call into a script ends when it has run its budget, whatever it does.
 *
 * - A count hook adds BUDGET_TICK each time it fires; past the limit the call trips: the error
 *   names the line the script was on, and from then on the hook fires at every instruction and
 *   raises the same error again, so a script's own pcall (and xpcall, coroutine.resume: their
 *   sandboxed versions also raise it again) cannot swallow it. The trip ends when control is
 *   back in the host (gait__budget_leave).
 * - Work a script makes C do (a step, a terrain, a long string, a pattern match) is charged in
 *   the same units through gait__budget_charge, so a loop of cheap calls into dear C functions
 *   is stopped as surely as a loop of VM instructions.
 * - LuaJIT's compiled traces never run hooks: untrusted code runs with the JIT off for every
 *   function it defines (script_sandbox.c); scripts cannot reach debug.sethook or jit.
 * - A budgeted call inside another gets what is left of the outer one and hands its count back.
 *
 * LuaJIT keeps one hook for all coroutines (it lives in the global state), so a coroutine
 * counts on the same budget. */
#include "script_internal.h"

#include <stdio.h>
#include <string.h>

/* Instructions between two count hooks. The hook costs one registry lookup; a tick of 1000
 * keeps that under 1 % of interpreted code and a trip within 1000 instructions of the limit. */
#define BUDGET_TICK 1000

static void set_hook_count(gait_script *s, int count);

static void raise_trip(lua_State *L, gait_script *s) {
    lua_pushstring(L, s->trip_message);
    lua_error(L);
}

/* Marks the running call as out of budget, with "where" (may be "") in front of the message. */
static void trip(gait_script *s, const char *where) {
    gait__budget *b = &s->budget;
    b->tripped = true;
    snprintf(s->trip_message, sizeof s->trip_message, "%sinstruction budget of %lld VM instructions "
             "exceeded (an endless loop, or too much work for one call)", where,
             (long long)b->limit);
    set_hook_count(s, 1); /* every instruction raises it again until the host has it */
}

static void budget_hook(lua_State *L, lua_Debug *ar) {
    gait_script *s = gait__script_from(L);
    if (!s) return;
    gait__budget *b = &s->budget;
    if (b->depth == 0) return; /* held across a batch, between two calls */
    if (!b->tripped) {
        b->used += BUDGET_TICK;
        if (b->used < b->limit) return;
        /* name the line the loop was caught on: the hook's own frame has none */
        char where[GAIT__PATH_MAX + 32] = "";
        if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
            snprintf(where, sizeof where, "%s:%d: ", ar->short_src, ar->currentline);
        trip(s, where);
    }
    raise_trip(L, s);
}

static void set_hook_count(gait_script *s, int count) {
    if (s->budget.hook_count == count) return;
    s->budget.hook_count = count;
    if (count) lua_sethook(s->L, budget_hook, LUA_MASKCOUNT, count);
    else lua_sethook(s->L, NULL, 0, 0);
}

/* The hook for the state the budget is in now. */
static void settle_hook(gait_script *s) {
    const gait__budget *b = &s->budget;
    if (b->depth == 0 && b->held == 0) set_hook_count(s, 0);
    else if (b->depth > 0 && b->tripped) set_hook_count(s, 1);
    else set_hook_count(s, BUDGET_TICK);
}

void gait__budget_hold(gait_script *s) {
    s->budget.held++;
    settle_hook(s);
}

void gait__budget_release(gait_script *s) {
    if (s->budget.held > 0) s->budget.held--;
    settle_hook(s);
}

void gait__budget_enter(gait_script *s, int64_t limit, gait__budget *saved) {
    *saved = s->budget;
    gait__budget *b = &s->budget;
    if (saved->depth > 0) { /* nested: at most what the outer call has left */
        int64_t left = saved->limit - saved->used;
        if (left < 0) left = 0;
        if (limit > left) limit = left;
    }
    b->limit = limit;
    b->used = 0;
    b->tripped = false;
    b->depth = saved->depth + 1;
    settle_hook(s);
}

void gait__budget_leave(gait_script *s, const gait__budget *saved) {
    gait__budget *b = &s->budget;
    int64_t inner = b->used;
    int held = b->held;
    int hook_count = b->hook_count;
    *b = *saved;
    b->held = held;
    b->hook_count = hook_count;
    /* the outer call pays for what the inner one ran; if that exhausts it, its next tick (in
     * its own code, so at its own line) trips it */
    if (b->depth > 0) b->used += inner;
    settle_hook(s);
}

void gait__budget_charge(lua_State *L, gait_script *s, int64_t units) {
    gait__budget *b = &s->budget;
    if (b->depth == 0) return;
    if (b->tripped) raise_trip(L, s);
    b->used += units;
    if (b->used < b->limit) return;
    /* the Lua line that called into C; after a tail call that frame is gone, and the nearest
     * line up the stack that is still the script's is named (never the host's caller) */
    char where[GAIT__PATH_MAX + 32] = "";
    lua_Debug ar;
    for (int level = 1; level < 12 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Slf", &ar)) break;
        bool c_function = lua_iscfunction(L, -1);
        bool script = level == 1 || gait__function_untrusted(L, -1);
        lua_pop(L, 1);
        if (ar.currentline > 0 && script) {
            snprintf(where, sizeof where, "%s:%d: ", ar.short_src, ar.currentline);
            break;
        }
        if (!c_function && !script) break;
    }
    trip(s, where);
    raise_trip(L, s);
}

void gait__budget_check(lua_State *L, gait_script *s) {
    if (s->budget.depth > 0 && s->budget.tripped) raise_trip(L, s);
}
