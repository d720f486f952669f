#!/usr/bin/env python3
"""Evidence for docs/differential.md's analysis of sascha's computeraytracing shader.

Evaluates raytracing.comp (GLSL and HLSL behave alike) in float64 for one
pixel of the 64x64 image, from the inputs `corpus_runner.py --keep DIR`
kept for it (b0_1.bin: the UBO; b0_2.bin: the scene objects, std140, 48
bytes each), and reports what makes the result fragile: GLSL.std.450 Pow
with x = 0 and y <= 0 (undefined), and the nearest two hits of each ray
when they are closer than 1e-4 relative (a near-tie rounding decides).

  raytracing.py KEPT_DIR X Y [--objects FILE]
  raytracing.py KEPT_DIR --positive-exponents OUT   # specular -> |s| + 1
"""
import math
import struct
import sys

EPSILON, MAXLEN, SHADOW = 1e-4, 1000.0, 0.5


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def scale(a, s):
    return [x * s for x in a]


def normalize(a):
    return scale(a, 1 / math.sqrt(dot(a, a)))


def read_objects(path):
    raw = open(path, "rb").read()
    objects = []
    for i in range(len(raw) // 48):
        f = struct.unpack_from("<8f2i", raw, i * 48)
        objects.append({"p": list(f[0:4]), "diffuse": list(f[4:7]),
                        "specular": f[7], "id": f[8], "type": f[9]})
    return objects


class Scene:
    def __init__(self, ubo, objects):
        self.light, self.aspect = list(ubo[0:3]), ubo[3]
        self.fog, self.camera = list(ubo[4:7]), list(ubo[8:11])
        self.objects = objects
        self.notes = []

    def hit(self, o, d, obj):
        p = obj["p"]
        if obj["type"] == 0:  # sphere
            oc = sub(o, p[:3])
            b = 2 * dot(oc, d)
            h = b * b - 4 * (dot(oc, oc) - p[3] * p[3])
            return -1.0 if h < 0 else (-b - math.sqrt(h)) / 2
        dd = dot(d, p[:3])  # plane
        if dd == 0:
            return 0.0
        t = -(p[3] + dot(o, p[:3])) / dd
        return 0.0 if t < 0 else t

    def intersect(self, o, d):
        hits = sorted((self.hit(o, d, obj), obj["id"], obj["type"])
                      for obj in self.objects if obj["type"] in (0, 1))
        hits = [h for h in hits if EPSILON < h[0] < MAXLEN]
        if len(hits) > 1 and hits[1][0] - hits[0][0] < 1e-4 * hits[0][0]:
            self.notes.append("near-tie: t = %.10f (id %d, %s) and %.10f "
                              "(id %d, %s)" % (
                                  hits[0][0], hits[0][1],
                                  "sphere" if hits[0][2] == 0 else "plane",
                                  hits[1][0], hits[1][1],
                                  "sphere" if hits[1][2] == 0 else "plane"))
        return (hits[0][1], hits[0][0]) if hits else (-1, MAXLEN)

    def shadow(self, o, d, ident, t):
        for obj in self.objects:
            if obj["id"] == ident:
                continue
            tl = self.hit(o, d, obj) if obj["type"] in (0, 1) else MAXLEN
            if EPSILON < tl < t:
                return SHADOW, tl
        return 1.0, t

    def render(self, o, d, ident):
        color = [0.0, 0.0, 0.0]
        hit, t = self.intersect(o, d)
        if hit == -1:
            return color, o, d, ident
        pos = add(o, scale(d, t))
        light = normalize(sub(self.light, pos))
        normal = [0.0, 0.0, 0.0]
        for obj in self.objects:
            if obj["id"] != hit:
                continue
            if obj["type"] == 0:
                normal = scale(sub(pos, obj["p"][:3]), 1 / obj["p"][3])
            if obj["type"] == 1:
                normal = obj["p"][:3]
            diffuse = min(max(dot(normal, light), 0.1), 1.0)
            half = normalize(add(light, normalize(self.camera)))
            x, y = min(max(dot(normal, half), 0.0), 1.0), obj["specular"]
            if x == 0 and y <= 0:
                self.notes.append("pow(0, %g): undefined" % y)
                specular = math.inf
            else:
                specular = x ** y
            color = [c * diffuse + specular for c in obj["diffuse"]]
        if ident == -1:
            return color, o, d, ident
        ident = hit
        t = math.sqrt(dot(sub(self.light, pos), sub(self.light, pos)))
        factor, t = self.shadow(pos, light, ident, t)
        a = min(max(abs(t) / 20, 0.0), 1.0)
        color = [c * factor * (1 - a) + f * a for c, f in zip(color,
                                                               self.fog)]
        d = add(d, scale(normal, -2 * dot(normal, d)))
        return color, pos, d, ident

    def pixel(self, x, y, size=64):
        u, v = x / size, y / size
        o = self.camera
        d = normalize([(-1 + 2 * u) * self.aspect, -1 + 2 * v, -1.0])
        final, o, d, ident = self.render(o, d, 0)
        strength = 0.4
        for _ in range(2):
            color, o, d, ident = self.render(o, d, ident)
            mixed = [c * strength + f * (1 - strength)
                     for c, f in zip(color, final)]
            final = [(1 - strength) * f + strength * m
                     for f, m in zip(final, mixed)]
            strength *= 0.5
        return final


def main():
    kept = sys.argv[1]
    if sys.argv[2] == "--positive-exponents":
        data = bytearray(open(kept + "/b0_2.bin", "rb").read())
        for offset in range(28, len(data), 48):
            s = struct.unpack_from("<f", data, offset)[0]
            struct.pack_into("<f", data, offset, abs(s) + 1)
        open(sys.argv[3], "wb").write(data)
        return
    x, y = int(sys.argv[2]), int(sys.argv[3])
    objects = kept + "/b0_2.bin"
    if "--objects" in sys.argv:
        objects = sys.argv[sys.argv.index("--objects") + 1]
    ubo = struct.unpack("<32f", open(kept + "/b0_1.bin", "rb").read()[:128])
    scene = Scene(ubo, read_objects(objects))
    print("texel (%d, %d): %s" % (x, y, ", ".join(
        "%.9g" % c for c in scene.pixel(x, y))))
    undefined = [n for n in scene.notes if n.startswith("pow")]
    if undefined:
        print("%d lighting steps take %s" % (len(undefined), undefined[0]))
    for note in scene.notes:
        if not note.startswith("pow"):
            print(note)


if __name__ == "__main__":
    main()
