//===- SpvbOps.td - SPIR-V instructions missing from 'spirv' -*- tablegen -*-===//
//
// The deserializer builds MLIR's spirv dialect wherever it has an op with the
// right semantics. An instruction it lacks becomes an op of this dialect when
// expanding it into spirv ops would lose meaning (atomic loads/stores), hide
// structure the lowering wants (Any/All become vector reductions), or need a
// runtime call (DebugPrintf). Each op documents the instruction it models.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_SPVBOPS_TD
#define SPVBRIDGE_SPIRV_SPVBOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Spvb_Dialect : Dialect {
  let name = "spvb";
  let summary = "SPIR-V instructions the upstream spirv dialect does not model";
  let cppNamespace = "::spvb";
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
  let useDefaultTypePrinterParser = 1;
}

class Spvb_Type<string name, string typeMnemonic>
    : TypeDef<Spvb_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Spvb_SamplerType : Spvb_Type<"Sampler", "sampler"> {
  let summary = "OpTypeSampler: a separate sampler";
  let description = [{
    The spirv dialect has no sampler type. A `!spirv.ptr` to it is the
    UniformConstant variable of a sampler binding (or an element of an array
    of them); `spvb.load_sampler` reads it, and OpSampledImage (`spvb.image`)
    pairs it with an image. Lowered to a pointer to the runtime's
    spvb_sampler descriptor.
  }];
}

class Spvb_Op<string mnemonic, list<Trait> traits = []>
    : Op<Spvb_Dialect, mnemonic, traits>;

def Spvb_GLSLExtOp : Spvb_Op<"glsl", [Pure]> {
  let summary = "A GLSL.std.450 extended instruction with no spirv.GL op";
  let description = [{
    `inst` is the instruction number of the GLSL.std.450 set (e.g. 49 for
    SmoothStep); operands and result are those of OpExtInst.
  }];
  let arguments = (ins I32Attr:$inst, Variadic<AnyType>:$operands);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$inst `(` $operands `)` attr-dict `:` functional-type($operands, $result)";
}

def Spvb_AnyOp : Spvb_Op<"any", [Pure]> {
  let summary = "OpAny: true if any component of a bool vector is true";
  let arguments = (ins VectorOfAnyRankOf<[I1]>:$vector);
  let results = (outs I1:$result);
  let assemblyFormat = "$vector attr-dict `:` type($vector)";
}

def Spvb_AllOp : Spvb_Op<"all", [Pure]> {
  let summary = "OpAll: true if every component of a bool vector is true";
  let arguments = (ins VectorOfAnyRankOf<[I1]>:$vector);
  let results = (outs I1:$result);
  let assemblyFormat = "$vector attr-dict `:` type($vector)";
}

def Spvb_OuterProductOp : Spvb_Op<"outer_product", [Pure]> {
  let summary = "OpOuterProduct: column vector times row vector";
  let arguments = (ins AnyVectorOfAnyRank:$column, AnyVectorOfAnyRank:$row);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$column `,` $row attr-dict `:` type($column) `,` type($row) `->` type($result)";
}

def Spvb_CopyLogicalOp : Spvb_Op<"copy_logical", [Pure]> {
  let summary = "OpCopyLogical: the same value in a type with other decorations";
  let description = [{
    Source and result types have the same structure and differ only in
    layout decorations; as values they are identical.
  }];
  let arguments = (ins AnyType:$operand);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
}

def Spvb_PointerBitcastOp : Spvb_Op<"pointer_bitcast", [Pure]> {
  let summary = "OpBitcast between a buffer reference and an integer";
  let description = [{
    A PhysicalStorageBuffer pointer to or from a 64-bit integer or a vector
    of two 32-bit integers, which spirv.Bitcast does not accept.
  }];
  let arguments = (ins AnyType:$operand);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
}

def Spvb_CompositeSelectOp : Spvb_Op<"composite_select", [Pure,
    AllTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "OpSelect of structs, arrays or matrices";
  let description = [{
    SPIR-V 1.4 allows OpSelect on any composite with a scalar condition;
    spirv.Select accepts only scalars, vectors and pointers.
  }];
  let arguments = (ins I1:$condition, AnyType:$true_value, AnyType:$false_value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)";
}

def Spvb_LoadSamplerOp : Spvb_Op<"load_sampler"> {
  let summary = "OpLoad of a separate sampler";
  let description = [{
    spirv.Load accepts only SPIR-V result types; this loads a
    `!spvb.sampler` through a UniformConstant `!spirv.ptr` to it.
  }];
  let arguments = (ins AnyType:$pointer);
  let results = (outs Spvb_SamplerType:$result);
  let assemblyFormat = "$pointer attr-dict `:` type($pointer)";
}

def Spvb_ImageOp : Spvb_Op<"image"> {
  let summary = "An image instruction (OpImage*, OpSampledImage)";
  let description = [{
    `opcode` is the SPIR-V opcode, `image_operands` the Image Operands mask
    (0 when absent); the operands are the instruction's id operands in order.
    The spirv dialect models only a few image instructions, with verifiers
    stricter than Vulkan; one op keeps them uniform for the runtime calls.
  }];
  let arguments = (ins I32Attr:$opcode, I32Attr:$image_operands,
                   Variadic<AnyType>:$operands);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = "$opcode `(` $operands `)` attr-dict `:` functional-type($operands, $result)";
}

def Spvb_SubgroupOp : Spvb_Op<"subgroup"> {
  let summary = "A subgroup instruction (OpGroupNonUniform*, OpSubgroup*KHR)";
  let description = [{
    `opcode` is the SPIR-V opcode; `group_operation` the GroupOperation or
    -1; `cluster_size` the ClusterSize or 0. The operands are the value
    operands (the execution scope is always Subgroup in Vulkan).
  }];
  let arguments = (ins I32Attr:$opcode, I32Attr:$group_operation,
                   I32Attr:$cluster_size, Variadic<AnyType>:$operands);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$opcode `(` $operands `)` attr-dict `:` functional-type($operands, $result)";
}

def Spvb_PointerCompareOp : Spvb_Op<"pointer_compare", [Pure]> {
  let summary = "OpPtrEqual, OpPtrNotEqual and OpPtrDiff";
  let description = [{
    `opcode` is the SPIR-V opcode. OpPtrDiff counts elements of the operands'
    pointee type (of `stride` bytes when the pointer type has an ArrayStride,
    else 0 meaning the pointee's size).
  }];
  let arguments = (ins I32Attr:$opcode, I32Attr:$stride, AnyType:$lhs,
                   AnyType:$rhs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$opcode `(` $lhs `,` $rhs `)` attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def Spvb_QuantizeToF16Op : Spvb_Op<"quantize_to_f16",
    [Pure, AllTypesMatch<["operand", "result"]>]> {
  let summary = "OpQuantizeToF16: round a 32-bit float to what 16 bits hold";
  let arguments = (ins AnyType:$operand);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Spvb_ArrayLengthOp : Spvb_Op<"array_length", [Pure]> {
  let summary = "OpArrayLength: element count of a block's trailing runtime array";
  let arguments = (ins AnyType:$structure, I32Attr:$member);
  let results = (outs I32:$result);
  let assemblyFormat = "$structure `[` $member `]` attr-dict `:` type($structure)";
}

def Spvb_AtomicLoadOp : Spvb_Op<"atomic_load"> {
  let summary = "OpAtomicLoad";
  let description = [{
    `scope` and `semantics` are the SPIR-V Scope and Memory Semantics values.
  }];
  let arguments = (ins AnyType:$pointer, I32Attr:$scope, I32Attr:$semantics);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$pointer attr-dict `:` type($pointer) `->` type($result)";
}

def Spvb_AtomicStoreOp : Spvb_Op<"atomic_store"> {
  let summary = "OpAtomicStore";
  let arguments = (ins AnyType:$pointer, AnyType:$value, I32Attr:$scope,
                   I32Attr:$semantics);
  let assemblyFormat = "$pointer `,` $value attr-dict `:` type($pointer) `,` type($value)";
}

def Spvb_IntegerDotOp : Spvb_Op<"integer_dot"> {
  let summary = "OpSDot, OpUDot, OpSUDot and their AccSat forms";
  let description = [{
    SPV_KHR_integer_dot_product. `opcode` is the SPIR-V opcode; `packed` marks
    PackedVectorFormat4x8Bit (each operand a 32-bit scalar of four 8-bit
    lanes); `accumulator` is present for the AccSat forms. The spirv
    dialect's ops reject results narrower than the whole vector (an i32 dot
    of two vector<2xi32>), which SPIR-V allows.
  }];
  let arguments = (ins AnyType:$vector1, AnyType:$vector2,
                   Optional<AnyType>:$accumulator, I32Attr:$opcode,
                   UnitAttr:$packed);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$opcode $vector1 `,` $vector2 (`,` $accumulator^)? attr-dict `:` type($vector1) `,` type($vector2) (`,` type($accumulator)^)? `->` type($result)";
}

def Spvb_AtomicFMinMaxOp : Spvb_Op<"atomic_fminmax"> {
  let summary = "OpAtomicFMinEXT and OpAtomicFMaxEXT";
  let description = [{
    SPV_EXT_shader_atomic_float_min_max: stores the minimum (or, with
    `is_max`, the maximum) of the pointee and `value`, a NaN operand giving
    the other one, and returns the original pointee.
  }];
  let arguments = (ins AnyType:$pointer, AnyType:$value, BoolAttr:$is_max,
                   I32Attr:$scope, I32Attr:$semantics);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$pointer `,` $value attr-dict `:` type($pointer) `,` type($value) `->` type($result)";
}

def Spvb_DebugPrintfOp : Spvb_Op<"debug_printf"> {
  let summary = "NonSemantic.DebugPrintf's DebugPrintf";
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  let assemblyFormat = "$format (`(` $args^ `:` type($args) `)`)? attr-dict";
}

def Spvb_DebugValueOp : Spvb_Op<"debug_value"> {
  let summary = "NonSemantic.Shader.DebugInfo.100's DebugValue";
  let description = [{
    Only with debug information: from here on, the source variable `name`
    (declared on `line`; `arg` is its parameter number from 1, or 0) holds
    `value`. `type_names` is the kDebugTypeNamesAttr tree of its type.
  }];
  let arguments = (ins AnyType:$value, StrAttr:$name, I32Attr:$line,
                   I32Attr:$arg, AnyAttr:$type_names);
  let assemblyFormat = "$name `=` $value attr-dict `:` type($value)";
}

def Spvb_DemoteOp : Spvb_Op<"demote"> {
  let summary = "OpDemoteToHelperInvocation";
  let description = [{
    The fragment invocation goes on as a helper invocation: it sets
    SPVB_FRAGMENT_DEMOTED in its output record, so its outputs are dropped,
    and its input record's helper flag, so the helper guards keep it from
    writing memory; it still takes part in derivatives.
  }];
  let assemblyFormat = "attr-dict";
}

def Spvb_IsHelperOp : Spvb_Op<"is_helper"> {
  let summary = "OpIsHelperInvocationEXT: the helper flag as it is now";
  let description = [{
    Not pure: OpDemoteToHelperInvocation changes the answer.
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict";
}

def Spvb_CheckDefinedOp : Spvb_Op<"check_defined"> {
  let summary = "Fails the dispatch where a checked result is wrong";
  let description = [{
    Inserted by --check-undefined beside an operation whose result SPIR-V,
    GLSL.std.450 or Vulkan's SPIR-V environment leave undefined for some
    operands, and by --check-nan after a float operation that may make a
    NaN or an infinity: when `undefined` is true, the dispatch fails with
    `message`, formatted with `args` as DebugPrintf formats its arguments.
  }];
  let arguments = (ins I1:$undefined, StrAttr:$message,
                   Variadic<AnyType>:$args);
  let assemblyFormat = "$undefined `,` $message (`(` $args^ `:` type($args) `)`)? attr-dict";
}

def Spvb_RecordAccessOp : Spvb_Op<"record_access"> {
  let summary = "Records a memory access for the data-race report";
  let description = [{
    Inserted by --check-races before each load, store and atomic on memory
    other invocations see (storage buffers, physical storage buffers,
    Workgroup variables): the access of `bytes` bytes through `pointer`,
    a write when `write` is set, atomic when `atomic` is. Lowered to a call
    of spvb_rt_record_access; the runtime reports two conflicting accesses
    no barrier orders.
  }];
  let arguments = (ins AnyType:$pointer, I64Attr:$bytes, UnitAttr:$write,
                   UnitAttr:$atomic);
  let assemblyFormat = "$pointer attr-dict `:` type($pointer)";
}

#endif // SPVBRIDGE_SPIRV_SPVBOPS_TD
