// Fault injection over the stream layer's own readers of text: UTF-8 decoding, the byte-order
// mark, numbers read straight from a stream, lines and delimited runs; and the faulty source
// itself (see fault_harness.hpp).
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bufstream/numbers.hpp>
#include <bufstream/utf8.hpp>

#include "fault_harness.hpp"

namespace bufstream {
namespace {

using testing::again_throws;
using testing::check_reader;
using testing::check_repeats;
using testing::FaultyReadStream;

TEST(FaultyReadStream, FailsTheChosenReadAndStaysFailed) {
  FaultyReadStream in("abc", {.fail_at = 2, .error_number = ECONNRESET, .max_per_read = 1});
  EXPECT_EQ(in.next(), 'a');
  try {
    (void)in.next();
    FAIL() << "the second read did not fail";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::error_code(ECONNRESET, std::generic_category()));
  }
  EXPECT_TRUE(in.failed());
  EXPECT_THROW((void)in.next(), IoError);
  EXPECT_EQ(in.position(), 1u);
}

TEST(FaultyReadStream, RetriesInterruptsAndReturnsShortCounts) {
  FaultyReadStream in("hello world", {.max_per_read = 2, .interrupt_every = 2});
  EXPECT_EQ(in.up_to_end(), "hello world");
  EXPECT_GT(in.interrupts(), 0u);
  EXPECT_EQ(in.reads(), 7u);  // six of two bytes or fewer, then the end
}

constexpr std::string_view text = "\xEF\xBB\xBFh\xC3\xA9llo \xE4\xB8\xAD \xF0\x9F\x98\x80!";

std::string read_utf8_decoding(ReadStream& in) {
  std::string out = again_throws([&] { return utf8::skip_bom(in); }) ? "bom " : "";
  while (const auto cp = again_throws([&] { return utf8::next(in); }))
    out += fmt::format("U+{:04X} ", static_cast<std::uint32_t>(*cp));
  return out;
}

TEST(StreamFaults, Utf8Decoding) {
  check_reader("utf8::skip_bom and utf8::next", text, read_utf8_decoding);
}
TEST(StreamFaults, Utf8DecodingRepeatedAfterIoError) {
  check_repeats("utf8::skip_bom and utf8::next", text, read_utf8_decoding);
}

constexpr std::string_view numbers =
    "-1234567890123 6.02214076e23 -0.5 42 1e-7 18446744073709551615";

std::string read_numbers_from_a_stream(ReadStream& in) {
  std::string out =
      fmt::format("{} ", again_throws([&] { return read_integer<std::int64_t>(in); }));
  in.next();
  out += fmt::format("{} ", again_throws([&] { return read_double(in); }));
  in.next();
  std::string spill;
  out += std::string(again_throws([&] { return next_number_text(in, spill); })) + " ";
  in.next();
  out += fmt::format("{} ", again_throws([&] { return read_integer<std::uint8_t>(in); }));
  in.next();
  out += fmt::format("{} ", again_throws([&] { return read_double(in); }));
  in.next();
  out += fmt::format("{}", again_throws([&] { return read_integer<std::uint64_t>(in); }));
  return out;
}

TEST(StreamFaults, NumbersFromAStream) {
  check_reader("read_integer, read_double, next_number_text", numbers, read_numbers_from_a_stream);
}
TEST(StreamFaults, NumbersFromAStreamRepeatedAfterIoError) {
  check_repeats("read_integer, read_double, next_number_text", numbers, read_numbers_from_a_stream);
}

std::string read_lines_and_delimited_runs(ReadStream& in) {
  std::string out;
  for (int i = 0; i < 3; ++i)
    out += again_throws([&] { return in.next_line(); }).value_or("<none>") + "|";
  out += again_throws([&] { return in.up_to(';'); }) + "|";
  out += again_throws([&] { return in.next(4); }) + "|";
  out += std::to_string(again_throws([&] { return in.skip(2); })) + "|";
  out += again_throws([&] { return in.up_to_end(); }) + "|";
  return out;
}

TEST(StreamFaults, LinesAndDelimitedRuns) {
  check_reader("next_line, up_to, next(n), skip", "one\r\ntwo\rthree\nfour;five;six and the rest",
               read_lines_and_delimited_runs);
}
TEST(StreamFaults, LinesAndDelimitedRunsRepeatedAfterIoError) {
  check_repeats("next_line, up_to, next(n), skip", "one\r\ntwo\rthree\nfour;five;six and the rest",
                read_lines_and_delimited_runs);
}

}  // namespace
}  // namespace bufstream
