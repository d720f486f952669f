#!/usr/bin/env bash
# spvbridge build driver: installs missing Debian packages, configures, builds,
# then runs the demo or every test.
#   ./build.sh [demo|test|build]   (default: build)
#   BUILD_TYPE=Debug ./build.sh test
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
ACTION=${1:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}

PACKAGES=(cmake ninja-build g++ python3 llvm-22-dev libmlir-22-dev mlir-22-tools
  llvm-22-tools glslang-dev glslang-tools spirv-tools spirv-headers
  libvulkan-dev mesa-vulkan-drivers libboost-context-dev libgtest-dev)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
  fi
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

case "$ACTION" in
build)
  install_missing
  configure_and_build
  ;;
demo)
  install_missing
  configure_and_build
  "$ROOT/tools/demo.sh" "$BUILD_DIR"
  ;;
test)
  install_missing
  configure_and_build
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
  ;;
*)
  echo "build.sh: error: unknown action '$ACTION' (expected demo, test or build)" >&2
  exit 2
  ;;
esac
