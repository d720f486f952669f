//===- DebugTarget.cpp - The invocation a user asks to debug --------------===//
#include "spvbridge/cpu_runtime/DebugTarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace spvb::runtime;

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

Expected<InvocationName> spvb::runtime::parseInvocationName(StringRef text,
                                                            StringRef source) {
  auto [first, second] = text.split('/');
  std::optional<std::array<uint32_t, 3>> a = parseId(first);
  std::optional<std::array<uint32_t, 3>> b;
  if (!second.empty())
    b = parseId(second);
  if (!a || (!second.empty() && !b) || text.ends_with("/"))
    return makeError("error: " + source + " '" + text +
                     "': expected a global invocation id X[,Y[,Z]] or a "
                     "workgroup and a local id WX,WY,WZ/LX,LY,LZ");
  return InvocationName{*a, b};
}

Expected<DebugInvocation>
spvb::runtime::parseDebugInvocation(StringRef text,
                                    std::array<uint32_t, 3> groups,
                                    const uint32_t *size, StringRef source) {
  Expected<InvocationName> name = parseInvocationName(text, source);
  if (!name)
    return name.takeError();
  std::string extent =
      formatv("the dispatch has {0} x {1} x {2} workgroups of {3} x {4} x {5}",
              groups[0], groups[1], groups[2], size[0], size[1], size[2]);
  DebugInvocation target;
  std::array<uint32_t, 3> local;
  for (int d = 0; d < 3; ++d) {
    if (name->local) {
      if (name->first[d] >= groups[d] || (*name->local)[d] >= size[d])
        return makeError("error: " + source + " '" + text +
                         "': no such workgroup or local id: " + extent);
      target.workgroup[d] = name->first[d];
      local[d] = (*name->local)[d];
      continue;
    }
    if (name->first[d] / size[d] >= groups[d])
      return makeError("error: " + source + " '" + text +
                       "': no such global invocation id: " + extent);
    target.workgroup[d] = name->first[d] / size[d];
    local[d] = name->first[d] % size[d];
  }
  target.localIndex = local[0] + size[0] * (local[1] + size[1] * local[2]);
  return target;
}
