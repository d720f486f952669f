#!/usr/bin/env python3
"""Generates the names of the Vulkan features from the registry (vk.xml).

For VkPhysicalDeviceFeatures and every structure that extends
VkPhysicalDeviceFeatures2, one row: its VkStructureType value (0 for the
core structure, which has none), its name and its VkBool32 members in
order, so that vkCreateDevice can name the feature an application enables
that the device does not report (Features.cpp).

  gen_feature_names.py VK_XML OUT_INC
"""
import sys
import xml.etree.ElementTree as ET


def for_vulkan(element):
    """Whether an element applies to Vulkan (not only to Vulkan SC)."""
    api = element.get("api")
    return api is None or "vulkan" in api.split(",")


def structure_type_values(registry):
    """VK_STRUCTURE_TYPE_* name -> value, the extensions' included."""
    values, aliases = {}, {}
    for enums in registry.findall("enums[@name='VkStructureType']"):
        for enum in enums.findall("enum"):
            if enum.get("value") is not None:
                values[enum.get("name")] = int(enum.get("value"), 0)
            elif enum.get("alias"):
                aliases[enum.get("name")] = enum.get("alias")

    def take(enum, number):
        if enum.get("extends") != "VkStructureType" or not for_vulkan(enum):
            return
        name = enum.get("name")
        if enum.get("alias"):
            aliases[name] = enum.get("alias")
        elif enum.get("offset") is not None:
            extension = int(enum.get("extnumber") or number)
            value = 1000000000 + (extension - 1) * 1000 + int(enum.get("offset"))
            values[name] = -value if enum.get("dir") == "-" else value
        elif enum.get("value") is not None:
            values[name] = int(enum.get("value"), 0)

    for feature in registry.findall("feature"):
        for enum in feature.iter("enum"):
            take(enum, None)
    for extension in registry.find("extensions"):
        for enum in extension.iter("enum"):
            take(enum, extension.get("number"))
    for name, target in aliases.items():
        while target in aliases:
            target = aliases[target]
        if target in values:
            values[name] = values[target]
    return values


def main():
    registry = ET.parse(sys.argv[1]).getroot()
    values = structure_type_values(registry)
    rows = []
    for struct in registry.find("types").findall("type"):
        if struct.get("category") != "struct" or not for_vulkan(struct):
            continue
        name = struct.get("name")
        extends = (struct.get("structextends") or "").split(",")
        if name != "VkPhysicalDeviceFeatures" and \
                "VkPhysicalDeviceFeatures2" not in extends:
            continue
        if struct.get("alias"):
            continue
        stype, members = 0, []
        for member in struct.findall("member"):
            if not for_vulkan(member):
                continue
            member_name = member.find("name").text
            if member_name == "sType":
                stype = values[member.get("values")]
            elif member.find("type").text == "VkBool32":
                members.append(member_name)
        rows.append((stype, name, members))
    with open(sys.argv[2], "w") as out:
        out.write("// Generated from vk.xml by gen_feature_names.py: "
                  "do not edit.\n")
        for stype, name, members in sorted(rows):
            out.write('{%du, "%s", {%s}},\n' % (
                stype, name, ", ".join('"%s"' % m for m in members)))


if __name__ == "__main__":
    main()
