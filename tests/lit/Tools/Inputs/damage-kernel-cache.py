"""Damages the entries of a kernel cache directory.

header: every entry's first line no longer names its format.
object: each kernel's object file becomes zeros, its header stays intact.
"""
import os
import sys

directory, part = sys.argv[1], sys.argv[2]
for name in os.listdir(directory):
    path = os.path.join(directory, name)
    with open(path, "rb") as entry:
        data = entry.read()
    if part == "header" and data.startswith(b"spvbridge-"):
        data = b"garbage" + data[len(b"spvbridge-"):]
    elif part == "object" and data.startswith(b"spvbridge-kernel "):
        lines = data.split(b"\n", 5)
        object_bytes = lines[5]
        data = b"\n".join(lines[:5] + [bytes(len(object_bytes))])
    else:
        continue
    os.chmod(path, 0o600)
    with open(path, "wb") as entry:
        entry.write(data)
