#!/usr/bin/env python3
"""Random programs over structs, loops and calls, run on spvbridge and on
lavapipe (spv-run --compare) after spirv-opt passes, as GraphicsFuzz runs
its variants: so the next miscompile of that kind is ours to find first.

Each program is a GLSL compute shader made from a seed: nested structs
(with arrays and vectors), local struct variables declared without an
initializer and filled field by field, loops whose bounds come from a
buffer (so nothing folds them away), functions that take and return
structs, partial writes of inner members inside loops and branches, and
integer arithmetic only (wrapping, no division), whose every result is
defined. glslang compiles it; spirv-opt then applies a random sequence of
the passes GraphicsFuzz's variants list (scalar replacement, local
access-chain conversion, dead-insert elimination, ...) or -O; spirv-val
checks the result. Both backends run it on the same inputs and every
output word must agree.

Usage: random_programs.py --spv-run PATH [--seeds FIRST:COUNT] [--keep DIR]
Exit status: 0 when every program agrees, 1 otherwise (each difference
names its seed, and --keep keeps the GLSL and SPIR-V to reproduce it).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

# spirv-opt passes GraphicsFuzz variants list (cov-nested-structs-...).
PASSES = [
    "--convert-local-access-chains", "--reduce-load-size",
    "--simplify-instructions", "--vector-dce", "--eliminate-dead-branches",
    "--merge-blocks", "--eliminate-local-single-block",
    "--redundancy-elimination", "--eliminate-local-single-store",
    "--merge-return", "--scalar-replacement=100", "--eliminate-dead-inserts",
    "--copy-propagate-arrays", "--combine-access-chains",
    "--eliminate-local-multi-store", "--if-conversion", "--ccp",
    "--inline-entry-points-exhaustive", "--private-to-local",
]

OUTPUTS = 16  # int results per invocation
SKIP = "skip"
INVOCATIONS = 4


class Program:
    """One random shader: structs, helper functions and main's body."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.lines = []
        self.structs = []  # (name, [(field, type)])

    def struct_types(self):
        r = self.rng
        inner = [("a", "int"), ("v", "ivec2")]
        if r.random() < 0.5:
            inner.append(("n", "int[2]"))
        outer = [("s", "S0"), ("c", "int")]
        if r.random() < 0.7:
            outer.append(("arr", "int[3]"))
        if r.random() < 0.5:
            outer.append(("w", "ivec4"))
        self.structs = [("S0", inner), ("S1", outer)]

    def leaves(self, struct, prefix):
        """Every scalar lvalue under a struct value `prefix`."""
        fields = dict(self.structs)[struct]
        out = []
        for name, type_ in fields:
            path = f"{prefix}.{name}"
            if type_ in dict(self.structs):
                out += self.leaves(type_, path)
            elif type_.endswith("]"):
                count = int(type_[type_.index("[") + 1:-1])
                out += [f"{path}[{i}]" for i in range(count)]
            elif type_.startswith("ivec"):
                out += [f"{path}.{c}" for c in "xyzw"[:int(type_[-1])]]
            else:
                out.append(path)
        return out

    def expr(self, names, depth=0):
        r = self.rng
        if depth > 2 or r.random() < 0.4:
            choice = r.random()
            if choice < 0.5 and names:
                return r.choice(names)
            if choice < 0.8:
                return f"inputs[{r.randrange(8)}]"
            return str(r.randrange(-5, 6))
        op = r.choice(["+", "-", "*", "^", "&", "|"])
        return (f"({self.expr(names, depth + 1)} {op} "
                f"{self.expr(names, depth + 1)})")

    def fill(self, var, struct, names, indent):
        """Writes every leaf of `var` (declared without an initializer)."""
        for leaf in self.leaves(struct, var):
            self.lines.append(f"{indent}{leaf} = {self.expr(names)};")

    def loop(self, var, struct, names, indent, depth):
        r = self.rng
        i = f"i{depth}"
        bound = f"inputs[{r.randrange(8)}] & 3"
        self.lines.append(f"{indent}for (int {i} = 0; {i} < ({bound}) + 1; "
                          f"{i}++) {{")
        leaves = self.leaves(struct, var)
        for _ in range(r.randrange(1, 4)):
            target = r.choice(leaves)
            roll = r.random()
            if roll < 0.3:
                self.lines.append(
                    f"{indent}  if ((({self.expr(names + [i])}) & 1) == 0)")
                self.lines.append(f"{indent}    {target} = "
                                  f"{self.expr(names + [i])};")
            elif roll < 0.5 and depth < 2:
                self.loop(var, struct, names + [i], indent + "  ", depth + 1)
            elif roll < 0.6 and "arr" in dict(dict(self.structs)[struct]):
                self.lines.append(f"{indent}  {var}.arr[{i} % 3] = "
                                  f"{self.expr(names + [i])};")
            else:
                self.lines.append(f"{indent}  {target} = "
                                  f"{self.expr(names + [i])};")
        self.lines.append(f"{indent}}}")

    def function(self, index):
        """S1 fN(S1 p, int k): copies, loops over members, returns a struct
        (by a fresh local, as GraphicsFuzz's func() does)."""
        r = self.rng
        self.lines.append(f"S1 f{index}(S1 p, int k) {{")
        self.lines.append("  S1 t;")
        names = ["k"] + self.leaves("S1", "p")
        if r.random() < 0.5:
            self.lines.append("  t = p;")
        else:
            self.fill("t", "S1", names, "  ")
        self.loop("t", "S1", names + self.leaves("S1", "t"), "  ", 0)
        if r.random() < 0.5:
            self.lines.append("  t.s = S0(" + ", ".join(
                self.constructor_args("S0", names)) + ");")
        self.lines.append("  return t;")
        self.lines.append("}")

    def constructor_args(self, struct, names):
        args = []
        for _, type_ in dict(self.structs)[struct]:
            if type_ == "int":
                args.append(self.expr(names))
            elif type_.startswith("ivec"):
                n = int(type_[-1])
                args.append(f"ivec{n}(" + ", ".join(
                    self.expr(names) for _ in range(n)) + ")")
            elif type_.endswith("]"):
                n = int(type_[type_.index("[") + 1:-1])
                args.append(f"int[{n}](" + ", ".join(
                    self.expr(names) for _ in range(n)) + ")")
            else:
                args.append(f"{type_}(" + ", ".join(
                    self.constructor_args(type_, names)) + ")")
        return args

    def source(self):
        r = self.rng
        self.struct_types()
        self.lines = [
            "#version 450",
            f"layout(local_size_x = {INVOCATIONS}) in;",
            "layout(set = 0, binding = 0) buffer Inputs { int inputs[8]; };",
            "layout(set = 0, binding = 1) buffer Results { int results[]; };",
        ]
        for name, fields in self.structs:
            self.lines.append(f"struct {name} {{")
            for field, type_ in fields:
                if type_.endswith("]"):
                    base, count = type_[:type_.index("[")], type_[
                        type_.index("["):]
                    self.lines.append(f"  {base} {field}{count};")
                else:
                    self.lines.append(f"  {type_} {field};")
            self.lines.append("};")
        functions = r.randrange(1, 3)
        for f in range(functions):
            self.function(f)
        self.lines.append("void main() {")
        self.lines.append("  int id = int(gl_GlobalInvocationID.x);")
        self.lines.append("  S1 x;")
        names = ["id"]
        self.fill("x", "S1", names, "  ")
        self.loop("x", "S1", names + self.leaves("S1", "x"), "  ", 0)
        for f in range(functions):
            self.lines.append(f"  x = f{f}(x, {self.expr(names)});")
            if r.random() < 0.5:
                self.loop("x", "S1", names + self.leaves("S1", "x"), "  ", 0)
        leaves = self.leaves("S1", "x")
        for k in range(OUTPUTS):
            value = leaves[k % len(leaves)]
            self.lines.append(
                f"  results[id * {OUTPUTS} + {k}] = {value};")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def check(seed, spv_run, directory):
    """Returns None when the program agrees, else what went wrong."""
    program = Program(seed)
    source = program.source()
    rng = random.Random(seed * 7919 + 1)
    glsl = os.path.join(directory, f"p{seed}.comp")
    raw = os.path.join(directory, f"p{seed}.raw.spv")
    optimized = os.path.join(directory, f"p{seed}.spv")
    with open(glsl, "w") as f:
        f.write(source)
    compiled = run(["glslangValidator", "-V", "--target-env", "vulkan1.1",
                    glsl, "-o", raw])
    if compiled.returncode:
        return "glslang: " + compiled.stdout.strip()[-300:]
    if rng.random() < 0.25:
        passes = ["-O"]
    else:
        passes = [rng.choice(PASSES) for _ in range(rng.randrange(8, 30))]
    optimizing = run(["spirv-opt", "--target-env=vulkan1.1"] + passes +
                     [raw, "-o", optimized])
    if optimizing.returncode < 0:
        return SKIP  # spirv-opt itself crashed: not ours to judge
    if optimizing.returncode:
        return "spirv-opt: " + optimizing.stderr.strip()[-300:]
    valid = run(["spirv-val", "--target-env", "vulkan1.1", optimized])
    if valid.returncode:
        return "spirv-val: " + valid.stderr.strip()[-300:]
    inputs = ",".join(str(rng.randrange(-20, 21)) for _ in range(8))
    compared = run([spv_run, optimized, "--groups", "1", "1", "1",
                    "--repeat", "1", "--buffer", f"0:0:storage:i32:{inputs}",
                    "--buffer", "0:1:storage:i32:" +
                    ",".join(["0"] * (OUTPUTS * INVOCATIONS)),
                    "--compare"], timeout=120)
    if compared.returncode:
        return ("differs (spirv-opt " + " ".join(passes) + "):\n" +
                (compared.stdout + compared.stderr).strip()[-1500:])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spv-run", required=True)
    parser.add_argument("--seeds", default="1:40",
                        help="FIRST:COUNT (default 1:40)")
    parser.add_argument("--keep", help="keep the programs in this folder")
    args = parser.parse_args()
    first, count = (int(part) for part in args.seeds.split(":"))
    directory = args.keep or tempfile.mkdtemp(prefix="spvb-random-")
    os.makedirs(directory, exist_ok=True)
    failures = skipped = 0
    for seed in range(first, first + count):
        problem = check(seed, args.spv_run, directory)
        if problem == SKIP:
            skipped += 1
            print(f"seed {seed}: skipped: spirv-opt crashed on it")
        elif problem:
            failures += 1
            print(f"seed {seed}: {problem}")
    ran = count - skipped
    print(f"{ran - failures} of {ran} random programs agree with lavapipe"
          + (f" ({skipped} skipped)" if skipped else "")
          + (f" (programs in {directory})" if args.keep else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
