//===- ShaderDebugInfo.cpp - DWARF scopes for the shader's source ---------===//
//
// The deserializer turns OpLine into FileLineColLoc locations; the LLVM IR
// translation emits them as line tables only inside a function that has a
// DISubprogram, so each lowered function with source locations gets one,
// in a compile unit of the shader's language. Files are named by their
// absolute directory so that debuggers find the text on disk.
//
//===----------------------------------------------------------------------===//
#include "ShaderDebugInfo.h"

#include "spvbridge/conversion/Interface.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/spirv/Deserializer.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace mlir;

/// The first file location in `loc` (locations nest in fused and named
/// ones).
static FileLineColLoc findFileLocation(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// `text` with its `#line N` directives applied, so that line N of the file
/// is the source's line N (glslang puts "// OpModuleProcessed ..." lines
/// and `#line 1` before the source it embeds).
static std::string applyLineDirectives(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> in, out;
  text.split(in, '\n');
  size_t next = 0;
  for (llvm::StringRef line : in) {
    llvm::StringRef directive = line.trim();
    unsigned number = 0;
    if (directive.consume_front("#line") &&
        !directive.trim().take_while(llvm::isDigit).getAsInteger(10, number) &&
        number > 0) {
      next = number - 1;
      continue;
    }
    if (out.size() <= next)
      out.resize(next + 1);
    out[next++] = line;
  }
  return llvm::join(out, "\n");
}

/// Where a debugger reads `text`, the source of `name` that exists only in
/// the module: a file named as it was, in the user's cache folder
/// (spvbridge/sources/HASH/), written once.
static std::optional<std::string> cacheSourceText(llvm::StringRef name,
                                                  llvm::StringRef text) {
  llvm::SmallString<256> path;
  if (!llvm::sys::path::cache_directory(path))
    return std::nullopt;
  llvm::SHA256 hash;
  hash.update(name);
  hash.update(text);
  llvm::sys::path::append(path, "spvbridge", "sources",
                          llvm::toHex(hash.final()).substr(0, 16));
  if (llvm::sys::fs::create_directories(path))
    return std::nullopt;
  llvm::sys::path::append(path, llvm::sys::path::filename(name));
  if (!llvm::sys::fs::exists(path)) {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    if (error)
      return std::nullopt;
    out << applyLineDirectives(text);
  }
  return std::string(path);
}

/// `name` as the shader named it, made absolute against the working
/// directory or, failing that, the directory of `sourcePath`; a file on
/// neither path whose text the module carries (`texts`) is written to the
/// cache folder.
static std::string resolveSourcePath(llvm::StringRef name,
                                     llvm::StringRef sourcePath,
                                     DictionaryAttr texts) {
  llvm::SmallString<256> path(name);
  llvm::SmallString<256> besideSource(llvm::sys::path::parent_path(sourcePath));
  llvm::sys::path::append(besideSource, name);
  if (!llvm::sys::path::is_absolute(path) && !llvm::sys::fs::exists(path) &&
      llvm::sys::fs::exists(besideSource))
    path = besideSource;
  if (!llvm::sys::fs::exists(path))
    if (auto text = texts ? texts.getAs<StringAttr>(name) : StringAttr())
      if (std::optional<std::string> cached =
              cacheSourceText(name, text.getValue()))
        return *cached;
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

/// A stack slot for a `type` value at the start of `entry`, on line 0 (no
/// statement) of the function's file, so that a breakpoint on the
/// function's first line stops after the slots are made.
static Value createEntrySlot(OpBuilder &builder, Block &entry,
                             Location artificial, Type type,
                             unsigned alignment) {
  builder.setInsertionPointToStart(&entry);
  Value one = LLVM::ConstantOp::create(
      builder, artificial, builder.getI64Type(), builder.getI64IntegerAttr(1));
  return LLVM::AllocaOp::create(
      builder, artificial, LLVM::LLVMPointerType::get(builder.getContext()),
      type, one, alignment);
}

/// The size of a variable of `type`.
static uint64_t getSizeInBits(LLVM::DITypeAttr type) {
  if (auto basic = dyn_cast<LLVM::DIBasicTypeAttr>(type))
    return basic.getSizeInBits();
  if (auto composite = dyn_cast<LLVM::DICompositeTypeAttr>(type))
    return composite.getSizeInBits();
  if (auto derived = dyn_cast<LLVM::DIDerivedTypeAttr>(type)) {
    if (derived.getSizeInBits())
      return derived.getSizeInBits();
    if (auto base = dyn_cast_or_null<LLVM::DITypeAttr>(derived.getBaseType()))
      return getSizeInBits(base);
  }
  return 0;
}

/// Declares the variables whose addresses the lowering marked in
/// `function`: function variables at their stack slots; globals (buffers,
/// push constants, shared memory, builtins) through a slot holding their
/// address, which stays readable however the address itself is kept. The
/// members of an anonymous block are variables of their own, as the shader
/// names them.
static void declareVariables(LLVM::LLVMFuncOp function,
                             LLVM::DISubprogramAttr subprogram,
                             LLVM::DIFileAttr file, FileLineColLoc scopeLoc) {
  MLIRContext *context = function.getContext();
  SmallVector<Operation *> marked;
  function.walk([&](Operation *op) {
    if (op->hasAttr(spvb::kDebugTypeAttr) && op->getNumResults() == 1)
      marked.push_back(op);
  });
  OpBuilder builder(context);
  // `argument`: the parameter's number from 1, or 0 for a local.
  auto declare = [&](Value address, llvm::StringRef name, LLVM::DITypeAttr type,
                     unsigned line,
                     llvm::ArrayRef<LLVM::DIExpressionElemAttr> expression,
                     unsigned argument = 0) {
    auto variable = LLVM::DILocalVariableAttr::get(
        context, subprogram, StringAttr::get(context, name), file, line,
        argument, /*alignInBits=*/0, type, LLVM::DIFlags::Zero);
    LLVM::DbgDeclareOp::create(
        builder, scopeLoc, address, variable,
        expression.empty() ? LLVM::DIExpressionAttr()
                           : LLVM::DIExpressionAttr::get(context, expression));
  };
  auto element = [&](unsigned opcode, llvm::ArrayRef<uint64_t> arguments) {
    return LLVM::DIExpressionElemAttr::get(context, opcode, arguments);
  };
  Block &entry = function.getBody().front();
  // A slot in the entry block holding `value`, stored where it is defined,
  // on line 0 (no statement), so that a breakpoint on the function's first
  // line stops after the stores.
  Location artificial =
      FileLineColLoc::get(scopeLoc.getFilename(), /*line=*/0, /*column=*/0);
  auto spill = [&](Value value) {
    Value slot = createEntrySlot(builder, entry, artificial, value.getType(),
                                 /*alignment=*/8);
    if (Operation *definition = value.getDefiningOp())
      builder.setInsertionPointAfter(definition);
    LLVM::StoreOp::create(builder, artificial, value, slot);
    return slot;
  };
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    auto name = function.getArgAttrOfType<StringAttr>(i, spvb::kDebugNameAttr);
    auto type =
        function.getArgAttrOfType<LLVM::DITypeAttr>(i, spvb::kDebugTypeAttr);
    bool indirect = function.getArgAttr(i, spvb::kDebugIndirectAttr) != nullptr;
    if (!name || !type)
      continue;
    // Arguments 0 and 1 are the ABI's dispatch and invocation blocks.
    Value slot = spill(function.getArgument(i));
    SmallVector<LLVM::DIExpressionElemAttr, 1> expression;
    if (indirect)
      expression.push_back(element(llvm::dwarf::DW_OP_deref, {}));
    declare(slot, name.getValue(), type, scopeLoc.getLine(), expression,
            /*argument=*/i - 1);
  }
  for (Operation *op : marked) {
    auto name = op->getAttrOfType<StringAttr>(spvb::kDebugNameAttr);
    auto type = op->getAttrOfType<LLVM::DITypeAttr>(spvb::kDebugTypeAttr);
    if (!name || !type)
      continue;
    FileLineColLoc at = findFileLocation(op->getLoc());
    unsigned line = at ? at.getLine() : scopeLoc.getLine();
    Value address = op->getResult(0);
    if (isa<LLVM::AllocaOp>(op)) {
      builder.setInsertionPointAfter(op);
      declare(address, name.getValue(), type, line, {});
      continue;
    }
    Value slot = spill(address);
    // In a fragment record in blocks, each 4-byte word of the variable is
    // a piece of its own, a block row after the one before (kernel_abi.h).
    auto lanesAttr =
        op->getAttrOfType<IntegerAttr>(spvb::kDebugRecordLanesAttr);
    uint64_t lanes = lanesAttr ? lanesAttr.getInt() : 0;
    auto declareAt = [&](llvm::StringRef variable, LLVM::DITypeAttr varType,
                         uint64_t offset) {
      uint64_t bits = getSizeInBits(varType);
      if (!lanes || bits <= 32) {
        declare(
            slot, variable, varType, line,
            {element(llvm::dwarf::DW_OP_deref, {}),
             element(llvm::dwarf::DW_OP_plus_uconst,
                     {spvb_blocked_record_offset(offset, lanes ? lanes : 1)})});
        return;
      }
      for (uint64_t piece = 0; piece < bits; piece += 32)
        declare(
            slot, variable, varType, line,
            {element(llvm::dwarf::DW_OP_deref, {}),
             element(llvm::dwarf::DW_OP_plus_uconst,
                     {spvb_blocked_record_offset(offset + piece / 8, lanes)}),
             element(llvm::dwarf::DW_OP_LLVM_fragment,
                     {piece, std::min<uint64_t>(32, bits - piece)})});
    };
    auto structType = dyn_cast<LLVM::DICompositeTypeAttr>(type);
    if (!name.getValue().empty() || !structType ||
        structType.getTag() != llvm::dwarf::DW_TAG_structure_type) {
      declareAt(name.getValue(), type, 0);
      continue;
    }
    for (LLVM::DINodeAttr node : structType.getElements()) {
      auto member = dyn_cast<LLVM::DIDerivedTypeAttr>(node);
      if (!member || !member.getName())
        continue;
      declareAt(member.getName().getValue(), member.getBaseType(),
                member.getOffsetInBits() / 8);
    }
  }
}

/// The subprogram whose code `loc` is: the inlined function's for inlined
/// code, else `function`'s.
static LLVM::DISubprogramAttr
getInnermostSubprogram(Location loc, LLVM::DISubprogramAttr function) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return getInnermostSubprogram(name.getChildLoc(), function);
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    if (auto callee = dyn_cast<FusedLoc>(call.getCallee()))
      if (auto inlined =
              dyn_cast_or_null<LLVM::DISubprogramAttr>(callee.getMetadata()))
        return inlined;
  return function;
}

/// The call site of inlined code at `loc`, or null.
static Location getInlinedCallSite(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return getInlinedCallSite(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return call.getCaller();
  return nullptr;
}

/// Gives the variables of DebugValue (llvm.intr.dbg.value, scoped to a
/// placeholder by the lowering) stack slots, as clang's -O0 code has: the
/// values are stored there where DebugValue gave them, and the slot is
/// declared. Unoptimized code's value locations end at each block, where
/// a debugger would then show the variable as optimized out. A variable is
/// scoped by the subprogram of its location, as the verifier requires
/// (one without a line takes the function's first), and has one slot for
/// each place its function was inlined.
static void declareDebugValues(LLVM::LLVMFuncOp function,
                               LLVM::DISubprogramAttr subprogram,
                               FileLineColLoc first) {
  MLIRContext *context = function.getContext();
  Block &entry = function.getBody().front();
  OpBuilder builder(context);
  Location artificial =
      FileLineColLoc::get(first.getFilename(), /*line=*/0, /*column=*/0);
  llvm::DenseMap<std::pair<Attribute, Location>, Value> slots;
  SmallVector<LLVM::DbgValueOp> values;
  function.walk([&](LLVM::DbgValueOp op) { values.push_back(op); });
  for (LLVM::DbgValueOp op : values) {
    Location loc = findFileLocation(op.getLoc()) ? op.getLoc() : first;
    LLVM::DISubprogramAttr scope = getInnermostSubprogram(loc, subprogram);
    LLVM::DILocalVariableAttr placeholder = op.getVarInfo();
    auto variable = LLVM::DILocalVariableAttr::get(
        context, scope, placeholder.getName(), scope.getFile(),
        placeholder.getLine(), placeholder.getArg(),
        placeholder.getAlignInBits(), placeholder.getType(),
        placeholder.getFlags());
    Value value = op.getValue();
    Value &slot = slots[{variable, getInlinedCallSite(loc)}];
    if (!slot) {
      slot = createEntrySlot(builder, entry, artificial, value.getType(),
                             /*alignment=*/16);
      LLVM::StoreOp::create(
          builder, artificial,
          LLVM::ZeroOp::create(builder, artificial, value.getType()), slot);
      LLVM::DbgDeclareOp::create(builder, loc, slot, variable);
    }
    builder.setInsertionPoint(op);
    LLVM::StoreOp::create(builder, loc, value, slot);
    op.erase();
  }
}

void spvb::attachShaderDebugInfo(
    ModuleOp module, llvm::StringRef sourcePath,
    const llvm::StringMap<std::string> &entryPoints) {
  MLIRContext *context = module.getContext();
  unsigned language = sourcePath.ends_with_insensitive(".hlsl")
                          ? llvm::dwarf::DW_LANG_HLSL
                          : llvm::dwarf::DW_LANG_GLSL;
  auto texts = module->getAttrOfType<DictionaryAttr>(kDebugSourcesAttr);
  module->removeAttr(kDebugSourcesAttr);
  llvm::StringMap<LLVM::DIFileAttr> files;
  auto getFile = [&](llvm::StringRef name) {
    LLVM::DIFileAttr &file = files[name];
    if (!file) {
      std::string path = resolveSourcePath(name, sourcePath, texts);
      file = LLVM::DIFileAttr::get(context, llvm::sys::path::filename(path),
                                   llvm::sys::path::parent_path(path));
    }
    return file;
  };
  LLVM::DICompileUnitAttr unit;
  auto subroutineType =
      LLVM::DISubroutineTypeAttr::get(context, llvm::dwarf::DW_CC_normal, {});
  auto createSubprogram = [&](llvm::StringRef name, LLVM::DIFileAttr file,
                              unsigned line) {
    return LLVM::DISubprogramAttr::get(
        context, DistinctAttr::create(UnitAttr::get(context)), unit, file,
        StringAttr::get(context, name), /*linkageName=*/nullptr, file, line,
        line, LLVM::DISubprogramFlags::Definition, subroutineType,
        /*retainedNodes=*/{}, /*annotations=*/{});
  };
  // Inlined code (kInlinedFunctionAttr markers) is scoped by one subprogram
  // per inlined function, without code of its own, as LLVM's inliner does.
  llvm::StringMap<LLVM::DISubprogramAttr> inlinedFunctions;
  // The outermost caller is scoped explicitly by `function`: the
  // translation scopes a debug intrinsic's whole location by the first
  // scope it finds in it, the callee's.
  std::function<Location(Location, LLVM::DISubprogramAttr)> scopeInlined =
      [&](Location loc, LLVM::DISubprogramAttr function) {
        if (auto call = dyn_cast<CallSiteLoc>(loc)) {
          Location caller = call.getCaller();
          caller = isa<CallSiteLoc>(caller)
                       ? scopeInlined(caller, function)
                       : FusedLoc::get(context, {caller}, function);
          return Location(CallSiteLoc::get(
              scopeInlined(call.getCallee(), function), caller));
        }
        if (auto name = dyn_cast<NameLoc>(loc))
          return Location(NameLoc::get(
              name.getName(), scopeInlined(name.getChildLoc(), function)));
        auto fused = dyn_cast<FusedLoc>(loc);
        auto marker =
            fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata())
                  : nullptr;
        auto name =
            marker ? marker.getAs<StringAttr>(kInlinedFunctionAttr) : nullptr;
        FileLineColLoc at = name ? findFileLocation(loc) : FileLineColLoc();
        if (!at)
          return loc;
        LLVM::DISubprogramAttr &inlined = inlinedFunctions[name.getValue()];
        if (!inlined) {
          // glslang gives functions line 0: take the first line seen then.
          auto line = marker.getAs<IntegerAttr>("line");
          inlined = createSubprogram(name.getValue(), getFile(at.getFilename()),
                                     line && line.getInt() ? line.getInt()
                                                           : at.getLine());
        }
        return Location(FusedLoc::get(context, fused.getLocations(), inlined));
      };
  module.walk([&](LLVM::LLVMFuncOp function) {
    if (function.isExternal())
      return;
    // The function's own line (glslang puts an OpLine before OpFunction)
    // keeps a breakpoint on its first statement past the prologue.
    FileLineColLoc first = findFileLocation(function.getLoc());
    if (!first)
      function.walk([&](Operation *op) {
        first = findFileLocation(op->getLoc());
        return first ? WalkResult::interrupt() : WalkResult::advance();
      });
    if (!first)
      return;
    LLVM::DIFileAttr file = getFile(first.getFilename());
    if (!unit)
      unit = LLVM::DICompileUnitAttr::get(
          DistinctAttr::create(UnitAttr::get(context)), language, file,
          // As rustc does: gdb trusts the line table to end the prologue
          // (where `step` and `break FUNCTION` stop) only for producers it
          // knows emit LLVM's, which start "clang ".
          StringAttr::get(context, "clang LLVM (spvbridge)"),
          /*isOptimized=*/false, LLVM::DIEmissionKind::Full);
    llvm::StringRef name = function.getSymName();
    if (auto entry = entryPoints.find(name); entry != entryPoints.end())
      name = entry->second;
    else if (name.starts_with(abi::kSymbolPrefix))
      return; // the ABI's wrappers, no code of the shader's
    // glslang names functions with their parameter types: "collatz(u1;".
    name = name.take_until([](char c) { return c == '('; });
    LLVM::DISubprogramAttr subprogram =
        createSubprogram(name, file, first.getLine());
    function->setLoc(FusedLoc::get(context, {function.getLoc()}, subprogram));
    function.walk([&](Operation *op) {
      op->setLoc(scopeInlined(op->getLoc(), subprogram));
    });
    // A call must have a line in a function with debug information (LLVM's
    // verifier): one without takes the line before it.
    for (Block &block : function.getBody()) {
      Location previous = first;
      for (Operation &op : block) {
        if (findFileLocation(op.getLoc()))
          previous = op.getLoc();
        else if (isa<LLVM::CallOp>(op))
          op.setLoc(previous);
      }
    }
    // The translation takes every line in the function to be in its
    // subprogram's file: lines of another (an #include) are scoped by a
    // lexical block of that file.
    llvm::StringMap<LLVM::DILexicalBlockFileAttr> blocks;
    function.walk([&](Operation *op) {
      auto line = dyn_cast<FileLineColLoc>(op->getLoc());
      if (!line || line.getFilename() == first.getFilename())
        return;
      LLVM::DILexicalBlockFileAttr &block = blocks[line.getFilename()];
      if (!block)
        block = LLVM::DILexicalBlockFileAttr::get(context, subprogram,
                                                  getFile(line.getFilename()),
                                                  /*discriminator=*/0);
      op->setLoc(FusedLoc::get(context, {line}, block));
    });
    declareVariables(function, subprogram, file, first);
    declareDebugValues(function, subprogram, first);
  });
  // The lowering's markers have served, also where no subprogram took them.
  module.walk([](LLVM::DbgValueOp op) { op.erase(); });
  module.walk([](Operation *op) {
    op->removeAttr(kDebugNameAttr);
    op->removeAttr(kDebugTypeAttr);
    op->removeAttr(kDebugRecordLanesAttr);
    if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op))
      for (unsigned i = 0; i < function.getNumArguments(); ++i)
        for (llvm::StringRef marker :
             {kDebugNameAttr.data(), kDebugTypeAttr.data(),
              kDebugIndirectAttr.data()})
          function.removeArgAttr(i, marker);
  });
}
