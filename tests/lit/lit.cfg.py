# -*- Python -*-
import os
import shutil
import sys
import lit.formats

config.name = "spvbridge"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".spvasm", ".comp", ".test", ".ll"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spvb_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.spvb_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%corpus", config.spvb_corpus_dir))
# Tests of ../shared/corpus say `REQUIRES: corpus`: a clone without it shows
# them as unsupported rather than failed.
if os.path.isdir(config.spvb_corpus_dir):
    config.available_features.add("corpus")
if shutil.which("clang-format-22"):
    config.available_features.add("clang-format")
# The kernel ABI version, from the header that defines it, so that kernel-info
# checks read `[[ABI]]` (FileCheck -DABI=%spvb_abi) and survive a bump.
with open(os.path.join(config.test_source_root, "..", "..", "cpu_runtime",
                       "include", "spvbridge", "cpu_runtime",
                       "kernel_abi.h")) as header:
    for line in header:
        if line.startswith("#define SPVB_ABI_VERSION "):
            config.substitutions.append(("%spvb_abi", line.split()[2]))
# spv-run keeps compiled kernels in a cache of this run's own: a test's
# first compilation of a kernel stores it and later tests with the same
# kernel and flags load it, so both paths run and nothing from another
# build or run is used.
kernel_cache = os.path.join(config.test_exec_root, "kernel-cache")
shutil.rmtree(kernel_cache, ignore_errors=True)
config.environment["SPVBRIDGE_KERNEL_CACHE"] = kernel_cache
# The disassembly listings of --debug runs on modules without debug
# information, likewise kept out of the user's cache folder.
listings = os.path.join(config.test_exec_root, "listings")
shutil.rmtree(listings, ignore_errors=True)
config.environment["SPVBRIDGE_LISTING_DIR"] = listings
# spv-run --backend=vulkan / --compare run on Mesa's lavapipe only, whatever
# other drivers are installed; without it those tests fail ("no Vulkan
# device"), they do not pass.
config.environment["VK_ICD_FILENAMES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
config.substitutions.append(("%lvp_icd_json", config.environment["VK_ICD_FILENAMES"]))
# Our own driver's manifest (icd/), for real Vulkan clients run on it.
config.substitutions.append(
    ("%spvb_icd_json", os.path.join(config.spvb_obj_root, "icd", "spvb_icd.json")))
# The ICD as the loader's only driver, with the Khronos validation layer on:
# every ICD test runs under it and checks that it reports nothing.
config.substitutions.append(
    ("%spvb_icd_env",
     "VK_ICD_FILENAMES={0} VK_DRIVER_FILES={0} "
     "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation".format(
         os.path.join(config.spvb_obj_root, "icd", "spvb_icd.json"))))
# FileCheck's options that fail a check on any validation-layer message.
config.substitutions.append(
    ("%no_validation_messages",
     '--implicit-check-not=VUID --implicit-check-not="Validation Error"'))
# A run that loses the device: the layer's "in use" messages for the
# client's cleanup are dropped (a layer bug, see the script); FileCheck with
# %no_validation_messages then fails on any other.
config.substitutions.append(
    ("%drop_in_use_after_loss",
     "{0} {1}".format(sys.executable,
                      os.path.join(config.test_source_root, "ICD", "Inputs",
                                   "drop-in-use-after-loss.py"))))
config.substitutions.append(("%spvb_icd_dir", os.path.join(config.spvb_obj_root, "icd")))
config.substitutions.append(("%spvb_tests_dir", os.path.join(config.spvb_obj_root, "tests")))
# Debugger sessions (Debugging/) need gdb and lldb-22, which build.sh
# installs, and a machine that lets them trace a process (containers may
# forbid ptrace): without either, their tests are unsupported, not failed.
import subprocess


def debugger_runs(command, success):
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return success in result.stdout + result.stderr


if shutil.which("gdb") and debugger_runs(
        ["gdb", "-batch", "-nx", "-ex", "run", "--args", "/bin/true"],
        "exited normally"):
    config.available_features.add("gdb")
if shutil.which("lldb-22") and debugger_runs(
        ["lldb-22", "--batch", "--no-lldbinit", "-o", "run", "--", "/bin/true"],
        "exited with status = 0"):
    config.available_features.add("lldb")
# VkFFT's check (tests/icd/), built when libvkfft-dev and FFTW are there.
if os.path.exists(os.path.join(config.spvb_obj_root, "tests", "icd",
                               "VkFFTCheck")):
    config.available_features.add("vkfft")
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%spv_run", os.path.join(config.spvb_tools_dir, "spv-run")))
# Windowed clients (vkcube) run on an X server of their own, Xvfb, which
# build.sh installs; a layer of the tests captures what their window shows
# (tests/icd/WindowCaptureLayer.cpp), the validation layer below it.
if shutil.which("Xvfb") and shutil.which("vkcube"):
    config.available_features.add("xvfb")
config.substitutions.append(
    ("%under_xvfb", "{0} {1}".format(
        sys.executable, os.path.join(config.test_source_root, "ICD", "Inputs",
                                     "under-xvfb.py"))))
config.substitutions.append(
    ("%window_capture_layers",
     "VK_LAYER_PATH={0}:/usr/share/vulkan/explicit_layer.d "
     "VK_INSTANCE_LAYERS=VK_LAYER_SPVB_window_capture:"
     "VK_LAYER_KHRONOS_validation".format(
         os.path.join(config.spvb_obj_root, "tests", "icd", "layers"))))
# GStreamer's Vulkan elements (gstreamer1.0-plugins-bad) and OpenGL through
# Mesa's zink (mesa-utils' glxinfo and glxgears), real clients of the ICD
# that build.sh installs.
if shutil.which("gst-launch-1.0") and shutil.which("gst-inspect-1.0"):
    try:
        if subprocess.run(["gst-inspect-1.0", "vulkanupload"],
                          capture_output=True, timeout=60).returncode == 0:
            config.available_features.add("gstreamer-vulkan")
    except subprocess.TimeoutExpired:
        pass
if (shutil.which("glxinfo") and shutil.which("glxgears") and
        os.path.exists("/usr/lib/x86_64-linux-gnu/dri/zink_dri.so")):
    config.available_features.add("zink")
