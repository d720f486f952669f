"""compile-phases.test: reads spv-run --json on stdin and checks that
compile_phases_ms names every phase, that each is a duration (>= 0), that
together they fit in compile_ms (spv-run times the whole compile around
them), and that the phases argv[1] names are positive and the others
(argv[2]) zero. Durations are never compared with a fixed number."""
import json
import sys

PHASES = ["frontend", "validate", "reflect", "deserialize", "lower",
          "translate", "optimize", "codegen", "load"]

result = json.loads(sys.stdin.read())
phases = result["compile_phases_ms"]
if sorted(phases) != sorted(PHASES):
    sys.exit("phases %s, expected %s" % (sorted(phases), sorted(PHASES)))
for name, value in phases.items():
    if value < 0:
        sys.exit("%s: %f ms" % (name, value))
total = sum(phases.values())
if total > result["compile_ms"]:
    sys.exit("the phases take %f ms, more than compile_ms %f"
             % (total, result["compile_ms"]))
positive = [p for p in sys.argv[1].split(",") if p]
zero = [p for p in sys.argv[2].split(",") if p]
for name in positive:
    if phases[name] <= 0:
        sys.exit("%s took no time" % name)
for name in zero:
    if phases[name] != 0:
        sys.exit("%s took %f ms, expected none" % (name, phases[name]))
print("phases ok: %s" % ", ".join(positive))
