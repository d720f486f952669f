"""Prints an 8-bit RGBA PNG's size and each distinct colour with its count
and, for up to 8 texels, their (x, y): enough for FileCheck, without PIL."""
import struct
import sys
import zlib


def read_rgba(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(
                ">IIBBBBB", body)
            assert (depth, colour, interlace) == (8, 6, 0), "not 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * 4, [], None
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        up = previous or bytearray(stride)
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = up[i], (up[i - 4] if i >= 4 else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + predictor) & 255
        rows.append(line)
        previous = line
    return width, height, rows


width, height, rows = read_rgba(sys.argv[1])
print("size %dx%d" % (width, height))
texels = {}
for y, row in enumerate(rows):
    for x in range(width):
        texels.setdefault(tuple(row[x * 4:x * 4 + 4]), []).append((x, y))
for colour in sorted(texels):
    where = texels[colour]
    line = "%s: %d texels" % (" ".join(map(str, colour)), len(where))
    if len(where) <= 8:
        line += " at " + " ".join("(%d, %d)" % at for at in where)
    print(line)
