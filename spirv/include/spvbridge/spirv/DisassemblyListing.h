//===- DisassemblyListing.h - Disassembly as a module's source -*- C++ -*-===//
//
// Applications rarely ship shaders with debug information. A module without
// source lines is debugged in its disassembly instead: the text `spirv-dis`
// prints (SPIRV-Tools' spvBinaryToText with spirv-dis's default options:
// header, friendly names, indentation) is written to a file, and each
// instruction's location is the line of that file it is on.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_DISASSEMBLYLISTING_H
#define SPVBRIDGE_SPIRV_DISASSEMBLYLISTING_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace spvb {

struct DisassemblyListing {
  /// The listing file's absolute path; empty until it is written.
  std::string path;
  std::string text;
  /// Each instruction's line in `text` (from 1), by the instruction's word
  /// offset in the binary.
  llvm::DenseMap<size_t, unsigned> lines;

  unsigned getLine(size_t wordOffset) const { return lines.lookup(wordOffset); }
};

/// Whether the module has lines the deserializer reads: OpLine, or
/// NonSemantic.Shader.DebugInfo.100's DebugLine.
llvm::Expected<bool> hasSourceLines(const SpirvBinary &binary);

/// The disassembly of `binary` and its instructions' lines.
llvm::Expected<DisassemblyListing> disassemble(const SpirvBinary &binary);

/// $SPVBRIDGE_LISTING_DIR if set, else spvbridge/listings in the user's
/// cache directory ($XDG_CACHE_HOME or ~/.cache), else spvbridge-listings in
/// the temporary directory ($TMPDIR or /tmp).
std::string getDefaultListingDirectory();

/// Disassembles `binary` into DIRECTORY/HASH/NAME.spvasm, HASH from `name`
/// and the module, so the same module keeps its path; `name` (characters
/// other than letters, digits and ".-_+" as "_") is what a debugger's user
/// types (`break NAME.spvasm:LINE`). A file already holding the text is
/// left as it is. The error names the path that could not be written.
llvm::Expected<DisassemblyListing>
writeDisassemblyListing(const SpirvBinary &binary, llvm::StringRef name,
                        llvm::StringRef directory);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_DISASSEMBLYLISTING_H
