// csv::Reader: RFC 4180 records, strict errors with their positions, the lenient options.
// Every case runs over every reader setup (memory, one byte per read, buffers of 1, 2, 3, 7
// and 65,536 bytes), so every field and line end crosses a window edge somewhere.
#include <bufstream/csv/reader.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/memory_read_stream.hpp>

#include "rfc_cases.hpp"
#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

using Records = std::vector<std::vector<std::string>>;

// Runs `check(reader)` on a reader of `text` over every reader setup.
template <class Check>
void over_every_setup(std::string_view text, const ReadOptions& options, Check check) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in, options);
    check(reader);
  }
}

Records read_all(std::string_view text, const testing::ReaderSetup& setup,
                 const ReadOptions& options = {}) {
  auto in = setup.make(text);
  Reader reader(*in, options);
  return reader.read_all();
}

// ---- RFC 4180 and the grammar around it (the cases are in rfc_cases.hpp) ------------------

using testing_cases::Case;
using testing_cases::rfc_cases;

TEST(CsvReader, Rfc4180Cases) {
  for (const auto& setup : testing::reader_setups()) {
    for (const Case& c : rfc_cases()) {
      SCOPED_TRACE(setup.name + ": " + c.name);
      EXPECT_EQ(read_all(c.input, setup, c.options), c.expected);
    }
  }
}

// ---- Strict errors ----------------------------------------------------------------------

struct ErrorCase {
  std::string name;
  std::string input;
  std::uint64_t record;
  std::uint64_t line;
  std::uint64_t column;
  std::uint64_t offset;
  std::string message_part;
  ReadOptions options = {};
};

const std::vector<ErrorCase>& error_cases() {
  static const std::vector<ErrorCase> cases{
      {"unterminated quote", "a,b\n\"xyz", 2, 2, 1, 4, "quoted field not closed"},
      {"unterminated quote over lines", "x,y\n1,\"ab\ncd", 2, 2, 3, 6, "quoted field not closed"},
      {"bare quote in unquoted field", "ab\"c\n", 1, 1, 3, 2, "'\"' in an unquoted field"},
      {"bare quote after quoted line break", "a,b\n\"x\ny\",q\"z\n", 2, 3, 5, 11,
       "'\"' in an unquoted field"},
      {"text after closing quote", "\"ab\"c,d\n", 1, 1, 5, 4,
       "after the closing '\"' but found 'c'"},
      {"space after closing quote", "\"ab\" ,d\n", 1, 1, 5, 4, "but found ' '"},
      {"text after closing quote after CRLF in quotes", "1,2\r\n\"a\r\nb\"x,3\r\n", 2, 3, 3, 11,
       "but found 'x'"},
      {"too many fields", "a,b\n1,2,3\n", 2, 2, 5, 8,
       "expected 2 fields, as in the first record, but found 3"},
      {"too few fields", "a,b\n1\n", 2, 2, 2, 5,
       "expected 2 fields, as in the first record, but found 1"},
      {"too few fields at end of input", "a,b\n1", 2, 2, 2, 5, "but found 1"},
      {"empty line in a two-column file", "a,b\n\nc,d\n", 2, 2, 1, 4, "but found 1"},
      {"too many fields after a multi-line record", "a,b\n\"1\n2\",3\n4,5,6\n", 3, 4, 5, 16,
       "but found 3"},
      {"error in third record", "a\r\nb\r\n\"c", 3, 3, 1, 6, "record 3:"},
      {"tab separator named",
       "\"a\"b\tc\n",
       1,
       1,
       4,
       3,
       "expected '\\t', a line end",
       {.separator = '\t'}},
      {"quote kept strict when separator is space",
       "a b\"c\n",
       1,
       1,
       4,
       3,
       "unquoted field",
       {.separator = ' ', .variable_field_count = true}},
  };
  return cases;
}

// The error that reading every record of `reader` ends with (none: a test failure).
std::optional<ParseError> first_error(Reader& reader) {
  try {
    while (reader.next() != nullptr) {
    }
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    return e;
  }
  return std::nullopt;
}

TEST(CsvReader, StrictErrorsSayWhereAndWhat) {
  for (const auto& setup : testing::reader_setups()) {
    for (const ErrorCase& c : error_cases()) {
      SCOPED_TRACE(setup.name + ": " + c.name);
      auto in = setup.make(c.input);
      Reader reader(*in, c.options);
      const std::optional<ParseError> e = first_error(reader);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->position(), (SourcePosition{c.offset, c.line, c.column})) << e->what();
      EXPECT_NE(e->message().find("record " + std::to_string(c.record) + ":"), std::string::npos)
          << e->what();
      EXPECT_NE(e->message().find(c.message_part), std::string::npos) << e->what();
    }
  }
}

// With validate_utf8, the first bad byte of a field is an error at that byte (its line and
// column in the input, through doubled quotes and line breaks), naming the record and field.
TEST(CsvReader, InvalidUtf8IsAnErrorAtItsByteWhenValidating) {
  struct Utf8Case {
    std::string name;
    std::string input;
    std::uint64_t record, field, line, column, offset;
    std::string found;
  };
  const std::string long_field(150, 'x');
  const std::vector<Utf8Case> cases{
      {"first field", "a,b\n\xff\xfe,2\n", 2, 1, 2, 1, 4,
       "byte 0xff (invalid UTF-8: invalid lead byte)"},
      {"truncated in a later field", "a,b\n1,x\xc3\n", 2, 2, 2, 4, 7, "byte 0xc3 (invalid UTF-8: "},
      {"after a doubled quote", "a,b\n\"x\"\"\xff\",2\n", 2, 1, 2, 5, 8, "byte 0xff"},
      {"after a line break in quotes", "a,b\n1,\"x\ny\xff\"\n", 2, 2, 3, 2, 10, "byte 0xff"},
      {"overlong", "\xc0\x80,b\n", 1, 1, 1, 1, 0, "byte 0xc0 (invalid UTF-8: overlong encoding)"},
      {"surrogate", "a,\"\xed\xa0\x80\"\n", 1, 2, 1, 4, 3,
       "byte 0xed (invalid UTF-8: encoded surrogate)"},
      {"deep in a long field", "a\n" + long_field + "\xf8" + long_field + "\n", 2, 1, 2, 151, 152,
       "byte 0xf8"},
  };
  for (const auto& setup : testing::reader_setups()) {
    for (const Utf8Case& c : cases) {
      SCOPED_TRACE(setup.name + ": " + c.name);
      auto in = setup.make(c.input);
      Reader reader(*in, {.validate_utf8 = true});
      const std::optional<ParseError> e = first_error(reader);
      ASSERT_TRUE(e);
      EXPECT_EQ(e->position(), (SourcePosition{c.offset, c.line, c.column})) << e->what();
      const std::string prefix = "record " + std::to_string(c.record) + ", field " +
                                 std::to_string(c.field) + ": expected UTF-8 text but found " +
                                 c.found;
      EXPECT_EQ(e->message().substr(0, prefix.size()), prefix) << e->what();
      // Not validating (the default), the same bytes are fields like any other.
      auto again = setup.make(c.input);
      Reader bytes(*again, {.variable_field_count = true});
      EXPECT_NO_THROW(bytes.read_all());
    }
  }
}

TEST(CsvReader, ValidUtf8PassesValidationWhereverTheBufferSplitsIt) {
  const std::string text =
      "\xc3\xa9t\xc3\xa9,\"\xe4\xb8\xad\"\"\xe6\x96\x87\"\r\n\xf0\x9f\x98\x80,\"a\nb\xc3\xa9\"\n";
  over_every_setup(text, {.validate_utf8 = true}, [](Reader& reader) {
    EXPECT_EQ(reader.read_all(), (Records{{"\xc3\xa9t\xc3\xa9", "\xe4\xb8\xad\"\xe6\x96\x87"},
                                          {"\xf0\x9f\x98\x80", "a\nb\xc3\xa9"}}));
  });
}

TEST(CsvReader, ErrorNamesTheSource) {
  over_every_setup("\"a", {.source_name = "data.csv"}, [](Reader& reader) {
    try {
      reader.next();
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.source_name(), "data.csv");
      EXPECT_NE(std::string(e.what()).find("data.csv:1:1:"), std::string::npos) << e.what();
    }
  });
}

TEST(CsvReader, ErrorsAreSticky) {
  over_every_setup("a\"b\nc\n", {}, [](Reader& reader) {
    EXPECT_THROW(reader.next(), ParseError);
    EXPECT_THROW(reader.next(), ParseError);  // not a record "c" made of a half-read line
  });
}

// ---- Lenient options: accepted, the documented way, with no byte lost -------------------

TEST(CsvReader, LenientCases) {
  const ReadOptions lazy{.lazy_quotes = true};
  const ReadOptions ragged{.variable_field_count = true};
  const std::vector<Case> cases{
      {"bare quote kept", "ab\"c,d\n", {{"ab\"c", "d"}}, lazy},
      {"quote at end of unquoted field", "ab\",d\n", {{"ab\"", "d"}}, lazy},
      {"lone quote inside quoted field kept", "\"a\"b\",c\n", {{"a\"b", "c"}}, lazy},
      {"text after closing quote continues the field", "\"ab\" ,c\"\n", {{"ab\" ,c"}}, lazy},
      {"unterminated quote holds the rest", "x\n\"abc\ndef", {{"x"}, {"abc\ndef"}}, lazy},
      {"unterminated after doubled quote", "\"\"\"a\n", {{"\"a\n"}}, lazy},
      {"well-formed input unchanged", "\"a,b\",\"c\"\"d\"\n", {{"a,b", "c\"d"}}, lazy},
      {"records of any length",
       "a,b\n1,2,3\n4\n\n",
       {{"a", "b"}, {"1", "2", "3"}, {"4"}, {""}},
       ragged},
      {"both",
       "a\n\"b\"c,d,e\n",
       {{"a"}, {"b\"c,d,e\n"}},
       {.lazy_quotes = true, .variable_field_count = true}},
  };
  for (const auto& setup : testing::reader_setups()) {
    for (const Case& c : cases) {
      SCOPED_TRACE(setup.name + ": " + c.name);
      EXPECT_EQ(read_all(c.input, setup, c.options), c.expected);
    }
  }
}

TEST(CsvReader, LazyQuotesDoNotLiftFieldCount) {
  over_every_setup("a,b\n\"x\"y,z,w\n", {.lazy_quotes = true}, [](Reader& reader) {
    reader.next();
    EXPECT_THROW(reader.next(), ParseError);  // one field: x"y,z,w and the line end
  });
}

// ---- Records, views, numbers and positions ----------------------------------------------

// Pointer identity needs the memory stream, whose window is the text itself.
TEST(CsvReader, ViewsPointIntoTheWindowWhenTheyCan) {
  const std::string text = "ab,\"cd\",\"e\"\"f\"\n";
  MemoryReadStream in(text);
  Reader reader(in);
  const Record* r = reader.next();
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0], "ab");
  EXPECT_EQ((*r)[0].data(), text.data());      // unquoted: in the window
  EXPECT_EQ((*r)[1].data(), text.data() + 4);  // quoted without doubled quotes: in the window
  EXPECT_EQ((*r)[2], "e\"f");                  // unescaped: in the reader's storage
  EXPECT_EQ(reader.next(), nullptr);
}

TEST(CsvReader, FieldPositionsOfEveryKindOfField) {
  // Plain, quoted, empty, empty quoted, with doubled quotes (kept in the reader's storage),
  // and quoted beyond the 64th field; a quoted field's position is its opening quote.
  std::string wide;
  std::vector<std::uint64_t> wide_offsets;
  for (std::size_t i = 0; i < 70; ++i) {
    if (i > 0) wide += ',';
    wide_offsets.push_back(wide.size());
    wide += i == 66 ? "\"q\"" : i == 68 ? "\"r\"\"s\"" : "v";
  }
  const std::string text = "a,\"b\",,\"\",\"c\"\"d\",e\n" + wide + "\n";
  const std::vector<std::uint64_t> first_offsets = {0, 2, 6, 7, 10, 17};
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in, {.variable_field_count = true});
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->size(), first_offsets.size());
    EXPECT_EQ(r->to_strings(), (std::vector<std::string>{"a", "b", "", "", "c\"d", "e"}));
    for (std::size_t i = 0; i < first_offsets.size(); ++i) {
      EXPECT_EQ(reader.field_position(i),
                (SourcePosition{first_offsets[i], 1, first_offsets[i] + 1}))
          << i;
    }
    r = reader.next();
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->size(), 70u);
    EXPECT_EQ((*r)[66], "q");
    EXPECT_EQ((*r)[68], "r\"s");
    const std::uint64_t start = text.find('\n') + 1;
    for (std::size_t i = 0; i < 70; ++i) {
      EXPECT_EQ(reader.field_position(i),
                (SourcePosition{start + wide_offsets[i], 2, wide_offsets[i] + 1}))
          << i;
    }
    EXPECT_EQ(reader.next(), nullptr);
  }
}

TEST(CsvReader, RecordNumbersLinesAndFieldPositions) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("h1,h2\r\n\"a\r\nb\",c\r\nd,\"e\"\r\n");
    Reader reader(*in);
    EXPECT_EQ(reader.read_header().names(), (std::vector<std::string>{"h1", "h2"}));
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->number(), 2u);
    EXPECT_EQ(r->line(), 2u);
    EXPECT_EQ(reader.field_position(1), (SourcePosition{14, 3, 4}));
    r = reader.next();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->number(), 3u);
    EXPECT_EQ(r->line(), 4u);
    EXPECT_EQ(reader.field_position(1), (SourcePosition{19, 4, 3}));  // at the opening quote
    EXPECT_EQ(reader.record_position(), (SourcePosition{17, 4, 1}));
    const ParseError e = reader.field_error(1, "not a date");
    EXPECT_EQ(e.message(), "record 3, field 2: not a date");
    EXPECT_EQ(e.line(), 4u);
    EXPECT_EQ(reader.next(), nullptr);
    EXPECT_EQ(reader.record_count(), 3u);
  }
}

TEST(CsvReader, RecordAtChecksTheIndex) {
  over_every_setup("a,b\n", {}, [](Reader& reader) {
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->at(1), "b");
    EXPECT_THROW((void)r->at(2), AccessError);
  });
}

TEST(CsvReader, NextIntoStringsReusesTheVector) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("a,b,c\n1,\"2\n\",3\n");
    Reader reader(*in);
    std::vector<std::string> fields;
    ASSERT_TRUE(reader.next(fields));
    EXPECT_EQ(fields, (std::vector<std::string>{"a", "b", "c"}));
    ASSERT_TRUE(reader.next(fields));
    EXPECT_EQ(fields, (std::vector<std::string>{"1", "2\n", "3"}));
    EXPECT_FALSE(reader.next(fields));
  }
}

TEST(CsvReader, AtEnd) {
  over_every_setup(
      "\xEF\xBB\xBF"
      "a\n\n",
      {.skip_empty_lines = true}, [](Reader& reader) {
        EXPECT_FALSE(reader.at_end());
        ASSERT_NE(reader.next(), nullptr);
        EXPECT_TRUE(reader.at_end());  // the empty line is skipped, nothing follows
        EXPECT_EQ(reader.next(), nullptr);
      });
  over_every_setup("", {}, [](Reader& reader) { EXPECT_TRUE(reader.at_end()); });
}

TEST(CsvReader, SeparatorMustNotBeQuoteOrLineEnd) {
  MemoryReadStream in("");
  for (char bad : {'"', '\r', '\n'}) {
    EXPECT_THROW(Reader(in, {.separator = bad}), UsageError);
  }
}

// ---- Headers ----------------------------------------------------------------------------

TEST(CsvReader, HeaderLooksColumnsUpByName) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("name,age\r\nAda,36\r\n");
    Reader reader(*in);
    EXPECT_FALSE(reader.has_header());
    const Header& header = reader.read_header();
    EXPECT_TRUE(reader.has_header());
    EXPECT_EQ(header.index("age"), 1u);
    EXPECT_EQ(header.find("name"), 0u);
    EXPECT_EQ(header.find("Name"), std::nullopt);
    EXPECT_THROW((void)header.index("height"), AccessError);
    const Record* r = reader.next();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ((*r)[header.index("age")], "36");
  }
}

TEST(CsvReader, HeaderSetsTheFieldCount) {
  over_every_setup("a,b\n1,2,3\n", {}, [](Reader& reader) {
    reader.read_header();
    try {
      reader.next();
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_NE(e.message().find("as in the header"), std::string::npos) << e.what();
      EXPECT_EQ(e.column(), 5u);
    }
  });
}

TEST(CsvReader, HeaderOfEmptyInputIsAnError) {
  over_every_setup("\xEF\xBB\xBF", {}, [](Reader& reader) {
    try {
      reader.read_header();
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "expected a header record but the input is empty");
    }
  });
}

// ---- Long fields ------------------------------------------------------------------------

TEST(CsvReader, FieldsLongerThanAnyBuffer) {
  std::string big(1 << 20, 'x');
  for (std::size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
  std::string quoted_content = big;
  for (std::size_t i = 500; i < quoted_content.size(); i += 4099) quoted_content[i] = '"';
  for (std::size_t i = 1000; i < quoted_content.size(); i += 8191) quoted_content[i] = '\n';
  std::string escaped;
  for (char c : quoted_content) {
    escaped += c;
    if (c == '"') escaped += '"';
  }
  const std::string input = big + ",s\n\"" + escaped + "\",t\r\nlast," + big;
  const Records expected{{big, "s"}, {quoted_content, "t"}, {"last", big}};
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    EXPECT_EQ(read_all(input, setup), expected);
  }
}

TEST(CsvReader, LineCountAfterLongMultiLineField) {
  std::string content;
  for (int i = 0; i < 3000; ++i) content += "line\r\n";
  const std::string input = "\"" + content + "\"\n\"x";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(input);
    Reader reader(*in);
    ASSERT_NE(reader.next(), nullptr);
    try {
      reader.next();
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3002u);
      EXPECT_EQ(e.column(), 1u);
    }
  }
}

// ---- Random input: the same answer whatever the windows are ------------------------------

// What reading gives: the records, or the error (message and position) that stopped it.
std::string outcome(std::string_view text, const testing::ReaderSetup& setup,
                    const ReadOptions& options) {
  auto in = setup.make(text);
  Reader reader(*in, options);
  std::string result;
  try {
    while (const Record* r = reader.next()) {
      result += "[";
      for (std::string_view f : *r) {
        result += "<";
        result += f;
        result += ">";
      }
      result += "]@" + std::to_string(r->line());
    }
  } catch (const ParseError& e) {
    result += " error " + std::string(e.what());
  }
  return result;
}

TEST(CsvReader, RandomInputGivesTheSameAnswerOnEverySetup) {
  std::mt19937 random(4180);
  const std::string alphabet = "ab,\"\r\n ";
  const std::vector<ReadOptions> modes{
      {},
      {.lazy_quotes = true},
      {.variable_field_count = true},
      {.lazy_quotes = true, .variable_field_count = true, .skip_empty_lines = true}};
  const auto setups = testing::reader_setups();
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const std::size_t length = random() % 40;
    for (std::size_t i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
    for (const ReadOptions& mode : modes) {
      const std::string expected = outcome(text, setups.front(), mode);
      for (const auto& setup : setups) {
        ASSERT_EQ(outcome(text, setup, mode), expected)
            << setup.name << ", lazy " << mode.lazy_quotes << ", variable "
            << mode.variable_field_count << ", input '" << text << "'";
      }
    }
  }
}

// Records long enough to span the reader's 64-byte blocks of separator, quote and line-end
// masks, so that fields, quotes, doubled quotes and line ends fall on every block edge, with
// the fast path (whole input in one window) checked against the slow ones (small windows).
TEST(CsvReader, LongRandomRecordsGiveTheSameAnswerOnEverySetup) {
  std::mt19937 random(64);
  const auto setups = testing::reader_setups();
  const std::vector<ReadOptions> modes{{},
                                       {.variable_field_count = true},
                                       {.separator = ';', .variable_field_count = true},
                                       {.separator = '\0', .variable_field_count = true}};
  for (int round = 0; round < 300; ++round) {
    const ReadOptions& mode = modes[static_cast<std::size_t>(round) % modes.size()];
    const std::string alphabet = std::string("abcdefgh\"\r\n ") + mode.separator;
    std::string text;
    const std::size_t length = random() % 700;
    for (std::size_t i = 0; i < length; ++i) {
      // Mostly letters: fields of every length, and the syntax bytes at every offset.
      text += random() % 4 == 0 ? alphabet[random() % alphabet.size()]
                                : static_cast<char>('a' + random() % 8);
    }
    const std::string expected =
        outcome(text, setups[1], mode);  // one byte at a time: the slow path
    for (const auto& setup : setups) {
      ASSERT_EQ(outcome(text, setup, mode), expected) << setup.name << ", round " << round;
    }
  }
  // Well-formed tables: quoted and unquoted fields of random lengths, records of five fields.
  for (int round = 0; round < 100; ++round) {
    std::string text;
    for (int record = 0; record < 20; ++record) {
      for (int field = 0; field < 5; ++field) {
        if (field != 0) text += ',';
        std::string value;
        const std::size_t size = random() % 90;
        for (std::size_t i = 0; i < size; ++i) value += "abc,\"\r\n"[random() % 7];
        if (value.find_first_of(",\"\r\n") != std::string::npos || random() % 3 == 0) {
          std::string quoted = "\"";
          for (char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
          text += quoted + "\"";
        } else {
          text += value;
        }
      }
      text += random() % 2 == 0 ? "\r\n" : "\n";
    }
    const std::string expected = outcome(text, setups[1], {});
    ASSERT_EQ(expected.find("error"), std::string::npos) << expected;
    for (const auto& setup : setups) {
      ASSERT_EQ(outcome(text, setup, {}), expected) << setup.name << ", table " << round;
    }
  }
}

TEST(CsvReader, LenientReadingNeverLosesAByte) {
  // With both lenient options every input reads without error, and every byte that is not
  // syntax (here: letters and spaces) comes out, in order.
  std::mt19937 random(1);
  const std::string alphabet = "ab,\"\r\n ";
  const auto letters = [](std::string_view s) {
    std::string out;
    for (char c : s) {
      if (c == 'a' || c == 'b' || c == ' ') out += c;
    }
    return out;
  };
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const std::size_t length = random() % 40;
    for (std::size_t i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
    for (const auto& setup : testing::reader_setups()) {
      std::string kept;
      for (const auto& record :
           read_all(text, setup, {.lazy_quotes = true, .variable_field_count = true})) {
        for (const std::string& field : record) kept += letters(field);
      }
      ASSERT_EQ(kept, letters(text)) << setup.name << ", input '" << text << "'";
    }
  }
}

// ---- I/O failures pass through ----------------------------------------------------------

class FailingReadStream final : public ReadStream {
 protected:
  bool refill(std::size_t) override {
    if (served_) fail(IoError::from_errno(EIO, "read", "failing source"));
    served_ = true;
    set_window(text_.data(), text_.data() + text_.size(), text_.size());
    return true;
  }

 private:
  std::string text_ = "a,b\nc,";
  bool served_ = false;
};

TEST(CsvReader, ReadErrorsPassThroughAndStick) {
  FailingReadStream in;
  Reader reader(in);
  ASSERT_NE(reader.next(), nullptr);
  EXPECT_THROW(reader.next(), IoError);
  EXPECT_THROW(reader.next(), IoError);
}

}  // namespace
}  // namespace bufstream::csv
