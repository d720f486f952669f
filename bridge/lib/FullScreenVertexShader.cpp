//===- FullScreenVertexShader.cpp - A vertex shader for a fragment --------===//
#include "spvbridge/bridge/FullScreenVertexShader.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace spvb {

Expected<std::string>
makeFullScreenVertexShader(ArrayRef<spvb_stage_variable> variables,
                           StringRef fragmentName) {
  std::string declarations, assignments;
  raw_string_ostream decl(declarations), assign(assignments);
  for (const spvb_stage_variable &variable : variables) {
    if ((variable.flags & SPVB_STAGE_OUTPUT) || variable.location == ~0u)
      continue;
    bool isFloat = variable.kind == SPVB_KIND_FLOAT;
    bool isInt = variable.kind == SPVB_KIND_INT;
    if (variable.bytes != 4 || (!isFloat && !isInt) || variable.count > 4)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("error: {0}: the fragment input at Location {1} is a "
                  "{2}-bit {3}; spv-run makes inputs of 32-bit types only "
                  "(give a vertex shader too)",
                  fragmentName, variable.location, variable.bytes * 8,
                  isFloat ? "float"
                  : isInt ? "integer"
                          : "boolean"));
    bool isSigned = variable.flags & SPVB_STAGE_SIGNED;
    StringRef scalar = isFloat ? "float" : isSigned ? "int" : "uint";
    StringRef vector = isFloat ? "vec" : isSigned ? "ivec" : "uvec";
    std::string type = variable.count == 1
                           ? scalar.str()
                           : formatv("{0}{1}", vector, variable.count).str();
    StringRef qualifier =
        !isFloat || (variable.flags & SPVB_STAGE_FLAT) ? "flat "
        : variable.flags & SPVB_STAGE_NOPERSPECTIVE    ? "noperspective "
                                                       : "";
    std::string name =
        formatv("out{0}_{1}", variable.location, variable.component).str();
    decl << formatv("layout(location = {0}, component = {1}) {2}out {3} "
                    "{4};\n",
                    variable.location, variable.component, qualifier, type,
                    name);
    std::string values;
    for (uint32_t k = 0; k < variable.count; ++k) {
      uint32_t component = variable.component + k;
      if (k)
        values += ", ";
      if (isFloat) {
        static const char *const pattern[] = {"uv.x", "uv.y", "1.0 - uv.x",
                                              "1.0 - uv.y"};
        values += formatv("{0} + {1}", pattern[component % 4],
                          variable.location * 0.25)
                      .str();
      } else {
        values += std::to_string(4 * variable.location + component + 1);
      }
    }
    assign << formatv("  {0} = {1}({2});\n", name, type, values);
  }
  return formatv(R"(#version 450
// spv-run --framebuffer: a full-screen triangle strip for {0}.
{1}
void main() {{
  vec2 corner = vec2(gl_VertexIndex & 1, (gl_VertexIndex >> 1) & 1);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
  vec2 uv = corner;
{2}}
)",
                 fragmentName, declarations, assignments)
      .str();
}

} // namespace spvb
