// Typed rows: FieldConverter, Schema (positional and by header name), RowReader, tuples; the
// benchmark's 25,000 rows and random tables written and read back exactly.
#include <bufstream/csv.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "data_sets/words.hpp"

#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

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

// ---- Converters -------------------------------------------------------------------------

TEST(CsvFieldConverter, Integers) {
  EXPECT_EQ(FieldConverter<int>::parse("-42"), -42);
  EXPECT_EQ(FieldConverter<std::int64_t>::parse("-9223372036854775808"),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(FieldConverter<std::uint8_t>::parse("255"), 255);
  for (const char* bad : {"", "+1", " 1", "1 ", "1.0", "0x10", "abc"}) {
    EXPECT_THROW(FieldConverter<int>::parse(bad), ConversionError) << bad;
  }
  try {
    FieldConverter<std::uint8_t>::parse("256");
    FAIL();
  } catch (const ConversionError& e) {
    EXPECT_STREQ(e.what(), "expected an integer from 0 to 255 but found '256'");
  }
  try {
    FieldConverter<std::int16_t>::parse("");
    FAIL();
  } catch (const ConversionError& e) {
    EXPECT_STREQ(e.what(), "expected an integer from -32768 to 32767 but found an empty field");
  }
}

TEST(CsvFieldConverter, Doubles) {
  EXPECT_EQ(FieldConverter<double>::parse("0.1"), 0.1);
  EXPECT_EQ(FieldConverter<double>::parse("-1.5e3"), -1500.0);
  EXPECT_EQ(FieldConverter<double>::parse("7"), 7.0);
  EXPECT_EQ(FieldConverter<double>::parse("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(FieldConverter<double>::parse("-inf"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(FieldConverter<double>::parse("nan")));
  EXPECT_EQ(FieldConverter<float>::parse("0.1"), 0.1f);
  EXPECT_EQ(FieldConverter<float>::parse("1e-50"), 0.0f);
  for (const char* bad : {"", "1e400", "+1", " 1", "1,5", "0x1p3", "infinity", "1.0f"}) {
    EXPECT_THROW(FieldConverter<double>::parse(bad), ConversionError) << bad;
  }
  EXPECT_THROW(FieldConverter<float>::parse("1e39"), ConversionError);
}

TEST(CsvFieldConverter, BoolsStringsOptionals) {
  for (const char* yes : {"true", "TRUE", "True", "1"})
    EXPECT_TRUE(FieldConverter<bool>::parse(yes)) << yes;
  for (const char* no : {"false", "FALSE", "False", "0"})
    EXPECT_FALSE(FieldConverter<bool>::parse(no)) << no;
  for (const char* bad : {"", "yes", "t", "2", " true"}) {
    EXPECT_THROW(FieldConverter<bool>::parse(bad), ConversionError) << bad;
  }
  EXPECT_EQ(FieldConverter<std::string>::parse(""), "");
  EXPECT_EQ(FieldConverter<std::optional<int>>::parse(""), std::nullopt);
  EXPECT_EQ(FieldConverter<std::optional<int>>::parse("5"), 5);
  EXPECT_THROW(FieldConverter<std::optional<int>>::parse("x"), ConversionError);
}

// ---- The benchmark's rows ---------------------------------------------------------------

using bufstream::bench::words;  // the benchmark's own spelling (bench/data_sets), tested there

using BenchRow = std::tuple<std::int64_t, std::int64_t, double, double, std::string>;

struct BenchRecord {
  std::int64_t i = 0;
  std::int64_t negative = 0;
  double inverse = 0;
  double root = 0;
  std::string words;
  friend bool operator==(const BenchRecord&, const BenchRecord&) = default;
};

std::vector<BenchRow> bench_rows(std::int64_t count) {
  std::vector<BenchRow> rows;
  for (std::int64_t i = 1; i <= count; ++i) {
    rows.emplace_back(i, -i, 1.0 / static_cast<double>(i), std::sqrt(static_cast<double>(i)),
                      words(i));
  }
  return rows;
}

TEST(CsvTyped, BenchmarkRowsWrittenAndReadBackExactly) {
  const std::vector<BenchRow> rows = bench_rows(25000);
  StringWriteStream text;
  {
    BufferedWriteStream out(text);
    Writer w(out);
    for (const BenchRow& row : rows) w.row(row);
    out.flush();
  }
  const std::string csv = text.take();
  // From 1,000 on the words hold a comma (except the round thousands, "two thousand"): 23,976
  // of the 25,000 rows need quotes.
  std::size_t quoted = 0;
  for (std::size_t at = 0; (at = csv.find(",\"", at)) != std::string::npos; ++at) ++quoted;
  EXPECT_EQ(quoted, 23976u);
  EXPECT_EQ(csv.substr(0, 24), "1,-1,1,1,one\r\n2,-2,0.5,1");

  const auto schema = Schema<BenchRecord>()
                          .field(&BenchRecord::i)
                          .field(&BenchRecord::negative)
                          .field(&BenchRecord::inverse)
                          .field(&BenchRecord::root)
                          .field(&BenchRecord::words);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(csv);
    Reader reader(*in);
    const std::vector<BenchRow> back = read_rows<BenchRow>(reader);
    ASSERT_EQ(back.size(), rows.size());
    EXPECT_TRUE(back == rows);

    auto again = setup.make(csv);
    Reader reader2(*again);
    RowReader<BenchRecord> typed(reader2, schema);
    BenchRecord r;
    std::int64_t n = 0;
    while (typed.next(r)) {
      ++n;
      const BenchRow& expected = rows[static_cast<std::size_t>(n - 1)];
      ASSERT_EQ(r, (BenchRecord{std::get<0>(expected), std::get<1>(expected), std::get<2>(expected),
                                std::get<3>(expected), std::get<4>(expected)}));
    }
    EXPECT_EQ(n, 25000);
  }
}

TEST(CsvTyped, BenchmarkRowsOverUnbufferedDescriptors) {
  // The benchmark's "unbuffered" variant: one system call per stream operation, both ways.
  const std::vector<BenchRow> rows = bench_rows(1200);
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("bufstream-csv-fd-" + std::to_string(::getpid()) + ".csv");
  {
    FdWriteStream out(path);
    Writer w(out);
    for (const BenchRow& row : rows) w.row(row);
    out.close();
  }
  FdReadStream in(path);
  Reader reader(in);
  EXPECT_TRUE(read_rows<BenchRow>(reader) == rows);
  std::filesystem::remove(path);
}

// ---- Schemas ----------------------------------------------------------------------------

struct Trade {
  std::int64_t id = 0;
  double price = 0;
  std::optional<double> fee;
  bool settled = false;
  std::string note;
  int code = 0;
};

TEST(CsvTyped, PositionalSchemaWithEveryKindOfColumn) {
  const auto schema =
      Schema<Trade>()
          .field(&Trade::id)
          .field_or(&Trade::price, -1.0)
          .field(&Trade::fee)
          .ignore()
          .field(&Trade::settled)
          .field(&Trade::note)
          .field_with(&Trade::code, [](std::string_view s) { return static_cast<int>(s.size()); });
  const std::string input =
      "1,2.5,0.25,skip me,true,\"a, b\",xyz\r\n"
      "2,,,,0,,\r\n";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(input);
    Reader reader(*in);
    const std::vector<Trade> trades = read_rows(reader, schema);
    ASSERT_EQ(trades.size(), 2u);
    EXPECT_EQ(trades[0].id, 1);
    EXPECT_EQ(trades[0].price, 2.5);
    EXPECT_EQ(trades[0].fee, 0.25);
    EXPECT_TRUE(trades[0].settled);
    EXPECT_EQ(trades[0].note, "a, b");
    EXPECT_EQ(trades[0].code, 3);
    EXPECT_EQ(trades[1].price, -1.0);  // the default for an empty field
    EXPECT_EQ(trades[1].fee, std::nullopt);
    EXPECT_FALSE(trades[1].settled);
    EXPECT_EQ(trades[1].note, "");
    EXPECT_EQ(trades[1].code, 0);
  }
}

TEST(CsvTyped, SchemaWritesWhatItReads) {
  const auto schema = Schema<Trade>()
                          .field("id", &Trade::id)
                          .field("price", &Trade::price)
                          .field("fee", &Trade::fee)
                          .field("note", &Trade::note)
                          .field_with(
                              "code", &Trade::code,
                              [](std::string_view s) { return std::stoi(std::string(s)) - 1; },
                              [](int c) { return c + 1; });
  const std::vector<Trade> trades{{7, 0.1, std::nullopt, false, "x \"y\"", 41},
                                  {8, 1e-300, 2.0, false, "", 0}};
  StringWriteStream out;
  Writer w(out, {.line_end = bufstream::LineEnd::lf});
  schema.write_header(w);
  write_rows(w, schema, trades);
  EXPECT_EQ(out.view(), "id,price,fee,note,code\n7,0.1,,\"x \"\"y\"\"\",42\n8,1e-300,2,,1\n");

  over_every_setup(out.view(), {}, [&](Reader& reader) {
    const std::vector<Trade> back = read_rows(reader, schema);
    ASSERT_EQ(back.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(back[i].id, trades[i].id);
      EXPECT_EQ(back[i].price, trades[i].price);
      EXPECT_EQ(back[i].fee, trades[i].fee);
      EXPECT_EQ(back[i].note, trades[i].note);
      EXPECT_EQ(back[i].code, trades[i].code);
    }
  });
}

struct Opaque {
  int x = 0;
};
struct WithOpaque {
  Opaque o;
};

TEST(CsvTyped, WritingAColumnWithoutAFormatIsALogicError) {
  const auto schema =
      Schema<WithOpaque>().field_with(&WithOpaque::o, [](std::string_view) { return Opaque{1}; });
  StringWriteStream out;
  Writer w(out);
  EXPECT_THROW(schema.write_row(w, WithOpaque{}), UsageError);
}

TEST(CsvTyped, NamedSchemaMapsHeaderColumnsInAnyOrder) {
  const auto schema =
      Schema<Trade>().field("id", &Trade::id).field("note", &Trade::note).field("fee", &Trade::fee);
  const std::string input = "note,unused,fee,id\r\nhello,x,1.5,3\r\n\"bye\",y,,4\r\n";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(input);
    Reader reader(*in);
    RowReader<Trade> rows(reader, schema);
    Trade t;
    ASSERT_TRUE(rows.next(t));
    EXPECT_EQ(t.id, 3);
    EXPECT_EQ(t.note, "hello");
    EXPECT_EQ(t.fee, 1.5);
    ASSERT_TRUE(rows.next(t));
    EXPECT_EQ(t.id, 4);
    EXPECT_EQ(t.note, "bye");
    EXPECT_EQ(t.fee, std::nullopt);
    EXPECT_FALSE(rows.next(t));
    EXPECT_EQ(reader.header().size(), 4u);
  }
}

TEST(CsvTyped, NamedSchemaUsesAHeaderReadBefore) {
  over_every_setup("a,id\n1,2\n", {}, [](Reader& reader) {
    reader.read_header();
    const auto trades = read_rows(reader, Schema<Trade>().field("id", &Trade::id));
    ASSERT_EQ(trades.size(), 1u);
    EXPECT_EQ(trades[0].id, 2);
  });
}

TEST(CsvTyped, HeaderMappingErrors) {
  over_every_setup("x,y\r\n1,2\r\n", {.source_name = "t.csv"}, [](Reader& reader) {
    try {
      read_rows(reader, Schema<Trade>().field("id", &Trade::id));
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "the header has no column 'id' (it has: x, y)");
      EXPECT_EQ(e.line(), 1u);
      EXPECT_EQ(e.source_name(), "t.csv");
    }
  });
  over_every_setup("id,note,id\r\n", {}, [](Reader& reader) {
    try {
      read_rows(reader, Schema<Trade>().field("id", &Trade::id));
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "the header has column 'id' twice (fields 1 and 3)");
    }
  });
  over_every_setup("", {}, [](Reader& reader) {
    EXPECT_THROW(read_rows(reader, Schema<Trade>().field("id", &Trade::id)), ParseError);
  });
}

// ---- Conversion errors and field counts -------------------------------------------------

TEST(CsvTyped, ConversionErrorsSayWhere) {
  using Row = std::tuple<int, double, std::string>;
  struct ErrorCase {
    std::string input;
    std::uint64_t line, column, offset;
    std::string message;
  };
  const std::vector<ErrorCase> cases{
      {"1,2,a\r\n2,x,b\r\n", 2, 3, 9, "record 2, field 2: expected a number but found 'x'"},
      {"1,2,a\r\n,3,b\r\n", 2, 1, 7,
       "record 2, field 1: expected an integer from -2147483648 to 2147483647 but found an empty field"},
      {"\"1\n\",2,a\n", 1, 1, 0,
       "record 1, field 1: expected an integer from -2147483648 to 2147483647 but found '1\n'"},
      {"1,\"a\nb\",\"c\"\n", 1, 3, 2, "record 1, field 2: expected a number but found 'a\nb'"},
  };
  for (const auto& setup : testing::reader_setups()) {
    for (const ErrorCase& c : cases) {
      SCOPED_TRACE(setup.name + ": " + c.input);
      auto in = setup.make(c.input);
      Reader reader(*in);
      try {
        read_rows<Row>(reader);
        ADD_FAILURE() << "no error";
      } catch (const ParseError& e) {
        EXPECT_EQ(e.message(), c.message);
        EXPECT_EQ(e.line(), c.line);
        EXPECT_EQ(e.column(), c.column);
        EXPECT_EQ(e.offset(), c.offset);
      }
    }
  }
}

TEST(CsvTyped, NamedColumnAppearsInConversionErrors) {
  over_every_setup("id,note\n1,a\nx,b\n", {}, [](Reader& reader) {
    try {
      read_rows(reader, Schema<Trade>().field("id", &Trade::id).field("note", &Trade::note));
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(
          e.message(),
          "record 3, field 1 ('id'): expected an integer from -9223372036854775808 to 9223372036854775807 "
          "but found 'x'");
      EXPECT_EQ(e.line(), 3u);
    }
  });
}

TEST(CsvTyped, UserConverterExceptionsBecomeParseErrors) {
  const auto schema = Schema<Trade>().field_with(&Trade::code, [](std::string_view s) {
    return std::stoi(std::string(s));  // throws std::invalid_argument for "q"
  });
  over_every_setup("5\nq\n", {}, [&](Reader& reader) {
    RowReader<Trade> rows(reader, schema);
    Trade t;
    ASSERT_TRUE(rows.next(t));
    EXPECT_EQ(t.code, 5);
    try {
      rows.next(t);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 2u);
      EXPECT_NE(e.message().find("record 2, field 1: "), std::string::npos) << e.what();
    }
  });
}

TEST(CsvTyped, RecordsMustMatchThePositionalSchema) {
  using Row = std::tuple<int, int>;
  over_every_setup("1,2,3\n", {}, [](Reader& reader) {
    try {
      read_rows<Row>(reader);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(),
                "record 1, field 3: no column reads this field: the row has 2 columns");
      EXPECT_EQ(e.column(), 5u);
    }
  });
  over_every_setup("1\n", {}, [](Reader& reader) {
    try {
      read_rows<Row>(reader);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "record 1: expected 2 fields for the row but found 1");
    }
  });
}

TEST(CsvTyped, VariableFieldCountReadsMissingFieldsAsEmpty) {
  using Row = std::tuple<int, std::optional<int>, std::string>;
  over_every_setup("1,2,a\n3\n4,5\n", {.variable_field_count = true}, [](Reader& reader) {
    const std::vector<Row> rows = read_rows<Row>(reader);
    EXPECT_EQ(rows, (std::vector<Row>{{1, 2, "a"}, {3, std::nullopt, ""}, {4, 5, ""}}));
  });
  over_every_setup("1,2,a,b\n", {.variable_field_count = true}, [](Reader& reader) {
    EXPECT_THROW(read_rows<Row>(reader), ParseError);  // a field would be dropped
  });
}

TEST(CsvTyped, TupleThroughASchemaReadsLikeTheDirectPath) {
  using Row = std::tuple<std::int64_t, std::optional<double>, std::string, bool>;
  const std::string input = "1,2.5,a,true\n-3,,\"b,c\",0\n";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in1 = setup.make(input);
    Reader direct(*in1);
    auto in2 = setup.make(input);
    Reader through_schema(*in2);
    const std::vector<Row> expected{{1, 2.5, "a", true}, {-3, std::nullopt, "b,c", false}};
    EXPECT_EQ(read_rows<Row>(direct), expected);
    EXPECT_EQ(read_rows(through_schema, tuple_schema<Row>()), expected);
  }
  StringWriteStream out;
  Writer w(out);
  tuple_schema<Row>().write_row(w, Row{7, std::nullopt, "x y", false});
  EXPECT_EQ(out.view(), "7,,x y,false\r\n");
}

// ---- Random tables through writer and reader --------------------------------------------

TEST(CsvTyped, RandomTablesRoundTrip) {
  std::mt19937 random(20240611);
  const std::vector<std::string> pieces{"\xEF\xBB\xBF",
                                        ",",
                                        ";",
                                        "\t",
                                        "\"",
                                        "\"\"",
                                        "\r",
                                        "\n",
                                        "\r\n",
                                        " ",
                                        "a",
                                        "xyz",
                                        "\xC3\xA9",
                                        "\xE6\x97\xA5",
                                        "\xF0\x9F\x98\x80",
                                        "1.5",
                                        ""};
  const std::vector<WriteOptions> dialects{
      {},
      {.line_end = bufstream::LineEnd::lf},
      {.separator = ';', .quoting = Quoting::always},
      {.separator = '\t', .line_end = bufstream::LineEnd::lf},
  };
  const auto setups = testing::reader_setups();
  for (int table = 0; table < 40; ++table) {
    const std::size_t columns = 1 + random() % 4;
    const std::size_t rows = random() % 12;
    std::vector<std::vector<std::string>> data(rows, std::vector<std::string>(columns));
    for (auto& row : data) {
      for (auto& field : row) {
        const std::size_t n = random() % 5;
        for (std::size_t k = 0; k < n; ++k) field += pieces[random() % pieces.size()];
      }
    }
    const WriteOptions& dialect = dialects[static_cast<std::size_t>(table) % dialects.size()];
    StringWriteStream out;
    Writer w(out, dialect);
    for (const auto& row : data) w.record(row);
    const std::string text = out.take();
    for (const auto& setup : setups) {
      SCOPED_TRACE("table " + std::to_string(table) + ", " + setup.name);
      auto in = setup.make(text);
      Reader reader(*in, {.separator = dialect.separator});
      ASSERT_EQ(reader.read_all(), data);
    }
  }
}

}  // namespace
}  // namespace bufstream::csv
