# Prints the corpus runner's rerun variants and output bookkeeping for
# corpus-runner-variants.test.
import random
import sys

sys.path.insert(0, sys.argv[1])
import corpus_runner as cr

# The same draws in each variant: 1000 of each type from one seed.
TYPES = ("f32", "u32", "i32", "f16", "bool") * 200
draws = {}
for values in ("signed", "positive", "ones"):
    rng = random.Random(7)
    draws[values] = [cr.random_value(rng, t, values) for t in TYPES]
floats = [i for i, t in enumerate(TYPES) if t.startswith("f")]
ints = [i for i, t in enumerate(TYPES) if t in ("u32", "i32")]
print("signed floats negative: %s" %
      any(draws["signed"][i] < 0 for i in floats))
print("positive floats are |signed|: %s" %
      all(draws["positive"][i] == abs(draws["signed"][i]) for i in floats))
print("positive ints unchanged: %s" %
      all(draws["positive"][i] == draws["signed"][i] for i in ints))
print("ones floats are positive's: %s" %
      all(draws["ones"][i] == draws["positive"][i] for i in floats))
print("ones ints: %s" % sorted({draws["ones"][i] for i in ints}))

refl = {"local_size": [1, 2, 3], "local_size_spec_ids": [0, None, 2],
        "spec_constants": [{"id": 0, "type": "u32", "name": "", "default": 1},
                           {"id": 2, "type": "u32", "name": "",
                            "default": 3}]}
for unit in (False, True):
    print("local size unit=%s: %s" % (unit, cr.choose_local_size(refl, unit)))

cmd = ["spv-run", "m.spv", "--compare", "--json", "--groups", "4", "1", "1",
       "--buffer", "0:1:storage:/w/b0_1.bin",
       "--image", "0:2[3]:rgba8:64x64:/w/i0_2_3.bin",
       "--device-buffer", "d0:/w/d0.bin", "--push", "/w/push.bin"]
print("outputs: %s" % cr.output_names(cmd))
print("cpu: %s" % " ".join(cr.cpu_command(cmd)))
report = {"compare": {"buffers": [
    {"set": 0, "binding": 1, "differing": 2},
    {"set": 0, "binding": 2, "array_element": 3, "differing": 1},
    {"set": 0, "binding": 4, "differing": 0},
    {"device_buffer": "d0", "set": 0, "binding": 0, "differing": 5}]}}
print("differing: %s" % cr.differing_outputs(report))
