//===- Compiler.h - Shader to LLVM module, stage by stage -------*- C++ -*-===//
//
// The public entry to the compiler. Each stage is a separate call so tools
// can stop at any of them (spv-to-ll --emit=...):
//
//   load (+validate, +specialize) -> reflect -> deserialize (spirv dialect)
//   -> lower (llvm dialect) -> translate (LLVM IR); Codegen.h optimizes and
//   emits, Kernel.h JIT-compiles.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_COMPILER_H
#define SPVBRIDGE_BRIDGE_COMPILER_H

#include "spvbridge/conversion/Lowering.h"
#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/ShaderSource.h"
#include "spvbridge/spirv/Specialization.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace spvb {

enum class OptLevel { O0, O1, O2, O3 };

/// How a kernel with barriers runs a workgroup.
enum class BarrierMode {
  /// A loop over the invocations for each stretch between barriers.
  Loops,
  /// Each invocation on its own fiber, switching at barriers.
  Fibers,
};

struct CompileOptions {
  SourceOptions source;
  std::vector<SpecConstantValue> specializations;
  /// The entry point to compile, of `executionModel`; others are dropped.
  /// Empty: the module's only entry point of that model, else "main".
  std::string entryPoint;
  /// GLCompute, Vertex or Fragment.
  spv::ExecutionModel executionModel = spv::ExecutionModelGLCompute;
  OptLevel optLevel = OptLevel::O2;
  /// Run SPIRV-Tools' validator on the input.
  bool validate = true;
  BarrierMode barriers = BarrierMode::Loops;
  /// robustBufferAccess2 semantics: out-of-bounds reads give zero, writes
  /// are dropped (--robust).
  bool robust = false;
  /// Report the first out-of-bounds buffer access of a dispatch as an error
  /// naming its source line, buffer and invocation (--check-bounds); the
  /// access itself behaves as with `robust`.
  bool checkBounds = false;
  /// Report the first data race of a dispatch as an error naming both
  /// accesses' source lines and invocations (--check-races). Kernels with
  /// barriers then run on fibers (getBarrierMode).
  bool checkRaces = false;
  /// Results the specifications leave undefined for their operands: report
  /// the first (--check-undefined) or flip their bits (--perturb-undefined).
  UndefinedChecks undefinedChecks = UndefinedChecks::None;
  /// Report the first float operation that makes a NaN or an infinity from
  /// finite operands, naming its source line, operands and invocation
  /// (--check-nan).
  bool checkNan = false;
  /// Run the invocations of kernels without barriers in SIMD lanes
  /// (--vectorize); off, they run one after the other.
  bool vectorize = true;
  /// The subgroup size the kernel will be dispatched with, as a GPU
  /// driver knows it when it compiles a pipeline; 0 if not known. Known,
  /// a vectorized compute kernel runs its subgroup instructions as SIMD
  /// operations and refuses a dispatch with another size.
  uint32_t subgroupSize = 0;
  /// Compile for a source-level debugger (--debug): line tables and
  /// variables in DWARF, no optimization, each invocation its own call (on
  /// its own fiber when the kernel has barriers), and the code registered
  /// with the GDB JIT interface by a JitCompiler created for debugging.
  bool debug = false;
  /// With `debug`, a module without source lines is debugged in its
  /// disassembly, written as NAME.spvasm to a folder of `listingDirectory`
  /// (empty: getDefaultListingDirectory()) named from a hash of NAME and the
  /// module. NAME is `listingName`, or the module's name without directory
  /// and extension (spv-run: the input file's).
  std::string listingName;
  std::string listingDirectory;
  /// Name the IR's functions, stack slots and parameters after the shader's
  /// OpNames even without debug information (spv-to-ll), so that the IR
  /// reads like the shader.
  bool valueNames = false;

  /// The barrier mode to compile with: race checks tell barrier intervals
  /// apart by counting each invocation's barriers, which only fibers do; a
  /// debugger steps through one invocation's code, which only fibers keep
  /// whole.
  BarrierMode getBarrierMode() const {
    return checkRaces || debug ? BarrierMode::Fibers : barriers;
  }
  /// The optimization level to compile with.
  OptLevel getOptLevel() const { return debug ? OptLevel::O0 : optLevel; }

  /// Whether to vectorize: the checks report the first fault in invocation
  /// order, which lanes would change.
  bool shouldVectorize() const {
    return vectorize && !checkBounds && !checkRaces && !debug && !checkNan &&
           undefinedChecks != UndefinedChecks::Report;
  }
};

/// An MLIR context with the dialects the compiler's stages use loaded.
std::unique_ptr<mlir::MLIRContext> createCompilerContext();

class Compiler {
public:
  /// Compiles in the context `getContext` returns when a stage first needs
  /// one (from createCompilerContext(), not used by another thread
  /// meanwhile), else in a context of its own.
  explicit Compiler(
      CompileOptions options,
      llvm::unique_function<mlir::MLIRContext &()> getContext = nullptr);
  ~Compiler();

  /// Loads a shader file (by extension), validates and specializes it.
  llvm::Expected<SpirvBinary> load(llvm::StringRef path);
  /// Validates and specializes a module already in memory.
  llvm::Expected<SpirvBinary> prepare(SpirvBinary binary);
  /// Reflects a prepared module, resolves and checks the entry point.
  llvm::Expected<ModuleReflection> reflect(const SpirvBinary &binary);
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
  deserialize(const SpirvBinary &binary);
  llvm::Expected<LoweredModule> lower(mlir::OwningOpRef<mlir::ModuleOp> module,
                                      const ModuleReflection &reflection,
                                      llvm::StringRef fileName);
  /// LLVM IR for the host, verified, not yet optimized.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translate(mlir::ModuleOp module, llvm::LLVMContext &context,
            llvm::StringRef fileName);

  mlir::MLIRContext &getContext();
  const CompileOptions &getOptions() const { return options; }
  /// The disassembly listing deserialize() wrote, whose lines the debug
  /// information names; empty if it wrote none.
  const std::string &getListingPath() const { return listingPath; }

private:
  CompileOptions options;
  std::string listingPath;
  llvm::unique_function<mlir::MLIRContext &()> contextSource;
  std::unique_ptr<mlir::MLIRContext> ownedContext;
  mlir::MLIRContext *mlirContext = nullptr;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_COMPILER_H
