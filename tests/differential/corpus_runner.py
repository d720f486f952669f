#!/usr/bin/env python3
"""Differential corpus runner: every corpus module on our CPU and on lavapipe.

For each compute module of ../shared/corpus that our spv-to-ll compiles
(tests/corpus/pass-list.txt), asks `spv-run MODULE --reflect` for its
interface, makes up inputs, runs `spv-run MODULE --compare --robust --json`
(the CPU runtime against the system's Vulkan driver, every storage buffer
compared) and sorts the module into one outcome:

  agree              every storage buffer, storage image, storage texel
                     buffer and device buffer the shader may write agrees
                     (floats within 4 ULP)
  precision          the first differences are below 1e-4 relative and all
                     agree within PRECISION_ULP (256) ULP: rounding
                     after long chains of float operations, beyond what a
                     per-element bound can follow (see docs/vulkan-backend.md)
  disagree           some scalar or texel differs (the first differences
                     are reported)
  race               some value differs, and the CPU alone with
                     --check-races finds a data race (two unordered
                     accesses of different invocations, one a write, not
                     both atomic), which leaves the result undefined: the
                     race is reported before the differences
  undefined          some value differs, no race, and every differing
                     output depends on results the specifications leave
                     undefined: the CPU's own output changes there with
                     --perturb-undefined (two plain runs agree); the first
                     operation --check-undefined reports is given, or none
                     (OpUndef, an uninitialized variable or Workgroup
                     memory)
  schedule           some value differs, no race, nothing undefined, and
                     every differing output depends on the order in which
                     workgroups run: the CPU's own output changes there
                     with --workgroup-order=reverse (e.g. slots taken from
                     an atomic counter; every order is valid)
  agree-rerun        race, undefined or schedule at first, and a rerun with the
                     first variant of the job the CPU proves defined (no
                     race, nothing --check-undefined reports, no output
                     that --perturb-undefined changes) agrees. The
                     variants: for a race or a schedule one workgroup, then local-size
                     spec constants 1 too; for undefined results the
                     generated values made positive (the same draws), then
                     every integer 1 too. A defined rerun that differs is
                     `disagree` (or `precision`), naming the first launch
  skip:REASON        not comparable yet: input attachments or
                     acceleration structures (unsupported-resource),
                     one binding declared as
                     resources no one descriptor fits, e.g. a sampled and
                     a storage image or two texel formats (aliased-binding),
                     multisampled images (multisampled), an image of a
                     component type no format fits (image-format), nothing
                     writable to compare and no buffer device addresses
                     (no-output), a kernel lavapipe cannot run meaningfully
                     (kernel_profiles.py, e.g. subgroup-size), the Vulkan
                     side refuses (a feature the device does not report, a
                     failing vkCreateComputePipelines) or crashes (lavapipe),
                     lavapipe alone gives no result in the time limit
                     (lavapipe-timeout; see runner_driver.py), or each backend
                     alone crashes (both-crash: undefined behaviour such as
                     an invalid buffer device address, or a bug on both
                     sides)
  error:KIND         ours: reflect (front end refuses the module), compile,
                     run (a dispatch error), crash (signal), timeout (the
                     CPU's dispatch outlasts spv-run --timeout, a third of
                     the runner's, or the whole job the runner's)

The target environment is the one COMPILE.tsv used for the module (the last
`--target-env` of its attempt; GLSL without one: vulkan1.2; prebuilt .spv:
vulkan1.3); a module whose SPIR-V version needs more gets vulkan1.3.

Inputs, deterministic (the PRNG is seeded by the module path and binding):
  - Dispatch: the workgroup size comes from --reflect. A dimension set by a
    spec constant (local_size_x_id) gets the default of the named constant
    sharing its SpecId when there is one (ggml's BLOCK_SIZE), else 64 for one
    such dimension, 8x8 for two, 4x4x4 for three. The global extent E covers
    4096 invocations over the kernel's dimensions (4096, 64x64 or 16x16x16:
    dimensions whose workgroup size is above 1, or whose push constants
    name a height/channel count, or that a written image's coordinates
    need: 1 for 1D and texel buffers, 2 for 2D and cubes, 3 for 3D, one
    more for arrays and cubes), groups = ceil(E / size), capped. A module
    whose writable storage buffers have no runtime array and that writes no
    image (fixed outputs, as in SPIRV-Cross's tests) runs one workgroup:
    more would only race.
  - Buffers: typed by the scalar layout. Floats are multiples of 1/256 in
    [-2, 2] but not 0 (finite results; sums of few terms stay exact, so
    rounding differences mean something; no division by zero), integers
    in [1, 16) so that indices derived from them mostly stay in range and
    divisors are not 0, bools 0/1; padding is zero. A
    runtime array gets 2 * (invocations) elements, at least 1024.
  - Descriptor arrays: every element gets a buffer of its own; a
    runtime-sized array gets 8 (lavapipe allows 32 storage buffers per
    stage), and the module at most 8 workgroups, as shaders index such
    arrays by workgroup or invocation id.
  - Buffer device addresses (PhysicalStorageBuffer pointers, from the
    reflection's "pointers" and "pointee_types"): every pointer in the push
    constants, a buffer or a pointee gets a --device-buffer of its own,
    sized for its pointee (runtime arrays as above; a pointer type with
    ArrayStride, which OpPtrAccessChain steps by, as many strides) and
    filled like buffers, with an --address to it; pointers inside pointees
    too, 3 levels deep (deeper, and for a type already on the path - a
    linked list - the buffer made for that type is reused, so every pointer
    is valid). The pointers of a runtime array's elements point to 16
    slices of one buffer, element e to slice e % 16. In modules with
    PhysicalStorageBufferAddresses, every 64-bit integer and every
    two-component 32-bit integer vector (uvec2, 8-aligned) is taken for an
    address the shader converts (OpConvertUToPtr, OpBitcast) and points to
    a 64 KiB buffer of 32-bit words in [0, 16) (its first 8 bytes the
    address of another such buffer when the module has a pointer to a
    pointer). --robust does not cover accesses through addresses (undefined
    behaviour in Vulkan), so every address must be valid.
  - Images and texel buffers (--image), from --reflect's OpTypeImage: the
    declared format, or for Unknown rgba32f / rgba32i / rgba32ui by the
    Sampled Type (r64i / r64ui for 64-bit). Extent: texel buffers as many
    texels as a runtime array's elements; 1D E.x; 2D E.x x E.y (64x64 when
    the dispatch is 1D), 4 layers when arrayed (E.z when the dispatch is
    3D); 3D E (16x16x16 when it is not 3D); cubes square faces of
    min(E.x, E.y) (16 for a 1D dispatch), 6 layers, 12 for cube arrays.
    Sampled images (not storage) get their whole mip chain, for sampling
    with a LOD. Texels in the buffers' ranges: floats multiples of 1/256 in
    [-2, 2], integers in [0, 16), UNORM/SNORM any step, r11f_g11f_b10f
    multiples of 1/32 in [0, 2] (exact). Combined image samplers and
    separate samplers (each element of an array of them) get
    --sampler nearest,mipmap=nearest,address=clamp-to-edge: nearest
    filtering leaves no filtering precision to differ in.
  - Push constants, by the name of each integer member: sizes get the
    extents (w/width/ncols/ne?0 -> E.x, h/height/rows/ne?1 -> E.y,
    c/channels/ne?2 -> E.z, n/ne/nel/size/count/M/N/K -> all invocations,
    cstep -> E.x*E.y, nb?1..3 and stride_* -> the matching products,
    dims -> the number of dimensions), offsets (offset, misalign, left,
    top, front, base) get 0, everything else 1. Floats get 0.5.
  - Other spec constants keep their defaults (ncnn's shape constants are 0,
    which means "read the push constant"), except ncnn's integer operator
    parameters that default to 0 (affine_size, channels_g, upscale_factor,
    ...): ncnn always specializes them and divides by some, so they get 1.
  - Kernels whose sizes and strides must agree (ggml's matrix products,
    RWKV, convolutions, triangular solves) take the shapes of a small real
    problem from kernel_profiles.py instead, which can also skip a kernel
    lavapipe cannot run meaningfully (skip:subgroup-size).
--robust gives both sides robustBufferAccess2, so an index the heuristics
push out of range reads zero and drops the write on both.

By default the modules of the expectation file (a fixed sample) run and
each outcome must match its expected one; --all runs every module and
prints the counts per corpus. A module that crashes or hangs is a result: a
crash is attributed to lavapipe when `--backend=vulkan` alone crashes too.

  corpus_runner.py --spv-run BIN --corpus DIR --pass-list FILE
                   [--expectations FILE] [--all] [--update] [--jobs N]
                   [--timeout S] [--report FILE] [--keep DIR] [MODULE...]
"""
import collections
import csv
import json
import math
import os
import random
import re
import resource
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import runner_driver
from kernel_profiles import PROFILES

COMPUTE_KINDS = {"glsl-comp", "spvasm-comp", "upstream-spv"}
BUFFER_KINDS = {"storage-buffer", "uniform-buffer"}
TARGET_INVOCATIONS = 4096
PRECISION_ULP = 256
PRECISION_RELATIVE = 1e-4
MAX_GROUPS_PER_DIM = 4096
MAX_INVOCATIONS = 65536
MAX_WORKGROUP = 1024


# --- corpus -----------------------------------------------------------------

def target_env(row, spv_path):
    """The environment COMPILE.tsv compiled the module for."""
    envs = re.findall(r"--target-env\s+(\S+)", row["attempt"])
    if envs:
        env = envs[-1]
    elif row["kind"] == "upstream-spv":
        env = "vulkan1.3"
    else:
        env = "vulkan1.2"
    with open(spv_path, "rb") as f:
        header = f.read(8)
    if len(header) == 8:
        version = struct.unpack("<I", header[4:8])[0]
        # Vulkan 1.2 takes SPIR-V up to 1.5; 1.6 needs Vulkan 1.3.
        if version >= 0x00010600 and env.startswith("vulkan1.") and env < "vulkan1.3":
            env = "vulkan1.3"
    return env


def compute_modules(corpus, pass_list):
    with open(pass_list) as f:
        wanted = {line.strip() for line in f if line.strip()}
    modules = {}
    with open(os.path.join(corpus, "COMPILE.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            spv = row["out_spv"]
            if row["kind"] in COMPUTE_KINDS and spv in wanted \
                    and row["spirv_val"].startswith("ok"):
                modules[spv] = target_env(row, os.path.join(corpus, spv))
    return modules


# --- inputs -----------------------------------------------------------------

def leaf_name(path):
    return re.sub(r"\[\d+\]", "", path).split(".")[-1]


NCNN_SHAPE_CONSTANTS = re.compile(r"^(out)?(dims|w|h|d|c|cstep)$")


def ncnn_parameter_specs(refl, taken):
    """ncnn operator parameters (not its shape constants) that default to 0
    get 1: ncnn always specializes them, and some are divisors."""
    used = {int(spec.split(":")[0]) for spec in taken}
    specs = []
    for constant in refl["spec_constants"]:
        default = constant["default"]
        if (constant["id"] in used or isinstance(default, bool)
                or not isinstance(default, int) or default != 0
                or constant["type"] not in ("i32", "u32")
                or NCNN_SHAPE_CONSTANTS.match(constant["name"] or "")):
            continue
        specs.append("%d:%s:1" % (constant["id"], constant["type"]))
    return specs


def choose_local_size(refl, unit=False):
    """The workgroup size, and the --spec values that set it (1 in each
    dimension a spec constant sets, with `unit`)."""
    size = list(refl["local_size"])
    ids = refl["local_size_spec_ids"]
    spec_dims = [d for d in range(3) if ids[d] is not None]
    fallback = {1: [64], 2: [8, 8], 3: [4, 4, 4]}.get(len(spec_dims), [])
    if unit:
        fallback = [1] * len(spec_dims)
    specs = []
    for n, d in enumerate(spec_dims):
        constants = [c for c in refl["spec_constants"] if c["id"] == ids[d]]
        named = [c["default"] for c in constants
                 if c["name"] and isinstance(c["default"], int)
                 and not isinstance(c["default"], bool) and c["default"] > 1]
        value = named[0] if named and not unit else fallback[n]
        size[d] = value
        specs.append("%d:%s:%d" % (ids[d], constants[0]["type"] if constants
                                   else "u32", value))
    while size[0] * size[1] * size[2] > MAX_WORKGROUP:
        d = size.index(max(size))
        size[d] //= 2
    return size, specs


HEIGHT_NAMES = {"h", "outh", "height", "rows", "nrows", "ne01", "ne11", "ne21"}
CHANNEL_NAMES = {"c", "outc", "channels", "ne02", "ne12", "ne22"}


def choose_extent(refl, size):
    """Global extent over the kernel's dimensions (see the docstring)."""
    dims = max([d + 1 for d in range(3) if size[d] > 1] or [1])
    names = set()
    if refl["push_constants"]:
        names = {leaf_name(f["path"]) for f in
                 refl["push_constants"]["layout"]["fields"]}
    if names & CHANNEL_NAMES:
        dims = 3
    elif names & HEIGHT_NAMES:
        dims = max(dims, 2)
    # A written image's coordinates are usually the invocation's.
    dims = max([dims] + [image_coordinates(r["image"]) for r in
                         refl["resources"] if "image" in r and is_output(r)])
    extent = {1: [4096, 1, 1], 2: [64, 64, 1], 3: [16, 16, 16]}[dims]
    groups = [max(1, min(MAX_GROUPS_PER_DIM, -(-extent[d] // size[d])))
              for d in range(3)]
    # Fixed-size outputs only (SPIRV-Cross's tests): more workgroups would
    # only race on the same outputs. Images are made to cover the dispatch.
    if not any(is_output(r) and ("image" in r or r["layout"]["runtime_array"])
               for r in refl["resources"]):
        groups = [1, 1, 1]
    while math.prod(groups) * math.prod(size) > MAX_INVOCATIONS:
        d = groups.index(max(groups))
        groups[d] = max(1, groups[d] // 2)
    return extent, groups


def int_push_value(name, extent, total, dims):
    """A push-constant integer from its member name (see the docstring)."""
    ex, ey, ez = extent
    low = name.lower()
    m = re.fullmatch(r"ne(\d)?([0-3])", low)
    if m:
        return [ex, ey, ez, 1][int(m.group(2))]
    m = re.fullmatch(r"nb(\d)?([0-3])", low)
    if m:
        return [1, ex, ex * ey, ex * ey * ez][int(m.group(2))]
    if re.search(r"offset|misalign|^(left|top|front|base.*)$", low):
        return 0
    if re.fullmatch(r"(out)?cstep|batch_stride.*", low):
        return ex * ey
    if re.fullmatch(r"(out)?dims", low):
        return dims
    if re.fullmatch(r"(out)?w|width|ncols|cols|stride_[a-z]|kx", low):
        return ex
    if re.fullmatch(r"(out)?h|height|nrows|rows|ky", low):
        return ey
    if re.fullmatch(r"(out)?c|channels", low):
        return ez
    if re.fullmatch(r"n|ne|nel|m|k|total", low) or \
            re.search(r"size|count|num|len", low):
        return total
    return 1


def float_bits(value, size):
    return struct.pack({2: "<e", 4: "<f", 8: "<d"}[size], value)


def int_bytes(value, size, signed):
    fmt = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
    return struct.pack("<" + (fmt if signed else fmt.upper()), value)


def scalar_bytes(type_name, value):
    size = int(type_name[1:]) // 8 if type_name != "bool" else 4
    if type_name.startswith("f"):
        return float_bits(value, size)
    if type_name == "bool":
        return int_bytes(1 if value else 0, 4, False)
    return int_bytes(int(value), size, type_name.startswith("i"))


def random_value(rng, type_name, values="signed"):
    """A value of the generator's ranges; `values` is a Variant's: the
    draws are the same in each, so "positive" is |signed| and "ones" has
    every integer 1."""
    if type_name.startswith("f"):
        sign = rng.choice((-1, 1))
        magnitude = rng.randint(1, 512) / 256.0
        return sign * magnitude if values == "signed" else magnitude
    if type_name == "bool":
        return rng.randint(0, 1)
    value = rng.randint(1, 15)
    return 1 if values == "ones" else value


def fill_runs(data, base, runs, value_of):
    for run in runs:
        for k in range(run["count"]):
            offset = base + run["offset"] + k * run["stride"]
            raw = scalar_bytes(run["type"], value_of(run))
            data[offset:offset + len(raw)] = raw


def buffer_size(resource, elements):
    array = resource["layout"]["runtime_array"]
    size = resource["static_size"]
    if array:
        size = max(size, array["offset"] + elements * array["stride"])
    return max(size, 4)


def make_buffer(resource, size, elements, rng, params, fill=None,
                values="signed"):
    layout = resource["layout"]
    array = layout["runtime_array"]
    data = bytearray(size)

    def value_of(run):
        # A uniform block's integers are parameters, as push constants are.
        if resource["kind"] == "uniform-buffer" and \
                not run["type"].startswith("f") and run["type"] != "bool":
            return int_push_value(leaf_name(run["path"]), *params)
        return random_value(rng, run["type"], values)
    fill_runs(data, 0, layout["fields"], value_of)
    if array:
        for e in range(elements):
            fill_runs(data, array["offset"] + e * array["stride"],
                      array["fields"],
                      (lambda run, e=e: fill(rng, e)) if fill else value_of)
    return bytes(data)


def make_push(push, extent, total, dims, given=None):
    data = bytearray(max(push["size"], 4))

    def value_of(run):
        if given and leaf_name(run["path"]) in given:
            return given[leaf_name(run["path"])]
        if run["type"].startswith("f"):
            return 0.5
        if run["type"] == "bool":
            return 1
        return int_push_value(leaf_name(run["path"]), extent, total, dims)
    fill_runs(data, 0, push["layout"]["fields"], value_of)
    return bytes(data[:push["size"]] if push["size"] else data)


def uses_addresses(refl):
    return "PhysicalStorageBufferAddresses" in refl["capabilities"]


IMAGE_KINDS = {"storage-image", "sampled-image", "combined-image-sampler",
               "uniform-texel-buffer", "storage-texel-buffer"}
WRITABLE_IMAGE_KINDS = {"storage-image", "storage-texel-buffer"}


def is_output(resource):
    """A resource --compare compares: a storage buffer, storage image or
    storage texel buffer the shader may write."""
    return (resource["kind"] == "storage-buffer" or
            resource["kind"] in WRITABLE_IMAGE_KINDS) and \
        not resource["non_writable"]


def skip_reason(module, refl):
    kinds = {r["kind"] for r in refl["resources"]}
    unsupported = kinds - BUFFER_KINDS - IMAGE_KINDS - {"sampler"}
    if unsupported:
        return "unsupported-resource", "uses " + ", ".join(sorted(unsupported))
    declared = collections.defaultdict(set)
    for r in refl["resources"]:
        image = r.get("image")
        # An image's format and shape must fit every declaration.
        declared[(r["set"], r["binding"])].add(
            (r["kind"], "%s %s" % (image["format"], image["dim"])
             if image else None))
    for (dset, binding), kinds in sorted(declared.items()):
        if len(kinds) > 1 and any(format for _, format in kinds):
            return "aliased-binding", "set %d binding %d is declared as %s: " \
                "no one descriptor fits them all" % (dset, binding, " and ".join(
                    "%s (%s)" % (kind, format) if format else kind
                    for kind, format in sorted(kinds, key=str)))
    if module in PROFILES and "skip" in PROFILES[module]:
        return PROFILES[module]["skip"]
    if any(r.get("image", {}).get("multisampled") for r in refl["resources"]):
        return "multisampled", "a multisampled image: the Vulkan backend " \
            "cannot fill or read back its samples"
    for r in refl["resources"]:
        if "image" in r and image_format(r["image"])[0] is None:
            return "image-format", "no format for an image of %d-bit %s " \
                "components" % (r["image"]["component_bits"],
                                r["image"]["component"])
    if not uses_addresses(refl) and \
            not any(is_output(r) for r in refl["resources"]):
        return "no-output", "no writable storage buffer or image to compare"
    return None


POINTER_DEPTH = 3
POINTER_SLICES = 16
UNTYPED_BYTES = 65536
RUNTIME_DESCRIPTORS = 8


def descriptor_count(resource):
    """Elements of a descriptor array (1 for a single descriptor)."""
    return resource["array_size"] or RUNTIME_DESCRIPTORS


def address_slots(runs, base=0):
    """Offsets of the 64-bit integers and uvec2s among runs, which a module
    with buffer device addresses may convert to pointers."""
    for run in runs:
        if run["type"] in ("u64", "i64"):
            for k in range(run["count"]):
                yield run["offset"] + k * run["stride"]
        elif run["type"] in ("u32", "i32") and run["count"] == 2 \
                and run["stride"] == 4 and (base + run["offset"]) % 8 == 0:
            yield run["offset"]


class Addresses:
    """--device-buffer and --address arguments that give every pointer of a
    module a valid buffer (see the docstring)."""

    def __init__(self, module, refl, work, elements, values="signed"):
        self.module = module
        self.values = values
        self.types = {t["id"]: t for t in refl.get("pointee_types", [])}
        self.work = work
        self.elements = elements
        self.untyped = uses_addresses(refl)
        # A pointee that is itself a bare pointer: a pointer to a pointer.
        self.nested = any(p["path"] == "" for t in self.types.values()
                          for p in t["layout"]["pointers"])
        self.args = []
        self.by_type = {}
        self.shared_untyped = None
        self.count = 0

    def add_buffer(self, data):
        name = "d%d" % self.count
        self.count += 1
        path = os.path.join(self.work, name + ".bin")
        with open(path, "wb") as f:
            f.write(data)
        self.args += ["--device-buffer", "%s:%s" % (name, path)]
        return name

    def point(self, where, offset, target, addend=0):
        self.args += ["--address", "%s:%d:%s%s" % (
            where, offset, target, "+%d" % addend if addend else "")]

    def rng(self, name):
        return random.Random(zlib.crc32(("%s:%s" % (self.module, name))
                                        .encode()))

    def visit(self, where, base, layout, count, depth, path=frozenset()):
        """Addresses for the pointers of a block laid out as layout at byte
        base of where, whose runtime array has count elements."""
        for p in layout["pointers"]:
            self.pointer(where, base + p["offset"], p, depth, path)
        array = layout["runtime_array"]
        if array:
            for p in array["pointers"]:
                # One buffer of slices for all elements' pointers.
                name, size = self.allocate(p, depth, path, POINTER_SLICES)
                for e in range(count):
                    self.point(where, base + array["offset"] +
                               e * array["stride"] + p["offset"], name,
                               (e % POINTER_SLICES) * size)
        if not self.untyped:
            return
        for offset in address_slots(layout["fields"]):
            self.point(where, base + offset, self.untyped_buffer(depth))
        if array:
            # All elements share one buffer, in slices.
            shared = None
            for e in range(count):
                start = array["offset"] + e * array["stride"]
                for offset in address_slots(array["fields"], base + start):
                    shared = shared or self.untyped_buffer(depth)
                    self.point(where, base + start + offset, shared,
                               (e % POINTER_SLICES) * (UNTYPED_BYTES //
                                                       POINTER_SLICES))

    def untyped_buffer(self, depth):
        """A buffer for an address the shader converts from an integer;
        deep ones share one."""
        if depth >= POINTER_DEPTH and self.shared_untyped:
            return self.shared_untyped
        rng = self.rng("untyped%d" % self.count)
        data = struct.pack("<%dI" % (UNTYPED_BYTES // 4),
                           *[rng.randint(0, 15)
                             for _ in range(UNTYPED_BYTES // 4)])
        name = self.add_buffer(data)
        if depth >= POINTER_DEPTH:
            self.shared_untyped = name
        if self.nested and depth == 0:
            self.point(name, 0, self.untyped_buffer(POINTER_DEPTH))
        return name

    def pointer(self, where, offset, p, depth, path):
        reuse = self.by_type.get(p["pointee"])
        if reuse and (p["pointee"] in path or depth >= POINTER_DEPTH):
            self.point(where, offset, reuse)
            return
        name, _ = self.allocate(p, depth, path, 1)
        self.point(where, offset, name)

    def allocate(self, p, depth, path, slices):
        """A buffer of slices pointees of pointer p; its name and slice
        size."""
        pointee = self.types[p["pointee"]]
        layout = pointee["layout"]
        array = layout["runtime_array"]
        stride = p["array_stride"]
        # A runtime array of pointers gets slices of its own: fewer elements.
        count = POINTER_SLICES if array and array["pointers"] \
            else self.elements
        size = pointee["size"]
        if array:
            size = max(size, array["offset"] + count * array["stride"])
        steps = count if stride and not array else 1
        if stride:
            size = max(size, steps * stride)
        size = max(16, -(-size // 16) * 16)
        data = bytearray(size * slices)
        rng = self.rng("pointee%d" % self.count)

        def value_of(run):
            return random_value(rng, run["type"], self.values)
        for s in range(slices):
            for k in range(steps):
                fill_runs(data, s * size + k * stride, layout["fields"],
                          value_of)
            if array:
                for e in range(count):
                    fill_runs(data, s * size + array["offset"] +
                              e * array["stride"], array["fields"], value_of)
        name = self.add_buffer(bytes(data))
        self.by_type.setdefault(p["pointee"], name)
        inner = path | {p["pointee"]}
        static = dict(layout, runtime_array=None)
        for s in range(slices):
            # Stepped copies after the first reuse the first's buffers.
            for k in range(steps):
                self.visit(name, s * size + k * stride,
                           layout if k == 0 else static, count,
                           depth + 1 if k == 0 else POINTER_DEPTH, inner)
        return name, size


# --- images -----------------------------------------------------------------

# The format of an image declared without one (Unknown), by its Sampled Type.
UNKNOWN_FORMATS = {("float", 32): "rgba32f", ("int", 32): "rgba32i",
                   ("uint", 32): "rgba32ui", ("int", 64): "r64i",
                   ("uint", 64): "r64ui"}
# (kind, components, bytes) of the formats chosen for Unknown, which
# --reflect does not describe.
CHOSEN_FORMATS = {"rgba32f": ("float", 4, 16), "rgba32i": ("sint", 4, 16),
                  "rgba32ui": ("uint", 4, 16), "r64i": ("sint", 1, 8),
                  "r64ui": ("uint", 1, 8)}
PACKED_FORMATS = {"r11f_g11f_b10f": (11, 11, 10), "rgb10_a2": (10, 10, 10, 2),
                  "rgb10_a2ui": (10, 10, 10, 2)}


def image_format(image):
    """The GLSL format name and its (kind, components, texel bytes)."""
    if image["format"] != "unknown":
        return image["format"], (image["format_kind"],
                                 image["format_components"],
                                 image["texel_bytes"])
    name = UNKNOWN_FORMATS.get((image["component"], image["component_bits"]))
    if name is None:
        return None, None
    return name, CHOSEN_FORMATS[name]


def image_coordinates(image):
    """How many coordinates address one of its texels (layers and cube
    faces included), at most 3."""
    n = {"1D": 1, "Buffer": 1, "3D": 3}.get(image["dim"], 2)
    if image["arrayed"] or image["dim"] == "Cube":
        n += 1
    return min(n, 3)


def image_shape(image, extent, elements):
    """[W, H, D], layers and levels of the image made for a dispatch over
    extent: the image covers the dispatch where their dimensions meet."""
    ex, ey, ez = extent
    dim = image["dim"]
    layers, levels = 1, 1
    if dim == "Buffer":
        return [elements], 1, 1
    if dim == "1D":
        size = [ex]
        if image["arrayed"]:
            layers = ey if ey > 1 else 4
    elif dim == "3D":
        size = [ex, ey, ez] if ez > 1 else [16, 16, 16]
    elif dim == "Cube":
        side = min(ex, ey) if ey > 1 else 16
        size = [side, side]
        layers = 12 if image["arrayed"] else 6
    else:
        size = [ex, ey] if ey > 1 else [64, 64]
        if image["arrayed"]:
            layers = ez if ez > 1 else 4
    # A sampled image gets its whole mip chain, for sampling with a LOD.
    if image["sampled"] == 1:
        levels = max(size).bit_length()
    return size, layers, levels


def pack_small_float(value, mantissa_bits):
    """An unsigned 11- or 10-bit float (5-bit exponent, bias 15) of a value
    it represents exactly."""
    if value == 0:
        return 0
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2**exponent
    biased = exponent - 1 + 15
    fraction = int((mantissa * 2 - 1) * (1 << mantissa_bits))
    return (biased << mantissa_bits) | fraction


def random_texel(rng, kind, components, texel_bytes, name, values="signed"):
    """One texel's bytes, values in the generator's ranges: floats multiples
    of 1/256 in [-2, 2], integers in [0, 16), UNORM and SNORM every step."""
    if name in PACKED_FORMATS:
        widths = PACKED_FORMATS[name]
        word, shift = 0, 0
        for width in widths:
            if name == "r11f_g11f_b10f":
                # k/32 with k <= 64 has at most 6 significant bits: exact.
                bits = pack_small_float(rng.randint(0, 64) / 32.0, width - 5)
            elif kind == "uint":
                bits = rng.randint(0, min(15, (1 << width) - 1))
            else:
                bits = rng.randint(0, (1 << width) - 1)
            word |= bits << shift
            shift += width
        return struct.pack("<I", word)
    size = texel_bytes // components
    data = b""
    for _ in range(components):
        if kind == "float":
            value = rng.randint(-512, 512) / 256.0
            data += float_bits(value if values == "signed" else abs(value),
                               size)
        elif kind == "unorm":
            data += int_bytes(rng.randint(0, (1 << 8 * size) - 1), size, False)
        elif kind == "snorm":
            top = (1 << (8 * size - 1)) - 1
            data += int_bytes(rng.randint(-top, top), size, True)
        else:
            data += int_bytes(rng.randint(0, 15), size, kind == "sint")
    return data


def make_image(resource, extent, elements, rng, values="signed"):
    """The --image FORMAT, EXTENT and texel bytes for the resource."""
    image = resource["image"]
    name, (kind, components, texel_bytes) = image_format(image)
    size, layers, levels = image_shape(image, extent, elements)
    texels = 0
    for level in range(levels):
        texels += math.prod(max(1, s >> level) for s in size) * layers
    data = b"".join(random_texel(rng, kind, components, texel_bytes, name,
                                 values) for _ in range(texels))
    text = "x".join(str(s) for s in size)
    if layers > 1:
        text += ",layers=%d" % layers
    if levels > 1:
        text += ",levels=%d" % levels
    return name, text, data


# Nearest filtering and mipmapping: no filtering precision to differ in.
SAMPLER_SETTINGS = "nearest,mipmap=nearest,address=clamp-to-edge"


# A job as generated, or changed for a rerun of a module whose first
# launch is proven undefined (see run_job): one workgroup, local sizes from
# spec constants 1, and the values of buffers, device buffers and float
# texels made positive or (integers) 1.
Variant = collections.namedtuple("Variant", "name description one_group "
                                 "unit_size values")
FIRST_LAUNCH = Variant("first", "", False, False, "signed")
RACE_RERUNS = [
    Variant("one-workgroup", "one workgroup", True, False, "signed"),
    Variant("one-invocation", "one workgroup of one invocation (its "
            "local-size spec constants 1)", True, True, "signed")]
UNDEFINED_RERUNS = [
    Variant("positive", "the generated values made positive", False, False,
            "positive"),
    Variant("ones", "positive floats and every integer 1", False, False,
            "ones")]


def make_job(module, refl, work, variant=FIRST_LAUNCH):
    """The spv-run arguments for the module's inputs."""
    profile = PROFILES.get(module, {})
    size, specs = choose_local_size(refl, variant.unit_size)
    if "specs" in profile:
        ids = refl["local_size_spec_ids"]
        for d in range(3):
            if ids[d] in profile["specs"]:
                size[d] = profile["specs"][ids[d]]
        specs = [s for s in specs if int(s.split(":")[0])
                 not in profile["specs"]]
        types = {c["id"]: c["type"] for c in refl["spec_constants"]}
        specs += ["%d:%s:%d" % (i, types.get(i, "u32"), v)
                  for i, v in sorted(profile["specs"].items())]
    extent, groups = choose_extent(refl, size)
    groups = list(profile.get("groups", groups))
    if variant.one_group:
        groups = [1, 1, 1]
    if any(r["array_size"] == 0 for r in refl["resources"]):
        while math.prod(groups) > RUNTIME_DESCRIPTORS:
            d = groups.index(max(groups))
            groups[d] = max(1, groups[d] // 2)
    total = math.prod(extent)
    dims = sum(1 for e in extent if e > 1)
    invocations = math.prod(groups) * math.prod(size)
    elements = max(2 * invocations, 1024, profile.get("elements", 0))
    args = ["--groups"] + [str(g) for g in groups]
    if module.startswith("ncnn/"):
        specs = specs + ncnn_parameter_specs(refl, specs)
    for spec in specs:
        args += ["--spec", spec]
    addresses = Addresses(module, refl, work, elements, variant.values)
    args += resource_arguments(module, refl, work, extent, elements,
                               (extent, total, dims), addresses,
                               profile, variant.values)
    return args + addresses.args


def resource_arguments(module, refl, work, extent, elements, params,
                       addresses, profile=None, values="signed",
                       sampler_settings=SAMPLER_SETTINGS):
    """The --buffer, --image, --sampler and --push arguments for the
    module's descriptors and push constants, their data written to files in
    work (see the docstring); `params` is (extent, total, dims) for the
    integer parameters, `addresses` collects the buffer device addresses;
    `sampler_settings` is --sampler's SETTINGS, or a function of the
    resource (a sampler or combined image sampler) that gives them."""
    profile = profile or {}
    settings_of = sampler_settings if callable(sampler_settings) \
        else lambda resource: sampler_settings
    extent, total, dims = params
    args = []
    # Variables may alias one binding (ggml views a buffer as several
    # types): the first one's layout fills it, the largest size wins.
    bindings = collections.OrderedDict()
    for r in refl["resources"]:
        bindings.setdefault((r["set"], r["binding"]), []).append(r)
    for aliases in bindings.values():
        r = aliases[0]
        seed = zlib.crc32(("%s:%d:%d" % (module, r["set"], r["binding"]))
                          .encode())
        if r["kind"] == "sampler":
            for e in range(descriptor_count(r)):
                name = "%d:%d" % (r["set"], r["binding"])
                if r["array_size"] != 1:
                    name += "[%d]" % e
                args += ["--sampler", "%s:%s" % (name, settings_of(r))]
            continue
        if "image" in r:
            for e in range(descriptor_count(r)):
                where = "%d:%d" % (r["set"], r["binding"])
                file = "i%d_%d" % (r["set"], r["binding"])
                rng = random.Random(seed)
                if r["array_size"] != 1:
                    where += "[%d]" % e
                    file += "_%d" % e
                    rng = random.Random(zlib.crc32(
                        ("%s:%s" % (module, where)).encode()))
                name, shape, data = make_image(r, extent, elements, rng,
                                               values)
                path = os.path.join(work, file + ".bin")
                with open(path, "wb") as f:
                    f.write(data)
                args += ["--image", "%s:%s:%s:%s" % (where, name, shape, path)]
                if r["kind"] == "combined-image-sampler":
                    args += ["--sampler",
                             "%s:%s" % (where, settings_of(r))]
            continue
        size = max(buffer_size(a, elements) for a in aliases)
        count = max(descriptor_count(a) for a in aliases)
        for e in range(count):
            key = "%s:%d:%d" % (module, r["set"], r["binding"])
            name = "%d:%d" % (r["set"], r["binding"])
            file = "b%d_%d" % (r["set"], r["binding"])
            if r["array_size"] != 1:
                key += "[%d]" % e
                name += "[%d]" % e
                file += "_%d" % e
            data = make_buffer(r, size, elements,
                               random.Random(zlib.crc32(key.encode())),
                               (extent, total, dims),
                               profile.get("fill", {}).get(r["binding"]),
                               values)
            path = os.path.join(work, file + ".bin")
            with open(path, "wb") as f:
                f.write(data)
            kind = "storage" if r["kind"] == "storage-buffer" else "uniform"
            args += ["--buffer", "%s:%s:%s" % (name, kind, path)]
            addresses.visit(name, 0, r["layout"], elements, 0)
    if refl["push_constants"]:
        path = os.path.join(work, "push.bin")
        with open(path, "wb") as f:
            f.write(make_push(refl["push_constants"], extent, total, dims,
                              profile.get("push")))
        args += ["--push", path]
        addresses.visit("push", 0, refl["push_constants"]["layout"], 0, 0)
    return args


# --- running ----------------------------------------------------------------

def first_error(text):
    for line in text.splitlines():
        if line.startswith("error:"):
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else "no output"


VULKAN_ERROR = re.compile(r"^error: (vulkan:|--backend=vulkan|--robust: the "
                          r"Vulkan device|.*the Vulkan device's limit)")


def parse_json(stdout):
    # debugPrintfEXT lines may come before the JSON object.
    start = stdout.find("\n{")
    start = 0 if stdout.startswith("{") else start + 1 if start >= 0 else -1
    if start < 0:
        return None
    try:
        return json.loads(stdout[start:])
    except ValueError:
        return None


# A job's time limit is CPU time, not wall time: lavapipe compiling a large
# kernel needs tens of seconds of CPU, and on a loaded machine (ctest -j,
# two runner jobs) that stretches to any wall time, while a kernel that
# never ends uses CPU without bound wherever it runs. The kernel stops the
# process past `timeout` CPU seconds (SIGXCPU, then SIGKILL); a wall-clock
# limit of WALL_FACTOR times as much remains only for a process that
# blocks without running.
WALL_FACTOR = 8


def run_spv(cmd, timeout):
    """(exit code, stdout, stderr); the exit code is None when the command
    ran out of time (timeout seconds of CPU)."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, errors="replace") as p:
        # Set from here (preexec_fn is unsafe with the runner's threads);
        # the limit counts the CPU time the process used before it too.
        try:
            resource.prlimit(p.pid, resource.RLIMIT_CPU, (timeout, timeout + 5))
        except ProcessLookupError:
            pass
        try:
            out, err = p.communicate(timeout=timeout * WALL_FACTOR)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            return None, "", ""
    if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return None, out, err
    return p.returncode, out, err


def alone_fails(base_cmd, timeout, backend="vulkan"):
    """Whether one backend by itself crashes or hangs on the job."""
    cmd = [a for a in base_cmd if a != "--json"]
    cmd[cmd.index("--compare")] = "--backend=" + backend
    rc, _, _ = run_spv(cmd, timeout)
    return rc is None or rc < 0


def relative_error(cpu, vulkan):
    try:
        a, b = float(cpu), float(vulkan)
    except ValueError:
        return None
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return None
    return abs(a - b) / max(abs(a), abs(b), 1e-30)


def describe_differences(report):
    """The differing buffers with their first difference, and the largest
    relative error among the reported float differences (a hint whether
    it is rounding or a real difference)."""
    parts = []
    worst = None
    for buf in report["compare"]["buffers"]:
        if buf["differing"]:
            first = buf["first"][0] if buf["first"] else {}
            name = buf.get("device_buffer") or "%d:%d" % (buf["set"],
                                                          buf["binding"])
            if "array_element" in buf:
                name += "[%d]" % buf["array_element"]
            parts.append("%s %d/%d differ, first %s: cpu %s vs vulkan %s"
                         % (name, buf["differing"], buf["compared"],
                            first.get("path", "?"), first.get("cpu", "?"),
                            first.get("vulkan", "?")))
            for d in buf["first"]:
                if "." in d["cpu"] + d["vulkan"] or "e" in d["cpu"]:
                    err = relative_error(d["cpu"], d["vulkan"])
                    if err is not None:
                        worst = err if worst is None else max(worst, err)
    if worst is not None:
        parts.append("max rel err of those shown %.2g" % worst)
    return "; ".join(parts), worst


def cpu_command(cmd):
    """The --compare job on the CPU alone."""
    cpu = [a for a in cmd if a != "--json"]
    cpu[cpu.index("--compare")] = "--backend=cpu"
    return cpu


def output_names(cmd):
    """Each buffer, image and device buffer of the job, as --out names it:
    SET:BINDING[ELEMENT] or the device buffer's name."""
    names = []
    for flag, value in zip(cmd, cmd[1:]):
        if flag in ("--buffer", "--image"):
            names.append(":".join(value.split(":")[:2]))
        elif flag == "--device-buffer":
            names.append(value.split(":")[0])
    return names


def differing_outputs(report):
    """The outputs --compare found different, named as output_names."""
    names = []
    for buf in report["compare"]["buffers"]:
        if buf["differing"]:
            name = buf.get("device_buffer") or "%d:%d" % (buf["set"],
                                                          buf["binding"])
            if "array_element" in buf:
                name += "[%d]" % buf["array_element"]
            names.append(name)
    return names


def cpu_outputs(args, cmd, work, label, extra=()):
    """The bytes of every output after a CPU run, or None if it fails."""
    folder = os.path.join(work, "outputs-" + label)
    os.makedirs(folder, exist_ok=True)
    names = output_names(cmd)
    files = [os.path.join(folder, "o%d.bin" % i) for i in range(len(names))]
    outs = []
    for name, file in zip(names, files):
        outs += ["--out", "%s:%s" % (name, file)]
    rc, _, _ = run_spv(cpu_command(cmd) + list(extra) + outs, args.timeout)
    if rc != 0:
        return None
    result = {}
    for name, file in zip(names, files):
        with open(file, "rb") as f:
            result[name] = f.read()
    return result


def changed_outputs(args, cmd, work, flag):
    """The outputs the CPU's own result changes in when it reruns with
    `flag`, or None when that cannot be told (a run fails, or two plain
    runs differ)."""
    plain = cpu_outputs(args, cmd, work, "plain")
    again = cpu_outputs(args, cmd, work, "again")
    changed = cpu_outputs(args, cmd, work, "changed", [flag])
    if plain is None or changed is None or plain != again:
        return None
    return [name for name in plain if plain[name] != changed[name]]


def find_dependence(args, cmd, work, differing, flag):
    """Whether every output that differs from Vulkan's changes on the CPU
    with `flag`: says which change, or None."""
    changed = changed_outputs(args, cmd, work, flag)
    if not changed or not differing or not set(differing) <= set(changed):
        return None
    return "with %s the CPU's %s change%s" % (
        flag, ", ".join(changed), "" if len(changed) > 1 else "s")


def find_race(args, cmd):
    """The CPU alone with --check-races: the first data race it reports,
    or None."""
    check = cpu_command(cmd) + ["--check-races"]
    rc, _, err = run_spv(check, args.timeout)
    message = first_error(err) if rc not in (None, 0) else ""
    if message.startswith("error: data race"):
        return message[len("error: "):]
    return None


def find_undefined(args, cmd, work, differing):
    """Whether every output that differs from Vulkan's depends on
    undefined results: those outputs change when the CPU flips them
    (--perturb-undefined). The first result --check-undefined reports
    explains it, or OpUndef, an uninitialized variable or Workgroup memory
    does."""
    changed = find_dependence(args, cmd, work, differing,
                              "--perturb-undefined")
    if not changed:
        return None
    rc, _, err = run_spv(cpu_command(cmd) + ["--check-undefined"],
                         args.timeout)
    message = first_error(err) if rc == 1 else ""
    what = message[len("error: "):] if message.startswith("error: ") else \
        "no operation is reported: OpUndef, an uninitialized variable or " \
        "Workgroup memory"
    return "%s; %s" % (what, changed)


def find_schedule(args, cmd, work, differing):
    """Whether every output that differs from Vulkan's depends on the order
    workgroups run in (no race, nothing undefined: e.g. slots taken from an
    atomic counter)."""
    return find_dependence(args, cmd, work, differing,
                           "--workgroup-order=reverse")


def proven_defined(args, cmd, work):
    """Whether the CPU finds neither a race nor an undefined result, and
    its outputs change neither with --perturb-undefined nor with the
    workgroups in reverse order."""
    rc, _, _ = run_spv(cpu_command(cmd) + ["--check-races"], args.timeout)
    if rc != 0:
        return False
    rc, _, _ = run_spv(cpu_command(cmd) + ["--check-undefined"],
                       args.timeout)
    return rc == 0 and all(
        changed_outputs(args, cmd, work, flag) == []
        for flag in ("--perturb-undefined", "--workgroup-order=reverse"))


def in_work_folder(args, module, job):
    """job(work) in the module's folder of --keep, else in a temporary one."""
    if args.keep:
        work = os.path.join(args.keep, module.replace("/", "__"))
        os.makedirs(work, exist_ok=True)
        return job(work)
    with tempfile.TemporaryDirectory() as work:
        return job(work)


def run_module(args, module, env):
    path = os.path.join(args.corpus, module)
    reflect = [args.spv_run, path, "--reflect", "--target-env", env]
    rc, out, err = run_spv(reflect, args.timeout)
    if rc != 0:
        what = "timeout" if rc is None else first_error(err)
        return "error:reflect", what, []
    refl = json.loads(out)
    skip = skip_reason(module, refl)
    if skip:
        return "skip:" + skip[0], skip[1], []
    return in_work_folder(args, module, lambda work: run_job(
        args, module, env, path, refl, work))


def compare_command(args, path, env, job):
    # The CPU's own watchdog ends a dispatch that never finishes well before
    # the runner's timeout, with an error naming it.
    return [args.spv_run, path, "--compare", "--robust", "--json",
            "--target-env", env, "--repeat", "1", "--threads", "1",
            "--timeout", str(max(1, args.timeout // 3))] + job


def shown_command(cmd, path):
    return [os.path.relpath(path) if a == path else a for a in cmd]


def dispatch_error(message):
    """The outcome of a run that gave no comparison: (outcome, detail)."""
    if "did not finish in" in message:
        return "error:timeout", message[len("error: "):]
    if VULKAN_ERROR.match(message):
        return "skip:lavapipe", message
    if "dispatch" in message or "workgroup (" in message:
        return "error:run", message
    return "error:compile", message


def compare(args, cmd, shown, classify=dispatch_error, no_output=None):
    """Runs a --compare job: (outcome, detail, shown, report), the outcome
    agree, precision or differ, or a skip or error outcome. classify(message)
    gives the outcome of a run without a comparison (dispatch_error); with
    no_output, a comparison of nothing is skip:no-output with that detail
    (fragment_runner.py's draws)."""
    start = time.monotonic()
    rc, out, err = run_spv(cmd, args.timeout)
    if rc is None:
        if alone_fails(cmd, args.timeout):
            return runner_driver.ORACLE_TIMEOUT, "lavapipe alone gives " \
                "no result in %d s of CPU time" % args.timeout, shown, None
        return "error:timeout", "no result in %d s of CPU time" \
            % args.timeout, shown, None
    if rc < 0:
        if alone_fails(cmd, args.timeout):
            if alone_fails(cmd, args.timeout, "cpu"):
                return "skip:both-crash", "each backend alone crashes " \
                    "(signal %d)" % -rc, shown, None
            return "skip:lavapipe", "lavapipe crashes (signal %d)" % -rc, \
                shown, None
        return "error:crash", "signal %d: %s" % (-rc, first_error(err)), \
            shown, None
    report = parse_json(out) if rc in (0, 1) else None
    if report and "compare" in report:
        if no_output and not report["compare"]["buffers"]:
            return "skip:no-output", no_output, shown, report
        if report["compare"]["agree"]:
            return "agree", "%.1f s" % (time.monotonic() - start), shown, \
                report
        detail, worst = describe_differences(report)
        # Only float rounding can be precision: an integer or a large
        # difference is not.
        if worst is not None and worst <= PRECISION_RELATIVE:
            loose = cmd + ["--ulp", str(PRECISION_ULP)]
            rc, out, _ = run_spv(loose, args.timeout)
            loose_report = parse_json(out) if rc in (0, 1) else None
            if loose_report and "compare" in loose_report and \
                    loose_report["compare"]["agree"]:
                return "precision", detail, \
                    shown + ["--ulp", str(PRECISION_ULP)], report
        return "differ", detail, shown, report
    outcome, detail = classify(first_error(err))
    return outcome, detail, shown, None


def rerun_defined(args, module, env, path, refl, work, kind, why):
    """A module whose first launch is proven undefined or dependent on
    scheduling (`kind`: race, undefined or schedule, `why`) reruns with the first variant of its job that the CPU
    proves defined; that comparison is the outcome (agree-rerun, precision
    or disagree), or None when no variant is defined."""
    variants = UNDEFINED_RERUNS if kind == "undefined" else RACE_RERUNS
    for variant in variants:
        if variant.unit_size and \
                all(i is None for i in refl["local_size_spec_ids"]):
            continue
        folder = os.path.join(work, "rerun-" + variant.name)
        os.makedirs(folder, exist_ok=True)
        cmd = compare_command(args, path, env,
                              make_job(module, refl, folder, variant))
        if not proven_defined(args, cmd, folder):
            continue
        outcome, detail, shown, _ = compare(args, cmd,
                                            shown_command(cmd, path))
        note = "first launch %s: %s; rerun with %s (no race, nothing " \
            "undefined, independent of the workgroup order)" % (
                kind, why, variant.description)
        if outcome == "agree":
            return "agree-rerun", note + ": agrees", shown
        if outcome == "precision":
            return "precision", "%s: %s" % (note, detail), shown
        if outcome == "differ":
            return "disagree", "%s: differs: %s" % (note, detail), shown
        return None
    return None


def run_job(args, module, env, path, refl, work):
    """Compares the module on inputs made in work; returns the outcome. A
    difference is a race when the CPU finds one, else undefined when every
    differing output depends on undefined results, else schedule when each
    depends on the order workgroups run in; each reruns with a job proven
    defined (rerun_defined)."""
    cmd = compare_command(args, path, env, make_job(module, refl, work))
    outcome, detail, shown, report = compare(args, cmd,
                                             shown_command(cmd, path))
    if outcome != "differ":
        return outcome, detail, shown
    differing = differing_outputs(report)
    for kind, find, flag in (
            ("race", lambda: find_race(args, cmd), "--check-races"),
            ("undefined", lambda: find_undefined(args, cmd, work, differing),
             "--check-undefined"),
            ("schedule", lambda: find_schedule(args, cmd, work, differing),
             "--workgroup-order=reverse")):
        why = find()
        if why:
            shown = [a if a != "--compare" else flag for a in shown
                     if a != "--json"]
            break
    else:
        return "disagree", detail, shown
    rerun = rerun_defined(args, module, env, path, refl, work, kind, why)
    if rerun:
        return rerun
    return kind, "%s; %s" % (why, detail), shown


# --- main -------------------------------------------------------------------

def summarize(results):
    """Counts the outcomes by corpus (the module's first folder) and all."""
    counts = collections.defaultdict(collections.Counter)
    for module, (outcome, _, _) in results.items():
        counts[module.split("/")[0]][outcome] += 1
        counts["all"][outcome] += 1
    for corpus in sorted(counts, key=lambda c: (c == "all", c)):
        print("  %-12s %s" % (corpus, ", ".join(
            "%s %d" % kv for kv in sorted(counts[corpus].items()))))


# Outcomes whose differences the runner proves the specifications allow.
PROVEN = ("agree-rerun", "race", "undefined", "schedule")


def main():
    return runner_driver.main(
        __doc__, "corpus_runner.py", "differential corpus run",
        all_help="every module, not just the expectation file's",
        modules=lambda args: compute_modules(args.corpus, args.pass_list),
        not_available="%s is not a compute module of the pass list",
        run_module=run_module, summarize=summarize,
        listed=lambda outcome: outcome.startswith((
            "disagree", "race", "undefined", "schedule", "precision",
            "agree-rerun", "error")),
        # --all adds no module the expectation file lacks.
        updated=lambda expected, results, args: runner_driver.merged(
            expected, {m: results[m] for m in results
                       if m in expected or not args.all}),
        # A result the specifications leave undefined (a race, an undefined
        # operation, the workgroup order) may happen to be lavapipe's on
        # another host (SIMD lanes of another width run another
        # interleaving): agreeing meets any of them, and agree-rerun.
        # Across those outcomes a module may move from run to run too: each
        # is a difference the runner proves is not a disagreement.
        meets=lambda expected, got: got == expected or
        (expected in PROVEN and (got == "agree" or got in PROVEN)),
        extra_arguments=lambda parser: parser.add_argument(
            "--pass-list", required=True))


if __name__ == "__main__":
    sys.exit(main())
