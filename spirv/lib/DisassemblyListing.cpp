//===- DisassemblyListing.cpp - A module's disassembly as its source ------===//
#include "spvbridge/spirv/DisassemblyListing.h"

#include "ParsedModule.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>

using namespace spvb;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Expected<bool> spvb::hasSourceLines(const SpirvBinary &binary) {
  llvm::Expected<ParsedModule> parsed = parseModule(binary);
  if (!parsed)
    return parsed.takeError();
  uint32_t shaderDebugInfo = 0;
  for (const ParsedInstruction &inst : parsed->instructions) {
    if (inst.opcode == spv::OpLine)
      return true;
    if (inst.opcode == spv::OpExtInstImport &&
        inst.argString(0) == "NonSemantic.Shader.DebugInfo.100")
      shaderDebugInfo = inst.resultId;
    if (inst.opcode == spv::OpExtInst && shaderDebugInfo &&
        inst.getNumArgs() > 1 && inst.arg(0) == shaderDebugInfo &&
        inst.arg(1) == NonSemanticShaderDebugInfo100DebugLine)
      return true;
  }
  return false;
}

/// The lines `inst` takes past its first: the disassembler prints literal
/// strings (OpSource's text) as they are, newlines included.
static unsigned getContinuationLines(const ParsedInstruction &inst) {
  unsigned count = 0;
  for (unsigned i = 0; i < inst.getNumArgs(); ++i)
    if (inst.operands[i].type == SPV_OPERAND_TYPE_LITERAL_STRING)
      count += inst.argString(i).count('\n');
  return count;
}

llvm::Expected<DisassemblyListing>
spvb::disassemble(const SpirvBinary &binary) {
  llvm::Expected<ParsedModule> parsed = parseModule(binary);
  if (!parsed)
    return parsed.takeError();
  // spirv-dis's defaults, so the listing is what the user would get from
  // it; no comments, no reordered blocks: instructions in binary order.
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvBinaryToText(context, binary.words.data(), binary.words.size(),
                      SPV_BINARY_TO_TEXT_OPTION_INDENT |
                          SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES,
                      &text, &diagnostic);
  DisassemblyListing listing;
  std::string message;
  if (result == SPV_SUCCESS)
    listing.text.assign(text->str, text->length);
  else
    message = diagnostic && diagnostic->error
                  ? llvm::StringRef(diagnostic->error).rtrim().str()
                  : std::string("unknown error");
  spvTextDestroy(text);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS)
    return makeError("error: " + binary.name +
                     ": cannot disassemble the module: " + message);

  // Instructions are in binary order, one a line (and their strings' extra
  // lines); the header's and any other comment or blank line has none.
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(listing.text).split(lines, '\n');
  size_t next = 0;
  for (const ParsedInstruction &inst : parsed->instructions) {
    while (next < lines.size() &&
           (lines[next].trim().empty() || lines[next].ltrim().starts_with(";")))
      ++next;
    if (next == lines.size())
      return makeError("error: " + binary.name +
                       ": the disassembly has fewer lines than the module "
                       "has instructions");
    listing.lines[inst.wordOffset] = next + 1;
    next += 1 + getContinuationLines(inst);
  }
  return listing;
}

std::string spvb::getDefaultListingDirectory() {
  if (std::optional<std::string> directory =
          llvm::sys::Process::GetEnv("SPVBRIDGE_LISTING_DIR");
      directory && !directory->empty())
    return *directory;
  llvm::SmallString<256> path;
  if (llvm::sys::path::cache_directory(path)) {
    llvm::sys::path::append(path, "spvbridge", "listings");
    return std::string(path);
  }
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, path);
  llvm::sys::path::append(path, "spvbridge-listings");
  return std::string(path);
}

/// `name` as a file name a debugger's `break` takes: no spaces or colons.
static std::string getListingFileName(llvm::StringRef name) {
  std::string file;
  for (char c : name)
    file += llvm::isAlnum(c) || llvm::StringRef(".-_+").contains(c) ? c : '_';
  if (file.empty() || file.front() == '.')
    file.insert(0, "shader");
  return file + ".spvasm";
}

llvm::Expected<DisassemblyListing>
spvb::writeDisassemblyListing(const SpirvBinary &binary, llvm::StringRef name,
                              llvm::StringRef directory) {
  llvm::Expected<DisassemblyListing> listing = disassemble(binary);
  if (!listing)
    return listing.takeError();
  llvm::SHA256 hash;
  hash.update(name);
  hash.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(binary.words.data()),
      binary.words.size() * 4));
  llvm::SmallString<256> path(directory);
  // Absolute: the debug information names the file by it.
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::append(path, llvm::toHex(hash.final()).substr(0, 16));
  auto cannotWrite = [&](llvm::StringRef where, llvm::StringRef why) {
    return makeError(llvm::Twine("error: ") + binary.name +
                     ": cannot write its disassembly listing to '" + where +
                     "': " + why +
                     " (SPVBRIDGE_LISTING_DIR chooses another directory)");
  };
  if (std::error_code error = llvm::sys::fs::create_directories(path))
    return cannotWrite(path, error.message());
  llvm::sys::path::append(path, getListingFileName(name));
  listing->path = std::string(path);

  // The same module has the same text: a file already holding it stays, so
  // a debugger showing it sees no change.
  if (auto existing = llvm::MemoryBuffer::getFile(path);
      existing && (*existing)->getBuffer() == listing->text)
    return listing;
  // Through a temporary file and a rename: processes may share the folder.
  if (llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << listing->text;
        return llvm::Error::success();
      }))
    return cannotWrite(path, llvm::toString(std::move(error)));
  return listing;
}
