// Helpers shared by the JSON tests: run a read over every reader setup, a write over every
// tiny buffer size, and check a ParseError's position and message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/json.hpp>
#include <bufstream/string_write_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::json::testing_support {

/// A file's bytes (the standard JSON files of bench/data/json).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Calls `f(ReadStream&)` once per reader setup (memory, chunked, tiny buffers).
template <class F>
void for_each_reader(std::string_view text, F f) {
  for (const auto& setup : bufstream::testing::reader_setups()) {
    SCOPED_TRACE("reader setup: " + setup.name);
    auto in = setup.make(text);
    f(*in);
  }
}

/// Runs `f(Writer&)` through a BufferedWriteStream of every tiny size and through a sink with
/// no window at all (every byte takes the slow path); expects the same text from each and
/// returns it.
template <class F>
std::string write_everywhere(F f, WriteOptions options = {}) {
  std::string first;
  bool have_first = false;
  for (std::size_t size : bufstream::testing::tiny_buffer_sizes()) {
    SCOPED_TRACE("buffer size " + std::to_string(size));
    StringWriteStream sink;
    {
      BufferedWriteStream out(sink, BufferOptions{.buffer_size = size});
      Writer w(out, options);
      f(w);
      w.finish();
    }
    if (!have_first) {
      first = std::string(sink.view());
      have_first = true;
    } else {
      EXPECT_EQ(sink.view(), first);
    }
  }
  bufstream::testing::FaultyWriteStream unbuffered;
  {
    Writer w(unbuffered, options);
    f(w);
    w.finish();
  }
  EXPECT_EQ(unbuffered.written(), first);
  return first;
}

struct ExpectedError {
  std::uint64_t line;
  std::uint64_t column;
  std::uint64_t offset;
  std::string message;
};

/// Calls `f()` and expects it to throw a ParseError at the given place with the given message.
template <class F>
void expect_parse_error(F f, const ExpectedError& expected) {
  try {
    f();
    ADD_FAILURE() << "no ParseError; expected: " << expected.message;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(), expected.message);
    EXPECT_EQ(e.line(), expected.line) << e.what();
    EXPECT_EQ(e.column(), expected.column) << e.what();
    EXPECT_EQ(e.offset(), expected.offset) << e.what();
  }
}

}  // namespace bufstream::json::testing_support
