// Helpers of the STON tests: reading through every reader setup, writing through every buffer
// size, and printing values in test failures.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include <test_streams.hpp>

namespace bufstream::ston {

// gtest prints a Value as its compact STON text.
inline void PrintTo(const Value& v, std::ostream* os) {
  try {
    *os << to_string(v);
  } catch (const std::exception& e) {
    *os << "<" << kind_name(v.kind()) << ": " << e.what() << ">";
  }
}

namespace test {

/// Writes `v` through a BufferedWriteStream of `buffer_size` bytes into a string.
inline std::string write_buffered(const Value& v, const WriteOptions& options,
                                  std::size_t buffer_size) {
  StringWriteStream sink;
  {
    BufferedWriteStream out(sink, {.buffer_size = buffer_size});
    Writer writer(out, options);
    writer.write(v);
    out.flush();
  }
  return sink.take();
}

/// The text `v` gives under `options`, checked to be the same for every buffer size.
inline std::string write_everywhere(const Value& v, const WriteOptions& options = {}) {
  std::string expected = to_string(v, options);
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    EXPECT_EQ(write_buffered(v, options, size), expected) << "buffer size " << size;
  }
  return expected;
}

/// Parses `text` (exactly one value) through every reader setup, checks that they all agree
/// (structurally) and returns the first result.
inline Document parse_everywhere(std::string_view text, const ReadOptions& options = {}) {
  Document first = parse(text, options);
  for (const auto& setup : testing::reader_setups()) {
    auto in = setup.make(text);
    Document doc = parse(*in, options);
    EXPECT_EQ(doc.root(), first.root()) << setup.name << " reading " << text;
  }
  return first;
}

/// The ParseError that every reader setup reports for `text`; fails if one does not throw or
/// the setups disagree on the position or message.
inline ParseError parse_error_everywhere(std::string_view text, const ReadOptions& options = {}) {
  std::optional<ParseError> first;
  for (const auto& setup : testing::reader_setups()) {
    auto in = setup.make(text);
    try {
      (void)parse(*in, options);
      ADD_FAILURE() << setup.name << ": no error for " << text;
    } catch (const ParseError& e) {
      if (!first) {
        first = e;
      } else {
        EXPECT_EQ(e.position(), first->position()) << setup.name << " " << text;
        EXPECT_EQ(e.message(), first->message()) << setup.name << " " << text;
      }
    }
  }
  if (!first) return ParseError({}, "no error");
  return *first;
}

}  // namespace test
}  // namespace bufstream::ston
