//===- KernelInfoGlobals.cpp - The kernels of a module and their info -----===//
#include "KernelInfoGlobals.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/IR/Constants.h"

using namespace llvm;
using namespace spvb;

void KernelInfoGlobal::store() {
  global->setInitializer(
      ConstantDataArray::get(global->getContext(), ArrayRef(fields)));
}

std::vector<KernelInfoGlobal> spvb::getKernelInfoGlobals(Module &module) {
  std::vector<KernelInfoGlobal> kernels;
  for (GlobalVariable &global : module.globals()) {
    StringRef name = abi::getKernelInfoEntryName(global.getName());
    if (!global.hasInitializer() || name.empty())
      continue;
    auto *initializer = dyn_cast<ConstantDataArray>(global.getInitializer());
    Function *invocation =
        module.getFunction(abi::getInvocationEntrySymbol(name));
    if (!initializer || !invocation || invocation->isDeclaration() ||
        initializer->getNumElements() !=
            sizeof(spvb_kernel_info) / sizeof(uint32_t))
      continue;
    KernelInfoGlobal kernel{
        &global, invocation, abi::getWorkgroupEntrySymbol(name), {}};
    for (unsigned i = 0; i < initializer->getNumElements(); ++i)
      kernel.fields.push_back(initializer->getElementAsInteger(i));
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}
