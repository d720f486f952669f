//===- DebugTarget.cpp - The invocation --debug-invocation names ----------===//
#include "DebugTarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message.str());
}

/// "X[,Y[,Z]]" as three numbers.
static std::optional<std::array<uint32_t, 3>> parseId(StringRef text) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.size() > 3)
    return std::nullopt;
  std::array<uint32_t, 3> id{0, 0, 0};
  for (size_t d = 0; d < parts.size(); ++d)
    if (parts[d].trim().getAsInteger(10, id[d]))
      return std::nullopt;
  return id;
}

Expected<spvb::runtime::DebugInvocation>
spvb::run::parseDebugInvocation(StringRef text, std::array<uint32_t, 3> groups,
                                const uint32_t *size) {
  auto [first, second] = text.split('/');
  std::optional<std::array<uint32_t, 3>> a = parseId(first);
  std::optional<std::array<uint32_t, 3>> b;
  if (!second.empty())
    b = parseId(second);
  if (!a || (!second.empty() && !b) || text.ends_with("/"))
    return makeError("error: --debug-invocation '" + text +
                     "': expected a global invocation id X[,Y[,Z]] or a "
                     "workgroup and a local id WX,WY,WZ/LX,LY,LZ");
  std::string extent =
      formatv("the dispatch has {0} x {1} x {2} workgroups of {3} x {4} x {5}",
              groups[0], groups[1], groups[2], size[0], size[1], size[2]);
  runtime::DebugInvocation target;
  std::array<uint32_t, 3> local;
  for (int d = 0; d < 3; ++d) {
    if (b) {
      if ((*a)[d] >= groups[d] || (*b)[d] >= size[d])
        return makeError("error: --debug-invocation '" + text +
                         "': no such workgroup or local id: " + extent);
      target.workgroup[d] = (*a)[d];
      local[d] = (*b)[d];
      continue;
    }
    if ((*a)[d] / size[d] >= groups[d])
      return makeError("error: --debug-invocation '" + text +
                       "': no such global invocation id: " + extent);
    target.workgroup[d] = (*a)[d] / size[d];
    local[d] = (*a)[d] % size[d];
  }
  target.localIndex = local[0] + size[0] * (local[1] + size[1] * local[2]);
  return target;
}
