// gzip: GzipReadStream over tiny buffers must give exactly what ISA-L gives when it inflates
// the whole input in one call per member, or fail (with a ParseError) where it fails. (The
// decorator also refuses the reserved header flags, which ISA-L ignores; so does the reference.)
#include <isa-l/igzip_lib.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include <bufstream/compress/gzip.hpp>
#include <bufstream/errors.hpp>

#include "fuzz_support.hpp"

namespace {

// Output beyond this is not compared (a small input can expand a thousandfold).
constexpr std::size_t max_output = std::size_t{1} << 18;

/// Every member inflated from the whole input at once; nullopt where the input is not valid,
/// or when the output would exceed max_output.
std::optional<std::string> one_shot(std::string_view in, bool& too_large) {
  if (in.empty()) return std::nullopt;
  auto state = std::make_unique<inflate_state>();
  std::string out;
  std::size_t at = 0;
  while (at < in.size()) {
    if (in.size() - at > 3 && (static_cast<unsigned char>(in[at + 3]) & 0xE0) != 0) {
      return std::nullopt;
    }
    isal_inflate_init(state.get());
    state->crc_flag = ISAL_GZIP;
    state->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data() + at));
    state->avail_in = static_cast<std::uint32_t>(in.size() - at);
    for (;;) {
      const std::size_t before = out.size();
      out.resize(before + 65536);
      state->next_out = reinterpret_cast<std::uint8_t*>(out.data() + before);
      state->avail_out = 65536;
      const int rc = isal_inflate(state.get());
      out.resize(before + 65536 - state->avail_out);
      if (rc < 0 || rc == ISAL_NEED_DICT) return std::nullopt;
      if (state->block_state == ISAL_BLOCK_FINISH) break;
      if (out.size() > max_output) {
        too_large = true;
        return std::nullopt;
      }
      if (state->avail_out != 0) return std::nullopt;  // input used up inside the member
    }
    at = in.size() - state->avail_in;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  bool too_large = false;
  const std::optional<std::string> expected = one_shot(input.document, too_large);
  if (too_large) return 0;

  fuzz::FuzzStream source(input);
  compress::GzipReadStream gunzip(source.stream(), compress::GzipFormat::gzip,
                                  {.buffer_size = input.buffer_size});
  std::optional<std::string> got;
  try {
    got = gunzip.next(max_output + 1);
    if (got->size() > max_output) return 0;  // the reference stopped earlier, or failed later
    if (!gunzip.at_end()) std::abort();
  } catch (const ParseError& e) {
    if (e.offset() > input.document.size()) std::abort();
    got.reset();
  }
  if (got != expected) std::abort();
  return 0;
}
