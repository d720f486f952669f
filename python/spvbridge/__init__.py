"""spvbridge: Vulkan shaders on the CPU, from Python.

Compile GLSL, HLSL, SPIR-V assembly or a SPIR-V binary, then dispatch it on
numpy arrays (or anything with the buffer protocol), which the shader reads
and writes in place::

    import numpy as np, spvbridge

    k = spvbridge.compile("saxpy.comp")
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    k.dispatch(16, buffers={(0, 0): x, (0, 1): y}, push={"a": 2.0, "n": 1000})
    assert np.allclose(y, 2 * x + 1)

Errors raise spvbridge.Error's subclasses with the messages spv-run prints.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _spvbridge as _native
from ._spvbridge import (
    BindingError,
    CompileError,
    DataRaceError,
    DispatchError,
    DispatchTimeoutError,
    EntryPoint,
    Error,
    Member,
    OutOfBoundsError,
    Reflection,
    Resource,
    SpecConstant,
    StorageVariable,
    UndefinedResultError,
)

# Shown as spvbridge.X, where users meet them.
for _class in (BindingError, CompileError, DataRaceError, DispatchError,
               DispatchTimeoutError, EntryPoint, Error, Member, OutOfBoundsError, Reflection,
               Resource, SpecConstant, StorageVariable, UndefinedResultError):
    _class.__module__ = __name__

__all__ = [
    "AmberFailure", "AmberResult", "BindingError", "CompileError",
    "DataRaceError", "DispatchError", "DispatchResult",
    "DispatchTimeoutError", "EntryPoint", "Error", "Image", "Kernel",
    "LayoutWarning", "Member", "Options", "OutOfBoundsError", "Reflection",
    "Resource", "Sampler", "SpecConstant", "StorageVariable",
    "UndefinedResultError", "compile", "draw", "run_amber",
    "set_kernel_cache", "set_printf_limit",
]

_SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")


class LayoutWarning(UserWarning):
    """A numpy array whose element type differs from the buffer's: the
    kernel reads its bytes as the buffer's type."""


@dataclass
class Options:
    """How compile() compiles; spv-run's flags of the same names.

    opt_level: 0-3 (-O0..-O3). vectorize: run invocations in SIMD lanes.
    barriers: "loops" or "fibers". validate: run SPIRV-Tools' validator.
    target_env: vulkan1.0 .. vulkan1.3, spv1.0 .. spv1.6 (GLSL, HLSL and
    assembly). include_dirs: searched for #include after the file's folder.
    """
    opt_level: int = 2
    vectorize: bool = True
    barriers: str = "loops"
    validate: bool = True
    target_env: str = "vulkan1.2"
    include_dirs: Sequence[str] = ()


@dataclass
class Sampler:
    """A sampler's state, with Vulkan's meaning.

    filter: "nearest" or "linear" (both magnification and minification);
    mipmap: "nearest" or "linear"; address: "repeat", "mirrored_repeat",
    "clamp_to_edge", "clamp_to_border" or "mirror_clamp_to_edge", one for
    all of u, v, w or a sequence of three; border: "transparent_black",
    "opaque_black" or "opaque_white" (float; int_ variants for integer
    formats); compare: None or a VkCompareOp name ("less", ...).
    """
    filter: str = "nearest"
    mipmap: str = "nearest"
    address: Union[str, Sequence[str]] = "clamp_to_edge"
    border: str = "transparent_black"
    unnormalized: bool = False
    lod_bias: float = 0.0
    min_lod: float = 0.0
    max_lod: float = 1000.0
    compare: Optional[str] = None

    _FILTERS = {"nearest": 0, "linear": 1}
    _ADDRESS = {"repeat": 0, "mirrored_repeat": 1, "clamp_to_edge": 2,
                "clamp_to_border": 3, "mirror_clamp_to_edge": 4}
    _BORDERS = {"transparent_black": 0, "int_transparent_black": 1,
                "opaque_black": 2, "int_opaque_black": 3, "opaque_white": 4,
                "int_opaque_white": 5}
    _COMPARE = {"never": 0, "less": 1, "equal": 2, "less_or_equal": 3,
                "greater": 4, "not_equal": 5, "greater_or_equal": 6,
                "always": 7}

    def _settings(self, where: str) -> Dict[str, Any]:
        def pick(table: Mapping[str, int], value: str, what: str) -> int:
            if value not in table:
                raise BindingError(
                    f"error: {where}: unknown {what} '{value}' (expected "
                    f"{', '.join(table)})")
            return table[value]
        address = ([self.address] * 3 if isinstance(self.address, str)
                   else list(self.address))
        if len(address) != 3:
            raise BindingError(f"error: {where}: address needs one mode or "
                               f"three (u, v, w), not {len(address)}")
        filt = pick(self._FILTERS, self.filter, "filter")
        return {
            "mag_filter": filt, "min_filter": filt,
            "mipmap_mode": pick(self._FILTERS, self.mipmap, "mipmap mode"),
            "address_mode": [pick(self._ADDRESS, a, "address mode")
                             for a in address],
            "border_color": pick(self._BORDERS, self.border, "border colour"),
            "unnormalized_coordinates": int(self.unnormalized),
            "mip_lod_bias": float(self.lod_bias),
            "min_lod": float(self.min_lod), "max_lod": float(self.max_lod),
            "compare_enable": int(self.compare is not None),
            "compare_op": (pick(self._COMPARE, self.compare, "compare op")
                           if self.compare is not None else 0),
        }


@dataclass
class Image:
    """An image or texel buffer's texels, read and written in place.

    data: the texels, tightly packed in `format` (a GLSL image format:
    rgba8, r32f, rgba32ui, ...), level 0 of every layer first, then each
    smaller level; extent: width, (width, height) or (width, height,
    depth); sampler: for a combined image sampler.
    """
    data: Any
    format: str
    extent: Union[int, Sequence[int]]
    layers: int = 1
    levels: int = 1
    sampler: Optional[Sampler] = None


@dataclass
class DispatchResult:
    """What a dispatch measured, and its debugPrintfEXT output."""
    compile_ms: float
    dispatch_ms: float
    dispatch_ms_min: float
    dispatch_ms_max: float
    runs: int
    threads: int
    subgroup_size: int
    workgroup_entry: str
    simd_lanes: int
    kernel_cache: str
    printf: str


@dataclass
class AmberFailure:
    """A failed check or command: its script line (0: the whole script)."""
    line: int
    message: str
    note: str = ""


@dataclass
class AmberResult:
    """An Amber script's outcome: status is "pass", "fail" or "skip"."""
    script: str
    status: str
    reason: str
    failures: List[AmberFailure]
    time_ms: float
    printf: str

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def __str__(self) -> str:
        if self.status == "pass":
            return f"PASS {self.script}"
        if self.status == "skip":
            return f"SKIP {self.script}: {self.reason}"
        lines = [f"FAIL {self.script}"]
        for failure in self.failures:
            where = f"{self.script}:{failure.line}: " if failure.line else ""
            lines.append(f"  {where}{failure.message}")
            if failure.note:
                lines.append(f"    note: {failure.note}")
        return "\n".join(lines)


def _classify(source: Any, language: Optional[str]) -> Tuple[str, Any, str]:
    """(kind, payload, name) for _native._compile."""
    if language not in (None, "glsl", "hlsl", "spvasm", "spv"):
        raise CompileError(f"error: language='{language}': expected glsl, "
                           "hlsl, spvasm or spv")
    if isinstance(source, os.PathLike):
        return "file", os.fspath(source), os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if language in (None, "spv") and data[:4] in _SPIRV_MAGIC:
            return "spv", data, "<inline>"
        if language == "spv":
            raise CompileError("error: <inline>: not a SPIR-V module (the "
                               "first word is not the magic number)")
        source = data.decode("utf-8")
    if not isinstance(source, str):
        raise TypeError("compile() takes a path, source text or SPIR-V bytes, "
                        f"not {type(source).__name__}")
    # Shader source has a body in braces; one line without is a path.
    if "\n" not in source and "{" not in source:
        return "file", source, source
    if language is None:
        language = ("spvasm" if re.search(r"^\s*OpCapability\b", source,
                                          re.MULTILINE) else "glsl")
    if language == "spv":
        raise CompileError("error: <inline>: SPIR-V binaries are given as "
                           "bytes, not text")
    return language, source, "<inline>"


def compile(source: Any, entry: Optional[str] = None,
            defines: Union[None, Mapping[str, Any], Sequence[str]] = None,
            spec: Optional[Mapping[Union[int, str], Any]] = None,
            options: Union[None, Options, Mapping[str, Any]] = None, *,
            stage: Optional[str] = None,
            language: Optional[str] = None) -> "Kernel":
    """Compiles a shader for the CPU.

    source: a path (str or os.PathLike; the extension says what it is:
    .comp/.glsl GLSL compute, .vert, .frag, .hlsl, .spvasm, .spv), GLSL or
    HLSL source text (language="hlsl"), SPIR-V assembly text, or a SPIR-V
    binary as bytes. entry: the entry point (HLSL: its function); default
    the module's only one, or "main". defines: {"NAME": value} or
    ["NAME=VALUE", ...] for GLSL and HLSL. spec: {SpecId or OpName: value},
    each of its constant's own type. options: an Options, or a dict of its
    fields. stage: "compute" (default), "vertex", "tess-control",
    "tess-evaluation", "geometry" or "fragment" for source
    text. Raises CompileError.
    """
    if options is None:
        options = Options()
    elif isinstance(options, Mapping):
        try:
            options = Options(**options)
        except TypeError as error:
            raise CompileError(f"error: options: {error}") from None
    if defines is None:
        define_list: List[str] = []
    elif isinstance(defines, Mapping):
        define_list = [name if value is None or value is True
                       else f"{name}={value}" for name, value in
                       defines.items()]
    else:
        define_list = list(defines)
    kind, payload, name = _classify(source, language)
    native = _native._compile(
        kind, payload, name, stage or "", entry or "", define_list,
        [os.fspath(d) for d in options.include_dirs], options.target_env,
        dict(spec or {}), options.opt_level, options.vectorize,
        options.barriers, options.validate)
    return Kernel(native)


_SCALAR_DTYPES = {"bool": "<u4", "i8": "i1", "u8": "u1", "i16": "<i2",
                  "u16": "<u2", "i32": "<i4", "u32": "<u4", "i64": "<i8",
                  "u64": "<u8", "f16": "<f2", "f32": "<f4", "f64": "<f8"}


def _member_layout(type_name: str) -> Optional[Tuple[str, int, int, int]]:
    """(dtype, components per element, elements, stride) of a member type
    the push dict packs: scalars, vectors, and arrays of either."""
    match = re.fullmatch(r"(?:vec(\d)<(\w+)>|(\w+))", type_name)
    if match:
        scalar = match.group(2) or match.group(3)
        if scalar in _SCALAR_DTYPES:
            return _SCALAR_DTYPES[scalar], int(match.group(1) or 1), 1, 0
        return None
    match = re.fullmatch(r"array<(vec(\d)<(\w+)>|(\w+)),(\d+),stride=(\d+)>",
                         type_name)
    if match:
        scalar = match.group(3) or match.group(4)
        if scalar in _SCALAR_DTYPES:
            return (_SCALAR_DTYPES[scalar], int(match.group(2) or 1),
                    int(match.group(5)), int(match.group(6)))
    return None


def _pack_push(reflection: Reflection, values: Mapping[str, Any]) -> bytes:
    import numpy as np

    block = reflection.push_constants
    if block is None:
        raise BindingError("error: push: the shader declares no push "
                           "constants")
    members = {m.name: m for m in block.members}
    names = ", ".join(members) or "none"
    for name in values:
        if name not in members:
            raise BindingError(f"error: push['{name}']: the push constants "
                               f"have no member '{name}' (they have {names})")
    data = bytearray(reflection.push_constant_size)
    for member in block.members:
        if member.name not in values:
            continue
        layout = _member_layout(member.type)
        if layout is None:
            raise BindingError(
                f"error: push['{member.name}']: a {member.type} member is "
                "not packed from a dict; give push= as bytes or an array")
        dtype, components, elements, stride = layout
        try:
            value = np.asarray(values[member.name], dtype=dtype)
        except (TypeError, ValueError, OverflowError) as error:
            raise BindingError(f"error: push['{member.name}']: {error} "
                               f"(the member is {member.type})") from None
        if value.size != components * elements:
            raise BindingError(
                f"error: push['{member.name}']: {value.size} value(s) given, "
                f"but {member.type} has {components * elements}")
        value = value.reshape(elements, components)
        item = np.dtype(dtype).itemsize * components
        for i in range(elements):
            at = member.offset + i * stride
            data[at:at + item] = value[i].tobytes()
    return bytes(data)


def _resource_key(what: str, key: Any) -> Tuple[int, int, int, bool]:
    if isinstance(key, int):
        return 0, key, 0, False
    if (isinstance(key, tuple) and len(key) in (2, 3)
            and all(isinstance(k, int) and k >= 0 for k in key)):
        return key[0], key[1], key[2] if len(key) == 3 else 0, len(key) == 3
    raise BindingError(f"error: {what}[{key!r}]: expected (set, binding), "
                       "(set, binding, element) or a binding of set 0")


def _contiguous(value: Any, copies: List[Tuple[Any, Any]]) -> Any:
    """value itself when it is C-contiguous (zero-copy); else a contiguous
    copy, written back after the dispatch."""
    flags = getattr(value, "flags", None)
    if flags is None or getattr(flags, "c_contiguous", True):
        return value
    import numpy as np

    copy = np.ascontiguousarray(value)
    if value.flags.writeable:
        copies.append((value, copy))
    return copy


def _check_numbers(**values: Any) -> None:
    """BindingError for a count that is not a non-negative int (repeat: at
    least 1) or a timeout that is not a non-negative number."""
    for name, value in values.items():
        if name == "timeout":
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
                  and value >= 0)
            expected = "a number of seconds, 0 or more"
        else:
            least = 1 if name == "repeat" else 0
            ok = (isinstance(value, int) and not isinstance(value, bool)
                  and value >= least)
            expected = f"an integer, {least} or more"
        if not ok:
            raise BindingError(f"error: {name}={value!r}: expected {expected}")


def _groups(groups: Union[int, Sequence[int]]) -> Tuple[int, int, int]:
    counts = [groups] if isinstance(groups, int) else list(groups)
    if (not 1 <= len(counts) <= 3 or
            not all(isinstance(c, int) and c >= 1 for c in counts)):
        raise BindingError(f"error: groups={groups!r}: expected one to three "
                           "positive workgroup counts")
    counts += [1] * (3 - len(counts))
    return counts[0], counts[1], counts[2]


def _extent(image: Image, where: str) -> Tuple[int, int, int]:
    extent = ([image.extent] if isinstance(image.extent, int)
              else list(image.extent))
    if (not 1 <= len(extent) <= 3 or
            not all(isinstance(e, int) and e >= 1 for e in extent)):
        raise BindingError(f"error: {where}: extent={image.extent!r}: "
                           "expected width, (width, height) or (width, "
                           "height, depth), each positive")
    extent += [1] * (3 - len(extent))
    return extent[0], extent[1], extent[2]


def _check_element_type(key: Any, value: Any,
                        kernels: Sequence["Kernel"]) -> None:
    """Warns when a numpy array's dtype is not the element type of the
    buffer's runtime array (float64 for f32, int64 for u32); uint8 arrays
    are taken as raw bytes."""
    dtype = getattr(value, "dtype", None)
    if dtype is None or dtype.kind == "V" or dtype.itemsize == 1:
        return
    s, b, _, _ = key
    for kernel in kernels:
        resource = kernel.reflect().resource(s, b)
        if resource is None or not resource.members:
            continue
        match = re.fullmatch(r"array<(?:vec\d<)?(\w+?)>?,stride=\d+>",
                             resource.members[-1].type)
        if not match or match.group(1) not in _SCALAR_DTYPES:
            return
        expected = _SCALAR_DTYPES[match.group(1)]
        import numpy as np

        if match.group(1) != "bool" and np.dtype(expected) != dtype:
            name = resource.name or resource.block_type
            warnings.warn(
                f"buffers[{key[:2]!r}]: a {dtype} array for '{name}' (set "
                f"{s}, binding {b}), whose elements are {match.group(1)}: the "
                f"kernel reads its bytes as {match.group(1)}", LayoutWarning,
                stacklevel=4)
        return


def _resources(buffers: Optional[Mapping[Any, Any]], push: Any,
               images: Optional[Mapping[Any, Image]],
               samplers: Optional[Mapping[Any, Sampler]],
               kernels: Sequence["Kernel"],
               copies: List[Tuple[Any, Any]]) -> Dict[str, Any]:
    """The resource arguments of a dispatch or draw, as _native takes
    them; non-contiguous arrays' copies are added to `copies`."""
    buffer_list = []
    for key, value in (buffers or {}).items():
        s, b, e, has_e = _resource_key("buffers", key)
        _check_element_type((s, b, e, has_e), value, kernels)
        buffer_list.append((s, b, e, has_e, _contiguous(value, copies)))
    image_list = []
    for key, image in (images or {}).items():
        s, b, e, has_e = _resource_key("images", key)
        where = f"images[{key!r}]"
        if not isinstance(image, Image):
            raise BindingError(f"error: {where}: expected an spvbridge.Image")
        sampler = (image.sampler._settings(where)
                   if image.sampler is not None else None)
        image_list.append((s, b, e, has_e, _contiguous(image.data, copies),
                           image.format, _extent(image, where), image.layers,
                           image.levels, sampler))
    sampler_list = []
    for key, sampler in (samplers or {}).items():
        s, b, e, has_e = _resource_key("samplers", key)
        where = f"samplers[{key!r}]"
        if not isinstance(sampler, Sampler):
            raise BindingError(f"error: {where}: expected an "
                               "spvbridge.Sampler")
        sampler_list.append((s, b, e, has_e, sampler._settings(where)))
    if isinstance(push, Mapping):
        reflections = [k.reflect() for k in kernels]
        declaring = [r for r in reflections if r.push_constants is not None]
        push = _pack_push(declaring[0] if declaring else reflections[0], push)
    elif push is not None:
        push = _contiguous(push, [])
    return {"buffers": buffer_list, "images": image_list,
            "samplers": sampler_list, "push": push}


def _printing(printf: Optional[Callable[[str], Any]],
              run: Callable[..., Dict[str, Any]], *args: Any) -> Dict[str, Any]:
    """run(*args), the native dispatch or draw, with its printf lines sent
    to the callback printf whether it succeeds or fails."""
    try:
        raw = run(*args)
    except DispatchError as error:
        _send_lines(printf, error.printf)
        raise
    _send_lines(printf, raw["printf"])
    return raw


def _send_lines(printf: Optional[Callable[[str], Any]], text: str) -> None:
    if printf is not None:
        for line in text.splitlines():
            printf(line)


class Kernel:
    """A compiled entry point: its interface, and dispatches of it."""

    def __init__(self, native: "_native._Kernel") -> None:
        self._native = native

    @property
    def entry_point(self) -> str:
        return self._native.entry_point

    @property
    def workgroup_size(self) -> Tuple[int, int, int]:
        """LocalSize, after specialization."""
        return self._native.workgroup_size

    @property
    def source_name(self) -> str:
        return self._native.source_name

    def reflect(self) -> Reflection:
        """The module's interface: resources, push constants, spec
        constants, workgroup memory, capabilities."""
        return self._native.reflection

    def disassemble(self) -> str:
        """The module as loaded, in SPIR-V assembly."""
        return self._native.disassemble()

    def dispatch(self, groups: Union[int, Sequence[int]],
                 buffers: Optional[Mapping[Any, Any]] = None,
                 push: Any = None,
                 images: Optional[Mapping[Any, Image]] = None,
                 samplers: Optional[Mapping[Any, Sampler]] = None, *,
                 subgroup_size: int = 32, threads: int = 0,
                 check_bounds: bool = True, check_races: bool = False,
                 check_undefined: bool = False, check_nan: bool = False,
                 repeat: int = 1, timeout: float = 60.0,
                 printf: Optional[Callable[[str], Any]] = None
                 ) -> DispatchResult:
        """Runs groups (x[, y[, z]]) workgroups, in place on the buffers.

        buffers: {(set, binding): array} ((set, binding, element) for
        descriptor arrays; a bare binding means set 0): numpy arrays or any
        C-contiguous buffer-protocol object, read and written in place
        (other numpy arrays go through a contiguous copy). push: bytes, an
        array, or {member name: value} with the members not named zero. images: {(set, binding): Image};
        samplers: {(set, binding): Sampler} for separate samplers.

        check_bounds (default on) raises OutOfBoundsError at the first access
        outside a buffer; off, such reads give zero and writes are dropped
        (robustBufferAccess2), so Python's memory is never touched outside
        the arrays. check_races raises DataRaceError, check_undefined and
        check_nan UndefinedResultError. repeat: runs for timing, each from
        the buffers' contents before the first. timeout: seconds a run may
        take (0: no limit); past it the kernel is stopped and
        DispatchTimeoutError raised, the buffers left part-written; Ctrl-C
        stops it too, with KeyboardInterrupt. printf: called with each
        debugPrintfEXT line after the dispatch, also when it fails; the
        result's printf (or the DispatchError's) has them all.
        """
        _check_numbers(subgroup_size=subgroup_size, threads=threads,
                       repeat=repeat, timeout=timeout)
        copies: List[Tuple[Any, Any]] = []
        common = _resources(buffers, push, images, samplers, [self], copies)
        common.update(subgroup_size=subgroup_size, threads=threads,
                      check_bounds=check_bounds, check_races=check_races,
                      check_undefined=check_undefined, check_nan=check_nan,
                      timeout=float(timeout))
        try:
            raw = _printing(printf, self._native._dispatch, _groups(groups),
                            common, repeat)
        finally:
            for original, copy in copies:
                original[...] = copy
        return DispatchResult(**raw)

    def __repr__(self) -> str:
        x, y, z = self.workgroup_size
        return (f"<spvbridge.Kernel {self.entry_point} of "
                f"{self.source_name}, workgroup {x}x{y}x{z}>")


_VERTEX_FORMATS = {("f", 4): "SFLOAT", ("i", 4): "SINT", ("u", 4): "UINT"}


def _vertex_input(location: int, value: Any) -> Tuple[int, Any, str]:
    """(location, data, VkFormat name) of one vertices= entry: an array of
    32-bit floats or integers, shape (count,) or (count, components), or
    (data, "FORMAT")."""
    if isinstance(value, tuple) and len(value) == 2:
        return location, _contiguous(value[0], []), value[1]
    import numpy as np

    array = np.ascontiguousarray(value)
    key = (array.dtype.kind, array.dtype.itemsize)
    components = 1 if array.ndim == 1 else array.shape[-1]
    if key not in _VERTEX_FORMATS or array.ndim > 2 or not 1 <= components <= 4:
        raise BindingError(
            f"error: vertices[{location}]: an array of {array.dtype} with "
            f"shape {array.shape} has no format of its own; give (data, "
            "\"FORMAT\") with a VkFormat name")
    name = "".join(f"{c}32" for c in "RGBA"[:components])
    return location, array, f"{name}_{_VERTEX_FORMATS[key]}"


def draw(fragment: Kernel, vertex: Optional[Kernel] = None, *,
         size: Tuple[int, int], format: str = "R8G8B8A8_UNORM",
         vertices: Optional[Mapping[int, Any]] = None, indices: Any = None,
         topology: Optional[str] = None, count: Optional[int] = None,
         tess_control: Optional[Kernel] = None,
         tess_evaluation: Optional[Kernel] = None,
         geometry: Optional[Kernel] = None, patch_control_points: int = 3,
         instances: int = 1, location: int = 0, samples: int = 1,
         buffers: Optional[Mapping[Any, Any]] = None, push: Any = None,
         images: Optional[Mapping[Any, Image]] = None,
         samplers: Optional[Mapping[Any, Sampler]] = None, threads: int = 0,
         subgroup_size: int = 32, check_bounds: bool = True,
         timeout: float = 60.0,
         printf: Optional[Callable[[str], Any]] = None,
         debug_pixel: Optional[Tuple[int, int]] = None) -> Any:
    """Draws and returns the colour attachment of output `location` as an
    array of shape (height, width, components), row 0 at the top.

    Without `vertex`, the fragment shader covers the whole framebuffer (as
    `spv-run shader.frag --framebuffer`). With it, vertices={location:
    array} feed its inputs (float32, int32 or uint32 arrays of shape (n,)
    or (n, components), or (data, "R16G16_SFLOAT")-style pairs), indices
    (uint8, uint16 or uint32) make an indexed draw, and count overrides the
    vertex count; topology defaults to triangle_list. tess_control and
    tess_evaluation (both or neither) tessellate patches of
    patch_control_points vertices (topology then defaults to patch_list);
    geometry runs a geometry shader on the primitives. size: (width, height); format: the VkFormat of float
    outputs (R8G8B8A8_UNORM gives uint8 texels, R32G32B32A32_SFLOAT
    float32); integer outputs are R32G32B32A32_SINT or _UINT. samples=4
    draws with Vulkan's standard 4 sample locations and returns the
    resolved image (the average of the samples; sample 0 for integer
    outputs). Resources bind as for Kernel.dispatch, visible to both
    stages; subgroup_size: the fragment shader's subgroups (at least 4,
    whole quads, as `spv-run --subgroup-size`); a draw past its timeout
    is stopped and raises
    DispatchTimeoutError. printf: called with each debugPrintfEXT line, as
    for Kernel.dispatch. debug_pixel=(x, y) runs the fragment invocations
    that cover that pixel, and the vertex and geometry shader invocations
    behind their primitives, through debug builds, each on a thread named
    for it ("pixel X,Y", "vertex N", "primitive N"), so that a breakpoint in the shader's source (Python run
    under gdb or lldb) stops for that pixel only, as `spv-run
    --debug-pixel`.
    """
    import numpy as np

    _check_numbers(threads=threads, instances=instances, location=location,
                   samples=samples, timeout=timeout, subgroup_size=subgroup_size,
                   patch_control_points=patch_control_points)
    if count is not None:
        _check_numbers(count=count)
    if debug_pixel is not None:
        if (not isinstance(debug_pixel, tuple) or len(debug_pixel) != 2
                or not all(isinstance(c, int) and c >= 0
                           for c in debug_pixel)):
            raise BindingError(f"error: debug_pixel={debug_pixel!r}: expected "
                               "(x, y), two integers from 0")
    width, height = size
    middle = [tess_control, tess_evaluation, geometry]
    kernels = [fragment] + [k for k in [vertex] + middle if k is not None]
    if topology is None:
        topology = ("patch_list" if tess_control is not None
                    or tess_evaluation is not None else "triangle_list")
    copies: List[Tuple[Any, Any]] = []
    common = _resources(buffers, push, images, samplers, kernels, copies)
    common.update(subgroup_size=subgroup_size, threads=threads,
                  check_bounds=check_bounds,
                  check_races=False, check_undefined=False, check_nan=False,
                  timeout=float(timeout))
    vertex_list = [_vertex_input(loc, value)
                   for loc, value in (vertices or {}).items()]
    index_size = 4
    if indices is not None:
        indices = np.ascontiguousarray(indices)
        if indices.dtype not in (np.uint8, np.uint16, np.uint32):
            raise BindingError(f"error: indices: {indices.dtype} indices "
                               "(expected uint8, uint16 or uint32)")
        index_size = indices.dtype.itemsize
    try:
        raw = _printing(printf, _native._draw, fragment._native,
                        *[k._native if k is not None else None
                          for k in [vertex] + middle],
                        patch_control_points, width, height, format, vertex_list, indices,
                        index_size, topology, count, instances, location,
                        samples, debug_pixel, common)
    finally:
        for original, copy in copies:
            original[...] = copy
    components, texel_bytes = raw["components"], raw["texel_bytes"]
    item = texel_bytes // components
    kind = {"float": "f", "signed": "i", "unsigned": "u"}[raw["kind"]]
    texels = np.frombuffer(raw["texels"], dtype=np.uint8)
    if texel_bytes % components or item not in (1, 2, 4, 8):
        # Packed formats: each texel's bytes.
        return texels.reshape(height, width, texel_bytes)
    return texels.view(f"<{kind}{item}").reshape(height, width, components)


def run_amber(script: Union[str, "os.PathLike[str]"], *, threads: int = 0,
              subgroup_size: int = 32, check_bounds: bool = False,
              check_races: bool = False, check_undefined: bool = False,
              timeout: float = 60.0,
              image_directory: Optional[str] = None) -> AmberResult:
    """Runs an AmberScript or VkScript file (or its text) as
    `spv-run SCRIPT` does and returns its outcome with each failed check's
    line; failed checks do not raise. A script still running after
    `timeout` seconds (0: no limit) fails at the RUN it was stopped in;
    Ctrl-C stops it and raises KeyboardInterrupt."""
    _check_numbers(threads=threads, subgroup_size=subgroup_size,
                   timeout=timeout)
    text = os.fspath(script)
    is_text = "\n" in text
    raw = _native._run_amber(text, is_text, threads, subgroup_size,
                             check_bounds, check_races, check_undefined,
                             float(timeout), image_directory or "")
    raw["failures"] = [AmberFailure(*f) for f in raw["failures"]]
    return AmberResult(**raw)


def set_printf_limit(limit: Optional[int]) -> None:
    """Keeps at most `limit` bytes of debugPrintfEXT output per dispatch,
    draw or script (None: no limit; the default is 64 MiB), so that a
    shader printing in an endless loop cannot exhaust memory before its
    timeout. Past it, lines are counted, not kept, and the output ends with
    a line saying how many were dropped."""
    if limit is None:
        limit = 2**64 - 1
    elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"error: set_printf_limit({limit!r}): expected a "
                         "number of bytes (an int >= 0) or None")
    _native._set_printf_limit(limit)


def set_kernel_cache(directory: Union[str, "os.PathLike[str]", None]) -> None:
    """Keeps compiled kernels in `directory` (None: none), so that later
    processes load them instead of compiling. The default is
    $SPVBRIDGE_KERNEL_CACHE, else ~/.cache/spvbridge."""
    _native._set_kernel_cache("off" if directory is None
                              else os.fspath(directory))
