#!/usr/bin/env python3
"""Generates the ICD's entry-point table from the Vulkan registry (vk.xml).

Every command of Vulkan 1.0-1.3 and of the extensions listed in
extensions.txt gets a weak declaration spvb_NAME (vkCreateBuffer ->
spvb_CreateBuffer) and a row of a table sorted by name: its dispatch level
and its implementation, which is null where no spvb_NAME is defined. Aliases
(vkGetPhysicalDeviceFeatures2KHR) share the row's function. The extension
table carries each listed extension's name, spec version and type. This is
how Mesa's vk_entrypoints_gen.py keeps drivers from listing entry points by
hand.

  gen_entry_points.py VK_XML EXTENSIONS_TXT OUT_H OUT_CPP
"""
import re
import sys
import xml.etree.ElementTree as ET

CORE_VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2",
                 "VK_VERSION_1_3"]
GLOBAL_COMMANDS = {"vkCreateInstance", "vkEnumerateInstanceExtensionProperties",
                   "vkEnumerateInstanceLayerProperties",
                   "vkEnumerateInstanceVersion"}
DEVICE_HANDLES = {"VkDevice", "VkQueue", "VkCommandBuffer"}


def for_vulkan(element):
    """Whether an element applies to Vulkan (not only to Vulkan SC)."""
    api = element.get("api")
    return api is None or "vulkan" in api.split(",")


def read_extension_list(path):
    names = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names


def required_commands(registry, extension_names):
    """Command name -> the version or extension that first brings it."""
    required = {}

    listed = set(extension_names)

    def applies(require):
        """A block that depends on another extension (`extension`, or
        `depends` in newer registries) counts once that one is listed."""
        condition = require.get("extension") or require.get("depends") or ""
        names = re.findall(r"VK_[A-Z]+_\w+", condition)
        return all(name in listed or name.startswith("VK_VERSION_")
                   for name in names)

    def take(block, owner):
        for require in block.findall("require"):
            if not for_vulkan(require) or not applies(require):
                continue
            for command in require.findall("command"):
                required.setdefault(command.get("name"), owner)

    for feature in registry.findall("feature"):
        if feature.get("name") in CORE_VERSIONS and for_vulkan(feature):
            take(feature, feature.get("name"))
    extensions = {e.get("name"): e for e in registry.find("extensions")}
    for name in extension_names:
        if name not in extensions:
            sys.exit(f"error: extensions.txt: {name} is not in vk.xml")
        take(extensions[name], name)
    return required, extensions


def platform_guards(registry, extension_names):
    """Command name -> the macro (VK_USE_PLATFORM_XCB_KHR) that guards it,
    for the commands of listed window-system extensions: their parameters
    use the window system's types, which only the files that implement or
    tabulate them include."""
    protects = {p.get("name"): p.get("protect")
                for p in registry.find("platforms")}
    guards = {}
    for extension in registry.find("extensions"):
        platform = extension.get("platform")
        if platform and extension.get("name") in extension_names:
            for command in extension.iter("command"):
                guards[command.get("name")] = protects[platform]
    return guards


def parse_commands(registry):
    """Name -> (return type, [parameter text], first parameter type) for
    commands with a body; alias name -> aliased name."""
    commands, aliases = {}, {}
    for command in registry.find("commands"):
        if not for_vulkan(command):
            continue
        if command.get("alias"):
            aliases[command.get("name")] = command.get("alias")
            continue
        proto = command.find("proto")
        name = proto.find("name").text
        result = "".join(proto.itertext())[: -len(name)].strip()
        params = [p for p in command.findall("param") if for_vulkan(p)]
        texts = [" ".join("".join(p.itertext()).split()) for p in params]
        first = params[0].find("type").text if params else ""
        commands[name] = (result, texts, first)
    return commands, aliases


def level_of(name, first_type):
    if name in GLOBAL_COMMANDS:
        return "Global"
    if first_type == "VkInstance":
        return "Instance"
    if first_type == "VkPhysicalDevice":
        return "PhysicalDevice"
    if first_type in DEVICE_HANDLES:
        return "Device"
    sys.exit(f"error: vk.xml: cannot tell the dispatch level of {name}")


def main():
    xml_path, extensions_path, out_h, out_cpp = sys.argv[1:5]
    registry = ET.parse(xml_path).getroot()
    extension_names = read_extension_list(extensions_path)
    required, extensions = required_commands(registry, extension_names)
    commands, aliases = parse_commands(registry)
    guards = platform_guards(registry, extension_names)

    def target(name):
        while name in aliases:
            name = aliases[name]
        return name

    rows = []
    implementations = sorted({target(name) for name in required})
    for name in sorted(required):
        body = target(name)
        rows.append((name, level_of(body, commands[body][2]), body,
                     required[name]))

    header = [
        "// Generated by gen_entry_points.py from vk.xml. Do not edit.",
        "#ifndef SPVBRIDGE_ICD_ENTRYPOINTS_H",
        "#define SPVBRIDGE_ICD_ENTRYPOINTS_H",
        "",
        "#include <vulkan/vulkan.h>",
        "",
        "// The implementations; a command without one stays null (weak).",
        'extern "C" {',
    ]
    for guard in [None] + sorted(set(guards.values())):
        if guard:
            header.append(f"#ifdef {guard}")
        for name in implementations:
            if guards.get(name) != guard:
                continue
            result, params, _ = commands[name]
            header.append(f"VKAPI_ATTR {result} VKAPI_CALL spvb_{name[2:]}("
                          f"{', '.join(params) or 'void'}) "
                          "__attribute__((weak));")
        if guard:
            header.append(f"#endif // {guard}")
    header += [
        "}",
        "",
        "namespace spvb::icd {",
        "",
        "enum class DispatchLevel { Global, Instance, PhysicalDevice, Device };",
        "",
        "struct EntryPoint {",
        "  const char *name;",
        "  DispatchLevel level;",
        "  /// Null where the command has no implementation.",
        "  PFN_vkVoidFunction function;",
        "  /// The core version or extension that brings the command.",
        "  const char *requiredBy;",
        "};",
        "",
        "/// Every command of Vulkan 1.0-1.3 and of the extensions we list,",
        "/// sorted by name.",
        f"extern const EntryPoint kEntryPoints[{len(rows)}];",
        "",
        "struct ExtensionInfo {",
        "  const char *name;",
        "  uint32_t specVersion;",
        "  bool instance;",
        "};",
        "",
        f"extern const ExtensionInfo kExtensions[{len(extension_names)}];",
        "",
        "} // namespace spvb::icd",
        "",
        "#endif // SPVBRIDGE_ICD_ENTRYPOINTS_H",
    ]
    source = [
        "// Generated by gen_entry_points.py from vk.xml. Do not edit.",
        "// The table names every command, those of window systems too.",
    ] + [f"#define {guard}" for guard in sorted(set(guards.values()))] + [
        '#include "EntryPoints.h"',
        "",
        "using namespace spvb::icd;",
        "",
        f"const EntryPoint spvb::icd::kEntryPoints[{len(rows)}] = {{",
    ]
    for name, level, body, owner in rows:
        source.append(f'    {{"{name}", DispatchLevel::{level}, '
                      f"reinterpret_cast<PFN_vkVoidFunction>(spvb_{body[2:]}), "
                      f'"{owner}"}},')
    source += ["};", "",
               f"const ExtensionInfo spvb::icd::kExtensions"
               f"[{len(extension_names)}] = {{"]
    for name in extension_names:
        extension = extensions[name]
        version = next(e.get("value") for e in extension.iter("enum")
                       if e.get("name", "").endswith("_SPEC_VERSION"))
        instance = "true" if extension.get("type") == "instance" else "false"
        source.append(f'    {{"{name}", {version}, {instance}}},')
    source += ["};", ""]

    with open(out_h, "w") as f:
        f.write("\n".join(header) + "\n")
    with open(out_cpp, "w") as f:
        f.write("\n".join(source))


if __name__ == "__main__":
    main()
