#!/usr/bin/env python3
"""Differential fragment run: every corpus fragment shader drawn on our CPU
and on lavapipe.

For each fragment module ../shared/corpus compiled (COMPILE.tsv: kind
glsl-frag or spvasm-frag, result ok), asks `spv-run MODULE --reflect` for
its interface, makes up its inputs with corpus_runner.py's generators and
draws it over the whole framebuffer with

  spv-run MODULE --framebuffer 64x64:R32G32B32A32_SFLOAT --compare --json
          --repeat 1 --timeout 20 --threads 1 --target-env ENV  RESOURCES

(the generated full-screen vertex shader feeds each input Location values
that vary over the screen; see tools/spv-run/FullScreenVertexShader.h),
which compares every colour attachment texel by texel (floats within 4 ULP
or 2^-21, integers exactly, only the components the shader writes) and
every storage buffer the shader may write. Outcomes:

  agree              every attachment and storage buffer agrees
  precision          the first differences are below 1e-4 relative and all
                     agree with --ulp 256 (float rounding, as for compute)
  undefined          some value differs, and every attachment component
                     where the CPU's draw and lavapipe's differ (each drawn
                     alone, --attachment-out), and every differing storage
                     buffer, changes when the CPU draws with
                     --perturb-undefined (each result the specifications
                     leave undefined flipped, uninitialized variables and
                     unwritten outputs all ones; two plain CPU draws agree):
                     the first operation --check-undefined names is
                     reported, or none (OpUndef, an uninitialized variable,
                     an unwritten output)
  sampling           some value differs, nothing is undefined, and the draw
                     with every mipmapped image cut to its base level (no
                     level of detail to choose) agrees within the texel
                     range times 2^-subTexelPrecisionBits (lavapipe: 8
                     bits; 4/256 for texels in [-2, 2]; --abs-tolerance):
                     coordinates and filtering agree, and what remains is
                     the level of detail, which lavapipe quantizes to
                     mipmapPrecisionBits (4) and computes with the
                     approximations of rho the specification allows
                     ("Scale Factor Operation, LOD Operation and Image
                     Level(s) Selection"); counted with agree
  disagree           any other difference (the first differences are
                     reported)
  skip:REASON        not comparable: input attachments or other resources
                     the runner cannot feed (unsupported-resource), one
                     binding declared as resources no one descriptor fits
                     (aliased-binding), multisampled images (multisampled),
                     no format for an image (image-format), nothing to
                     compare (no-output), the Vulkan side refuses (lavapipe:
                     a feature the device does not report, a failing
                     pipeline creation) or crashes or hangs (lavapipe), or
                     each backend alone crashes (both-crash)
  error:KIND         ours: unsupported (our front end reports a feature it
                     does not support: "not supported", "unsupported
                     instruction"; the message is kept), reflect (the front
                     end refuses the module), compile, run (a draw error),
                     crash (a signal), timeout (the CPU's draw outlasts
                     spv-run --timeout, or the whole job the runner's)

The target environment is the one COMPILE.tsv used (corpus_runner's
target_env).

Inputs, deterministic (seeded by the module path and binding), made by
corpus_runner.resource_arguments for a 64x64 "dispatch" (the framebuffer:
extent 64x64, 4096 invocations):
  - uniform and storage buffers typed by their layout: floats multiples of
    1/256 in [-2, 2] but not 0, integers in [1, 16), uniform-block and
    push-constant integers by member name (sizes 64 or 4096, offsets 0,
    else 1), runtime arrays of 8192 elements;
  - sampled images and combined image samplers of the declared format (or
    rgba32f / rgba32i / rgba32ui by the Sampled Type), 2D 64x64 with their
    whole mip chain (7 levels: implicit-LOD sampling in a fragment shader
    has derivatives), texels as for compute; combined image samplers of
    float images --sampler linear,mipmap=linear,address=clamp-to-edge (the
    interpolated coordinates of the full-screen draw fall on texel centres
    at LOD 0; shaders that scale or offset them filter between texels and
    levels), of integer or depth images and separate samplers
    nearest,mipmap=nearest,address=clamp-to-edge;
  - push constants as for compute; spec constants keep their defaults.
Storage images are inputs only: draws compare attachments and storage
buffers.

By default the modules of the expectation file run and each outcome must
match the expected one; --all runs every fragment module. --update
rewrites the expectation file.

  fragment_runner.py --spv-run BIN --corpus DIR [--expectations FILE]
                     [--all] [--update] [--jobs N] [--timeout S]
                     [--report FILE] [--keep DIR] [MODULE...]
"""
import collections
import csv
import json
import math
import os
import re
import struct
import sys

import corpus_runner
import runner_driver
from corpus_runner import (Addresses, VULKAN_ERROR, first_error, image_format,
                           in_work_folder, output_names, resource_arguments,
                           run_spv, shown_command, skip_reason, target_env)

FRAGMENT_KINDS = {"glsl-frag", "spvasm-frag"}
WIDTH = HEIGHT = 64
FRAMEBUFFER = "%dx%d:R32G32B32A32_SFLOAT" % (WIDTH, HEIGHT)
EXTENT = [WIDTH, HEIGHT, 1]
INVOCATIONS = WIDTH * HEIGHT
ELEMENTS = 2 * INVOCATIONS
DRAW_TIMEOUT = 20
# Float images are filtered linearly between texels and mip levels (the
# full-screen draw's coordinates fall on texel centres, shaders that scale
# or offset them get weights); integer ones cannot be, and get nearest.
LINEAR_SAMPLER = "linear,mipmap=linear,address=clamp-to-edge"
NEAREST_SAMPLER = "nearest,mipmap=nearest,address=clamp-to-edge"
# spv-run --compare's default tolerance for floats.
ULP = 4
ABS_TOLERANCE = 2.0 ** -21
UNSUPPORTED = re.compile(r"not supported|unsupported instruction", re.I)


# --- corpus -----------------------------------------------------------------

def fragment_modules(corpus):
    """{out_spv: target environment} of every fragment shader compiled."""
    modules = {}
    with open(os.path.join(corpus, "COMPILE.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            spv = row["out_spv"]
            if row["kind"] in FRAGMENT_KINDS and row["result"] == "ok" and \
                    spv and os.path.exists(os.path.join(corpus, spv)):
                modules[spv] = target_env(row, os.path.join(corpus, spv))
    return modules


# --- inputs -----------------------------------------------------------------

def fragment_skip_reason(module, refl):
    """corpus_runner's reasons, except no-output: the attachments are the
    outputs (whether there are any the draw tells)."""
    skip = skip_reason(module, refl)
    if skip and skip[0] != "no-output":
        return skip
    return None


def sampler_settings(resource):
    """--sampler's SETTINGS for a sampler or combined image sampler: linear
    for float images, a LESS_OR_EQUAL comparison for depth images (the Dref
    instructions), nearest otherwise (separate samplers: nearest, their
    images unknown)."""
    image = resource.get("image")
    if image and image["depth"]:
        return NEAREST_SAMPLER + ",compare=less-or-equal"
    if image and image["component"] == "float" and not image["depth"] and \
            image_format(image)[1][0] not in ("uint", "sint"):
        return LINEAR_SAMPLER
    return NEAREST_SAMPLER


def make_inputs(module, refl, work):
    """The spv-run arguments for the module's resources."""
    addresses = Addresses(module, refl, work, ELEMENTS)
    params = (EXTENT, INVOCATIONS, 2)
    args = resource_arguments(module, refl, work, EXTENT, ELEMENTS, params,
                              addresses, sampler_settings=sampler_settings)
    return args + addresses.args


# --- running ----------------------------------------------------------------

def draw_command(args, path, env, inputs):
    return [args.spv_run, path, "--framebuffer", FRAMEBUFFER, "--compare",
            "--json", "--repeat", "1", "--timeout", str(DRAW_TIMEOUT),
            "--threads", "1", "--target-env", env] + inputs


def alone_command(cmd, backend):
    alone = [a for a in cmd if a != "--json"]
    alone[alone.index("--compare")] = "--backend=" + backend
    return alone


def classify_error(message, path):
    """The outcome of a draw that gave no comparison: (outcome, detail)."""
    text = message[len("error: "):] if message.startswith("error: ") \
        else message
    if text.startswith(path + ": "):
        text = text[len(path) + 2:]
    if "did not finish in" in message:
        return "error:timeout", text
    if VULKAN_ERROR.match(message) or "the Vulkan device" in message:
        return "skip:lavapipe", text
    if UNSUPPORTED.search(message):
        return "error:unsupported", text
    if "draw" in message:
        return "error:run", text
    return "error:compile", text


def compare(args, cmd, shown):
    """Draws on both: (outcome, detail, shown, report), the outcome agree,
    precision or differ, or a skip or error outcome."""
    return corpus_runner.compare(
        args, cmd, shown, lambda message: classify_error(message, cmd[1]),
        "no attachment and no storage buffer to compare")


def float_ordered(bits):
    """An f32's bits on a line where neighbours differ by one (denormals
    flushed, +0 = -0), as spv-run's floatsAgree."""
    if bits & 0x7f800000 == 0:
        bits &= 0x80000000
    magnitude = bits & 0x7fffffff
    return -magnitude if bits & 0x80000000 else magnitude


def floats_agree(a, b):
    """spv-run --compare's float rule (4 ULP or 2^-21, NaN = NaN)."""
    def nan(v):
        return v & 0x7f800000 == 0x7f800000 and v & 0x7fffff
    def inf(v):
        return v & 0x7fffffff == 0x7f800000
    if nan(a) or nan(b):
        return bool(nan(a) and nan(b))
    if inf(a) or inf(b):
        return a == b
    if abs(float_ordered(a) - float_ordered(b)) <= ULP:
        return True
    fa, fb = struct.unpack("<2f", struct.pack("<2I", a, b))
    return abs(fa - fb) <= ABS_TOLERANCE


def differing_components(attachment, cpu, vulkan):
    """(texel, component) where the CPU's and Vulkan's attachments
    disagree, by --compare's rule."""
    count = WIDTH * HEIGHT * 4
    a = struct.unpack("<%dI" % count, cpu)
    b = struct.unpack("<%dI" % count, vulkan)
    is_float = attachment["format"].endswith("SFLOAT")
    result = []
    for texel in range(WIDTH * HEIGHT):
        for c in range(attachment["components"]):
            i = texel * 4 + c
            if not (floats_agree(a[i], b[i]) if is_float else a[i] == b[i]):
                result.append((texel, c))
    return result


def alone_outputs(args, cmd, work, label, attachments, backend="cpu",
                  extra=()):
    """Each attachment's texels and each buffer's bytes after a draw by
    one backend alone, or None if it fails."""
    folder = os.path.join(work, "outputs-" + label)
    os.makedirs(folder, exist_ok=True)
    run = alone_command(cmd, backend) + list(extra)
    files = {}
    for attachment in attachments:
        name = "location %d" % attachment["location"]
        files[name] = os.path.join(folder, "a%d.bin" % attachment["location"])
        run += ["--attachment-out", "%d:%s" % (attachment["location"],
                                               files[name])]
    for i, name in enumerate(output_names(cmd)):
        files[name] = os.path.join(folder, "o%d.bin" % i)
        run += ["--out", "%s:%s" % (name, files[name])]
    rc, _, _ = run_spv(run, args.timeout)
    if rc != 0:
        return None
    result = {}
    for name, file in files.items():
        with open(file, "rb") as f:
            result[name] = f.read()
    return result


def buffer_name(buf):
    name = buf.get("device_buffer") or "%d:%d" % (buf["set"], buf["binding"])
    if "array_element" in buf:
        name += "[%d]" % buf["array_element"]
    return name


def find_undefined(args, cmd, work, report):
    """Whether every difference depends on undefined values: each
    attachment component where the CPU's draw and lavapipe's differ, and
    each differing storage buffer, changes when the CPU draws with
    --perturb-undefined (and two plain CPU draws agree). Returns the
    explanation, or None."""
    attachments = report["attachments"]
    plain = alone_outputs(args, cmd, work, "plain", attachments)
    again = alone_outputs(args, cmd, work, "again", attachments)
    perturbed = alone_outputs(args, cmd, work, "perturbed", attachments,
                              extra=["--perturb-undefined"])
    vulkan = alone_outputs(args, cmd, work, "vulkan", attachments, "vulkan")
    if None in (plain, again, perturbed, vulkan) or plain != again:
        return None
    explained = []
    for buf in report["compare"]["buffers"]:
        if not buf["differing"]:
            continue
        name = buffer_name(buf)
        if buf.get("image"):
            attachment = next(a for a in attachments
                              if "location %d" % a["location"] == name)
            differing = differing_components(attachment, plain[name],
                                             vulkan[name])
            if not differing:
                return None
            a = struct.unpack("<%dI" % (len(plain[name]) // 4), plain[name])
            b = struct.unpack("<%dI" % (len(plain[name]) // 4),
                              perturbed[name])
            if any(a[t * 4 + c] == b[t * 4 + c] for t, c in differing):
                return None
            explained.append("%s: %d components" % (name, len(differing)))
        else:
            if name not in plain or plain[name] == perturbed[name]:
                return None
            explained.append(name)
    rc, _, err = run_spv(alone_command(cmd, "cpu") + ["--check-undefined"],
                         args.timeout)
    message = first_error(err) if rc == 1 else ""
    what = message[len("error: "):] if message.startswith("error: ") else \
        "no operation is reported: OpUndef, an uninitialized variable or " \
        "an unwritten output"
    return "%s; with --perturb-undefined the CPU's %s change" % (
        what, ", ".join(explained))


def run_module(args, module, env):
    path = os.path.join(args.corpus, module)
    reflect = [args.spv_run, path, "--reflect", "--target-env", env]
    rc, out, err = run_spv(reflect, args.timeout)
    if rc != 0:
        if rc is None:
            return "error:reflect", "timeout", []
        outcome, detail = classify_error(first_error(err), path)
        if outcome != "error:unsupported":
            outcome = "error:reflect"
        return outcome, detail, []
    refl = json.loads(out)
    skip = fragment_skip_reason(module, refl)
    if skip:
        return "skip:" + skip[0], skip[1], []
    return in_work_folder(args, module, lambda work: run_job(
        args, module, env, path, refl, work))


def run_job(args, module, env, path, refl, work):
    cmd = draw_command(args, path, env, make_inputs(module, refl, work))
    shown = shown_command(cmd, path)
    outcome, detail, shown, report = compare(args, cmd, shown)
    if outcome != "differ":
        return outcome, detail, shown
    why = find_undefined(args, cmd, work, report)
    if why:
        shown = [a if a != "--compare" else "--check-undefined"
                 for a in shown if a != "--json"]
        return "undefined", "%s; %s" % (why, detail), shown
    base = base_level_command(cmd, work)
    if base:
        base += ["--abs-tolerance", str(SUBTEXEL_TOLERANCE)]
        outcome, _, _, _ = compare(args, base, shown_command(base, path))
        if outcome in ("agree", "precision"):
            return "sampling", "base levels only agree within %g; %s" % (
                SUBTEXEL_TOLERANCE, detail), shown
    return "disagree", detail, shown


# The generated texels span [-2, 2]; lavapipe filters with 8 sub-texel bits.
SUBTEXEL_TOLERANCE = 4.0 / 256


def base_level_command(cmd, work):
    """The command with each --image of several levels cut to its base
    level (its first texels: levels follow one another), or None."""
    result, changed = [], False
    for i, arg in enumerate(cmd):
        match = re.match(r"^(\d+:\d+(?:\[\d+\])?:\w+:)([\dx]+)((?:,\w+=\d+)*)"
                         r":(.+)$", arg) if i and cmd[i - 1] == "--image" \
            else None
        if not match or "levels=" not in match.group(3):
            result.append(arg)
            continue
        extent = [int(e) for e in match.group(2).split("x")]
        options = dict(o.split("=") for o in match.group(3)[1:].split(","))
        levels = int(options.pop("levels"))
        units = sum(math.prod(max(1, e >> level) for e in extent)
                    for level in range(levels))
        with open(match.group(4), "rb") as f:
            data = f.read()
        base = len(data) * math.prod(extent) // units
        path = match.group(4) + ".base"
        with open(path, "wb") as f:
            f.write(data[:base])
        rest = "".join(",%s=%s" % kv for kv in options.items())
        result.append(match.group(1) + match.group(2) + rest + ":" + path)
        changed = True
    return result if changed else None


# --- main -------------------------------------------------------------------

def summarize(results):
    """Counts the outcomes, and the agreement over the defined ones."""
    counts = collections.Counter(r[0] for r in results.values())
    print("  " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    defined = counts["agree"] + counts["precision"] + counts["sampling"]
    if defined + counts["disagree"]:
        print("  agreement over the modules whose result is defined: "
              "%d/%d = %.1f%% ((agree + precision + sampling) / (agree "
              "+ precision + sampling + disagree))" % (
                  defined, defined + counts["disagree"],
                  100.0 * defined / (defined + counts["disagree"])))


def main():
    return runner_driver.main(
        __doc__, "fragment_runner.py", "differential fragment run",
        all_help="every fragment module, not just the expectation file's",
        modules=lambda args: fragment_modules(args.corpus),
        not_available="%s is not a compiled fragment module of the corpus",
        run_module=run_module, summarize=summarize,
        listed=lambda outcome: outcome != "agree",
        updated=lambda expected, results, args: runner_driver.merged(
            expected, results),
        report_header="# module\toutcome\tdetail\tcommand")


if __name__ == "__main__":
    sys.exit(main())
