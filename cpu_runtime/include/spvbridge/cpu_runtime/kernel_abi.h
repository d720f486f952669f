/*===- kernel_abi.h - The contract between compiled shaders and runtime ---===*
 *
 * Generated code and the launch runtime meet only here. The layout of these
 * structs is fixed: the compiler addresses their fields by byte offset (it
 * includes this header and uses offsetof), so any change bumps
 * SPVB_ABI_VERSION.
 *
 * For a SPIR-V entry point NAME a compiled module exports:
 *
 *   void spvb_NAME_invocation(const spvb_dispatch *, spvb_invocation *);
 *     Runs one invocation. The runtime fills every field of the invocation
 *     block first.
 *
 *   void spvb_NAME_workgroup(const spvb_dispatch *, spvb_invocation *);
 *     Runs every invocation of one workgroup, when spvb_NAME_info's
 *     workgroup_entry says it exists. The runtime fills workgroup_id,
 *     shared_memory, private_memory and runtime; the entry works on its own
 *     copy of the block, setting the local, global and subgroup ids there.
 *     SPVB_WORKGROUP_ENTRY_LOOP (no barriers): the invocations run one after
 *     the other; private_memory is one invocation's Private storage.
 *     SPVB_WORKGROUP_ENTRY_LANES (no barriers): the invocations run
 *     simd_lanes at a time, one per SIMD lane; private_memory is one
 *     invocation's Private storage, which each lane starts from.
 *     SPVB_WORKGROUP_ENTRY_REGIONS (barriers): the body is cut at barriers
 *     into regions, each a loop over the invocations; private_memory points
 *     at workgroup_scratch_size bytes, 64-byte aligned, which hold every
 *     invocation's Private storage and the values live across barriers.
 *     Without a workgroup entry the runtime runs each invocation of a
 *     workgroup on its own fiber.
 *
 *   const spvb_kernel_info spvb_NAME_info;
 *     Sizes the runtime must allocate.
 *
 *   const spvb_private_atomics spvb_NAME_private_atomics[];
 *     GLCompute entries only: buffers each worker thread changes in a
 *     copy of its own (see spvb_private_atomics).
 *
 *   const spvb_stage_variable spvb_NAME_stage_variables[];
 *     Graphics entries only (stage_variable_count entries): where
 *     each Location and builtin of the stage's interface lives in its input
 *     and output records.
 *
 * Graphics stages run on the same entries. A vertex shader is dispatched
 * with one invocation per vertex, SPVB_VERTICES_PER_WORKGROUP per workgroup
 * (SIMD lanes for all of them; the invocations of a last, partial group
 * run one by one through the invocation entry), a fragment shader with
 * SPVB_FRAGMENT_QUADS_PER_WORKGROUP 2x2 quads per workgroup (workgroup
 * size 4 x that; local index = 4 * quad + x + 2y, helper invocations
 * included). A fragment shader with subgroup operations other than
 * derivatives and quad operations has workgroups of SPVB_MAX_SUBGROUP_SIZE
 * invocations, so that subgroups of every size the runtime may choose are
 * whole quads and full; its subgroup size is the device's, at least 4.
 * A tessellation evaluation shader runs as a vertex shader does, one
 * invocation per tessellated vertex, and so does a geometry shader, one
 * invocation per input primitive and gl_InvocationID. A tessellation
 * control shader runs a workgroup per patch, OutputVertices invocations
 * (gl_InvocationID is the local index).
 * Invocation i (its global_id[0]) reads its inputs at stage_inputs +
 * i * stage_input_size and writes its outputs at stage_outputs + i *
 * stage_output_size, except that a tessellation control shader's records
 * are its patch's, shared by the workgroup: workgroup_id[0] indexes them
 * (gl_out[] is an array in the output record), and that a fragment
 * shader's records are in blocks of SPVB_FRAGMENT_RECORD_LANES invocations,
 * word by word: byte o of invocation i's record is at
 *   records + (i / L) * L * record_size + (o / 4) * 4 * L + (i % L) * 4 + o % 4
 * with L = SPVB_FRAGMENT_RECORD_LANES, so that a word of consecutive
 * invocations is one SIMD vector. A fragment's input record starts
 * with a uint32_t that is 1 for a helper invocation, its output record with a
 * uint32_t status (SPVB_FRAGMENT_*) the runtime zeroes first.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SPVBRIDGE_CPU_RUNTIME_KERNEL_ABI_H
#define SPVBRIDGE_CPU_RUNTIME_KERNEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPVB_ABI_VERSION 20

/* Vertices a vertex shader's workgroup shades (its SIMD lanes). */
#define SPVB_VERTICES_PER_WORKGROUP 16

/* 2x2 quads a fragment shader's workgroup shades (its SIMD lanes). */
#define SPVB_FRAGMENT_QUADS_PER_WORKGROUP 4

/* Invocations per block of a fragment shader's records (see above): a
 * workgroup's lanes. */
#define SPVB_FRAGMENT_RECORD_LANES 16

/* Where byte `offset` of a record in blocks of `lanes` invocations is,
 * from byte 0's place: (offset / 4) * 4 * lanes + offset % 4 (1 lane:
 * records one after the other). */
static inline uint64_t spvb_blocked_record_offset(uint64_t offset,
                                                  uint32_t lanes) {
  return (offset & ~(uint64_t)3) * lanes + (offset & 3);
}

/* The largest subgroup: a subgroup's ballots and masks are 64-bit words. */
#define SPVB_MAX_SUBGROUP_SIZE 64

/* One descriptor: a buffer's base address and size in bytes. A descriptor
 * array of N elements takes N consecutive slots of the binding table; a
 * runtime-sized one (OpTypeRuntimeArray) takes one slot whose base points
 * at the array's own table of spvb_binding entries, element after element,
 * and whose size is count * sizeof(spvb_binding). */
typedef struct spvb_binding {
  uint8_t *base;
  uint64_t size;
} spvb_binding;

/* Where a geometry shader's invocations emit their vertices (stream 0;
 * no other stream is rasterized). Invocation i's OpEmitVertex copies its
 * output record to vertices + (i * max_vertices + k) * stage_output_size
 * with k = counts[i], and counts it, unless k is max_vertices (vertices
 * past OutputVertices are undefined: they are dropped); OpEndPrimitive
 * after k > 0 vertices sets strip_ends[i * max_vertices + k - 1]. */
typedef struct spvb_geometry_emit {
  uint8_t *vertices;
  uint32_t *counts;
  uint8_t *strip_ends;
  uint32_t max_vertices;
  uint32_t reserved0;
} spvb_geometry_emit;

/* Read-only for the whole dispatch. */
typedef struct spvb_dispatch {
  uint32_t workgroup_count[3];
  uint32_t workgroup_size[3];
  uint32_t subgroup_size;
  /* Number of entries in bindings; slot order is the kernel's binding table
   * (resources sorted by descriptor set, then binding). */
  uint32_t binding_count;
  const spvb_binding *bindings;
  const uint8_t *push_constants;
  uint32_t push_constant_size;
  uint32_t reserved0;
  void *runtime;
  /* Graphics stages: the records of invocation 0 (see the file comment);
   * NULL for compute. */
  uint8_t *stage_inputs;
  uint8_t *stage_outputs;
  /* Geometry stages: where invocation 0 emits; NULL drops what is
   * emitted. */
  const spvb_geometry_emit *geometry_emit;
} spvb_dispatch;

/* One per invocation (or per workgroup for the workgroup entry). */
typedef struct spvb_invocation {
  uint32_t workgroup_id[3];
  uint32_t local_id[3];
  uint32_t global_id[3];
  uint32_t local_index;
  /* This workgroup's Workgroup storage, shared_memory_size bytes,
   * zero-filled (all ones with --perturb-undefined, unless a Workgroup
   * variable has a null initializer). */
  uint8_t *shared_memory;
  /* This invocation's Private storage, private_memory_size bytes. */
  uint8_t *private_memory;
  void *runtime;
  /* local_index / subgroup_size and local_index % subgroup_size. */
  uint32_t subgroup_id;
  uint32_t subgroup_local_id;
} spvb_invocation;

/* Static facts about one compiled entry point. */
typedef struct spvb_kernel_info {
  uint32_t abi_version;
  uint32_t workgroup_size[3];
  uint32_t shared_memory_size;
  uint32_t private_memory_size;
  uint32_t binding_count;
  uint32_t uses_barriers;
  uint32_t workgroup_entry; /* enum spvb_workgroup_entry_kind */
  uint32_t workgroup_scratch_size;
  uint32_t execution_model;   /* SPIR-V ExecutionModel: GLCompute, Vertex,
                                 TessellationControl, TessellationEvaluation,
                                 Geometry or Fragment */
  uint32_t stage_input_size;  /* bytes per invocation, 8-byte multiple */
  uint32_t stage_output_size; /* bytes per invocation, 8-byte multiple */
  uint32_t stage_variable_count;
  uint32_t simd_lanes;    /* invocations the workgroup entry runs at once */
  uint32_t subgroup_size; /* nonzero: the only subgroup size the kernel runs
                             with (its subgroup operations are SIMD
                             operations on chunks of that many lanes) */
  uint32_t private_atomic_count; /* entries of spvb_NAME_private_atomics */
} spvb_kernel_info;

/* A storage buffer the kernel changes only through relaxed atomics of one
 * commutative operation whose results it never uses, and otherwise never
 * reads or writes. No invocation can see its values during the dispatch,
 * so each worker thread changes a zero-filled copy of it (zero is each
 * operation's identity) and folds the copy into the buffer, one atomic of
 * the operation per nonzero element, when its workgroups are done: the
 * buffer ends as it would have. The kernel changes these buffers with
 * plain loads and stores, so a runtime must either give each thread such
 * a copy or run the dispatch on one thread. GLCompute entries export
 * spvb_NAME_private_atomics, private_atomic_count entries (one unused row
 * when there are none). */
enum spvb_private_atomic_operation {
  SPVB_PRIVATE_ATOMIC_ADD = 1, /* OpAtomicIAdd, ISub, IIncrement, IDecrement */
  SPVB_PRIVATE_ATOMIC_OR = 2,
  SPVB_PRIVATE_ATOMIC_XOR = 3,
  SPVB_PRIVATE_ATOMIC_UMAX = 4
};

typedef struct spvb_private_atomics {
  uint32_t slot;      /* binding-table slot of the buffer */
  uint32_t operation; /* enum spvb_private_atomic_operation */
  uint32_t bytes;     /* 4 or 8: the width of every atomic on the buffer */
} spvb_private_atomics;

/* One Location-consuming part of a stage's interface (a scalar or vector:
 * a matrix column, an array element and a block member each get their own
 * entry) or one builtin. */
typedef struct spvb_stage_variable {
  uint32_t location;  /* ~0u for a builtin */
  uint32_t component; /* Component decoration (32-bit units) */
  uint32_t builtin;   /* SPIR-V BuiltIn, or ~0u */
  uint32_t offset;    /* bytes from the start of the record */
  uint32_t kind;      /* enum spvb_type_kind of the components */
  uint32_t bytes;     /* bytes per component */
  uint32_t count;     /* components (an array builtin: its length) */
  uint32_t flags;     /* enum spvb_stage_variable_flags */
  /* A per-vertex variable of a geometry or tessellation stage (an element
   * of gl_in[], gl_out[] or of an arrayed Location variable): the vertex
   * of the primitive or patch; else 0. */
  uint32_t vertex;
} spvb_stage_variable;

enum spvb_stage_variable_flags {
  SPVB_STAGE_OUTPUT = 1, /* in the output record, else the input record */
  SPVB_STAGE_FLAT = 2,
  SPVB_STAGE_NOPERSPECTIVE = 4,
  SPVB_STAGE_CENTROID = 8,
  SPVB_STAGE_SAMPLE = 16,
  SPVB_STAGE_SIGNED = 32,     /* a signed integer type */
  SPVB_STAGE_PER_VERTEX = 64, /* see spvb_stage_variable::vertex */
  SPVB_STAGE_PATCH = 128,     /* a tessellation stage's per-patch variable */
  /* An input the shader never reads (gl_in[].gl_PointSize of a geometry
   * shader that reads only gl_Position): the runtime need not fill it.
   * Debug builds read every input, so a debugger shows them all. */
  SPVB_STAGE_UNREAD = 256,
  /* An output the entry point's first block stores whole before any
   * structured control flow: every invocation that does not terminate
   * writes all of it, so the runtime need not clear it first. */
  SPVB_STAGE_WRITTEN = 512
};

/* The fragment output record's status word. */
enum spvb_fragment_status {
  /* OpKill or OpTerminateInvocation ran: the fragment writes nothing. */
  SPVB_FRAGMENT_TERMINATED = 1,
  /* OpDemoteToHelperInvocation ran: it goes on as a helper invocation. */
  SPVB_FRAGMENT_DEMOTED = 2
};

enum spvb_workgroup_entry_kind {
  SPVB_WORKGROUP_ENTRY_NONE = 0,
  SPVB_WORKGROUP_ENTRY_LOOP = 1,
  SPVB_WORKGROUP_ENTRY_REGIONS = 2,
  SPVB_WORKGROUP_ENTRY_LANES = 3
};

/* What spvb_rt_fault reports. */
enum spvb_fault_kind {
  /* Not every invocation of the workgroup reached the same barrier.
   * detail0: how many returned instead; detail1: the workgroup size. */
  SPVB_FAULT_BARRIER_DIVERGENCE = 1,
  /* A buffer access outside the bound range (--check-bounds). detail0: its
   * byte offset from the buffer's start; detail1: the buffer's size;
   * message: where and what, e.g. "shader.comp:12:5: out-of-bounds write of
   * 4 bytes to storage buffer 'Y' (set 0, binding 1)". */
  SPVB_FAULT_OUT_OF_BOUNDS = 2
};

typedef void (*spvb_entry_fn)(const spvb_dispatch *, spvb_invocation *);

/* How a value passed by address to the runtime is typed:
 * SPVB_TYPE_DESC(kind, bytes per component, component count). */
enum spvb_type_kind {
  SPVB_KIND_INT = 0, /* signedness comes from the opcode */
  SPVB_KIND_FLOAT = 1,
  SPVB_KIND_BOOL = 2, /* one byte, 0 or 1 */
  SPVB_KIND_POINTER = 3,
  SPVB_KIND_NONE = 4
};
#define SPVB_TYPE_DESC(kind, bytes, count)                                     \
  (((uint32_t)(kind) << 16) | ((uint32_t)(bytes) << 8) | (uint32_t)(count))

/* Calls from generated code into the runtime. */
void spvb_rt_control_barrier(spvb_invocation *invocation,
                             uint32_t execution_scope, uint32_t memory_scope,
                             uint32_t semantics);

/* A fault the generated code detected in `invocation`'s workgroup. The
 * runtime keeps the first one of a dispatch and fails the dispatch with it;
 * after a barrier divergence the workgroup entry returns. */
void spvb_rt_fault(const spvb_dispatch *dispatch,
                   const spvb_invocation *invocation, uint32_t kind,
                   uint64_t detail0, uint64_t detail1, const char *message);

/* With --check-undefined, called where an operation's result is undefined
 * for its operands (e.g. OpConvertFToU of -1.5). `message` names the site,
 * the operation and the rule, with DebugPrintf conversions for the operands
 * (as spvb_rt_printf's arguments). The runtime fails the dispatch with the
 * first one. */
void spvb_rt_undefined(const spvb_dispatch *dispatch,
                       const spvb_invocation *invocation, const char *message,
                       uint32_t arg_count, const uint32_t *arg_descs,
                       const void *const *args);

/* What spvb_rt_record_access is told about an access. */
enum spvb_access_flags {
  SPVB_ACCESS_WRITE = 1,    /* a store, or an atomic that may write */
  SPVB_ACCESS_ATOMIC = 2,   /* an atomic instruction */
  SPVB_ACCESS_WORKGROUP = 4 /* into the workgroup's shared_memory */
};

/* With race checks (--check-races), called before each access to a storage
 * buffer, physical storage buffer or Workgroup memory. `base` is the start
 * of the buffer or Workgroup variable accessed (null when not known), for
 * byte offsets in reports; `site` is "FILE:LINE:COL" (may be empty) and
 * `object` names what is accessed, e.g. "buffer 'Y' (set 0, binding 1)".
 * The runtime fails the dispatch at the first two conflicting accesses of
 * different invocations that no barrier orders (a data race). */
void spvb_rt_record_access(const spvb_dispatch *dispatch,
                           const spvb_invocation *invocation,
                           const void *address, uint64_t size, uint32_t flags,
                           const void *base, const char *site,
                           const char *object);

/* debugPrintfEXT (NonSemantic.DebugPrintf): `format` with the
 * VK_KHR_shader_non_semantic_info conversions (%d %i %u %x %X %o %c %f %F %e
 * %E %g %G %a %A, `l` for 64-bit, `%v2f`-style vectors); args[i] points at
 * the i-th value, typed by arg_descs[i] (SPVB_TYPE_DESC). One line per
 * call on the runtime's printf sink (stdout by default). */
void spvb_rt_printf(spvb_invocation *invocation, const char *format,
                    uint32_t arg_count, const uint32_t *arg_descs,
                    const void *const *args);

/* A subgroup instruction (OpGroupNonUniform*, OpSubgroup*KHR). Every active
 * invocation of the subgroup makes the call; the invocations that reach the
 * same site together take part, the others do not. operand0 is the
 * instruction's value operand, operand1 its second operand (id, delta,
 * index, ...) or NULL, typed by operand_desc (operand1 of Broadcast,
 * Shuffle*, BallotBitExtract, QuadBroadcast and Rotate is a 32-bit
 * integer); the result, typed by result_desc, is written to `result`.
 * group_operation is the SPIR-V GroupOperation or ~0u, cluster_size the
 * ClusterSize operand or 0. `site` numbers the call sites of a kernel so
 * that a site that can run before another in program order has the smaller
 * number (loops before what follows them); the runtime runs the lowest
 * waiting site first, so invocations that diverged meet again. */
void spvb_rt_subgroup(spvb_invocation *invocation, uint32_t opcode,
                      uint32_t group_operation, uint32_t cluster_size,
                      uint32_t site, uint32_t operand_desc,
                      uint32_t result_desc, const void *operand0,
                      const void *operand1, void *result);

/* A subgroup instruction that every invocation of the workgroup reaches
 * exactly once, run for all of them together by a region-loops workgroup
 * entry between two regions: invocation i's operands are at
 * operand0 + i * operand0_stride (operand1 likewise, or NULL) and its result
 * is written at result + i * result_stride; the other arguments are
 * spvb_rt_subgroup's. */
void spvb_rt_subgroup_all(const spvb_dispatch *dispatch,
                          uint32_t invocation_count, uint32_t opcode,
                          uint32_t group_operation, uint32_t cluster_size,
                          uint32_t operand_desc, uint32_t result_desc,
                          const uint8_t *operand0, uint64_t operand0_stride,
                          const uint8_t *operand1, uint64_t operand1_stride,
                          uint8_t *result, uint64_t result_stride);

/* An image, texel buffer or sampled image: the binding-table entry of an
 * image resource has base = (uint8_t *)&descriptor and size =
 * sizeof(spvb_image). Texels are tightly packed at `data`, x fastest, then
 * y, z and the array layer; mip levels follow each other, each with its own
 * extent (max(1, extent >> level)) and all layers. A multisampled image
 * (samples > 1; one level) keeps each texel's samples together, sample
 * fastest: sample s of texel (x, y, layer) is texel number
 * ((layer * extent[1] + y) * extent[0] + x) * samples + s. A sample index
 * outside [0, samples) is outside the image (reads give zero, writes are
 * dropped). */
typedef struct spvb_image {
  uint8_t *data;
  uint32_t format;    /* SPIR-V ImageFormat of the texels (not Unknown) */
  uint32_t dim;       /* SPIR-V Dim: 1D, 2D, 3D, Cube, Buffer, or
                         SubpassData for an input attachment: a 2D image
                         OpImageRead reads at the fragment's pixel plus the
                         coordinate */
  uint32_t extent[3]; /* level 0; 1 in unused dimensions */
  uint32_t layers;    /* array layers (a cube has 6 per cube); 1 if none */
  uint32_t levels;    /* mip levels, at least 1 */
  uint32_t samples;   /* samples per texel: 1, or the count of a
                         multisampled image (0 is taken for 1) */
  const struct spvb_sampler *sampler; /* combined image samplers; or NULL */
  uint64_t size;                      /* bytes at data */
} spvb_image;

/* A sampler, with Vulkan's enumeration values. The binding-table entry of
 * a separate sampler (OpTypeSampler) has base = (uint8_t *)&sampler and
 * size = sizeof(spvb_sampler). */
typedef struct spvb_sampler {
  uint32_t mag_filter;      /* VkFilter: 0 nearest, 1 linear */
  uint32_t min_filter;      /* VkFilter */
  uint32_t mipmap_mode;     /* VkSamplerMipmapMode: 0 nearest, 1 linear */
  uint32_t address_mode[3]; /* VkSamplerAddressMode for u, v, w */
  float mip_lod_bias;
  float min_lod;
  float max_lod;
  uint32_t border_color; /* VkBorderColor */
  uint32_t unnormalized_coordinates;
  /* Depth-compare sampling (the Dref instructions): each texel's first
   * component is compared with the reference by compare_op (VkCompareOp),
   * giving 1 or 0, before filtering. */
  uint32_t compare_enable;
  uint32_t compare_op;
} spvb_sampler;

/* An image instruction: operands[i] points at the instruction's i-th id
 * operand, typed by operand_descs[i] (images are pointers to spvb_image
 * descriptors; a sampled image is two operands, a pointer to its spvb_image
 * then a pointer to its spvb_sampler: the image's own `sampler` for a
 * combined image sampler, a separate sampler's descriptor for
 * OpSampledImage, or NULL; OpImageTexelPointer's image is a pointer to its
 * spvb_binding), in SPIR-V order without the image-operands mask, which is
 * `image_operands`. The result, typed by result_desc, goes to `result`. */
void spvb_rt_image(spvb_invocation *invocation, uint32_t opcode,
                   uint32_t image_operands, uint32_t result_desc,
                   uint32_t operand_count, const uint32_t *operand_descs,
                   const void *const *operands, void *result);

/* The commonest sampling, by value: OpImageSample{Implicit,Explicit}Lod with
 * a two-component float coordinate, a four-component float result and no
 * image operands but Bias, Lod and Grad (`image_operands` says which of
 * bias, lod and the gradients (du/dx, dv/dx), (du/dy, dv/dy) are given).
 * The same as spvb_rt_image otherwise. */
void spvb_rt_sample2(uint32_t image_operands, const spvb_image *image,
                     const spvb_sampler *sampler, float u, float v, float bias,
                     float lod, float dudx, float dvdx, float dudy, float dvdy,
                     float *result);

/* spvb_rt_sample2 for `lanes` invocations at once (the SIMD lanes of a
 * vectorized body), those of the `active` bit mask: images[l] and
 * samplers[l] are lane l's, `inputs` holds rows of `lanes` floats (u, v,
 * bias, lod, du/dx, dv/dx, du/dy, dv/dy), and so do the results: component
 * c of lane l goes to results[c * lanes + l]. */
#define SPVB_SAMPLE2_INPUTS 8
void spvb_rt_sample2_lanes(uint32_t image_operands, uint32_t lanes,
                           uint64_t active, const spvb_image *const *images,
                           const spvb_sampler *const *samplers,
                           const float *inputs, float *results);

/* spvb_rt_sample2_lanes when every lane samples `image` through `sampler`
 * (the descriptors are uniform). */
void spvb_rt_sample2_uniform(uint32_t image_operands, uint32_t lanes,
                             uint64_t active, const spvb_image *image,
                             const spvb_sampler *sampler, const float *inputs,
                             float *results);

/* GLSL.std.450 InterpolateAtCentroid, InterpolateAtSample and
 * InterpolateAtOffset (`instruction`) in a fragment shader: the input
 * variable (or a component of it) that `input` points at in the
 * invocation's input record, interpolated at the centroid, at sample
 * `*operand` or at the pixel centre plus the vec2 `*operand` (typed by
 * operand_desc); the result, typed by result_desc, goes to `result`. */
void spvb_rt_interpolate(spvb_invocation *invocation, uint32_t instruction,
                         const void *input, uint32_t result_desc,
                         const void *operand, uint32_t operand_desc,
                         void *result);

#ifdef __cplusplus
}
#endif

#endif /* SPVBRIDGE_CPU_RUNTIME_KERNEL_ABI_H */
