// csv::Table: the separator and header sniffed or given, types given by hand, access by name
// and index, malformed and ragged input, and tables that equal the records a csv::Reader reads
// (the RFC 4180 and csv-spectrum cases, the benchmark's shape through a Schema). Every case runs
// over every reader setup, as in table_test.cpp.
#include <bufstream/csv/table.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/csv/field_converter.hpp>
#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "rfc_cases.hpp"
#include "table_testing.hpp"

namespace bufstream::csv {
namespace {

using namespace table_testing;

// ---- The dialect ----------------------------------------------------------------------------

TEST(TableDialect, EverySeparatorIsSniffed) {
  for (const char separator : {',', ';', '\t', '|'}) {
    SCOPED_TRACE(std::string(1, separator));
    const std::string s(1, separator);
    // Every other candidate appears in the text, inside quotes.
    const std::string input = "id" + s + "name" + s + "score\n1" + s + "\"Ada, L\"" + s + "2.5\n2" +
                              s + "\"Bob; B\"" + s + "3\n3" + s + "\"Cy|\tD\"" + s + "4\n";
    over_every_setup(input, {}, [&](const Table& t) {
      EXPECT_EQ(t.dialect().separator, separator);
      EXPECT_TRUE(t.dialect().separator_inferred);
      EXPECT_EQ(t.dialect().quote, '"');
      EXPECT_EQ(t.names(), (Names{"id", "name", "score"}));
      EXPECT_EQ(types(t), (std::vector{int64, text, float64}));
      EXPECT_EQ(t.column<std::string_view>("name")[0], "Ada, L");
    });
  }
}

TEST(TableDialect, SeparatorOfMostConsistentRecordsWinsOverARaggedOne) {
  // ',' splits the text unevenly; ';' gives two fields in every record.
  over_every_setup("a;b\nx,y;1\nz;2\n", {}, [](const Table& t) {
    EXPECT_EQ(t.dialect().separator, ';');
    EXPECT_EQ(values<std::string_view>(t, "a"), (Texts{"x,y", "z"}));
  });
}

TEST(TableDialect, AGivenSeparatorIsUsedAsGiven) {
  over_every_setup("a;b\n1;2\n", {.separator = ','}, [](const Table& t) {
    EXPECT_FALSE(t.dialect().separator_inferred);
    EXPECT_EQ(t.names(), (Names{"a;b"}));
    EXPECT_EQ(values<std::string_view>(t, "a;b"), (Texts{"1;2"}));
  });
}

TEST(TableDialect, HeaderIsSniffedFromTypes) {
  // A value of the first record that does not fit its column's type: a header.
  over_every_setup("id,name\n1,Ada\n2,Bob\n", {}, [](const Table& t) {
    EXPECT_TRUE(t.dialect().header);
    EXPECT_TRUE(t.dialect().header_inferred);
    EXPECT_EQ(t.row_count(), 2u);
  });
  // The first record fits the types: data, and the columns are named column1, column2.
  over_every_setup("1,Ada\n2,Bob\n", {}, [](const Table& t) {
    EXPECT_FALSE(t.dialect().header);
    EXPECT_EQ(t.names(), (Names{"column1", "column2"}));
    EXPECT_EQ(values<std::int64_t>(t, "column1"), (Ints{1, 2}));
  });
  // Text columns only: a header when each of its values is non-empty text.
  over_every_setup("name,city\nAda,London\n", {}, [](const Table& t) {
    EXPECT_TRUE(t.dialect().header);
    EXPECT_EQ(t.names(), (Names{"name", "city"}));
  });
  over_every_setup("name,\nAda,London\n", {}, [](const Table& t) {
    EXPECT_FALSE(t.dialect().header);
    EXPECT_EQ(t.row_count(), 2u);
  });
}

TEST(TableDialect, AGivenHeaderIsUsedAsGiven) {
  over_every_setup("1,2\n3,4\n", {.header = true}, [](const Table& t) {
    EXPECT_FALSE(t.dialect().header_inferred);
    EXPECT_EQ(t.names(), (Names{"1", "2"}));
    EXPECT_EQ(values<std::int64_t>(t, "2"), (Ints{4}));
  });
  over_every_setup("a,b\n3,4\n", {.header = false}, [](const Table& t) {
    EXPECT_EQ(t.row_count(), 2u);
    EXPECT_EQ(types(t), (std::vector{text, text}));
  });
}

TEST(TableDialect, HeaderOnlyFile) {
  over_every_setup("x,y\n", {}, [](const Table& t) {
    EXPECT_TRUE(t.dialect().header);
    EXPECT_EQ(t.names(), (Names{"x", "y"}));
    EXPECT_EQ(t.row_count(), 0u);
    EXPECT_EQ(types(t), (std::vector{text, text}));
  });
  over_every_setup("x,y", {.header = true, .types = {int64, float64}}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, float64}));
    EXPECT_EQ(t.column<double>("y").size(), 0u);
  });
}

TEST(TableDialect, EmptyFile) {
  for (const TableOptions& options : {TableOptions{}, TableOptions{.header = true},
                                      TableOptions{.header = false, .types = {int64}}}) {
    over_every_setup("", options, [](const Table& t) {
      EXPECT_EQ(t.column_count(), 0u);
      EXPECT_EQ(t.row_count(), 0u);
    });
  }
}

TEST(TableDialect, SniffingReadsAheadWithoutLosingBytes) {
  // A sample of a few bytes cuts the input anywhere: the table is the same.
  std::string input = "id,x\n";
  for (int i = 0; i < 50; ++i) input += std::to_string(i) + "," + std::to_string(i) + ".5\n";
  for (const std::size_t sniff : {1u, 2u, 7u, 12u, 100u}) {
    SCOPED_TRACE(sniff);
    over_every_setup(input, {.sniff_bytes = sniff}, [](const Table& t) {
      EXPECT_EQ(t.row_count(), 50u);
      EXPECT_EQ(types(t), (std::vector{int64, float64}));
      EXPECT_EQ(t.column<double>("x")[49], 49.5);
    });
  }
}

// ---- Types given by hand --------------------------------------------------------------------

TEST(TableGivenTypes, ByPositionAndByName) {
  const std::string input = "a,b,c\n1,007,1\n2,08,0\n";
  over_every_setup(input, {.types = {float64, int64, boolean}}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{float64, int64, boolean}));
    EXPECT_EQ(values<double>(t, "a"), (Doubles{1.0, 2.0}));
    EXPECT_EQ(values<std::int64_t>(t, "b"), (Ints{7, 8}));  // FieldConverter's grammar
    EXPECT_EQ(values<bool>(t, "c"), (Bools{true, false}));
  });
  over_every_setup(input, {.named_types = {{"b", text}}}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, text, int64}));
  });
  over_every_setup(input, {.infer_types = false}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text, text, text}));
  });
}

TEST(TableGivenTypes, AValueThatDoesNotFitIsAParseErrorAtTheField) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("id,price\n1,2.5\n2,abc\n");
    try {
      Table::read(*in, {.named_types = {{"price", float64}}, .source_name = "p.csv"});
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3u);
      EXPECT_EQ(e.column(), 3u);
      EXPECT_EQ(e.offset(), 17u);
      EXPECT_EQ(e.source_name(), "p.csv");
      EXPECT_EQ(e.message(), "record 3, field 2 ('price'): expected a number but found 'abc'");
    }
  }
}

TEST(TableGivenTypes, OptionsThatDoNotFitAreUsageErrors) {
  MemoryReadStream a("x,y\n1,2\n");
  EXPECT_THROW(Table::read(a, {.types = {int64}}), UsageError);
  MemoryReadStream b("x,y\n1,2\n");
  try {
    Table::read(b, {.named_types = {{"z", int64}}});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "csv::Table::read: a type is given for column 'z', but there is none (there "
                 "are: x, y)");
  }
  MemoryReadStream c("x,y\n1,2\n");
  EXPECT_THROW(Table::read(c, {.types = {int64, int64}, .named_types = {{"x", int64}}}),
               UsageError);
  MemoryReadStream d("x\n");
  EXPECT_THROW(Table::read(d, {.separator = '"'}), UsageError);
}

// ---- Access ---------------------------------------------------------------------------------

TEST(TableAccess, ByNameAndIndexTypedOrNot) {
  MemoryReadStream in("x,y\n1.5,a\n");
  const Table t = Table::read(in);
  EXPECT_EQ(t.column(1).name(), "y");
  EXPECT_EQ(t.column<double>(0)[0], 1.5);
  EXPECT_EQ(t.column("x").type(), float64);
  EXPECT_EQ(t.find("y"), 1u);
  EXPECT_EQ(t.find("z"), std::nullopt);
  EXPECT_EQ(t.column("x").text_of(0), "1.5");
}

TEST(TableAccess, MismatchesAndMissingColumnsAreAccessErrorsThatSayWhat) {
  MemoryReadStream in("x,y\n1.5,a\n");
  const Table t = Table::read(in);
  const auto message = [](auto f) -> std::string {
    try {
      f();
    } catch (const AccessError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([&] { t.column<std::int64_t>("x"); }),
            "csv::Table: column 'x' holds double values, not int64");
  EXPECT_EQ(message([&] { t.column<double>(1); }),
            "csv::Table: column 'y' holds text values, not double");
  EXPECT_EQ(message([&] { t.column<bool>("z"); }), "csv::Table: no column 'z' (it has: x, y)");
  EXPECT_EQ(message([&] { t.column(2); }), "csv::Table: no column 2 (the table has 2 columns)");
}

TEST(TableAccess, ColumnsBuiltByHand) {
  TableColumn n("n", int64);
  n.append("7");
  n.append_empty();
  n.append("-3");
  EXPECT_THROW(n.append("x"), ConversionError);  // and the column is as it was
  TableColumn s("s", text);
  for (const char* v : {"a", "", "c"}) s.append(v);
  TableColumn d("d", float64);
  for (const char* v : {"0.1", "1e300", "-0"}) d.append(v);
  TableColumn b("b", boolean);
  for (const char* v : {"1", "False", ""}) b.append(v);
  const Table t({n, s, d, b});
  EXPECT_EQ(t.row_count(), 3u);
  EXPECT_EQ(values<std::int64_t>(t, "n"), (Ints{7, std::nullopt, -3}));
  EXPECT_EQ(values<std::string_view>(t, "s"), (Texts{"a", std::nullopt, "c"}));
  EXPECT_EQ(values<bool>(t, "b"), (Bools{true, false, std::nullopt}));
  EXPECT_EQ(t.column("n").text_of(2), "-3");
  EXPECT_EQ(t.column("n").text_of(1), "");
  EXPECT_EQ(t.column("d").text_of(0), "0.1");
  EXPECT_EQ(t.column("d").text_of(2), "-0");
  EXPECT_EQ(t.column("b").text_of(1), "false");
  EXPECT_EQ(t.column("s").text_of(2), "c");
  EXPECT_EQ(to_string(boolean), "boolean");
  EXPECT_EQ(to_string(float64), "double");
  TableColumn short_one("short", text);
  EXPECT_THROW(Table({n, short_one}), UsageError);
}

// ---- Bad and ragged input -------------------------------------------------------------------

TEST(TableErrors, MalformedCsvIsTheReadersParseError) {
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("a,b\n1,2\n3,\"x\n");
    try {
      Table::read(*in, {.separator = ','});
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3u);
      EXPECT_EQ(e.column(), 3u);
      EXPECT_EQ(e.offset(), 10u);
      EXPECT_NE(e.message().find("quoted field not closed"), std::string::npos);
    }
  }
}

TEST(TableErrors, RaggedRecordsAreErrorsUnlessVariableFieldCount) {
  const std::string input = "a,b,c\n1,2,3\n4,5\n";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(input);
    try {
      Table::read(*in, {.separator = ','});
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3u);
      EXPECT_NE(e.message().find("expected 3 fields, as in the header, but found 2"),
                std::string::npos);
    }
  }
  over_every_setup(input, {.separator = ',', .variable_field_count = true}, [](const Table& t) {
    EXPECT_EQ(values<std::int64_t>(t, "c"), (Ints{3, std::nullopt}));
  });
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make("a,b\n1,2\n4,5,6\n");
    try {
      Table::read(*in, {.separator = ',', .variable_field_count = true});
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 12u);
      EXPECT_EQ(e.message(),
                "record 3, field 3: no column reads this field: the table has 2 columns");
    }
  }
}

// ---- Tables equal records -------------------------------------------------------------------

// Every RFC 4180 case read into a table of text columns holds the records' fields, and with
// types inferred holds their values; an empty field is no value.
TEST(TableRecords, Rfc4180CasesReadIntoTablesEqualTheirRecords) {
  for (const testing_cases::Case& c : testing_cases::rfc_cases()) {
    const testing_cases::Records& records = c.expected;
    for (const int variant : {0, 1, 2}) {
      // Text columns; types inferred; types and separator inferred (',' cases only).
      const bool infer = variant > 0;
      const bool sniff = variant == 2;
      if (sniff && c.options.separator != ',') continue;
      const TableOptions options{
          .separator = sniff ? std::nullopt : std::optional<char>(c.options.separator),
          .header = false,
          .infer_types = infer,
          .skip_empty_lines = c.options.skip_empty_lines,
          .skip_bom = c.options.skip_bom};
      over_every_setup(c.input, options, [&](const Table& t) {
        SCOPED_TRACE(c.name + " (variant " + std::to_string(variant) + ")");
        if (sniff) {
          EXPECT_EQ(t.dialect().separator, ',');
        }
        ASSERT_EQ(t.row_count(), records.size());
        ASSERT_EQ(t.column_count(), records.empty() ? 0 : records.front().size());
        for (std::size_t col = 0; col < t.column_count(); ++col) {
          const TableColumn& column = t.column(col);
          if (!infer) {
            EXPECT_EQ(column.type(), text);
          }
          for (std::size_t row = 0; row < records.size(); ++row) {
            const std::string& field = records[row][col];
            EXPECT_EQ(column.is_valid(row), !field.empty());
            if (column.type() == text) {
              EXPECT_EQ(column.as<std::string_view>()[row], field);
            } else if (column.type() == int64 && !field.empty()) {
              EXPECT_EQ(column.as<std::int64_t>()[row], FieldConverter<std::int64_t>::parse(field));
            } else if (column.type() == float64 && !field.empty()) {
              EXPECT_EQ(column.as<double>()[row], FieldConverter<double>::parse(field));
            }
          }
        }
      });
    }
  }
}

// What a table of `text` holds (every column as text, or an error's position), the same
// whatever reads it: random bytes of CSV's grammar, sniffed and given, on every setup.
std::string table_outcome(std::string_view text, const testing::ReaderSetup& setup,
                          const TableOptions& options) {
  auto in = setup.make(text);
  try {
    const Table t = Table::read(*in, options);
    std::string out = std::string(1, t.dialect().separator) + (t.dialect().header ? "h|" : "|");
    for (const TableColumn& c : t.columns()) {
      out += c.name() + ":" + std::string(to_string(c.type())) + "=";
      for (std::size_t r = 0; r < c.size(); ++r) out += c.text_of(r) + (c.is_valid(r) ? ";" : "~;");
    }
    return out;
  } catch (const ParseError& e) {
    return "error " + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ":" +
           std::to_string(e.offset()) + " " + e.message();
  }
}

TEST(TableRecords, RandomInputGivesTheSameTableOnEverySetup) {
  std::mt19937 random(43);
  const std::string alphabet = "a1.-e,;\t|\"\r\n ";
  const std::vector<TableOptions> modes{
      {},
      {.separator = ',', .header = false},
      {.lazy_quotes = true, .variable_field_count = true},
      {.sample_rows = 1, .sniff_bytes = 5, .skip_empty_lines = true}};
  const auto setups = testing::reader_setups();
  for (int round = 0; round < 300; ++round) {
    std::string input;
    const std::size_t length = random() % 48;
    for (std::size_t i = 0; i < length; ++i) input += alphabet[random() % alphabet.size()];
    // A table of text columns holds the records, and fails where the reader fails.
    std::optional<testing_cases::Records> records;
    MemoryReadStream record_input(input);
    try {
      records = Reader(record_input).read_all();
    } catch (const ParseError&) {
    }
    MemoryReadStream table_input(input);
    if (!records) {
      EXPECT_THROW(Table::read(table_input, {.separator = ',', .header = false}), ParseError)
          << input;
    } else {
      const Table t =
          Table::read(table_input, {.separator = ',', .header = false, .infer_types = false});
      ASSERT_EQ(t.row_count(), records->size()) << input;
      for (std::size_t r = 0; r < records->size(); ++r) {
        for (std::size_t c = 0; c < t.column_count(); ++c) {
          EXPECT_EQ(t.column<std::string_view>(c)[r], (*records)[r][c]) << input;
        }
      }
    }
    for (std::size_t m = 0; m < modes.size(); ++m) {
      const std::string expected = table_outcome(input, setups.front(), modes[m]);
      for (const auto& setup : setups) {
        ASSERT_EQ(table_outcome(input, setup, modes[m]), expected)
            << setup.name << ", mode " << m << ", input '" << input << "'";
      }
    }
  }
}

// The benchmark's shape, read as a table and through a Schema, value for value.
TEST(TableRecords, AgreesWithSchemaRows) {
  std::string input = "i,minus_i,x,y,words\n";
  for (int i = 0; i < 3000; ++i) {
    input += std::to_string(i) + "," + std::to_string(-i) + "," + std::to_string(i * 0.25) + "," +
             std::to_string(i) + "e-3,\"w" + std::to_string(i % 7) + ", z\"\n";
  }
  struct Row {
    std::int64_t i, minus_i;
    double x, y;
    std::string words;
  };
  MemoryReadStream rows_in(input);
  Reader reader(rows_in);
  const std::vector<Row> rows = read_rows(reader, Schema<Row>()
                                                      .field("i", &Row::i)
                                                      .field("minus_i", &Row::minus_i)
                                                      .field("x", &Row::x)
                                                      .field("y", &Row::y)
                                                      .field("words", &Row::words));
  over_every_setup(input, {.sample_rows = 100}, [&](const Table& t) {
    ASSERT_EQ(types(t), (std::vector{int64, int64, float64, float64, text}));
    ASSERT_EQ(t.row_count(), rows.size());
    const auto i = t.column<std::int64_t>("i");
    const auto minus_i = t.column<std::int64_t>("minus_i");
    const auto x = t.column<double>("x");
    const auto y = t.column<double>("y");
    const auto words = t.column<std::string_view>("words");
    for (std::size_t r = 0; r < rows.size(); ++r) {
      ASSERT_EQ(i[r], rows[r].i);
      ASSERT_EQ(minus_i[r], rows[r].minus_i);
      ASSERT_EQ(x[r], rows[r].x);
      ASSERT_EQ(y[r], rows[r].y);
      ASSERT_EQ(words[r], rows[r].words);
    }
  });
}

}  // namespace
}  // namespace bufstream::csv
