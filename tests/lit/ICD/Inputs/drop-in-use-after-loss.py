#!/usr/bin/env python3
"""Copies stdin to stdout without the validation layer's "is in use"
messages for vkDestroy*/vkFree* calls, and the indented lines after them.

After VK_ERROR_DEVICE_LOST the specification counts submitted work as
complete ("a return value of VK_ERROR_DEVICE_LOST is equivalent to
VK_SUCCESS" for whether resources are in use), so an application may
destroy its fences and command pools. Debian's layer (1.3.239) still
reports them in use: Vulkan-ValidationLayers issue 6310, fixed in 1.3.261.
Every other message passes through, for FileCheck to fail on."""
import re
import sys

IN_USE = re.compile(r"^VUID-vk(Destroy|Free)\w+-\w+-\d+\(ERROR / SPEC\):.* in use")

dropping = False
for line in sys.stdin:
    if IN_USE.match(line):
        dropping = True
        continue
    if dropping and line[:1].isspace():
        continue
    dropping = False
    sys.stdout.write(line)
