# Prints the corpus runner's image decisions for corpus-runner-images.test.
import random
import struct
import sys

sys.path.insert(0, sys.argv[1])
import corpus_runner as cr


def image(dim="2D", sampled=2, arrayed=False, component="float", bits=32,
          format="unknown", kind=None, components=None, texel=None,
          multisampled=False):
    return {"dim": dim, "sampled": sampled, "arrayed": arrayed,
            "component": component, "component_bits": bits, "format": format,
            "format_kind": kind, "format_components": components,
            "texel_bytes": texel, "multisampled": multisampled, "depth": False}


for label, img in [("float unknown", image()),
                   ("int unknown", image(component="int")),
                   ("uint unknown", image(component="uint")),
                   ("uint64 unknown", image(component="uint", bits=64)),
                   ("float16 unknown", image(bits=16)),
                   ("float rgba8", image(format="rgba8", kind="unorm",
                                         components=4, texel=4))]:
    print("format %s: %s %s" % ((label,) + cr.image_format(img)))

for prefix, extent in [("shape", [64, 64, 1]), ("shape1d", [4096, 1, 1])]:
    cases = [("Buffer storage", image(dim="Buffer")),
             ("1D storage", image(dim="1D")),
             ("2D storage", image()),
             ("2D sampled", image(sampled=1)),
             ("2D arrayed storage", image(arrayed=True)),
             ("3D storage", image(dim="3D")),
             ("Cube storage", image(dim="Cube")),
             ("Cube arrayed sampled", image(dim="Cube", arrayed=True,
                                            sampled=1))]
    if prefix == "shape1d":
        cases = [cases[2], cases[6]]
    for label, img in cases:
        size, layers, levels = cr.image_shape(img, extent, 8192)
        print("%s %s: %s %d %d" % (prefix, label, size, layers, levels))

print("coordinates " + ", ".join(
    "%s %d" % (label, cr.image_coordinates(img)) for label, img in [
        ("Buffer", image(dim="Buffer")), ("1D", image(dim="1D")),
        ("2D", image()), ("Cube", image(dim="Cube")),
        ("3D", image(dim="3D")), ("2D[]", image(arrayed=True)),
        ("1D[]", image(dim="1D", arrayed=True))]))

print("small floats", *[cr.pack_small_float(v, 6)
                        for v in (1.0, 0.5, 1.5, 2.0, 1 / 32)],
      cr.pack_small_float(1.5, 5), cr.pack_small_float(0.0, 6))

resource = {"set": 0, "binding": 0, "kind": "storage-image",
            "image": image(format="rgba8", kind="unorm", components=4,
                           texel=4, sampled=1)}
name, text, data = cr.make_image(resource, [4, 2, 1], 8, random.Random(1))
print("image 0:0 %s %s %d bytes" % (name, text, len(data)))


def unpack_small_float(bits, mantissa_bits):
    exponent, fraction = bits >> mantissa_bits, bits & ((1 << mantissa_bits) - 1)
    if exponent == 0:
        return fraction / (1 << mantissa_bits) * 2.0 ** -14
    return (1 + fraction / (1 << mantissa_bits)) * 2.0 ** (exponent - 15)


ok = True
rng = random.Random(7)
for _ in range(200):
    word = struct.unpack("<I", cr.random_texel(rng, "float", 3, 4,
                                               "r11f_g11f_b10f"))[0]
    for shift, width in ((0, 11), (11, 11), (22, 10)):
        value = unpack_small_float((word >> shift) & ((1 << width) - 1),
                                   width - 5)
        ok = ok and 0 <= value <= 2 and (value * 32).is_integer()
print("packed texel", "ok" if ok else "WRONG")


def resources(*images):
    return {"resources": [dict({"array_size": 1, "non_writable": False,
                                "set": 0, "binding": b}, **r)
                          for b, r in enumerate(images)],
            "capabilities": []}


sampler = resources({"kind": "sampler"},
                    {"kind": "storage-image", "image": image()})
print("skip", cr.skip_reason("test", sampler))
runtime = resources({"kind": "sampled-image", "image": image(sampled=1)},
                    {"kind": "storage-image", "image": image()})
runtime["resources"][0]["array_size"] = 0
print("skip", cr.skip_reason("test", runtime))
fixed = resources({"kind": "sampled-image", "image": image(sampled=1)},
                  {"kind": "storage-image", "image": image()})
fixed["resources"][0]["array_size"] = 4
print("skip", cr.skip_reason("test", fixed))
print("skip", cr.skip_reason("test", resources(
    {"kind": "sampled-image", "image": image(sampled=1, multisampled=True)},
    {"kind": "storage-image", "image": image()}))[0])
aliased = resources({"kind": "sampled-image", "image": image(sampled=1)},
                    {"kind": "storage-image",
                     "image": image(component="uint", format="r32ui")})
aliased["resources"][1]["binding"] = 0
print("skip %s: %s" % cr.skip_reason("test", aliased))
shapes = resources({"kind": "sampled-image", "image": image(sampled=1)},
                   {"kind": "sampled-image", "image": image(dim="3D",
                                                            sampled=1)})
shapes["resources"][1]["binding"] = 0
print("skip %s: %s" % cr.skip_reason("test", shapes))
print("skip", cr.skip_reason("test", resources({"kind": "storage-image",
                                        "image": image()})))
readonly = resources({"kind": "storage-image", "image": image()})
readonly["resources"][0]["non_writable"] = True
print("skip", cr.skip_reason("test", readonly)[0])
