#!/usr/bin/env python3
"""Lists which Vulkan commands the built ICD implements, as Markdown.

Loads the ICD library itself (no loader), creates an instance through its
vk_icdGetInstanceProcAddr and asks for every command of Vulkan 1.0-1.3 and
of the extensions in extensions.txt: a command whose address is null is not
implemented. docs/icd.md holds the output between its markers, and
tests/lit/ICD/coverage.test checks that it is current; an extension listed
without all of its commands is an error.

  list_entry_points.py LIBSPVB_ICD.so VK_XML EXTENSIONS_TXT
"""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_entry_points as registry_reader  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402


class InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("flags", ctypes.c_uint32), ("pApplicationInfo", ctypes.c_void_p),
                ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


def main():
    library_path, xml_path, extensions_path = sys.argv[1:4]
    library = ctypes.CDLL(library_path)
    get_proc = library.vk_icdGetInstanceProcAddr
    get_proc.restype = ctypes.c_void_p
    get_proc.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    create = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(InstanceCreateInfo),
                              ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))(
        get_proc(None, b"vkCreateInstance"))
    info = InstanceCreateInfo(1, None, 0, None, 0, None, 0, None)
    instance = ctypes.c_void_p()
    if create(ctypes.byref(info), None, ctypes.byref(instance)) != 0:
        sys.exit("error: vkCreateInstance failed")

    registry = ET.parse(xml_path).getroot()
    names = registry_reader.read_extension_list(extensions_path)
    required, _ = registry_reader.required_commands(registry, names)
    owners = registry_reader.CORE_VERSIONS + names
    incomplete = []
    for owner in owners:
        commands = sorted(n for n, o in required.items() if o == owner)
        if not commands:
            continue
        done = [n for n in commands if get_proc(instance, n.encode())]
        missing = [n for n in commands if n not in done]
        print(f"- **{owner}**: {len(done)} of {len(commands)} commands.")
        if missing:
            print(f"  Not yet: {', '.join('`' + n + '`' for n in missing)}.")
            if owner not in registry_reader.CORE_VERSIONS:
                incomplete.append(owner)
    # An advertised extension must have every command.
    if incomplete:
        sys.exit(f"error: extensions.txt advertises {', '.join(incomplete)} "
                 "without all of its commands")


if __name__ == "__main__":
    main()
