# gait — plain GNU Makefile. `make help` lists the targets.
#
#   make            library build/libgait.a and the hosts (build/gait, build/gait-sandbox when GLFW is there)
#   make test       unit tests (C) + the body's fuzzer (3 s) + scenario tests (Lua, headless) + e2e
#                   when a display can be made
#   make asan       the same tests under AddressSanitizer + UBSan, no recover
#   make valgrind   the core C tests under valgrind memcheck, leaks are errors (-j2 for two at once)
#   make fuzz       the body's fuzzer for SECONDS (default 60) with progress lines
#   make pending    the tests of known bugs not fixed yet (tests/pending/; not part of make test)
#   make walkers    many walkers on a level-like scene: flicker, hung in the air, stuck (counts)
#   make bench      benchmark programs, side by side with the peers where they exist
#   make run        the sandbox on the default world (headless demo when there is no display)
#   make deps       install missing Debian packages (apt-get; sudo only when not root)
#   make install    libgait.a, libgait.so, headers, gait.pc, the runner, the Lua files under
#                   PREFIX (default /usr/local), staged under DESTDIR when set; make uninstall
#   make examples   the examples/ programs, built against the installed tree (DESTDIR, PREFIX)
#
# Variables: BUILD (output dir), SAN=1 (sanitizers), WERROR=1 (warnings are errors; CI sets it),
# OPT (optimisation flags).

BUILD   ?= build
OPT     ?= -O2
CC      ?= cc
SAN     ?=
WERROR  ?=

PKGS_PC := luajit
LUA_CFLAGS := $(shell pkg-config --cflags luajit 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs luajit 2>/dev/null)

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN    += -Werror
endif
SANFLAGS :=
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

# -ffp-contract=off and no fast-math: the same inputs give bit-identical states on every build.
# Hosts (the CLI, the sandbox, the benchmarks, the fuzzer) see the public API only
# (CFLAGS_HOST: runtime/include); the library and its unit tests see runtime/src too. stb's
# headers are system headers: the warnings of their implementations are not ours to fix.
CFLAGS_HOST := -std=c11 $(OPT) -g $(WARN) -ffp-contract=off -fno-fast-math -D_GNU_SOURCE \
               -Iruntime/include -isystem /usr/include/stb $(LUA_CFLAGS) $(SANFLAGS) $(CFLAGS)
CFLAGS_ALL  := $(CFLAGS_HOST) -Iruntime/src
LDLIBS_ALL := $(LUA_LIBS) -lm -pthread $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(wildcard runtime/src/*/*.c)
LIB_OBJ  := $(patsubst runtime/src/%.c,$(BUILD)/obj/lib/%.o,$(LIB_SRC))
LIB      := $(BUILD)/libgait.a

CLI_SRC  := $(wildcard runtime/cli/*.c)
CLI_OBJ  := $(patsubst runtime/cli/%.c,$(BUILD)/obj/cli/%.o,$(CLI_SRC))
CLI      := $(BUILD)/gait
CLI_LIBS := $(shell pkg-config --libs assimp 2>/dev/null)

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
CHECK_OBJ := $(BUILD)/obj/tests/check.o

BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

-include runtime/sandbox/sandbox.mk

.PHONY: all test asan bench run deps clean help unit fuzz valgrind install uninstall shared examples \
        pending walkers
# keep intermediate objects: a second `make test` should not rebuild them
.SECONDARY:
all: $(LIB) $(if $(CLI_SRC),$(CLI)) $(SANDBOX_TARGET)

help:
	@sed -n '2,18p' Makefile

$(BUILD)/obj/lib/%.o: runtime/src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
$(BUILD)/obj/cli/%.o: runtime/cli/%.c | $(BUILD)/obj/cli
	$(CC) $(CFLAGS_HOST) -MMD -MP -c $< -o $@
$(BUILD)/obj/tests/%.o: tests/unit/%.c | $(BUILD)/obj/tests
	$(CC) $(CFLAGS_ALL) -Itests/unit -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(CLI_OBJ) $(LIB) -rdynamic $(CLI_LIBS) $(LDLIBS_ALL) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(CHECK_OBJ) $(LIB) | $(BUILD)/tests
	$(CC) $< $(CHECK_OBJ) $(LIB) $(LDLIBS_ALL) -o $@

# collide: the level importer's test also links the host-side importer and assimp
$(BUILD)/tests/test_collide_level: $(BUILD)/obj/tests/test_collide_level.o $(BUILD)/obj/cli/level.o $(CHECK_OBJ) $(LIB) | $(BUILD)/tests
	$(CC) $^ $(CLI_LIBS) $(LDLIBS_ALL) -o $@

# The benchmark scenes' generators are the runner's (runtime/cli/scene_*.h: `gait bench` builds
# the same scenes), shared with the benchmark programs.
$(BUILD)/bench/%: tests/bench/%.c $(wildcard tests/bench/*.h) $(wildcard runtime/cli/scene_*.h) $(LIB) | $(BUILD)/bench
	$(CC) $(CFLAGS_HOST) -Itests/unit -Iruntime/cli $< $(LIB) $(LDLIBS_ALL) -o $@

$(BUILD)/obj/lib $(BUILD)/obj/cli $(BUILD)/obj/tests $(BUILD)/tests $(BUILD)/bench:
	@mkdir -p $@

unit: $(UNIT_BIN)

# The body's fuzzer (tests/fuzz/fuzz_body.c, its own main). Built as a test program, so `make test`
# runs it: FUZZ_SECONDS of random worlds (default 3), as long again with the liveness invariants
# (generator 2's worlds), then every tests/replays/*.replay.
# `make fuzz SECONDS=N` is a long run with a progress line every 5 s; failures are minimised and
# saved as replays under build/fuzz-failures/.
FUZZ_BIN := $(BUILD)/tests/test_fuzz_body
SECONDS  ?= 60
$(BUILD)/obj/tests/fuzz_body.o: tests/fuzz/fuzz_body.c | $(BUILD)/obj/tests
	$(CC) $(CFLAGS_HOST) -MMD -MP -c $< -o $@
$(FUZZ_BIN): $(BUILD)/obj/tests/fuzz_body.o $(LIB) | $(BUILD)/tests
	$(CC) $< $(LIB) $(LDLIBS_ALL) -o $@

fuzz: $(FUZZ_BIN)
	$(FUZZ_BIN) --seconds $(SECONDS)

# The walkers' survey (tests/fuzz/walkers.c): many bodies over whole runs on a level-like scene,
# counting what players notice (flicker, bodies hung in the air, stuck walkers). Prints counts;
# not a test. `make walkers` runs it with its defaults (1000 walkers, 20 s, both scenes).
WALKERS_BIN := $(BUILD)/fuzz/walkers
$(BUILD)/obj/tests/walkers.o: tests/fuzz/walkers.c | $(BUILD)/obj/tests
	$(CC) $(CFLAGS_HOST) -Iruntime/cli -MMD -MP -c $< -o $@
$(WALKERS_BIN): $(BUILD)/obj/tests/walkers.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $< $(LIB) $(LDLIBS_ALL) -o $@

walkers: $(WALKERS_BIN)
	$(WALKERS_BIN)

# Known bugs not fixed yet (tests/pending/README.md): Lua scenarios, C tests built like the unit
# tests, fuzzer replays under the liveness invariants. Each fails until its fix lands, then moves
# to tests/scenarios/, tests/unit/ or tests/replays/. Not part of make test: every commit stays
# green. Prints a line per test and "N passed, N failed"; a pass is a test ready to move.
PENDING_SRC := $(wildcard tests/pending/test_*.c)
PENDING_BIN := $(patsubst tests/pending/%.c,$(BUILD)/pending/%,$(PENDING_SRC))
$(BUILD)/obj/pending/%.o: tests/pending/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -MMD -MP -c $< -o $@
$(BUILD)/pending/%: $(BUILD)/obj/pending/%.o $(CHECK_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $< $(CHECK_OBJ) $(LIB) $(LDLIBS_ALL) -o $@

pending: all $(PENDING_BIN) $(FUZZ_BIN)
	@BUILD=$(BUILD) sh tests/pending/run.sh

# The core C unit tests under valgrind memcheck: no invalid access, no jump on uninitialised
# memory, no definite or indirect leak (exit 1 otherwise; each program's log in test-logs/).
# Not the GL sandbox (Mesa's own leaks); not test_collide_edges / test_collide_brute (27 s and
# 54 s under valgrind: brute-force cross-checks of the queries test_collide already runs here).
# The fuzzer runs its figures, 2 s of random worlds and its replays under it too.
# `make -j2 valgrind` runs two at a time.
VALGRIND_TESTS := test_anim test_bad_input test_body test_body_mover test_body_traverse \
                  test_camera test_clock test_collide test_collide_level test_collide_merge test_gates test_golden test_locomotion test_motion test_schema \
                  test_replay test_script test_snapshot test_stamina test_traverse \
                  test_traverse_action test_fuzz_body test_layout test_snapshot_forged \
                  test_replay_forged
VALGRIND := valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
            --error-exitcode=1 --suppressions=tests/valgrind.supp

valgrind: $(addprefix valgrind-,$(VALGRIND_TESTS))
	@echo "valgrind: $(words $(VALGRIND_TESTS)) core test programs clean"

valgrind-%: $(BUILD)/tests/% $(CLI)
	@mkdir -p $(BUILD)/test-logs
	@FUZZ_SECONDS=2 $(VALGRIND) $< >$(BUILD)/test-logs/valgrind-$*.log 2>&1 || \
	    { echo "valgrind $*: errors or leaks (or a failing test):"; \
	      grep -E '^==|FAIL' $(BUILD)/test-logs/valgrind-$*.log | head -n 40; exit 1; }
	@echo "valgrind $*: clean"

# Every test program prints one closing line "N passed, N failed"; tests/run.sh sums them into one.
test: all $(UNIT_BIN) $(FUZZ_BIN)
	@BUILD=$(BUILD) SAN=$(SAN) sh tests/run.sh

asan:
	$(MAKE) BUILD=build/asan SAN=1 OPT=-O1 test

bench: all $(BENCH_BIN)
	@BUILD=$(BUILD) sh scripts/bench.sh

run: all
	@BUILD=$(BUILD) sh scripts/run.sh

deps:
	@sh scripts/deps.sh

# ---- install: the library as an engine takes it ---------------------------------------------
# The version lives in one place, gait.h (GAIT_VERSION_MAJOR/MINOR/PATCH); the soname, gait.pc,
# `gait --version` and gait.version in Lua all read it from there. While the major version is 0
# every minor release may break the ABI, so the soname carries MAJOR.MINOR (libgait.so.0.1);
# from 1.0 on, MAJOR alone.
version_part = $(shell sed -n 's/^\#define GAIT_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' runtime/include/gait/gait.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION_MINOR := $(call version_part,MINOR)
VERSION_PATCH := $(call version_part,PATCH)
VERSION       := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
SOVERSION     := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))
SONAME        := libgait.so.$(SOVERSION)

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share/gait
PCDIR      ?= $(LIBDIR)/pkgconfig

# The shared library is built from its own position-independent objects, so the static library
# and the runner keep their non-PIC code (and the benchmarks their figures). Only the public
# gait_* names are exported (runtime/gait.map); the library's internal gait__* stay inside.
PIC_OBJ := $(patsubst runtime/src/%.c,$(BUILD)/obj/pic/%.o,$(LIB_SRC))
SHLIB   := $(BUILD)/libgait.so.$(VERSION)
$(BUILD)/obj/pic/%.o: runtime/src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -MMD -MP -c $< -o $@
$(SHLIB): $(PIC_OBJ) runtime/gait.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,runtime/gait.map -Wl,-z,defs \
	    $(PIC_OBJ) $(LDLIBS_ALL) -o $@
shared: $(SHLIB)

# gait.pc names the install's own paths: made anew at each install (PREFIX may differ).
$(BUILD)/gait.pc: runtime/gait.pc.in runtime/include/gait/gait.h FORCE
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@DATADIR@|$(DATADIR)|; s|@VERSION@|$(VERSION)|' $< >$@
.PHONY: FORCE
FORCE:

HEADERS   := $(wildcard runtime/include/gait/*.h)
LUA_FILES := $(shell find lua -name '*.lua' 2>/dev/null | sort)
SHIP_SCRIPTS := $(wildcard scripts/tuning/*.lua scripts/kits/*.lua scripts/worlds/*.lua scripts/worlds/*.png \
                             scripts/demo.lua scripts/controls.lua)

install: $(LIB) $(SHLIB) $(CLI) $(BUILD)/gait.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(INCLUDEDIR)/gait
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libgait.a
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/libgait.so.$(VERSION)
	ln -sf libgait.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libgait.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/gait/
	install -m 644 $(BUILD)/gait.pc $(DESTDIR)$(PCDIR)/gait.pc
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/gait
	for f in $(LUA_FILES) $(SHIP_SCRIPTS); do \
	    install -D -m 644 $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done
	@echo "install: gait $(VERSION) under $(DESTDIR)$(PREFIX) (soname $(SONAME))"

# Removes exactly what install put there, then the folders it made when they are left empty.
uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libgait.a $(DESTDIR)$(LIBDIR)/libgait.so.$(VERSION) \
	      $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libgait.so $(DESTDIR)$(PCDIR)/gait.pc \
	      $(DESTDIR)$(BINDIR)/gait
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/gait/,$(notdir $(HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/,$(LUA_FILES) $(SHIP_SCRIPTS))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/gait 2>/dev/null
	-cd $(DESTDIR)$(DATADIR) 2>/dev/null && find . -depth -type d -empty -delete 2>/dev/null
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null
	@echo "uninstall: gait $(VERSION) removed from $(DESTDIR)$(PREFIX)"

# The examples, built as any engine would build them: against the installed headers and library,
# through `pkg-config --cflags --libs gait` (PKG_CONFIG_SYSROOT_DIR points into DESTDIR).
EXAMPLES_SRC := $(wildcard examples/*.c)
EXAMPLES_OUT ?= $(BUILD)/examples
examples:
	@BUILD=$(BUILD) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) OUT=$(EXAMPLES_OUT) sh examples/build.sh

clean:
	rm -rf build

-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d)
