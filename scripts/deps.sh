#!/bin/sh
# Installs the Debian packages gait needs, only when something is missing.
# Run as root, or as a user with sudo. Non-interactive.
set -eu
PKGS="build-essential pkg-config libluajit-5.1-dev luajit libcglm-dev libstb-dev libglfw3-dev \
python3-glad libassimp-dev libimgui-dev xvfb xauth x11-utils xdotool imagemagick libgl1-mesa-dri libegl1 \
valgrind"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# pkg-config is the build's own view: every module it needs must answer too.
if command -v pkg-config >/dev/null 2>&1; then
    for m in luajit glfw3 assimp imgui; do
        pkg-config --exists "$m" || missing="$missing (pkg-config:$m)"
    done
fi
if [ -z "$missing" ]; then
    echo "deps: all packages present"
    exit 0
fi
echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $PKGS
