// zstd: ZstdReadStream over tiny buffers must give exactly what libzstd gives when it decodes
// the whole input in one buffer, or fail (with a ParseError) where it fails.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader
#include <zstd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include <bufstream/compress/zstd.hpp>
#include <bufstream/errors.hpp>

#include "fuzz_support.hpp"

namespace {

constexpr std::size_t max_output = std::size_t{1} << 18;

/// Every frame decoded from the whole input at once; nullopt where the input is not valid
/// (empty, corrupt, or ending inside a frame), or when the output would exceed max_output.
std::optional<std::string> one_shot(std::string_view in, bool& too_large) {
  if (in.empty()) return std::nullopt;
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::string out;
  std::size_t last = 0;
  for (;;) {
    const std::size_t before = out.size();
    out.resize(before + 65536);
    ZSTD_outBuffer output{out.data() + before, 65536, 0};
    last = ZSTD_decompressStream(d.get(), &output, &input);
    out.resize(before + output.pos);
    if (ZSTD_isError(last)) return std::nullopt;
    if (out.size() > max_output) {
      too_large = true;
      return std::nullopt;
    }
    if (input.pos == input.size && output.pos < 65536) break;
  }
  if (last != 0) return std::nullopt;  // the input ends inside a frame
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  // A frame may ask for a window of up to 128 MiB, which both decoders then allocate: fine for
  // the library, but slow under ASan for every such input. The first frame's ask is checked.
  ZSTD_frameHeader header;
  if (ZSTD_getFrameHeader(&header, input.document.data(), input.document.size()) == 0 &&
      header.windowSize > (std::uint64_t{1} << 22)) {
    return 0;
  }
  bool too_large = false;
  const std::optional<std::string> expected = one_shot(input.document, too_large);
  if (too_large) return 0;

  fuzz::FuzzStream source(input);
  compress::ZstdReadStream unzstd(source.stream(), {.buffer_size = input.buffer_size});
  std::optional<std::string> got;
  try {
    got = unzstd.next(max_output + 1);
    if (got->size() > max_output) return 0;  // the reference stopped earlier, or failed later
    if (!unzstd.at_end()) std::abort();
  } catch (const ParseError& e) {
    if (e.offset() > input.document.size()) std::abort();
    got.reset();
  }
  if (got != expected) std::abort();
  return 0;
}
