//===- DeserializeDebugInfo.cpp - Source locations and names --------------===//
#include "Deserializer.h"

#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

using namespace mlir;
using namespace spvb;
using namespace spvb::detail;

/// What the debug information needs of NonSemantic.Shader.DebugInfo.100:
/// source files and text, function and block scopes, inlining, local
/// variables. Its numbers are ids of constants.
void Deserializer::collectShaderDebugInfo(const ParsedInstruction &inst) {
  auto number = [&](unsigned i) {
    return i < inst.getNumArgs() ? literalConstants.lookup(inst.arg(i)) : 0;
  };
  auto id = [&](unsigned i) { return i < inst.getNumArgs() ? inst.arg(i) : 0; };
  switch (inst.arg(1)) {
  case NonSemanticShaderDebugInfo100DebugSource:
    lastSourceFile = strings.lookup(id(2));
    debugSources[inst.resultId] = lastSourceFile;
    if (inst.getNumArgs() > 3)
      sourceTexts[lastSourceFile] = strings.lookup(inst.arg(3));
    break;
  case NonSemanticShaderDebugInfo100DebugSourceContinued:
    sourceTexts[lastSourceFile] += strings.lookup(id(2));
    break;
  case NonSemanticShaderDebugInfo100DebugFunction: {
    // glslang names functions with their parameter types: "collatz(u1;".
    std::string name = strings.lookup(id(2));
    name = name.substr(0, name.find('('));
    debugScopes[inst.resultId] = {name, number(5), 0, id(4)};
    break;
  }
  case NonSemanticShaderDebugInfo100DebugFunctionDefinition:
    // Optimizers drop OpName; the debug information keeps the name.
    if (auto scope = debugScopes.find(id(2));
        scope != debugScopes.end() && names.lookup(id(3)).empty())
      names[id(3)] = scope->second.functionName;
    break;
  case NonSemanticShaderDebugInfo100DebugLexicalBlock:
    debugScopes[inst.resultId] = {"", number(3), id(5), id(2)};
    break;
  case NonSemanticShaderDebugInfo100DebugInlinedAt:
    debugInlinedAts[inst.resultId] = {number(2), id(3), id(4)};
    break;
  case NonSemanticShaderDebugInfo100DebugLocalVariable:
    debugLocalVariables[inst.resultId] = {strings.lookup(id(2)), number(5),
                                          number(9), id(4), id(7)};
    break;
  case NonSemanticShaderDebugInfo100DebugExpression:
    if (inst.getNumArgs() == 2)
      emptyDebugExpressions.insert(inst.resultId);
    break;
  case NonSemanticShaderDebugInfo100DebugDeclare:
    // A variable the optimizer kept without its OpName.
    if (auto variable = debugLocalVariables.find(id(2));
        variable != debugLocalVariables.end() && inst.getNumArgs() == 5 &&
        emptyDebugExpressions.count(id(4)) && names.lookup(id(3)).empty())
      names[id(3)] = variable->second.name;
    break;
  }
}

/// The DebugFunction a scope is in, following lexical blocks' parents.
const Deserializer::DebugScopeInfo *
Deserializer::getScopeFunction(uint32_t scope) {
  for (unsigned depth = 0; depth < 64; ++depth) {
    auto it = debugScopes.find(scope);
    if (it == debugScopes.end())
      return nullptr;
    if (!it->second.functionName.empty())
      return &it->second;
    scope = it->second.parent;
  }
  return nullptr;
}

/// `loc` in `scope` inlined at `inlinedAt`: a CallSiteLoc whose callee is
/// fused with a kInlinedFunctionAttr marker naming the inlined function
/// and whose caller is the call's line, itself inlined when its scope was.
Location Deserializer::getInlinedLocation(Location loc, uint32_t scope,
                                          uint32_t inlinedAt, unsigned depth) {
  const DebugScopeInfo *function = getScopeFunction(scope);
  auto call = debugInlinedAts.find(inlinedAt);
  if (!function || call == debugInlinedAts.end() || depth > 64)
    return loc;
  Attribute marker = builder.getDictionaryAttr(
      {builder.getNamedAttr(kInlinedFunctionAttr,
                            builder.getStringAttr(function->functionName)),
       builder.getNamedAttr("line",
                            builder.getI32IntegerAttr(function->line))});
  auto callerScope = debugScopes.find(call->second.scope);
  // A reference into the map, not a copy: lookup() returns by value.
  llvm::StringRef file = "<unknown>";
  if (callerScope != debugScopes.end()) {
    auto source = debugSources.find(callerScope->second.source);
    if (source != debugSources.end())
      file = source->second;
  }
  Location caller =
      FileLineColLoc::get(&context, file, call->second.line, /*column=*/0);
  return CallSiteLoc::get(FusedLoc::get(&context, {loc}, marker),
                          getInlinedLocation(caller, call->second.scope,
                                             call->second.inlinedAt,
                                             depth + 1));
}

/// DebugValue of a whole value (no indexes, no operations): a
/// spvb.debug_value naming the variable. Optimizers leave some outside
/// their variable's scope (spirv-opt puts an inlined parameter's first
/// value before the inlined code's DebugScope): those are placed in the
/// variable's function, inlined where it last was, or dropped.
void Deserializer::processDebugValue(const ParsedInstruction &inst) {
  if (inst.getNumArgs() != 5)
    return;
  auto found = debugLocalVariables.find(inst.arg(2));
  if (found == debugLocalVariables.end() ||
      !emptyDebugExpressions.count(inst.arg(4)))
    return;
  const DebugLocalVariableInfo &variable = found->second;
  const DebugScopeInfo *function = getScopeFunction(variable.scope);
  Location loc = currentLocation(inst);
  if (function && function != getScopeFunction(currentScope)) {
    Location line = FileLineColLoc::get(
        &context, debugSources.lookup(variable.source),
        variable.line ? variable.line : function->line, /*column=*/0);
    if (function == currentFunctionScope)
      loc = line;
    else if (uint32_t inlinedAt = lastInlinedAt.lookup(function))
      loc = getInlinedLocation(line, variable.scope, inlinedAt);
    else
      return;
  }
  // Only now: a constant operand is materialized where it is asked for.
  Value value = getValue(inst.arg(3));
  if (!value || isa<spirv::PointerType>(value.getType()))
    return;
  DebugValueOp::create(builder, loc, value,
                       builder.getStringAttr(variable.name),
                       builder.getI32IntegerAttr(variable.line),
                       builder.getI32IntegerAttr(variable.argument),
                       getDebugTypeNames(resultTypeIds.lookup(inst.arg(3))));
}

void Deserializer::declareListedValue(const ParsedInstruction &inst) {
  Value value = values.lookup(inst.resultId);
  if (!value || !isa<IntegerType, FloatType, VectorType>(value.getType()))
    return;
  std::string name = names.lookup(inst.resultId);
  if (name.empty())
    name = "_" + std::to_string(inst.resultId);
  DebugValueOp::create(
      builder, currentLocation(inst), value, builder.getStringAttr(name),
      builder.getI32IntegerAttr(currentLine->getLine()),
      builder.getI32IntegerAttr(0), getDebugTypeNames(inst.typeId));
}

Attribute Deserializer::getDebugTypeNames(uint32_t typeId) {
  Type type = getType(typeId);
  llvm::SmallVector<uint32_t, 1> components = componentTypeIds.lookup(typeId);
  if (auto structType = dyn_cast_or_null<spirv::StructType>(type)) {
    SmallVector<Attribute> members, trees;
    const std::map<uint32_t, std::string> &named = memberNames[typeId];
    for (unsigned i = 0; i < structType.getNumElements(); ++i) {
      auto it = named.find(i);
      members.push_back(builder.getStringAttr(
          it != named.end() ? it->second : "_" + std::to_string(i)));
      trees.push_back(i < components.size() ? getDebugTypeNames(components[i])
                                            : builder.getStringAttr(""));
    }
    return builder.getArrayAttr({builder.getStringAttr(names.lookup(typeId)),
                                 builder.getArrayAttr(members),
                                 builder.getArrayAttr(trees)});
  }
  if (isa_and_nonnull<spirv::ArrayType, spirv::RuntimeArrayType>(type) &&
      !components.empty())
    return builder.getArrayAttr({getDebugTypeNames(components.front())});
  return builder.getStringAttr(isUnsignedType(typeId) ? "u" : "");
}

void Deserializer::setDebugNames(Operation *variable, uint32_t id,
                                 uint32_t pointerTypeId) {
  if (!debugInfo)
    return;
  variable->setAttr(kDebugNameAttr, builder.getStringAttr(names.lookup(id)));
  variable->setAttr(kDebugTypeNamesAttr,
                    getDebugTypeNames(pointeeTypeIds.lookup(pointerTypeId)));
}
