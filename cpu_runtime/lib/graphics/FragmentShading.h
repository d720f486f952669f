//===- FragmentShading.h - Quads through the fragment shader ----*- C++ -*-===//
//
// The fragment stage of a draw on one thread: quads from the rasterizer
// are queued with the primitive they belong to, and a full queue is shaded
// at once: the input records interpolated from the vertex outputs, the
// shader run in workgroups of SPVB_FRAGMENT_QUADS_PER_WORKGROUP quads (SIMD
// lanes for all of them; whole subgroups with subgroup operations), and the
// per-fragment operations applied in the order the quads came. A draw gives
// each thread its own batch for the tiles it takes, so a pixel's fragments
// always meet the framebuffer in primitive order.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTSHADING_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTSHADING_H

#include "FragmentOperations.h"
#include "PrimitiveAssembly.h"
#include "Rasterizer.h"
#include "StageRecords.h"
#include "launch/WorkgroupRunner.h"

#include <mutex>
#include <optional>

namespace spvb::runtime {

/// A primitive of a draw, ready to rasterize.
struct DrawPrimitive {
  Primitive primitive;
  uint32_t instance = 0;
  /// Points: gl_PointSize (1 without it).
  float pointSize = 1;
  /// Its vertices' projections.
  std::array<const ProjectedVertex *, 3> projected{};
  /// Pixels it may touch, within the scissor.
  PixelRect bounds;
};

/// Rasterizes `drawn` (a triangle, line or point) within `setup` into
/// `sink`.
void rasterizePrimitive(const GraphicsState &state, const RasterSetup &setup,
                        const DrawPrimitive &drawn, QuadSink &sink);

/// How one fragment input is computed from the vertex outputs.
struct Varying {
  const spvb_stage_variable *input;
  /// Offset of the matching data in the vertex output record, or none: the
  /// input is then undefined (zero).
  std::optional<uint32_t> source;
  /// A float input without `flat` is interpolated; the others take the
  /// provoking vertex's value.
  bool interpolate;
};

class QuadBatch;

/// What the threads of a draw's fragment stage share.
class FragmentStage {
public:
  /// `fragment.entry` may be null: only depth and stencil are written.
  FragmentStage(const StageKernel &vertex, const StageKernel &fragment,
                const StageRecords &vertexOutputs, uint32_t verticesPerInstance,
                uint32_t samples, FragmentOperations &operations);

  /// Whether the shader reads SampleId or SamplePosition, which makes it
  /// run once per sample.
  bool readsSample() const { return sampleId || samplePosition; }
  /// Whether an input is decorated Sample: it then has a value per
  /// covered sample, so the shader runs per sample.
  bool hasSampleInputs() const { return sampleInputs; }
  /// Whether an interpolated input is decorated Centroid.
  bool hasCentroidInputs() const { return centroidInputs; }

  /// Checks the fragment kernel and fills the dispatch its batches start
  /// from; `subgroupSize` is the device's (the stage's resources may ask
  /// for another).
  llvm::Error prepare(uint32_t subgroupSize);
  /// After every batch: the first fault or reported error.
  llvm::Error takeError() { return faults.takeError(state); }
  uint64_t getInvocations() const { return invocations.load(); }
  uint64_t getSamplesPassed() const { return samplesPassed.load(); }
  /// The output records of `drawn`'s vertices (a line's or a point's last
  /// one repeated).
  std::array<const uint8_t *, 3>
  getVertexRecords(const DrawPrimitive &drawn) const;
  FragmentOperations &getOperations() { return operations; }
  /// --debug-pixel: the invocations covering the pixel run through its
  /// debug build.
  void setDebugPixel(const DebugPixel *pixel) { debugPixel = pixel; }

  /// Where a queued quad is, for the checks' messages.
  struct QuadPlace {
    int32_t x, y;
    /// Sample shading: the sample its invocations shade; -1 otherwise.
    int8_t sample;
    uint8_t coverage;
  };
  /// Fragment invocation `index` of the draw's launch (its batch's
  /// workgroup and local index) as the checks' messages name it: "the
  /// fragment at pixel (3, 4)", "the helper invocation at pixel (2, 4)".
  std::string nameInvocation(uint64_t index);

private:
  friend class QuadBatch;
  friend void interpolateInput(const QuadBatch &, const spvb_invocation &,
                               uint32_t, const uint8_t *, uint32_t,
                               const void *, uint32_t, void *);

  const StageKernel &fragment;
  const DebugPixel *debugPixel = nullptr;
  const StageRecords &vertexOutputs;
  uint32_t samples;
  uint32_t verticesPerInstance;
  FragmentOperations &operations;
  std::vector<Varying> varyings;
  /// The interpolated inputs' components, in the order of
  /// QuadBatch::varyingPlanes: where each is in the vertex output and the
  /// fragment input records.
  struct PlaneInput {
    const spvb_stage_variable *input;
    uint32_t source, offset;
    /// Where the first lane's value is from its block's start
    /// (StageRecords::inBlock).
    uint32_t blockOffset;
    bool linear;
  };
  std::vector<PlaneInput> planeInputs;
  /// Whether every interpolated component is a 32-bit float.
  bool planeInputsAre32Bit = true;
  /// Flat inputs: bytes copied from the provoking vertex's output record.
  struct FlatInput {
    uint32_t source, offset, size;
  };
  std::vector<FlatInput> flatInputs;
  /// Whether fragments need their depths after the shader.
  bool needsDepths = true;
  /// Whether every output is SPVB_STAGE_WRITTEN: the output records need no
  /// clearing but for their status words.
  bool outputsWritten = false;
  /// Whether the shader reads a builtin input besides the helper flag.
  bool readsBuiltins = true;
  const spvb_stage_variable *fragCoord, *frontFacing, *pointCoord, *primitiveId,
      *sampleId, *sampleMask, *samplePosition;
  bool sampleInputs = false, centroidInputs = false;
  uint32_t inputSize = 0, outputSize = 0;
  uint32_t quadsPerGroup = 1;

  spvb_dispatch dispatch{};
  DispatchState state;
  FirstFault faults;
  /// Numbers batches across threads: a batch's workgroups have its number
  /// as workgroup_id.y, so every fragment of the draw is a distinct
  /// invocation to the race detector.
  std::atomic<uint32_t> nextBatch{0};
  std::atomic<uint64_t> invocations{0};
  /// DrawStatistics::samplesPassed, added to once per batch.
  std::atomic<uint64_t> samplesPassed{0};
  /// With race checks, each batch's quads, by batch number: a race report
  /// names fragments of batches other threads ran.
  std::mutex placesMutex;
  std::vector<std::vector<QuadPlace>> batchPlaces;
};

/// One thread's queue of quads.
class QuadBatch {
public:
  explicit QuadBatch(FragmentStage &stage);

  /// Queues a quad of `primitive`, writing its input records; shades the
  /// queue when it is full. False once the draw has failed.
  bool add(const Quad &quad, const DrawPrimitive &primitive);
  /// add() for each of the quads of a triangle covered at pixel centres.
  bool addCentred(const Quad &base, llvm::ArrayRef<QuadCoverage> quads,
                  const DrawPrimitive &primitive);
  /// Shades the queued quads and writes their fragments. False once the
  /// draw has failed.
  bool flush();
  /// The batch number of the quads being shaded.
  uint32_t getNumber() const { return number; }
  /// Where queued quad `index` is; a padding copy is its last quad.
  FragmentStage::QuadPlace getPlace(size_t index) const;

  static constexpr size_t kCapacity = 256;

private:
  /// Runs `groups` workgroups of batch `batch`, those with a quad that
  /// covers the debugged pixel with its invocation in the debug build.
  std::optional<KernelFault> runWithDebugPixel(uint64_t groups, uint32_t batch);

  /// What the fragment operations need of a queued quad (its input
  /// records are written when it is queued).
  struct Entry {
    /// Uninitialized: add() sets every field, addCentred those the draw
    /// reads.
    Entry() {}
    const DrawPrimitive *primitive;
    /// Its triangle in `triangles` (~0u: none known).
    uint32_t triangle;
    std::array<uint8_t, 4> samples, covered;
    bool frontFacing;
    /// Quad::sample.
    int8_t sample;
  };
  /// Per pixel, the depth at each sample with the depth bias added.
  using QuadDepths = std::array<std::array<double, 4>, 4>;

  void writeInputs(size_t index, const Quad &quad,
                   const DrawPrimitive &primitive);
  /// The same for a quad the rasterizer left uninterpolated, from its
  /// triangle's planes; false (nothing written) where 1/w is zero.
  bool writeInputsFromPlanes(size_t index, const Quad &quad,
                             const DrawPrimitive &primitive);
  /// The planes of the interpolated inputs' components over `triangle`.
  void setVaryingPlanes(const TriangleSetup &triangle,
                        const DrawPrimitive &primitive);
  /// Copies the flat inputs from the provoking vertex's output record
  /// (bytes no input or builtin writes stay as the records start: zero).
  void writeFlatInputs(uint8_t *record, const uint8_t *provoking) const;
  /// The helper flag and the builtin inputs of pixel `lane`.
  void writeBuiltins(uint8_t *record, const Quad &quad, unsigned lane,
                     double depth, double inverseW, uint32_t primitiveId) const;
  friend bool getFragmentPixel(const spvb_invocation &, int32_t &, int32_t &);
  friend void interpolateInput(const QuadBatch &, const spvb_invocation &,
                               uint32_t, const uint8_t *, uint32_t,
                               const void *, uint32_t, void *);

  /// addCentred's common case with `Inputs` interpolated inputs, their
  /// planes held in registers.
  template <unsigned Inputs>
  bool addCentredPlanes(const Quad &base, llvm::ArrayRef<QuadCoverage> quads,
                        const DrawPrimitive &primitive);

  FragmentStage &stage;
  /// kCapacity entries and places, the first `queued` of them queued.
  std::vector<Entry> entries;
  /// Each queued quad's position and coverage; once it is shaded, the
  /// pixels the colour writes write.
  std::vector<FragmentOperations::QuadWrite> places;
  size_t queued = 0;
  /// The queued quads' depths, when the stage needs them (apart from the
  /// entries: most draws do not, and the entries stay small).
  std::vector<QuadDepths> depths;
  /// The triangles of the queued quads, for interpolateAt*.
  std::vector<TriangleSetup> triangles;
  /// Per interpolated input component, in order: its numerator's plane
  /// (its own for noperspective inputs) over the triangle `planesSerial`.
  std::vector<TriangleSetup::Plane> varyingPlanes;
  uint64_t planesSerial = 0;
  /// Fragment records are in blocks (StageRecords::inBlock).
  StageRecords inputs, outputs;
  /// A quad's input records one after the other, as the general paths
  /// write them before they go to their blocks.
  std::vector<uint8_t> quadInputs;
  /// An output record gathered from its block for the fragment operations.
  std::vector<uint8_t> outputRecord;
  uint32_t number = 0;
  spvb_dispatch dispatch;
  std::optional<WorkgroupRunner> runner;
};

/// A primitive's quads on their way to a thread's batch, through the
/// early fragment tests when the shader asks for them.
class FragmentSink final : public QuadSink {
public:
  FragmentSink(QuadBatch &batch, const DrawPrimitive &primitive,
               FragmentOperations &operations, bool earlyTests)
      : batch(batch), primitive(primitive), operations(operations),
        earlyTests(earlyTests) {}

  void emit(const Quad &quad) override;
  void emitCentred(const Quad &base,
                   llvm::ArrayRef<QuadCoverage> quads) override;
  /// False once the draw has failed.
  bool isRunning() const { return running; }

private:
  QuadBatch &batch;
  const DrawPrimitive &primitive;
  FragmentOperations &operations;
  bool earlyTests;
  bool running = true;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTSHADING_H
