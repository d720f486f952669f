//===- SubgroupOperations.cpp - What one subgroup instruction computes ----===//
#include "SubgroupOperations.h"

#include "TypeDesc.h"
#include "spvbridge/cpu_runtime/QuadDerivatives.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/spirv.hpp>

#include <array>
#include <cmath>
#include <cstring>

using namespace spvb::runtime;

namespace {

uint64_t loadComponent(const void *base, const TypeDesc &type,
                       unsigned component) {
  uint64_t bits = 0;
  std::memcpy(&bits,
              static_cast<const uint8_t *>(base) + component * type.bytes,
              std::min<uint32_t>(type.bytes, 8));
  return bits;
}

void storeComponent(void *base, const TypeDesc &type, unsigned component,
                    uint64_t bits) {
  std::memcpy(static_cast<uint8_t *>(base) + component * type.bytes, &bits,
              std::min<uint32_t>(type.bytes, 8));
}

uint64_t widthMask(unsigned bytes) {
  return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

template <typename T> T asFloat(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <typename T> uint64_t fromFloat(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

/// FMin/FMax return the other operand when one is NaN (as fmin/fmax do).
template <typename T>
uint64_t combineFloat(uint32_t opcode, uint64_t left, uint64_t right) {
  T a = asFloat<T>(left), b = asFloat<T>(right);
  bool aNaN = std::isnan(double(a)), bNaN = std::isnan(double(b));
  switch (opcode) {
  case spv::OpGroupNonUniformFAdd:
    return fromFloat<T>(a + b);
  case spv::OpGroupNonUniformFMul:
    return fromFloat<T>(a * b);
  case spv::OpGroupNonUniformFMin:
    return aNaN ? right : bNaN ? left : b < a ? right : left;
  default: // FMax
    return aNaN ? right : bNaN ? left : b > a ? right : left;
  }
}

template <typename T> uint64_t floatIdentity(uint32_t opcode) {
  switch (opcode) {
  case spv::OpGroupNonUniformFAdd:
    return fromFloat<T>(T(0));
  case spv::OpGroupNonUniformFMul:
    return fromFloat<T>(T(1));
  case spv::OpGroupNonUniformFMin:
    return fromFloat<T>(T(INFINITY));
  default: // FMax
    return fromFloat<T>(T(-INFINITY));
  }
}

bool isFloatOperation(uint32_t opcode) {
  return opcode == spv::OpGroupNonUniformFAdd ||
         opcode == spv::OpGroupNonUniformFMul ||
         opcode == spv::OpGroupNonUniformFMin ||
         opcode == spv::OpGroupNonUniformFMax;
}

/// The binary operation of an arithmetic subgroup instruction on one
/// component, with its identity.
class Combiner {
public:
  Combiner(uint32_t opcode, const TypeDesc &type)
      : opcode(opcode), bytes(type.bytes) {}

  uint64_t identity() const {
    uint64_t mask = widthMask(bytes);
    if (isFloatOperation(opcode)) {
      if (bytes == 2)
        return floatIdentity<_Float16>(opcode);
      if (bytes == 4)
        return floatIdentity<float>(opcode);
      return floatIdentity<double>(opcode);
    }
    switch (opcode) {
    case spv::OpGroupNonUniformIMul:
    case spv::OpGroupNonUniformLogicalAnd:
      return 1;
    case spv::OpGroupNonUniformSMin:
      return mask >> 1;
    case spv::OpGroupNonUniformSMax:
      return (mask >> 1) + 1;
    case spv::OpGroupNonUniformUMin:
    case spv::OpGroupNonUniformBitwiseAnd:
      return mask;
    default:
      return 0;
    }
  }

  uint64_t operator()(uint64_t a, uint64_t b) const {
    if (isFloatOperation(opcode)) {
      if (bytes == 2)
        return combineFloat<_Float16>(opcode, a, b);
      if (bytes == 4)
        return combineFloat<float>(opcode, a, b);
      return combineFloat<double>(opcode, a, b);
    }
    uint64_t mask = widthMask(bytes);
    int64_t sa = llvm::SignExtend64(a, 8 * bytes);
    int64_t sb = llvm::SignExtend64(b, 8 * bytes);
    switch (opcode) {
    case spv::OpGroupNonUniformIAdd:
      return (a + b) & mask;
    case spv::OpGroupNonUniformIMul:
      return (a * b) & mask;
    case spv::OpGroupNonUniformSMin:
      return sb < sa ? b : a;
    case spv::OpGroupNonUniformSMax:
      return sb > sa ? b : a;
    case spv::OpGroupNonUniformUMin:
      return std::min(a, b);
    case spv::OpGroupNonUniformUMax:
      return std::max(a, b);
    case spv::OpGroupNonUniformBitwiseAnd:
    case spv::OpGroupNonUniformLogicalAnd:
      return a & b;
    case spv::OpGroupNonUniformBitwiseOr:
    case spv::OpGroupNonUniformLogicalOr:
      return a | b;
    default: // BitwiseXor, LogicalXor
      return a ^ b;
    }
  }

private:
  uint32_t opcode;
  uint32_t bytes;
};

bool isArithmetic(uint32_t opcode) {
  return opcode >= spv::OpGroupNonUniformIAdd &&
         opcode <= spv::OpGroupNonUniformLogicalXor;
}

/// Reductions and scans combine the subgroup's lanes (the identity in
/// those without a member) in the order SIMD lanes do
/// (bridge/transforms/lib/LaneSubgroups.cpp), so that the bits are the
/// same however the kernel runs: a reduction as a pairwise tree, the lower
/// half of each pair first; a scan by doubling steps (Hillis and Steele),
/// the lower lane first.
std::string runArithmetic(llvm::ArrayRef<SubgroupMember> members,
                          uint32_t subgroupSize) {
  const SubgroupCall &first = *members.front().call;
  TypeDesc type(first.operandDesc);
  Combiner combine(first.opcode, type);
  uint32_t operation = first.groupOperation;
  if (operation > spv::GroupOperationClusteredReduce)
    return llvm::formatv("group operation {0} is not supported", operation);
  uint32_t lanes = std::min<uint32_t>(subgroupSize, 64);
  uint32_t width = operation == spv::GroupOperationClusteredReduce
                       ? std::clamp<uint32_t>(first.clusterSize, 1, lanes)
                       : lanes;
  for (unsigned c = 0; c < type.count; ++c) {
    std::array<uint64_t, 64> values;
    values.fill(combine.identity());
    for (const SubgroupMember &member : members)
      values[member.localId] = loadComponent(member.call->operand0, type, c);
    if (operation == spv::GroupOperationReduce ||
        operation == spv::GroupOperationClusteredReduce) {
      // Each group of `width` lanes' total lands in its first lane.
      for (uint32_t distance = 1; distance < width; distance *= 2)
        for (uint32_t lane = 0; lane + distance < lanes; lane += 2 * distance)
          values[lane] = combine(values[lane], values[lane + distance]);
      for (const SubgroupMember &member : members)
        storeComponent(member.call->result, type, c,
                       values[member.localId & ~(width - 1)]);
      continue;
    }
    for (uint32_t distance = 1; distance < lanes; distance *= 2)
      for (uint32_t lane = lanes - 1; lane >= distance; --lane)
        values[lane] = combine(values[lane - distance], values[lane]);
    for (const SubgroupMember &member : members) {
      uint32_t id = member.localId;
      uint64_t result = operation == spv::GroupOperationInclusiveScan
                            ? values[id]
                        : id ? values[id - 1]
                             : combine.identity();
      storeComponent(member.call->result, type, c, result);
    }
  }
  return "";
}

bool loadBool(const void *value) {
  return *static_cast<const uint8_t *>(value) != 0;
}

void storeBool(void *result, bool value) {
  *static_cast<uint8_t *>(result) = value ? 1 : 0;
}

/// A ballot value (the first 64 bits of a uvec4), limited to the subgroup.
uint64_t loadMask(const void *value, const TypeDesc &type,
                  uint32_t subgroupSize) {
  uint64_t mask = 0;
  std::memcpy(&mask, value, std::min<size_t>(type.size(), 8));
  return subgroupSize >= 64 ? mask : mask & ((1ull << subgroupSize) - 1);
}

void storeMask(void *result, const TypeDesc &type, uint64_t mask) {
  std::memset(result, 0, type.size());
  std::memcpy(result, &mask, std::min<size_t>(type.size(), 8));
}

uint32_t loadIndex(const void *operand) {
  uint32_t index;
  std::memcpy(&index, operand, sizeof(index));
  return index;
}

bool componentsEqual(const void *a, const void *b, const TypeDesc &type) {
  for (unsigned c = 0; c < type.count; ++c) {
    uint64_t x = loadComponent(a, type, c), y = loadComponent(b, type, c);
    if (type.kind != SPVB_KIND_FLOAT) {
      if (x != y)
        return false;
    } else if (type.bytes == 2   ? asFloat<_Float16>(x) != asFloat<_Float16>(y)
               : type.bytes == 4 ? asFloat<float>(x) != asFloat<float>(y)
                                 : asFloat<double>(x) != asFloat<double>(y)) {
      return false;
    }
  }
  return true;
}

template <typename T> T loadFloat(const void *base, unsigned component) {
  T value;
  std::memcpy(&value,
              static_cast<const uint8_t *>(base) + component * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T> void storeFloat(void *base, unsigned component, T value) {
  std::memcpy(static_cast<uint8_t *>(base) + component * sizeof(T), &value,
              sizeof(T));
}

/// A derivative in a 2x2 quad by the rule of QuadDerivatives.h. A
/// neighbour that has terminated counts as equal to the invocation.
template <typename T>
void runDerivativeOf(uint32_t opcode, const SubgroupMember &member,
                     const std::array<const SubgroupCall *, 64> &byId,
                     uint32_t subgroupSize, unsigned count) {
  uint32_t self = member.localId, quad = self & ~3u;
  auto at = [&](uint32_t lane, unsigned component) {
    const SubgroupCall *call =
        quad + lane < subgroupSize ? byId[quad + lane] : nullptr;
    return loadFloat<T>(call ? call->operand0 : member.call->operand0,
                        component);
  };
  spvb::abi::QuadNeighbours of =
      spvb::abi::getQuadNeighbours(opcode, self & 3u);
  for (unsigned c = 0; c < count; ++c) {
    T dx = at(of.right, c) - at(of.left, c);
    T dy = at(of.below, c) - at(of.above, c);
    T result;
    switch (spvb::abi::getDerivativeKind(opcode)) {
    case spvb::abi::DerivativeKind::X:
      result = dx;
      break;
    case spvb::abi::DerivativeKind::Y:
      result = dy;
      break;
    case spvb::abi::DerivativeKind::Width:
      result = T(std::fabs(double(dx)) + std::fabs(double(dy)));
      break;
    }
    storeFloat<T>(member.call->result, c, result);
  }
}

void runDerivative(uint32_t opcode, const SubgroupMember &member,
                   const std::array<const SubgroupCall *, 64> &byId,
                   uint32_t subgroupSize, const TypeDesc &type) {
  if (type.bytes == 2)
    runDerivativeOf<_Float16>(opcode, member, byId, subgroupSize, type.count);
  else if (type.bytes == 8)
    runDerivativeOf<double>(opcode, member, byId, subgroupSize, type.count);
  else
    runDerivativeOf<float>(opcode, member, byId, subgroupSize, type.count);
}

} // namespace

std::string
spvb::runtime::runSubgroupOperation(llvm::ArrayRef<SubgroupMember> members,
                                    uint32_t subgroupSize) {
  if (members.empty())
    return "";
  const SubgroupCall &first = *members.front().call;
  uint32_t opcode = first.opcode;
  if (isArithmetic(opcode))
    return runArithmetic(members, subgroupSize);

  TypeDesc operandType(first.operandDesc), resultType(first.resultDesc);
  std::array<const SubgroupCall *, 64> byId{};
  for (const SubgroupMember &member : members)
    byId[member.localId] = member.call;
  // Reading from an invocation that is not active is undefined: zero.
  auto copyFrom = [&](const SubgroupMember &member, uint32_t source) {
    const SubgroupCall *from = source < subgroupSize ? byId[source] : nullptr;
    if (from)
      std::memcpy(member.call->result, from->operand0, resultType.size());
    else
      std::memset(member.call->result, 0, resultType.size());
  };

  switch (opcode) {
  case spv::OpGroupNonUniformElect:
    for (const SubgroupMember &member : members)
      storeBool(member.call->result, member.localId == members[0].localId);
    return "";
  case spv::OpGroupNonUniformAll:
  case spv::OpSubgroupAllKHR:
  case spv::OpGroupNonUniformAny:
  case spv::OpSubgroupAnyKHR: {
    bool all = true, any = false;
    for (const SubgroupMember &member : members) {
      bool value = loadBool(member.call->operand0);
      all &= value;
      any |= value;
    }
    bool isAll =
        opcode == spv::OpGroupNonUniformAll || opcode == spv::OpSubgroupAllKHR;
    for (const SubgroupMember &member : members)
      storeBool(member.call->result, isAll ? all : any);
    return "";
  }
  case spv::OpGroupNonUniformAllEqual:
  case spv::OpSubgroupAllEqualKHR: {
    bool equal = true;
    for (const SubgroupMember &member : members)
      equal &=
          componentsEqual(member.call->operand0, first.operand0, operandType);
    for (const SubgroupMember &member : members)
      storeBool(member.call->result, equal);
    return "";
  }
  case spv::OpGroupNonUniformBroadcast:
  case spv::OpSubgroupReadInvocationKHR: {
    // The id is dynamically uniform: every member gives the same.
    uint32_t source = loadIndex(first.operand1);
    for (const SubgroupMember &member : members)
      copyFrom(member, source);
    return "";
  }
  case spv::OpGroupNonUniformBroadcastFirst:
  case spv::OpSubgroupFirstInvocationKHR:
    for (const SubgroupMember &member : members)
      copyFrom(member, members[0].localId);
    return "";
  case spv::OpGroupNonUniformBallot:
  case spv::OpSubgroupBallotKHR: {
    uint64_t mask = 0;
    for (const SubgroupMember &member : members)
      if (loadBool(member.call->operand0))
        mask |= 1ull << member.localId;
    for (const SubgroupMember &member : members)
      storeMask(member.call->result, resultType, mask);
    return "";
  }
  case spv::OpGroupNonUniformInverseBallot:
    for (const SubgroupMember &member : members)
      storeBool(member.call->result,
                (loadMask(member.call->operand0, operandType, subgroupSize) >>
                 member.localId) &
                    1);
    return "";
  case spv::OpGroupNonUniformBallotBitExtract:
    for (const SubgroupMember &member : members) {
      uint32_t bit = loadIndex(member.call->operand1);
      uint64_t mask =
          loadMask(member.call->operand0, operandType, subgroupSize);
      storeBool(member.call->result, bit < 64 && ((mask >> bit) & 1));
    }
    return "";
  case spv::OpGroupNonUniformBallotBitCount:
    if (first.groupOperation > spv::GroupOperationExclusiveScan)
      return llvm::formatv("group operation {0} is not supported for "
                           "OpGroupNonUniformBallotBitCount",
                           first.groupOperation);
    for (const SubgroupMember &member : members) {
      uint64_t mask =
          loadMask(member.call->operand0, operandType, subgroupSize);
      uint64_t below = (1ull << member.localId) - 1;
      if (first.groupOperation == spv::GroupOperationInclusiveScan)
        mask &= below | (1ull << member.localId);
      else if (first.groupOperation == spv::GroupOperationExclusiveScan)
        mask &= below;
      storeComponent(member.call->result, resultType, 0, llvm::popcount(mask));
    }
    return "";
  case spv::OpGroupNonUniformBallotFindLSB:
  case spv::OpGroupNonUniformBallotFindMSB:
    for (const SubgroupMember &member : members) {
      uint64_t mask =
          loadMask(member.call->operand0, operandType, subgroupSize);
      // No bit set is undefined: all ones, like findLSB(0).
      uint64_t index = mask == 0 ? ~0ull
                       : opcode == spv::OpGroupNonUniformBallotFindLSB
                           ? llvm::countr_zero(mask)
                           : 63 - llvm::countl_zero(mask);
      storeComponent(member.call->result, resultType, 0, index);
    }
    return "";
  case spv::OpGroupNonUniformShuffle:
  case spv::OpGroupNonUniformShuffleXor:
  case spv::OpGroupNonUniformShuffleUp:
  case spv::OpGroupNonUniformShuffleDown:
  case spv::OpGroupNonUniformRotateKHR:
  case spv::OpGroupNonUniformQuadBroadcast:
  case spv::OpGroupNonUniformQuadSwap: {
    for (const SubgroupMember &member : members) {
      uint32_t operand = loadIndex(member.call->operand1);
      uint32_t self = member.localId, source;
      switch (opcode) {
      case spv::OpGroupNonUniformShuffle:
        source = operand;
        break;
      case spv::OpGroupNonUniformShuffleXor:
        source = self ^ operand;
        break;
      case spv::OpGroupNonUniformShuffleUp:
        source = self - operand;
        break;
      case spv::OpGroupNonUniformShuffleDown:
        source = self + operand;
        break;
      case spv::OpGroupNonUniformRotateKHR:
        source = (self + operand) % subgroupSize;
        break;
      case spv::OpGroupNonUniformQuadBroadcast:
        source = (self & ~3u) + operand;
        break;
      default: // QuadSwap: 0 horizontal, 1 vertical, 2 diagonal.
        source = self ^ (operand + 1);
        break;
      }
      copyFrom(member, source);
    }
    return "";
  }
  case spv::OpDPdx:
  case spv::OpDPdy:
  case spv::OpFwidth:
  case spv::OpDPdxFine:
  case spv::OpDPdyFine:
  case spv::OpFwidthFine:
  case spv::OpDPdxCoarse:
  case spv::OpDPdyCoarse:
  case spv::OpFwidthCoarse:
    for (const SubgroupMember &member : members)
      runDerivative(opcode, member, byId, subgroupSize, operandType);
    return "";
  default:
    for (const SubgroupMember &member : members)
      std::memset(member.call->result, 0, resultType.size());
    return llvm::formatv("subgroup instruction with opcode {0} is not "
                         "supported",
                         opcode);
  }
}
