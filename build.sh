#!/usr/bin/env bash
# spvbridge build driver: installs missing Debian packages, configures, builds,
# then runs the demo or every test.
#   ./build.sh [demo|test|build]   (default: build)
#   BUILD_TYPE=Debug ./build.sh test
#   BUILD_TYPE=Sanitize ./build.sh test   # ASan + UBSan (clang-22), with the fuzzers
# `test` also builds the libFuzzer targets in the Sanitize build
# (build-sanitize) and runs each for a short time (FUZZ=0 skips them).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
ACTION=${1:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
SANITIZE_DIR=${SANITIZE_DIR:-$ROOT/build-sanitize}
if [ "$BUILD_TYPE" = Sanitize ]; then
  BUILD_DIR=${BUILD_DIR:-$SANITIZE_DIR}
else
  BUILD_DIR=${BUILD_DIR:-$ROOT/build}
fi
JOBS=${JOBS:-$(nproc)}
# The Python module is built for, and its tests run with, the interpreter
# whose packages (numpy, pytest) this script installs.
PYTHON=${PYTHON:-/usr/bin/python3}
FUZZ=${FUZZ:-1}
# Sanitize builds: LLVM and MLIR are not instrumented, so the allocator
# poisoning their headers inline into our code would never be undone
# (allow_user_poisoning=0); and lavapipe, in-process for --compare, reads
# heap memory nothing initialized for some corpus modules (vkref's output
# changes with MALLOC_PERTURB_), so ASan's malloc fill would change its
# results (max_malloc_fill_size=0).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:max_malloc_fill_size=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

PACKAGES=(cmake ninja-build g++ python3 llvm-22-dev libmlir-22-dev mlir-22-tools
  llvm-22-tools glslang-dev glslang-tools spirv-tools spirv-headers
  libvulkan-dev mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
  pkg-config libxcb1-dev libxcb-shm0-dev libx11-xcb-dev xvfb
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-bad mesa-utils
  libvkfft-dev libfftw3-dev
  libboost-context-dev libgtest-dev
  clang-22 libclang-rt-22-dev clang-format-22 clang-tidy-22 libpng-dev gdb lldb-22
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest)

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

# The Sanitize build: clang-22, AddressSanitizer, UndefinedBehaviorSanitizer
# and the libFuzzer targets.
configure_sanitize() {
  if [ ! -f "$SANITIZE_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$SANITIZE_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DSPVB_FUZZ=ON \
      -DPython3_EXECUTABLE="$PYTHON"
  fi
}

configure_and_build() {
  if [ "$BUILD_TYPE" = Sanitize ]; then
    SANITIZE_DIR=$BUILD_DIR configure_sanitize
  elif [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
      -DPython3_EXECUTABLE="$PYTHON"
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
  fuzz_here=0
  if [ "$BUILD_TYPE" != Sanitize ] && [ "$FUZZ" != 0 ]; then
    configure_sanitize
    cmake --build "$SANITIZE_DIR" -j "$JOBS" --target fuzzers
    fuzz_here=1
  fi
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
  if [ "$fuzz_here" = 1 ]; then
    ctest --test-dir "$SANITIZE_DIR" --output-on-failure -j "$JOBS" -L fuzz
  fi
  ;;
*)
  echo "build.sh: error: unknown action '$ACTION' (expected demo, test or build)" >&2
  exit 2
  ;;
esac
