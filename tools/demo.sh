#!/usr/bin/env bash
# The demo: compile the bundled saxpy shader to LLVM IR on the kernel ABI,
# show what came out, and run it with spv-run. Usage: tools/demo.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$build/demo
mkdir -p "$out"
shader=$root/shaders/saxpy.comp
llvm=/usr/lib/llvm-22/bin

echo "== spv-to-ll $shader -o $out/saxpy.ll"
"$build/tools/spv-to-ll" "$shader" -o "$out/saxpy.ll"
"$build/tools/spv-to-ll" "$shader" --emit=obj -o "$out/saxpy.o"
"$llvm/opt" -passes=verify -disable-output "$out/saxpy.ll"
echo "LLVM IR written to $out/saxpy.ll (verified by opt), object to $out/saxpy.o"
echo
echo "== the kernel ABI entry points it exports (llvm-nm):"
"$llvm/llvm-nm" --defined-only "$out/saxpy.o"
echo
echo "== spvb_main_info = {abi, workgroup size x y z, shared bytes, private bytes,"
echo "                     bindings, uses barriers}:"
grep '^@spvb_main_info' "$out/saxpy.ll"
echo
echo "== the invocation body (y[i] = a * x[i] + y[i]):"
sed -n '/^define void @spvb_main_invocation/,/^}/p' "$out/saxpy.ll"
echo
echo "== reduce.comp with workgroup size 128 (--spec 0:u32:128):"
"$build/tools/spv-to-ll" "$root/shaders/reduce.comp" --spec 0:u32:128 \
  -o "$out/reduce.ll"
grep '^@spvb_main_info' "$out/reduce.ll"
echo "(workgroup size 128, 512 bytes of shared memory, barriers used)"
echo
echo "== spv-run: y = 2.5 * x + y with x = 1..8 and y = 10, 20, ..., 80"
"$build/tools/spv-run" "$shader" --groups 1 1 1 \
  --buffer 0:0:storage:f32:1,2,3,4,5,6,7,8 \
  --buffer 0:1:storage:f32:10,20,30,40,50,60,70,80 \
  --push f32:2.5,u32:8 --print 0:1:f32 --repeat 1
echo "(expected: 12.5, 25, 37.5, 50, 62.5, 75, 87.5, 100)"
