// Inputs for the limits tests: long tokens and huge numbers, and the ways they are read.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::testing {

/// 16 MiB: a token far longer than any buffer.
inline constexpr std::size_t long_token_bytes = std::size_t{16} << 20;
/// A token longer than the tiny buffers, short enough that reading it through a 1-byte buffer
/// (one refill per byte) stays fast.
inline constexpr std::size_t medium_token_bytes = std::size_t{256} << 10;

/// Cycles through the printable ASCII letters, so that a wrong offset shows.
inline std::string letters(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

/// Digits 1-9 cycled, so that no run of zeros hides a dropped digit.
inline std::string digits(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('1' + i % 9);
  return s;
}

/// One way of reading a long text: a name and a factory. The text must outlive the stream.
struct LongTextSetup {
  std::string name;
  std::function<std::unique_ptr<ReadStream>(std::string_view)> make;
};

/// Memory, the default 64 KiB buffer and 7-byte and 1-byte buffers over a source that hands
/// out 5 bytes per read. `text_size` decides which setups are fast enough for it: the 1-byte
/// and 7-byte buffers (one refill per byte or few bytes) only run on medium texts.
inline std::vector<LongTextSetup> long_text_setups(std::size_t text_size) {
  std::vector<LongTextSetup> setups;
  setups.push_back({"memory", [](std::string_view t) -> std::unique_ptr<ReadStream> {
                      return std::make_unique<MemoryReadStream>(t);
                    }});
  std::vector<std::size_t> sizes{65536};
  if (text_size <= 2 * medium_token_bytes) sizes = {1, 7, 65536};
  for (std::size_t size : sizes) {
    setups.push_back({"buffered" + std::to_string(size),
                      [size](std::string_view t) -> std::unique_ptr<ReadStream> {
                        return std::make_unique<BufferedReadStream>(
                            std::make_unique<MemoryReadStream>(t),
                            BufferOptions{.buffer_size = size});
                      }});
  }
  return setups;
}

}  // namespace bufstream::testing
