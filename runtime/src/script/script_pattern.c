/* string.find, string.match, string.gmatch and string.gsub with a step count.
 *
 * Lua's patterns backtrack: string.find(string.rep("a", 1e6), "a*b") tries every start and,
 * from each, every length of the run of a's: 10^12 steps inside one C call, where no count hook
 * can stop it. These are the same functions, written here with the same semantics as Lua 5.1's
 * (classes %a %c %d %l %p %s %u %w %x %z and their complements, sets, the quantifiers * + - ?,
 * captures with position captures, back references %1-%9, %b and %f, anchors; the same errors),
 * counting each step of the matcher against the running call's budget: a pathological pattern
 * trips the budget as an endless loop does. Plain finds use memmem (linear). Without a budget
 * (trusted code) the count is still kept but never stops anything; the recursion is capped at
 * 200 levels as LuaJIT caps it ("pattern too complex").
 *
 * tests/scenarios/sandbox_patterns.lua checks these against LuaJIT's own on thousands of
 * generated patterns and subjects. */
#include "script_internal.h"

#include <ctype.h>
#include <string.h>

#define MAX_CAPTURES 32
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define MAX_DEPTH 200
#define CHARGE_EVERY 1024 /* units between two charges to the budget */
/* A matcher step (a call of match: a class, a compare, the loop) costs about four interpreted
 * VM instructions (13 ns against 3.3 ns, measured with the file budget on a backtracking
 * pattern); scanning a run costs about half an instruction a byte. */
#define STEP_UNITS 4
#define ESC '%'
#define SPECIALS "^$*+?.([%-"

typedef struct matcher {
    const char *src, *src_end, *pat_end;
    lua_State *L;
    gait_script *script;
    int64_t steps;               /* since the last charge */
    int depth;
    int level;                   /* captures open or closed */
    struct {
        const char *init;
        ptrdiff_t len;           /* or CAP_UNFINISHED, CAP_POSITION */
    } cap[MAX_CAPTURES];
} matcher;

static void step(matcher *m, int64_t n) {
    m->steps += n;
    if (m->steps >= CHARGE_EVERY) {
        int64_t units = m->steps;
        m->steps = 0;
        gait__budget_charge(m->L, m->script, units);
    }
}

static void flush(matcher *m) {
    if (m->steps > 0) gait__budget_charge(m->L, m->script, m->steps);
    m->steps = 0;
}

/* ---- classes ----------------------------------------------------------------------------- */

static bool class_match(int c, int cl) {
    bool r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = c == 0; break;
    default: return cl == c; /* %. %% %( ...: the character itself */
    }
    return isupper(cl) ? !r : r;
}

/* p at '[', last at its closing ']' */
static bool set_match(int c, const char *p, const char *last) {
    bool negate = false;
    p++;
    if (*p == '^') {
        negate = true;
        p++;
    }
    for (; p < last; p++) {
        if (*p == ESC && p + 1 < last) {
            p++;
            if (class_match(c, (unsigned char)*p)) return !negate;
        } else if (p + 2 < last && p[1] == '-') {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return !negate;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return !negate;
        }
    }
    return negate;
}

/* Past the single-character class at p. */
static const char *class_end(matcher *m, const char *p) {
    char c = *p++;
    if (c == ESC) {
        if (p >= m->pat_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (*p == '^') p++;
        do { /* the first character of a set is itself even when it is ']' */
            if (p >= m->pat_end) luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == ESC && p < m->pat_end) p++;
        } while (p >= m->pat_end || *p != ']');
        return p + 1;
    }
    return p;
}

static bool single_match(const matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->src_end) return false;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return true;
    case ESC: return class_match(c, (unsigned char)p[1]);
    case '[': return set_match(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* ---- the matcher --------------------------------------------------------------------------- */

static const char *match(matcher *m, const char *s, const char *p);

static const char *max_expand(matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t i = 0;
    while (single_match(m, s + i, p, ep)) i++;
    step(m, i / 2 + 1);
    for (; i >= 0; i--) {
        const char *r = match(m, s + i, ep + 1);
        if (r) return r;
    }
    return NULL;
}

static const char *min_expand(matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *r = match(m, s, ep + 1);
        if (r) return r;
        if (!single_match(m, s, p, ep)) return NULL;
        s++;
    }
}

static const char *start_capture(matcher *m, const char *s, const char *p, ptrdiff_t what) {
    if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->cap[m->level].init = s;
    m->cap[m->level].len = what;
    m->level++;
    const char *r = match(m, s, p);
    if (!r) m->level--;
    return r;
}

static const char *end_capture(matcher *m, const char *s, const char *p) {
    int l = -1;
    for (int i = m->level - 1; i >= 0; i--)
        if (m->cap[i].len == CAP_UNFINISHED) {
            l = i;
            break;
        }
    if (l < 0) luaL_error(m->L, "invalid pattern capture");
    m->cap[l].len = s - m->cap[l].init;
    const char *r = match(m, s, p);
    if (!r) m->cap[l].len = CAP_UNFINISHED;
    return r;
}

static int check_capture(matcher *m, int c) {
    int l = c - '1';
    if (l < 0 || l >= m->level || m->cap[l].len == CAP_UNFINISHED)
        luaL_error(m->L, "invalid capture index");
    return l;
}

static const char *match_capture(matcher *m, const char *s, int c) {
    int l = check_capture(m, c);
    size_t len = (size_t)m->cap[l].len;
    step(m, (int64_t)(len / 8) + 1);
    if ((size_t)(m->src_end - s) >= len && memcmp(m->cap[l].init, s, len) == 0) return s + len;
    return NULL;
}

static const char *match_balance(matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->pat_end) luaL_error(m->L, "unbalanced pattern");
    if (s >= m->src_end || *s != *p) return NULL;
    char open = p[0], close = p[1];
    int depth = 1;
    const char *start = s;
    while (++s < m->src_end) {
        if (*s == close) {
            if (--depth == 0) {
                step(m, (s - start) / 8 + 1);
                return s + 1;
            }
        } else if (*s == open) {
            depth++;
        }
    }
    step(m, (s - start) / 8 + 1);
    return NULL;
}

static const char *match(matcher *m, const char *s, const char *p) {
    if (++m->depth > MAX_DEPTH) luaL_error(m->L, "pattern too complex");
    for (;;) {
        step(m, STEP_UNITS);
        if (p == m->pat_end) break;
        switch (*p) {
        case '(':
            s = p[1] == ')' ? start_capture(m, s, p + 2, CAP_POSITION)
                            : start_capture(m, s, p + 1, CAP_UNFINISHED);
            goto done;
        case ')':
            s = end_capture(m, s, p + 1);
            goto done;
        case '$':
            if (p + 1 == m->pat_end) {
                if (s != m->src_end) s = NULL;
                goto done;
            }
            goto single;
        case ESC:
            if (p[1] == 'b') {
                s = match_balance(m, s, p + 2);
                if (!s) goto done;
                p += 4;
                continue;
            }
            if (p[1] == 'f') {
                p += 2;
                if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *ep = class_end(m, p);
                int prev = s == m->src ? 0 : (unsigned char)s[-1];
                int cur = s < m->src_end ? (unsigned char)*s : 0;
                if (set_match(prev, p, ep - 1) || !set_match(cur, p, ep - 1)) {
                    s = NULL;
                    goto done;
                }
                p = ep;
                continue;
            }
            if (isdigit((unsigned char)p[1])) {
                s = match_capture(m, s, (unsigned char)p[1]);
                if (!s) goto done;
                p += 2;
                continue;
            }
            goto single;
        default:
        single: {
            const char *ep = class_end(m, p);
            bool one = single_match(m, s, p, ep);
            char q = ep < m->pat_end ? *ep : 0;
            if (q == '?') {
                const char *r;
                if (one && (r = match(m, s + 1, ep + 1)) != NULL) {
                    s = r;
                    goto done;
                }
                p = ep + 1;
                continue;
            }
            if (q == '*') {
                s = max_expand(m, s, p, ep);
                goto done;
            }
            if (q == '+') {
                s = one ? max_expand(m, s + 1, p, ep) : NULL;
                goto done;
            }
            if (q == '-') {
                s = min_expand(m, s, p, ep);
                goto done;
            }
            if (!one) {
                s = NULL;
                goto done;
            }
            s++;
            p = ep;
            continue;
        }
        }
    }
done:
    m->depth--;
    return s;
}

/* ---- captures ------------------------------------------------------------------------------ */

static void push_one_capture(matcher *m, int i, const char *s, const char *e) {
    if (i >= m->level) {
        if (i != 0) luaL_error(m->L, "invalid capture index");
        lua_pushlstring(m->L, s, (size_t)(e - s)); /* no captures: the whole match */
        return;
    }
    ptrdiff_t l = m->cap[i].len;
    if (l == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
    if (l == CAP_POSITION) lua_pushinteger(m->L, (lua_Integer)(m->cap[i].init - m->src + 1));
    else lua_pushlstring(m->L, m->cap[i].init, (size_t)l);
}

static int push_captures(matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_one_capture(m, i, s, e);
    return n;
}

static void matcher_init(matcher *m, lua_State *L, const char *s, size_t ls, const char *p,
                         size_t lp) {
    m->L = L;
    m->script = gait__script_from(L);
    m->src = s;
    m->src_end = s + ls;
    m->pat_end = p + lp;
    m->steps = 0;
    m->depth = 0;
    m->level = 0;
}

static ptrdiff_t start_index(lua_Integer pos, size_t len) {
    if (pos < 0) pos += (lua_Integer)len + 1;
    if (pos < 1) pos = 1;
    if ((size_t)pos > len + 1) pos = (lua_Integer)len + 1;
    return (ptrdiff_t)pos - 1;
}

/* ---- find, match, gmatch, gsub ------------------------------------------------------------- */

static int find_aux(lua_State *L, bool find) {
    size_t ls = 0, lp = 0;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    ptrdiff_t init = start_index(luaL_optinteger(L, 3, 1), ls);
    gait_script *script = gait__script_from(L);
    if (find && (lua_toboolean(L, 4) || !strpbrk(p, SPECIALS))) { /* a plain search */
        gait__budget_charge(L, script, (int64_t)((ls - (size_t)init + lp) / 32) + 1);
        const char *f = lp == 0 ? s + init
                                : (const char *)memmem(s + init, ls - (size_t)init, p, lp);
        if (!f) {
            lua_pushnil(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(f - s + 1));
        lua_pushinteger(L, (lua_Integer)(f - s + (ptrdiff_t)lp));
        return 2;
    }
    matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    bool anchor = lp > 0 && *p == '^';
    if (anchor) p++;
    const char *s1 = s + init;
    do {
        m.level = 0;
        m.depth = 0;
        const char *e = match(&m, s1, p);
        if (e) {
            flush(&m);
            if (find) {
                lua_pushinteger(L, (lua_Integer)(s1 - s + 1));
                lua_pushinteger(L, (lua_Integer)(e - s));
                return push_captures(&m, NULL, NULL) + 2;
            }
            return push_captures(&m, s1, e);
        }
    } while (s1++ < m.src_end && !anchor);
    flush(&m);
    lua_pushnil(L);
    return 1;
}

static int l_find(lua_State *L) { return find_aux(L, true); }
static int l_match(lua_State *L) { return find_aux(L, false); }

/* upvalues: subject, pattern, next position (0-based) */
static int gmatch_next(lua_State *L) {
    size_t ls = 0, lp = 0;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    for (const char *src = s + lua_tointeger(L, lua_upvalueindex(3)); src <= m.src_end; src++) {
        m.level = 0;
        m.depth = 0;
        const char *e = match(&m, src, p);
        if (e) {
            ptrdiff_t next = e - s;
            if (e == src) next++; /* an empty match: move on one */
            lua_pushinteger(L, (lua_Integer)next);
            lua_replace(L, lua_upvalueindex(3));
            flush(&m);
            return push_captures(&m, src, e);
        }
    }
    flush(&m);
    return 0;
}

static int l_gmatch(lua_State *L) {
    luaL_checkstring(L, 1);
    luaL_checkstring(L, 2);
    lua_settop(L, 2);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

static void add_string(matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t l = 0;
    const char *news = lua_tolstring(m->L, 3, &l);
    for (size_t i = 0; i < l; i++) {
        if (news[i] != ESC) {
            luaL_addchar(b, news[i]);
            continue;
        }
        i++; /* past the escape */
        if (i >= l || !isdigit((unsigned char)news[i])) {
            if (i < l) luaL_addchar(b, news[i]);
        } else if (news[i] == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else {
            push_one_capture(m, news[i] - '1', s, e);
            luaL_addvalue(b);
        }
    }
}

static void add_value(matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    lua_State *L = m->L;
    switch (lua_type(L, 3)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
        add_string(m, b, s, e);
        return;
    case LUA_TFUNCTION: {
        step(m, 30); /* a call from C into the script: ~100 ns beyond its own instructions */
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
        break;
    }
    case LUA_TTABLE:
        push_one_capture(m, 0, s, e);
        lua_gettable(L, 3);
        break;
    }
    if (!lua_toboolean(L, -1)) { /* nil or false: keep the original text */
        lua_pop(L, 1);
        lua_pushlstring(L, s, (size_t)(e - s));
    } else if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    }
    luaL_addvalue(b);
}

static int l_gsub(lua_State *L) {
    size_t ls = 0, lp = 0;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int tr = lua_type(L, 3);
    luaL_argcheck(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION ||
                         tr == LUA_TTABLE, 3, "string/function/table expected");
    lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    bool anchor = lp > 0 && *p == '^';
    if (anchor) p++;
    matcher m;
    matcher_init(&m, L, src, ls, p - (anchor ? 1 : 0), lp);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_Integer n = 0;
    while (n < max_n) {
        m.level = 0;
        m.depth = 0;
        const char *e = match(&m, src, p);
        if (e) {
            n++;
            add_value(&m, &b, src, e);
            step(&m, (e - src) / 16 + 1);
        }
        if (e && e > src) {
            src = e;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    step(&m, (m.src_end - src) / 16 + 1);
    flush(&m);
    luaL_addlstring(&b, src, (size_t)(m.src_end - src));
    luaL_pushresult(&b);
    lua_pushinteger(L, (lua_Integer)n);
    return 2;
}

void gait__pattern_register(lua_State *L, int idx) {
    static const luaL_Reg fns[] = {{"find", l_find}, {"match", l_match}, {"gmatch", l_gmatch},
                                   {"gsub", l_gsub}, {NULL, NULL}};
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    for (int i = 0; fns[i].name; i++) {
        lua_pushcfunction(L, fns[i].func);
        lua_setfield(L, idx, fns[i].name);
    }
}
