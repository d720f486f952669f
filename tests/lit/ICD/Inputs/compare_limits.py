"""Compares the limits a profile models between two vulkaninfo outputs.

  compare_limits.py LAVAPIPE.txt SPVBRIDGE.txt
"""
import re
import sys

# The limits DeviceLimits' lavapipe profile holds.
NAMES = [
    "maxComputeSharedMemorySize", "maxComputeWorkGroupCount",
    "maxComputeWorkGroupInvocations", "maxComputeWorkGroupSize",
    "maxPushConstantsSize", "maxBoundDescriptorSets",
    "maxPerStageDescriptorSamplers", "maxPerStageDescriptorUniformBuffers",
    "maxPerStageDescriptorStorageBuffers",
    "maxPerStageDescriptorSampledImages",
    "maxPerStageDescriptorStorageImages", "maxPerStageResources",
    "maxUniformBufferRange", "maxStorageBufferRange",
    "maxVertexInputAttributes", "maxVertexInputAttributeOffset",
    "maxVertexInputBindingStride", "maxColorAttachments",
    "maxFramebufferWidth", "maxFramebufferHeight",
]


def read_limits(path):
    """Name -> value text ("1024", or "65535 65535 65535" for arrays)."""
    with open(path) as f:
        lines = f.read().splitlines()
    limits = {}
    for i, line in enumerate(lines):
        match = re.match(r"\s+(\w+)\s*(?:=\s*(\S+)|: count = (\d+))\s*$", line)
        if not match or match.group(1) in limits:
            continue
        name, value, count = match.groups()
        if count:
            value = " ".join(l.strip() for l in lines[i + 1:i + 1 + int(count)])
        limits[name] = value
    return limits


lavapipe, ours = read_limits(sys.argv[1]), read_limits(sys.argv[2])
differ = [f"{n}: lavapipe {lavapipe.get(n)}, spvbridge {ours.get(n)}"
          for n in NAMES if lavapipe.get(n) is None or
          lavapipe.get(n) != ours.get(n)]
if differ:
    print("error: limits differ from lavapipe's:\n  " + "\n  ".join(differ))
    sys.exit(1)
print(f"{len(NAMES)} limits equal")
