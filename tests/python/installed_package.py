"""Imports the installed package from the folder given, not the build tree,
and runs a kernel: 64 squares, against Python's own."""

import array
import pathlib
import sys

import spvbridge

site = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(spvbridge.__file__).resolve()
assert site in where.parents, f"imported {where}, not from {site}"
assert (where.parent / "__init__.pyi").exists()
assert (where.parent / "py.typed").exists()

kernel = spvbridge.compile("""
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * gl_LocalInvocationIndex; }
""")
out = array.array("I", [0] * 64)
kernel.dispatch(1, buffers={(0, 0): out})
assert list(out) == [i * i for i in range(64)], list(out)
print(f"installed package at {where.parent} ran a kernel")
