// Every ReadStream operation over every stream type: memory, one and three bytes per call,
// descriptors on a file and a pipe, a mapped file, and a BufferedReadStream of 1, 2, 3, 7 and
// 65,536 bytes over each kind of source. With the tiny buffers every token, delimiter and line
// end of these texts lies across a window edge somewhere.
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <gtest/gtest.h>

#include <bufstream/memory_read_stream.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

class ReadOps : public test::ReadSetupTest {};

INSTANTIATE_TEST_SUITE_P(AllStreams, ReadOps, ::testing::ValuesIn(test::all_read_setups()),
                         test::setup_name);

const std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

TEST_P(ReadOps, NextReadsEveryByteThenReportsTheEnd) {
  auto r = open(alphabet);
  std::string got;
  while (auto c = r.stream->next()) got += *c;
  EXPECT_EQ(got, alphabet);
  EXPECT_EQ(r.stream->next(), std::nullopt);
  EXPECT_EQ(r.stream->position(), alphabet.size());
}

TEST_P(ReadOps, NextByteGivesEveryByteValueThenEndOfStream) {
  std::string all(256, '\0');
  for (int i = 0; i < 256; ++i) all[static_cast<std::size_t>(i)] = static_cast<char>(255 - i);
  auto r = open(all);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(r.stream->next_byte(), 255 - i) << i;
  EXPECT_EQ(r.stream->next_byte(), ReadStream::end_of_stream);
  EXPECT_EQ(r.stream->next_byte(), ReadStream::end_of_stream);
  EXPECT_EQ(r.stream->position(), all.size());
}

TEST_P(ReadOps, EveryByteValueSurvives) {
  std::string all(256, '\0');
  for (int i = 0; i < 256; ++i) all[static_cast<std::size_t>(i)] = static_cast<char>(i);
  auto r = open(all);
  EXPECT_EQ(r.stream->up_to_end(), all);
}

TEST_P(ReadOps, PeekDoesNotConsume) {
  auto r = open("xy");
  EXPECT_EQ(r.stream->peek(), 'x');
  EXPECT_EQ(r.stream->peek(), 'x');
  EXPECT_EQ(r.stream->position(), 0u);
  EXPECT_EQ(r.stream->next(), 'x');
  EXPECT_EQ(r.stream->peek(), 'y');
  EXPECT_EQ(r.stream->next(), 'y');
  EXPECT_EQ(r.stream->peek(), std::nullopt);
  EXPECT_EQ(r.stream->position(), 2u);
}

TEST_P(ReadOps, AtEndKeepsTheByteItLookedAt) {
  auto r = open("ab");
  EXPECT_FALSE(r.stream->at_end());
  EXPECT_EQ(r.stream->next(), 'a');
  EXPECT_FALSE(r.stream->at_end());
  EXPECT_FALSE(r.stream->at_end());
  EXPECT_EQ(r.stream->next(), 'b');
  EXPECT_TRUE(r.stream->at_end());
  EXPECT_TRUE(r.stream->at_end());
}

TEST_P(ReadOps, EmptyStreamHasNothingForAnyOperation) {
  auto r = open("");
  ReadStream& in = *r.stream;
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.next(), std::nullopt);
  EXPECT_EQ(in.peek(), std::nullopt);
  EXPECT_FALSE(in.peek_for('a'));
  EXPECT_EQ(in.next(5), "");
  std::array<char, 4> buf{};
  EXPECT_EQ(in.read_into(buf), 0u);
  EXPECT_EQ(in.read_some(buf), 0u);
  EXPECT_EQ(in.up_to(','), "");
  EXPECT_EQ(in.up_to_end(), "");
  EXPECT_FALSE(in.skip_to(','));
  EXPECT_EQ(in.skip(10), 0u);
  EXPECT_EQ(in.next_line(), std::nullopt);
  std::string spill;
  EXPECT_EQ(in.next_while([](char) { return true; }, spill), "");
  EXPECT_EQ(in.fill(3), "");
  EXPECT_THROW(in.next_int<std::uint16_t>(), ParseError);
  EXPECT_EQ(in.position(), 0u);
}

TEST_P(ReadOps, PeekForConsumesOnlyAMatch) {
  auto r = open("ab");
  EXPECT_FALSE(r.stream->peek_for('b'));
  EXPECT_TRUE(r.stream->peek_for('a'));
  EXPECT_FALSE(r.stream->peek_for('a'));
  EXPECT_TRUE(r.stream->peek_for('b'));
  EXPECT_FALSE(r.stream->peek_for('b'));
  EXPECT_EQ(r.stream->position(), 2u);
}

TEST_P(ReadOps, NextNTakesWhatIsAskedOrWhatIsLeft) {
  struct Case {
    std::vector<std::size_t> counts;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases{
      {{0, 1, 2, 3}, {"", "a", "bc", "def"}},
      {{10, 10, 10, 10}, {"abcdefghij", "klmnopqrst", "uvwxyz0123", "456789"}},
      {{36, 1}, {alphabet, ""}},
      {{1000}, {alphabet}},
      {{std::numeric_limits<std::size_t>::max()}, {alphabet}},  // allocates as bytes arrive
  };
  for (const auto& c : cases) {
    auto r = open(alphabet);
    std::uint64_t pos = 0;
    for (std::size_t i = 0; i < c.counts.size(); ++i) {
      EXPECT_EQ(r.stream->next(c.counts[i]), c.expected[i]) << "call " << i;
      pos += c.expected[i].size();
      EXPECT_EQ(r.stream->position(), pos);
    }
  }
}

TEST_P(ReadOps, ReadIntoFillsTheSpanOrStopsAtTheEnd) {
  for (std::size_t size : {1u, 5u, 17u, 36u, 100u}) {
    auto r = open(alphabet);
    std::string got;
    std::vector<char> buf(size);
    for (;;) {
      const std::size_t n = r.stream->read_into(buf);
      got.append(buf.data(), n);
      if (n < size) break;
      EXPECT_EQ(n, size);
    }
    EXPECT_EQ(got, alphabet) << "size " << size;
    EXPECT_EQ(r.stream->position(), alphabet.size());
  }
}

TEST_P(ReadOps, ReadIntoBytes) {
  auto r = open("\x01\x02\xff");
  std::array<std::byte, 8> buf{};
  ASSERT_EQ(r.stream->read_into(std::span<std::byte>(buf)), 3u);
  EXPECT_EQ(buf[0], std::byte{1});
  EXPECT_EQ(buf[1], std::byte{2});
  EXPECT_EQ(buf[2], std::byte{0xff});
}

TEST_P(ReadOps, ReadSomeReturnsAtLeastOneByteUntilTheEnd) {
  for (std::size_t size : {1u, 4u, 64u}) {
    auto r = open(alphabet);
    std::string got;
    std::vector<char> buf(size);
    for (;;) {
      const std::size_t n = r.stream->read_some(buf);
      ASSERT_LE(n, size);
      if (n == 0) break;
      got.append(buf.data(), n);
    }
    EXPECT_EQ(got, alphabet);
    EXPECT_EQ(r.stream->read_some(std::span<char>()), 0u);
  }
}

TEST_P(ReadOps, UpToSplitsAtEveryDelimiter) {
  struct Case {
    std::string text;
    std::vector<std::string> fields;  // what up_to(',') returns until at_end
  };
  const std::vector<Case> cases{
      {"a,bb,,ccc", {"a", "bb", "", "ccc"}},
      {",", {""}},
      {",,", {"", ""}},
      {"no delimiter", {"no delimiter"}},
      {"trailing,", {"trailing"}},
      {"long field across many windows of every size,x",
       {"long field across many windows of every size", "x"}},
  };
  for (const auto& c : cases) {
    auto r = open(c.text);
    std::vector<std::string> fields;
    while (!r.stream->at_end()) fields.push_back(r.stream->up_to(','));
    EXPECT_EQ(fields, c.fields) << c.text;
    EXPECT_EQ(r.stream->up_to(','), "");
    EXPECT_EQ(r.stream->position(), c.text.size());
  }
}

TEST_P(ReadOps, UpToEndTakesTheRest) {
  auto r = open(alphabet);
  EXPECT_EQ(r.stream->next(3), "abc");
  EXPECT_EQ(r.stream->up_to_end(), alphabet.substr(3));
  EXPECT_EQ(r.stream->up_to_end(), "");
  EXPECT_EQ(r.stream->position(), alphabet.size());
}

TEST_P(ReadOps, UpToEndOfALongText) {
  const std::string text = test::random_bytes(200000, 7);
  auto r = open(text);
  EXPECT_EQ(r.stream->next(), text[0]);
  EXPECT_EQ(r.stream->up_to_end(), text.substr(1));
}

// append_rest appends after what the string holds.
TEST_P(ReadOps, AppendRestAppends) {
  const std::string text = test::random_bytes(200000, 11);
  auto r = open(text);
  EXPECT_EQ(r.stream->next(5), text.substr(0, 5));
  std::string out = "kept";
  EXPECT_EQ(r.stream->append_rest(out), text.size() - 5);
  EXPECT_EQ(out, "kept" + text.substr(5));
  EXPECT_EQ(r.stream->append_rest(out), 0u);
  EXPECT_EQ(out.size(), text.size() - 1);
  EXPECT_EQ(r.stream->position(), text.size());
}

// read_rest gives the rest in a block with the room asked for after it, whatever the window
// held, at the end too.
TEST_P(ReadOps, ReadRestGivesTheRestWithRoomAfterIt) {
  for (const std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{200000}}) {
    const std::string text = test::random_bytes(length, 13);
    auto r = open(text);
    const std::size_t skipped = std::min<std::size_t>(length, 3);
    EXPECT_EQ(r.stream->next(skipped), text.substr(0, skipped));
    ReadStream::Block block = r.stream->read_rest(64);
    EXPECT_EQ(block.view(), std::string_view(text).substr(skipped)) << length;
    ASSERT_NE(block.bytes, nullptr);
    std::memset(block.bytes.get() + block.size, ' ', 64);  // the room is there (ASan)
    EXPECT_EQ(r.stream->position(), text.size());
    EXPECT_EQ(r.stream->read_rest(0).size, 0u);
  }
}

// The room a string already has is read into only as far as needed: appending a short
// stream to a string with 64 MiB reserved (and untouched, so not yet in memory) must not
// write all of it.
TEST(ReadStream, AppendRestToALargeRoomTouchesLittleOfIt) {
  const std::string text = test::random_bytes(1000, 17);
  MemoryReadStream in(text);
  std::string out;
  out.reserve(std::size_t{64} << 20);
  const auto minor_faults = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
  };
  const long before = minor_faults();
  EXPECT_EQ(in.append_rest(out), text.size());
  const long faults = minor_faults() - before;
  EXPECT_EQ(out, text);
  EXPECT_LT(faults, 1000) << "pages faulted in: the room is 16,384 of them";
}

TEST_P(ReadOps, SkipToStopsAfterTheDelimiter) {
  auto r = open("key=value;rest");
  EXPECT_TRUE(r.stream->skip_to('='));
  EXPECT_EQ(r.stream->position(), 4u);
  EXPECT_EQ(r.stream->up_to(';'), "value");
  EXPECT_FALSE(r.stream->skip_to('='));
  EXPECT_TRUE(r.stream->at_end());
  EXPECT_EQ(r.stream->position(), 14u);
}

TEST_P(ReadOps, SkipCountsWhatItSkipped) {
  struct Case {
    std::int64_t count;
    std::uint64_t skipped;
    std::optional<char> next;
  };
  const std::vector<Case> cases{{0, 0, 'a'},
                                {1, 1, 'b'},
                                {10, 10, 'k'},
                                {35, 35, '9'},
                                {36, 36, std::nullopt},
                                {1000, 36, std::nullopt},
                                {std::numeric_limits<std::int64_t>::max(), 36, std::nullopt}};
  for (const auto& c : cases) {
    auto r = open(alphabet);
    EXPECT_EQ(r.stream->skip(c.count), c.skipped) << c.count;
    EXPECT_EQ(r.stream->position(), c.skipped);
    EXPECT_EQ(r.stream->next(), c.next);
  }
}

TEST_P(ReadOps, SkipRefusesNegativeCounts) {
  auto r = open(alphabet);
  EXPECT_EQ(r.stream->next(), 'a');
  EXPECT_THROW(r.stream->skip(-1), UsageError);
  EXPECT_THROW(r.stream->skip(std::numeric_limits<std::int64_t>::min()), UsageError);
  EXPECT_EQ(r.stream->next(), 'b');  // nothing was consumed
}

TEST_P(ReadOps, SkipOverALongText) {
  const std::string text = test::random_bytes(150000, 3);
  auto r = open(text);
  EXPECT_EQ(r.stream->skip(100001), 100001u);
  EXPECT_EQ(r.stream->next(), text[100001]);
}

TEST_P(ReadOps, NextLineHandlesEveryLineEnd) {
  struct Case {
    std::string name;
    std::string text;
    std::vector<std::string> lines;
  };
  const std::vector<Case> cases{
      {"lf", "a\nbb\nccc\n", {"a", "bb", "ccc"}},
      {"crlf", "a\r\nbb\r\nccc\r\n", {"a", "bb", "ccc"}},
      {"cr", "a\rbb\rccc\r", {"a", "bb", "ccc"}},
      {"mixed", "alpha\r\nbeta\rgamma\n\ndelta", {"alpha", "beta", "gamma", "", "delta"}},
      {"empty lines lf", "\n\n\n", {"", "", ""}},
      {"empty lines crlf", "\r\n\r\n", {"", ""}},
      {"empty lines cr", "\r\r", {"", ""}},
      {"lf cr is two line ends", "a\n\rb", {"a", "", "b"}},
      {"cr cr lf", "a\r\r\nb", {"a", "", "b"}},
      {"last line without end", "one\ntwo", {"one", "two"}},
      {"only text", "single", {"single"}},
      {"empty text", "", {}},
      {"cr at the very end", "x\r", {"x"}},
  };
  for (const auto& c : cases) {
    auto r = open(c.text);
    std::vector<std::string> lines;
    while (auto line = r.stream->next_line()) lines.push_back(*line);
    EXPECT_EQ(lines, c.lines) << c.name;
    EXPECT_EQ(r.stream->position(), c.text.size()) << c.name;
  }
}

TEST_P(ReadOps, NextLineCrLfAtEveryOffset) {
  // Moves the CR LF over every position of the first windows of every buffer size, so that
  // some buffer ends between the CR and the LF.
  for (std::size_t k = 0; k < 18; ++k) {
    const std::string first(k, 'x');
    const std::string text = first + "\r\n" + "second\r\nthird";
    auto r = open(text);
    EXPECT_EQ(r.stream->next_line(), first) << k;
    EXPECT_EQ(r.stream->position(), k + 2) << k;
    EXPECT_EQ(r.stream->next_line(), "second") << k;
    EXPECT_EQ(r.stream->next_line(), "third") << k;
    EXPECT_EQ(r.stream->next_line(), std::nullopt) << k;
  }
}

TEST_P(ReadOps, NextWhileReadsRunsAcrossWindows) {
  const std::string text = "12345678901234567890abc42";
  auto r = open(text);
  std::string spill;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  EXPECT_EQ(r.stream->next_while(digit, spill), "12345678901234567890");
  EXPECT_EQ(r.stream->next_while(digit, spill), "");
  EXPECT_EQ(r.stream->next(3), "abc");
  EXPECT_EQ(r.stream->next_while(digit, spill), "42");  // the run ends with the stream
  EXPECT_EQ(r.stream->next_while(digit, spill), "");
  EXPECT_EQ(r.stream->position(), text.size());
}

template <class T>
void check_next_int(ReadStream& in, T expected, std::endian order) {
  EXPECT_EQ(in.next_int<T>(order), expected) << sizeof(T) << " bytes";
}

TEST_P(ReadOps, NextIntReadsEverySizeInBothByteOrders) {
  const std::string bytes = "\x01\x02\x03\x04\x05\x06\x07\x08\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8";
  auto big = open(bytes + bytes + bytes + bytes + bytes);
  ReadStream& b = *big.stream;
  check_next_int<std::uint8_t>(b, 0x01, std::endian::big);
  check_next_int<std::int8_t>(b, 0x02, std::endian::big);
  check_next_int<std::uint16_t>(b, 0x0304, std::endian::big);
  check_next_int<std::int16_t>(b, 0x0506, std::endian::big);
  check_next_int<std::uint32_t>(b, 0x0708fffeu, std::endian::big);
  check_next_int<std::int32_t>(b, static_cast<std::int32_t>(0xfdfcfbfau), std::endian::big);
  check_next_int<std::int16_t>(b, static_cast<std::int16_t>(0xf9f8), std::endian::big);
  check_next_int<std::uint64_t>(b, 0x0102030405060708ull, std::endian::big);
  check_next_int<std::int64_t>(b, static_cast<std::int64_t>(0xfffefdfcfbfaf9f8ull),
                               std::endian::big);
  check_next_int<std::int8_t>(b, 0x01, std::endian::little);
  check_next_int<std::uint8_t>(b, 0x02, std::endian::little);
  check_next_int<std::int16_t>(b, 0x0403, std::endian::little);
  check_next_int<std::uint16_t>(b, 0x0605, std::endian::little);
  check_next_int<std::int32_t>(b, static_cast<std::int32_t>(0xfeff0807u), std::endian::little);
  check_next_int<std::uint32_t>(b, 0xfafbfcfdu, std::endian::little);
  check_next_int<std::uint16_t>(b, 0xf8f9, std::endian::little);
  check_next_int<std::int64_t>(b, 0x0807060504030201ll, std::endian::little);
  check_next_int<std::uint64_t>(b, 0xf8f9fafbfcfdfeffull, std::endian::little);
  check_next_int<std::int8_t>(b, 1, std::endian::little);
  check_next_int<std::uint8_t>(b, 2, std::endian::big);
  EXPECT_EQ(b.position(), 66u);
}

TEST_P(ReadOps, NextIntAtTheEndIsAParseErrorWithThePosition) {
  auto r = open("\x01\x02\x03");
  EXPECT_EQ(r.stream->next_int<std::uint8_t>(), 1u);
  try {
    (void)r.stream->next_int<std::uint32_t>();
    FAIL() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_NE(std::string(e.what()).find("expected 4 more bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(r.stream->next_int<std::uint16_t>(), 0x0203u);  // nothing was lost
}

TEST_P(ReadOps, FillGrowsTheWindowBeyondTheBuffer) {
  const std::string text = test::random_bytes(300000, 11);
  auto r = open(text);
  ReadStream& in = *r.stream;
  in.advance(in.fill(1).size() > 0 ? 1 : 0);
  for (std::size_t want : {1u, 2u, 10u, 100u, 70000u, 200000u}) {
    const std::string_view w = in.fill(want);
    ASSERT_GE(w.size(), want) << want;
    const auto pos = static_cast<std::size_t>(in.position());
    EXPECT_EQ(w.substr(0, want), std::string_view(text).substr(pos, want)) << want;
    EXPECT_EQ(in.buffered(), w);
  }
  ASSERT_GE(in.fill(250000).size(), 250000u);
  in.advance(250000);
  EXPECT_EQ(in.position(), 250001u);
  const std::string_view rest = in.fill(100000);  // more than is left: everything that is
  EXPECT_EQ(rest, std::string_view(text).substr(250001));
  in.advance(rest.size());
  EXPECT_TRUE(in.at_end());
}

TEST_P(ReadOps, ScanningTheWindowInPlace) {
  // A parser's loop: count lines by scanning [cursor, limit) and consuming with set_cursor.
  std::string text;
  for (int i = 0; i < 300; ++i) text += "line " + std::to_string(i) + "\n";
  auto r = open(text);
  ReadStream& in = *r.stream;
  std::size_t lines = 0;
  std::string last;
  while (!in.fill(1).empty()) {
    const char* p = in.cursor();
    const char* end = in.limit();
    while (p != end) {
      if (*p == '\n') ++lines;
      last.push_back(*p);
      if (last.size() > 20) last.erase(0, 1);
      ++p;
    }
    in.set_cursor(p);
  }
  EXPECT_EQ(lines, 300u);
  EXPECT_EQ(last.substr(last.size() - 9), "line 299\n");
  EXPECT_EQ(in.position(), text.size());
}

TEST_P(ReadOps, BufferedAndAdvanceConsumeTheWindow) {
  auto r = open(alphabet);
  ReadStream& in = *r.stream;
  std::string got;
  while (true) {
    std::string_view w = in.buffered();
    if (w.empty()) w = in.fill();
    if (w.empty()) break;
    const std::size_t take = std::min<std::size_t>(w.size(), 5);
    got.append(w.substr(0, take));
    in.advance(take);
  }
  EXPECT_EQ(got, alphabet);
  EXPECT_EQ(in.position(), alphabet.size());
}

TEST_P(ReadOps, PositionFollowsEveryOperation) {
  auto r = open("ab,cd\nef\r\ngh ij1234567890");
  ReadStream& in = *r.stream;
  EXPECT_EQ(in.position(), 0u);
  (void)in.peek();
  EXPECT_EQ(in.position(), 0u);
  (void)in.next();
  EXPECT_EQ(in.position(), 1u);
  EXPECT_EQ(in.up_to(','), "b");
  EXPECT_EQ(in.position(), 3u);
  EXPECT_EQ(in.next_line(), "cd");
  EXPECT_EQ(in.position(), 6u);
  EXPECT_EQ(in.next_line(), "ef");
  EXPECT_EQ(in.position(), 10u);
  EXPECT_TRUE(in.skip_to(' '));
  EXPECT_EQ(in.position(), 13u);
  EXPECT_EQ(in.skip(2), 2u);
  EXPECT_EQ(in.position(), 15u);
  (void)in.fill(4);
  EXPECT_EQ(in.position(), 15u);
  EXPECT_EQ(in.next_int<std::uint16_t>(), 0x3132u);
  EXPECT_EQ(in.position(), 17u);
  std::array<char, 3> buf{};
  EXPECT_EQ(in.read_into(buf), 3u);
  EXPECT_EQ(in.position(), 20u);
  EXPECT_EQ(in.up_to_end(), "67890");
  EXPECT_EQ(in.position(), 25u);
}

TEST_P(ReadOps, ReadingAfterCloseThrows) {
  auto r = open(alphabet);
  ReadStream& in = *r.stream;
  EXPECT_EQ(in.next(3), "abc");
  in.close();
  EXPECT_TRUE(in.is_closed());
  EXPECT_EQ(in.position(), 3u);  // closing does not count the dropped window as read
  EXPECT_THROW((void)in.next(), IoError);
  EXPECT_THROW((void)in.peek(), IoError);
  EXPECT_THROW((void)in.at_end(), IoError);
  EXPECT_THROW((void)in.up_to(','), IoError);
  EXPECT_THROW((void)in.next_line(), IoError);
  EXPECT_THROW((void)in.fill(1), IoError);
  std::array<char, 4> buf{};
  EXPECT_THROW((void)in.read_some(buf), IoError);
  EXPECT_THROW((void)in.read_into(buf), IoError);
  EXPECT_TRUE(in.buffered().empty());
  in.close();  // a second close does nothing
  EXPECT_EQ(in.position(), 3u);
}

}  // namespace
}  // namespace bufstream
