// csv::Writer: output byte for byte, through buffers of every tiny size, and with a sink that
// fails, writes short or is interrupted.
#include <bufstream/csv/writer.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

struct WriteCase {
  std::string name;
  WriteOptions options;
  std::function<void(Writer&)> write;
  std::string expected;
};

const std::vector<WriteCase>& write_cases() {
  const double inf = std::numeric_limits<double>::infinity();
  static const std::vector<WriteCase> cases{
      {"plain record",
       {},
       [](Writer& w) {
         w.record({"a", "b"});
       },
       "a,b\r\n"},
      {"LF line end",
       {.line_end = bufstream::LineEnd::lf},
       [](Writer& w) {
         w.record({"a", "b"});
         w.record({"c"});
       },
       "a,b\nc\n"},
      {"quotes as needed",
       {},
       [](Writer& w) {
         w.row("a,b", "say \"hi\"", "cr\r", "lf\n", " lead", "trail ", "\tx", "in side", "");
       },
       "\"a,b\",\"say \"\"hi\"\"\",\"cr\r\",\"lf\n\",\" lead\",\"trail \",\"\tx\",in side,\r\n"},
      {"only a quote", {}, [](Writer& w) { w.row("\""); }, "\"\"\"\"\r\n"},
      {"empty fields", {}, [](Writer& w) { w.row("", ""); }, ",\r\n"},
      {"record of one empty field is quoted", {}, [](Writer& w) { w.row(""); }, "\"\"\r\n"},
      {"record with no field", {}, [](Writer& w) { w.end_record(); }, "\r\n"},
      {"quoting always",
       {.quoting = Quoting::always},
       [](Writer& w) { w.row(1, "a", 0.5, "", "q\""); },
       "\"1\",\"a\",\"0.5\",\"\",\"q\"\"\"\r\n"},
      {"quoting never",
       {.quoting = Quoting::never},
       [](Writer& w) {
         w.row(" a ", "", 2);
         w.row("");
       },
       " a ,,2\r\n\r\n"},
      {"integers and doubles",
       {},
       [](Writer& w) {
         w.row(-7, 42u, std::int64_t{-9223372036854775807 - 1}, 0.1, 1e100, -0.0, 1.5f, 0.1f);
       },
       "-7,42,-9223372036854775808,0.1,1e+100,-0,1.5,0.1\r\n"},
      {"non-finite doubles",
       {},
       [inf](Writer& w) { w.row(inf, -inf, std::nan("")); },
       "inf,-inf,nan\r\n"},
      {"bools, chars and optionals",
       {},
       [](Writer& w) {
         w.row(true, false, 'x', ',', std::optional<int>{}, std::optional<int>{3}, std::nullopt);
       },
       "true,false,x,\",\",,3,\r\n"},
      {"optional string",
       {},
       [](Writer& w) { w.row(std::optional<std::string>{"a b"}, std::optional<std::string>{}); },
       "a b,\r\n"},
      {"semicolon separator",
       {.separator = ';'},
       [](Writer& w) { w.row("a;b", "c,d", 1.5); },
       "\"a;b\";c,d;1.5\r\n"},
      {"dot separator quotes doubles",
       {.separator = '.'},
       [](Writer& w) { w.row(1.5, 2, "x"); },
       "\"1.5\".2.x\r\n"},
      {"minus separator quotes negatives",
       {.separator = '-'},
       [](Writer& w) { w.row(-1, 1); },
       "\"-1\"-1\r\n"},
      {"tab separator",
       {.separator = '\t'},
       [](Writer& w) { w.row("a\tb", "c d"); },
       "\"a\tb\"\tc d\r\n"},
      {"tuple",
       {},
       [](Writer& w) { w.row(std::make_tuple(1, std::string("x,y"), 2.5)); },
       "1,\"x,y\",2.5\r\n"},
      {"range of numbers",
       {},
       [](Writer& w) {
         w.record(std::vector<int>{1, 2, 3});
       },
       "1,2,3\r\n"},
      {"range of strings",
       {},
       [](Writer& w) {
         w.record(std::vector<std::string>{"a", "b c", "d,e"});
       },
       "a,b c,\"d,e\"\r\n"},
      {"field by field",
       {},
       [](Writer& w) {
         w.field("a");
         w.field(1);
         w.end_record();
         w.field(2);
         w.end_record();
       },
       "a,1\r\n2\r\n"},
      {"byte-order mark at the start is quoted",
       {},
       [](Writer& w) {
         w.row(
             "\xEF\xBB\xBF"
             "a",
             "\xEF\xBB\xBF");
       },
       "\"\xEF\xBB\xBF"
       "a\",\xEF\xBB\xBF\r\n"},
      {"UTF-8 as is",
       {},
       [](Writer& w) { w.row("na\xC3\xAFve", "\xE6\x97\xA5"); },
       "na\xC3\xAFve,\xE6\x97\xA5\r\n"},
  };
  return cases;
}

TEST(CsvWriter, OutputByteForByte) {
  for (const WriteCase& c : write_cases()) {
    SCOPED_TRACE(c.name);
    StringWriteStream out;
    Writer w(out, c.options);
    c.write(w);
    EXPECT_EQ(out.view(), c.expected);
  }
}

TEST(CsvWriter, SameBytesThroughEveryBufferSize) {
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    for (const WriteCase& c : write_cases()) {
      SCOPED_TRACE(c.name + ", buffer " + std::to_string(size));
      testing::FaultyWriteStream sink;
      {
        BufferedWriteStream out(sink, {.buffer_size = size});
        Writer w(out, c.options);
        c.write(w);
        w.flush();
      }
      EXPECT_EQ(sink.written(), c.expected);
    }
  }
}

TEST(CsvWriter, RecordCount) {
  StringWriteStream out;
  Writer w(out);
  w.record({"h"});
  w.row(1);
  EXPECT_EQ(w.record_count(), 2u);
}

TEST(CsvWriter, NeverQuotingRefusesFieldsThatNeedQuotes) {
  for (std::string bad : {"a,b", "a\"b", "a\rb", "a\nb"}) {
    SCOPED_TRACE(bad);
    StringWriteStream out;
    Writer w(out, {.quoting = Quoting::never});
    w.field("ok");
    EXPECT_THROW(w.field(bad), UsageError);
    EXPECT_EQ(out.view(), "ok");  // nothing of the refused field, not even its separator
  }
  StringWriteStream out;
  Writer w(out, {.separator = '.', .quoting = Quoting::never});
  EXPECT_THROW(w.field(1.5), UsageError);

  StringWriteStream bom;
  Writer never(bom, {.quoting = Quoting::never});
  EXPECT_THROW(never.field("\xEF\xBB\xBF"
                           "a"),
               UsageError);
  EXPECT_EQ(bom.view(), "");
}

TEST(CsvWriter, SeparatorMustNotBeQuoteOrLineEnd) {
  StringWriteStream out;
  for (char bad : {'"', '\r', '\n'}) {
    EXPECT_THROW(Writer(out, {.separator = bad}), UsageError);
  }
}

// Rows with quoting, enough of them to go through a small buffer many times.
void write_many(Writer& w) {
  for (int i = 0; i < 200; ++i) w.row(i, "text, with \"quotes\"", 1.0 / (i + 1));
}

std::string expected_many() {
  StringWriteStream out;
  Writer w(out);
  write_many(w);
  return out.take();
}

TEST(CsvWriter, ShortWritesAndInterruptionsLoseNothing) {
  const std::string expected = expected_many();
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    SCOPED_TRACE(size);
    testing::FaultyWriteStream sink({.max_per_call = 3, .interrupt_every = 2});
    {
      BufferedWriteStream out(sink, {.buffer_size = size});
      Writer w(out);
      write_many(w);
      out.flush();
    }
    EXPECT_EQ(sink.written(), expected);
  }
}

TEST(CsvWriter, WriteErrorsSurface) {
  const std::string expected = expected_many();
  // (buffer size, which call to the sink fails): each run makes more calls than that.
  const std::vector<std::pair<std::size_t, std::size_t>> runs{
      {1, 1}, {1, 2}, {1, 40}, {7, 1}, {7, 5}, {7, 40}, {4096, 1}, {4096, 2}};
  for (const auto& [size, fail_at] : runs) {
    {
      SCOPED_TRACE("buffer " + std::to_string(size) + ", failing call " + std::to_string(fail_at));
      testing::FaultyWriteStream sink({.fail_at = fail_at, .error_number = ENOSPC});
      BufferedWriteStream out(sink, {.buffer_size = size});
      Writer w(out);
      try {
        write_many(w);
        w.flush();
        ADD_FAILURE() << "no error";
      } catch (const IoError& e) {
        EXPECT_EQ(e.code(), std::errc::no_space_on_device);
      }
      EXPECT_TRUE(out.failed());
      EXPECT_LT(sink.written().size(), expected.size());
      EXPECT_EQ(expected.compare(0, sink.written().size(), sink.written()), 0);  // a true prefix
      EXPECT_THROW(w.row(1), IoError);                                           // sticky
    }
  }
}

}  // namespace
}  // namespace bufstream::csv
