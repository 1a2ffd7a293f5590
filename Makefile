# gait — plain GNU Makefile. `make help` lists the targets.
#
#   make            library build/libgait.a and the hosts (build/gait, build/gait-sandbox when GLFW is there)
#   make test       unit tests (C) + scenario tests (Lua, headless) + e2e when a display can be made
#   make asan       the same tests under AddressSanitizer + UBSan, no recover
#   make bench      benchmark programs, side by side with the peers where they exist
#   make run        the sandbox on the default world (headless demo when there is no display)
#   make deps       install missing Debian packages (apt-get; sudo only when not root)
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
CFLAGS_ALL := -std=c11 $(OPT) -g $(WARN) -ffp-contract=off -fno-fast-math -D_GNU_SOURCE \
              -Iruntime/include -Iruntime/src -isystem /usr/include/stb $(LUA_CFLAGS) $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL := $(LUA_LIBS) -lm $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(wildcard runtime/src/*.c)
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

.PHONY: all test asan bench run deps clean help unit
# keep intermediate objects: a second `make test` should not rebuild them
.SECONDARY:
all: $(LIB) $(if $(CLI_SRC),$(CLI)) $(SANDBOX_TARGET)

help:
	@sed -n '2,14p' Makefile

$(BUILD)/obj/lib/%.o: runtime/src/%.c | $(BUILD)/obj/lib
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
$(BUILD)/obj/cli/%.o: runtime/cli/%.c | $(BUILD)/obj/cli
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
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

$(BUILD)/bench/%: tests/bench/%.c $(LIB) | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itests/unit $< $(LIB) $(LDLIBS_ALL) -o $@

$(BUILD)/obj/lib $(BUILD)/obj/cli $(BUILD)/obj/tests $(BUILD)/tests $(BUILD)/bench:
	@mkdir -p $@

unit: $(UNIT_BIN)

# Every test program prints one closing line "N passed, N failed"; tests/run.sh sums them into one.
test: all $(UNIT_BIN)
	@BUILD=$(BUILD) SAN=$(SAN) sh tests/run.sh

asan:
	$(MAKE) BUILD=build/asan SAN=1 OPT=-O1 test

bench: all $(BENCH_BIN)
	@BUILD=$(BUILD) sh scripts/bench.sh

run: all
	@BUILD=$(BUILD) sh scripts/run.sh

deps:
	@sh scripts/deps.sh

clean:
	rm -rf build

-include $(wildcard $(BUILD)/obj/*/*.d)
