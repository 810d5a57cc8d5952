// Shared by the fuzz targets: the first input byte chooses a buffer size from 1 to 65,536, so
// that the fuzzer explores every window edge; the rest is the document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/memory_read_stream.hpp>

namespace bufstream::fuzz {

/// 0..199 select 1..200 bytes (the tiny sizes where bugs live); 200..255 select powers of
/// two from 256 to 65,536.
inline std::size_t buffer_size_for(std::uint8_t selector) {
  if (selector < 200) return std::size_t{selector} + 1;
  return std::size_t{1} << (8 + (selector - 200) % 9);
}

struct FuzzInput {
  std::size_t buffer_size;
  std::string_view document;
};

inline FuzzInput split_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return {1, {}};
  return {buffer_size_for(data[0]), {reinterpret_cast<const char*>(data + 1), size - 1}};
}

/// The document read through a BufferedReadStream of the chosen size over memory.
class FuzzStream {
 public:
  explicit FuzzStream(const FuzzInput& input)
      : memory_(input.document), buffered_(memory_, {.buffer_size = input.buffer_size}) {}
  ReadStream& stream() { return buffered_; }

 private:
  MemoryReadStream memory_;
  BufferedReadStream buffered_;
};

}  // namespace bufstream::fuzz
