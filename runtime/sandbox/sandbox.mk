# The GLFW sandbox (included by the top Makefile). Built only where GLFW 3 is installed; the
# OpenGL 3.3 core loader is generated at build time into $(BUILD)/glad (never committed) by
# Debian's python3-glad, offline thanks to --reproducible.
#
# The sandbox is a host like any engine: it links $(LIB) and includes runtime/include only.
# The one optional part is the tuning panel (Dear ImGui, when its package is installed).

GLAD ?= /usr/bin/glad

ifeq ($(shell pkg-config --exists glfw3 && echo yes),yes)
ifeq ($(wildcard $(GLAD)),)
$(warning sandbox: $(GLAD) (python3-glad) is missing: the GLFW sandbox is not built (make deps))
else

# This fragment is included before the top Makefile's first rule: keep `make` meaning `make all`.
.DEFAULT_GOAL := all

SANDBOX_TARGET := $(BUILD)/gait-sandbox
SANDBOX_SRC    := $(wildcard runtime/sandbox/*.c)
SANDBOX_OBJ    := $(patsubst runtime/sandbox/%.c,$(BUILD)/obj/sandbox/%.o,$(SANDBOX_SRC))
SANDBOX_GLAD   := $(BUILD)/glad
SANDBOX_GLAD_H := $(SANDBOX_GLAD)/include/glad/gl.h
SANDBOX_GLAD_O := $(BUILD)/obj/sandbox/glad_gl.o

SANDBOX_DEFS :=

# The tuning panel (panel.cpp): Dear ImGui from Debian's libimgui-dev, whose libimgui.a holds
# the GLFW and OpenGL3 backends too. Compiled as C++ into the sandbox host only; without the
# package the sandbox builds without the panel (F2 then says so).
SANDBOX_PANEL_O :=
SANDBOX_PANEL_LIBS :=
ifeq ($(shell pkg-config --exists imgui && echo yes),yes)
SANDBOX_DEFS += -DGAIT_SANDBOX_PANEL=1
SANDBOX_PANEL_O := $(BUILD)/obj/sandbox/panel.o
SANDBOX_PANEL_LIBS := $(shell pkg-config --libs imgui) -lstdc++
else
$(warning sandbox: libimgui-dev is missing: the sandbox is built without its tuning panel (make deps))
endif
CXX ?= g++

# Rebuild the sandbox's objects when the feature switches above change.
SANDBOX_STAMP := $(BUILD)/obj/sandbox/features.txt
$(shell mkdir -p $(BUILD)/obj/sandbox && (echo '$(SANDBOX_DEFS)' | cmp -s - $(SANDBOX_STAMP) || \
        echo '$(SANDBOX_DEFS)' > $(SANDBOX_STAMP)))

SANDBOX_CFLAGS := $(CFLAGS_HOST) -I$(SANDBOX_GLAD)/include $(shell pkg-config --cflags glfw3) \
                  -Iruntime/cli $(SANDBOX_DEFS)
# glad's loader is plain generated C: same flags, no project include paths needed.
SANDBOX_LIBS   := $(shell pkg-config --libs glfw3) $(CLI_LIBS) $(LDLIBS_ALL) -ldl -lm
# Levels (--level, `level =` in world files) go through the runners' host-side importer
# (runtime/cli/level.c, assimp). Its landmarks are copied for drawing as they are added:
# scene.c wraps gait_collider_add_landmark.
SANDBOX_LEVEL_O := $(BUILD)/obj/cli/level.o
SANDBOX_LDFLAGS := -Wl,--wrap=gait_collider_add_landmark

$(SANDBOX_GLAD_H):
	@rm -rf $(SANDBOX_GLAD)
	$(GLAD) --quiet --reproducible --api gl:core=3.3 --out-path $(SANDBOX_GLAD) c

$(SANDBOX_GLAD)/src/gl.c: $(SANDBOX_GLAD_H)

$(SANDBOX_GLAD_O): $(SANDBOX_GLAD)/src/gl.c | $(BUILD)/obj/sandbox
	$(CC) $(CFLAGS_HOST) -I$(SANDBOX_GLAD)/include -c $< -o $@

$(BUILD)/obj/sandbox/%.o: runtime/sandbox/%.c $(SANDBOX_GLAD_H) $(SANDBOX_STAMP) | $(BUILD)/obj/sandbox
	$(CC) $(SANDBOX_CFLAGS) -MMD -MP -c $< -o $@

# C++ for the panel only: the project's warnings, ImGui's headers as system headers.
SANDBOX_CXXFLAGS := -std=c++11 $(OPT) -g $(filter-out -Wpedantic,$(WARN)) -ffp-contract=off \
                    -D_GNU_SOURCE -Iruntime/include -I$(SANDBOX_GLAD)/include -isystem /usr/include/stb \
                    -isystem /usr/include/imgui -isystem /usr/include/imgui/backends $(SANDBOX_DEFS) \
                    $(SANFLAGS) $(CXXFLAGS)
$(BUILD)/obj/sandbox/panel.o: runtime/sandbox/panel.cpp $(SANDBOX_GLAD_H) $(SANDBOX_STAMP) | $(BUILD)/obj/sandbox
	$(CXX) $(SANDBOX_CXXFLAGS) -MMD -MP -c $< -o $@

$(SANDBOX_TARGET): $(SANDBOX_OBJ) $(SANDBOX_PANEL_O) $(SANDBOX_GLAD_O) $(SANDBOX_LEVEL_O) $(LIB)
	$(CC) $(SANDBOX_LDFLAGS) $(SANDBOX_OBJ) $(SANDBOX_PANEL_O) $(SANDBOX_GLAD_O) $(SANDBOX_LEVEL_O) $(LIB) \
	    $(SANDBOX_PANEL_LIBS) $(SANDBOX_LIBS) -o $@

$(BUILD)/obj/sandbox:
	@mkdir -p $@

endif
endif
