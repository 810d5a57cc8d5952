// csv::Table: the types inferred (the ladder boolean, integer, double, text), empty fields,
// widening past the sample. table_dialect_test.cpp has the dialect, types given by hand,
// access, errors and the tables that must equal records. Every case runs over every reader
// setup (memory, one or three bytes per read, buffers of 1, 2, 3, 7 and 65,536 bytes).
#include <bufstream/csv/table.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "table_testing.hpp"

namespace bufstream::csv {
namespace {

using namespace table_testing;

// ---- The type ladder ------------------------------------------------------------------------

TEST(TableInference, EachColumnGetsTheNarrowestTypeOfTheLadder) {
  const std::string input =
      "flag,count,ratio,name,mixed\n"
      "true,1,1.5,Ada,1\n"
      "False,-22,2,Bob,x\n"
      "TRUE,9223372036854775807,-3e2,\"Cy, Jr\",2.5\n";
  over_every_setup(input, {}, [](const Table& t) {
    EXPECT_EQ(t.names(), (Names{"flag", "count", "ratio", "name", "mixed"}));
    EXPECT_EQ(types(t), (std::vector{boolean, int64, float64, text, text}));
    EXPECT_EQ(t.row_count(), 3u);
    EXPECT_EQ(values<bool>(t, "flag"), (Bools{true, false, true}));
    EXPECT_EQ(values<std::int64_t>(t, "count"),
              (Ints{1, -22, std::numeric_limits<std::int64_t>::max()}));
    EXPECT_EQ(values<double>(t, "ratio"), (Doubles{1.5, 2.0, -300.0}));
    EXPECT_EQ(values<std::string_view>(t, "name"), (Texts{"Ada", "Bob", "Cy, Jr"}));
    EXPECT_EQ(values<std::string_view>(t, "mixed"), (Texts{"1", "x", "2.5"}));
    EXPECT_TRUE(t.widenings().empty());
    EXPECT_TRUE(t.dialect().header);
    EXPECT_EQ(t.dialect().separator, ',');
  });
}

TEST(TableInference, OneAndZeroAreIntegersNotBooleans) {
  over_every_setup("a,b\n1,true\n0,false\n", {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, boolean}));
    EXPECT_EQ(values<std::int64_t>(t, "a"), (Ints{1, 0}));
  });
}

TEST(TableInference, QuotedNumbersAreNumbers) {
  // The quotes are the CSV's syntax, not the value's: "1" is the integer 1, as in DuckDB.
  over_every_setup("a,b\n\"1\",\"2.5\"\n\"-3\",\"1e3\"\n", {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, float64}));
    EXPECT_EQ(values<std::int64_t>(t, "a"), (Ints{1, -3}));
    EXPECT_EQ(values<double>(t, "b"), (Doubles{2.5, 1000.0}));
  });
}

TEST(TableInference, LeadingZerosSpacesAndPlusSignsAreText) {
  over_every_setup("zip,padded,plus,neg\n007,\" 1\",+1,-01\n123,2,2,2\n", {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text, text, text, text}));
    EXPECT_EQ(values<std::string_view>(t, "zip"), (Texts{"007", "123"}));
    EXPECT_EQ(values<std::string_view>(t, "padded"), (Texts{" 1", "2"}));
  });
  // Zero itself, a fraction after zero, and minus zero are numbers.
  over_every_setup("a,b\n0,0.5\n-0,-0.25\n", {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, float64}));
    EXPECT_EQ(values<std::int64_t>(t, "a"), (Ints{0, 0}));
  });
}

TEST(TableInference, InfinityAndNanAreDoublesAsTheWriterWritesThem) {
  over_every_setup("x\n1.5\ninf\n-inf\nnan\n", {}, [](const Table& t) {
    ASSERT_EQ(types(t), (std::vector{float64}));
    const ColumnView<double> x = t.column<double>("x");
    EXPECT_EQ(x[1], std::numeric_limits<double>::infinity());
    EXPECT_EQ(x[2], -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(x[3]));
  });
}

TEST(TableInference, IntegersBeyondTwoToThe53AreNotDoubles) {
  // A double holds every integer up to 2^53; beyond, the column would change values, so a
  // column mixing such integers and fractions stays text (an integer column stays int64).
  const std::string input =
      "a,b,c,d\n9007199254740992,9007199254740993,12345678901234567890123,9007199254740993\n"
      "1.5,1.5,1.5,-9007199254740993\n";
  over_every_setup(input, {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{float64, text, text, int64}));
    EXPECT_EQ(values<double>(t, "a"), (Doubles{9007199254740992.0, 1.5}));
    EXPECT_EQ(values<std::string_view>(t, "b"), (Texts{"9007199254740993", "1.5"}));
    EXPECT_EQ(values<std::int64_t>(t, "d"), (Ints{9007199254740993, -9007199254740993}));
  });
}

// ---- Empty fields ---------------------------------------------------------------------------

TEST(TableEmptyFields, AreNotValidInEveryType) {
  const std::string input = "b,i,d,t\ntrue,1,1.5,x\n,,,\nfalse,2,,y\n";
  over_every_setup(input, {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{boolean, int64, float64, text}));
    EXPECT_EQ(values<bool>(t, "b"), (Bools{true, std::nullopt, false}));
    EXPECT_EQ(values<std::int64_t>(t, "i"), (Ints{1, std::nullopt, 2}));
    EXPECT_EQ(values<double>(t, "d"), (Doubles{1.5, std::nullopt, std::nullopt}));
    EXPECT_EQ(values<std::string_view>(t, "t"), (Texts{"x", std::nullopt, "y"}));
    EXPECT_EQ(t.column("d").empty_count(), 2u);
    EXPECT_EQ(t.column("i").empty_count(), 1u);
    // An empty value reads as the type's zero through operator[].
    EXPECT_EQ(t.column<std::int64_t>("i")[1], 0);
    EXPECT_EQ(t.column<std::string_view>("t")[1], "");
    EXPECT_FALSE(t.column("t").is_valid(1));
  });
}

TEST(TableEmptyFields, AnAllEmptyColumnIsText) {
  over_every_setup("a,empty,b\n1,,x\n2,,y\n3,\"\",z\n", {}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{int64, text, text}));
    EXPECT_EQ(t.column("empty").empty_count(), 3u);
    EXPECT_EQ(values<std::string_view>(t, "empty"),
              (Texts{std::nullopt, std::nullopt, std::nullopt}));
  });
}

TEST(TableEmptyFields, ManyRowsKeepTheirValidityAcrossBitmapWords) {
  std::string input = "n,m\n";
  for (int i = 0; i < 300; ++i) input += (i % 3 == 0 ? std::string() : std::to_string(i)) + ",x\n";
  const Table t = Table::read(*testing::reader_setups().front().make(input));
  const ColumnView<std::int64_t> n = t.column<std::int64_t>("n");
  ASSERT_EQ(n.size(), 300u);
  for (std::size_t i = 0; i < 300; ++i) {
    EXPECT_EQ(n.is_valid(i), i % 3 != 0) << i;
    if (i % 3 != 0) {
      EXPECT_EQ(n[i], static_cast<std::int64_t>(i));
    }
  }
  EXPECT_EQ(t.column("n").empty_count(), 100u);
}

// ---- Widening past the sample ---------------------------------------------------------------

TEST(TableWidening, IntegerToDoubleSaysWhere) {
  over_every_setup("x,y\n1,a\n2,b\n3,c\n4.5,d\n", {.sample_rows = 2}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{float64, text}));
    EXPECT_EQ(values<double>(t, "x"), (Doubles{1.0, 2.0, 3.0, 4.5}));
    ASSERT_EQ(t.widenings().size(), 1u);
    const Widening& w = t.widenings()[0];
    EXPECT_EQ(w.column, 0u);
    EXPECT_EQ(w.name, "x");
    EXPECT_EQ(w.from, int64);
    EXPECT_EQ(w.to, float64);
    EXPECT_EQ(w.row, 3u);
    EXPECT_EQ(w.line, 5u);
    EXPECT_EQ(w.value, "4.5");
  });
}

TEST(TableWidening, EachTypeToTextKeepsEveryValueAsWritten) {
  const std::string input = "b,i,d\ntrue,1,1.50\nfalse,2,2e0\nmaybe,x,y\n";
  over_every_setup(input, {.sample_rows = 2}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text, text, text}));
    EXPECT_EQ(values<std::string_view>(t, "b"), (Texts{"true", "false", "maybe"}));
    EXPECT_EQ(values<std::string_view>(t, "i"), (Texts{"1", "2", "x"}));
    EXPECT_EQ(values<std::string_view>(t, "d"), (Texts{"1.50", "2e0", "y"}));
    ASSERT_EQ(t.widenings().size(), 3u);
    EXPECT_EQ(t.widenings()[0].from, boolean);
    EXPECT_EQ(t.widenings()[1].from, int64);
    EXPECT_EQ(t.widenings()[2].from, float64);
    for (const Widening& w : t.widenings()) {
      EXPECT_EQ(w.to, text);
      EXPECT_EQ(w.row, 2u);
      EXPECT_EQ(w.line, 4u);
    }
  });
}

TEST(TableWidening, EveryWrittenFormComesBackWhenAColumnBecomesText) {
  // What a value does not give back by itself: -0 (the integer 0, then -0.0 as a double),
  // True, a double's own spelling, a double's text longer than 255 bytes.
  const std::string long_double = "0." + std::string(300, '0') + "1";
  const std::string input =
      "i,j,b,d\n-0,-0,True,1.50\n5,2.5,FALSE,\n,,,1E2\n-7,-0,false," + long_double + "\nx,y,z,w\n";
  over_every_setup(input, {.sample_rows = 1}, [&](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text, text, text, text}));
    EXPECT_EQ(values<std::string_view>(t, "i"), (Texts{"-0", "5", std::nullopt, "-7", "x"}));
    EXPECT_EQ(values<std::string_view>(t, "j"), (Texts{"-0", "2.5", std::nullopt, "-0", "y"}));
    EXPECT_EQ(values<std::string_view>(t, "b"),
              (Texts{"True", "FALSE", std::nullopt, "false", "z"}));
    EXPECT_EQ(values<std::string_view>(t, "d"),
              (Texts{"1.50", std::nullopt, "1E2", std::string_view(long_double), "w"}));
  });
  // Before the text: the integer column that became double holds -0.0 where -0 was written.
  over_every_setup("j\n-0\n2.5\n-0\n", {.sample_rows = 1}, [](const Table& t) {
    const ColumnView<double> j = t.column<double>("j");
    ASSERT_EQ(j.size(), 3u);
    EXPECT_TRUE(std::signbit(j[0]));
    EXPECT_EQ(j[1], 2.5);
    EXPECT_TRUE(std::signbit(j[2]));
    ASSERT_EQ(t.widenings().size(), 1u);
  });
}

TEST(TableWidening, BooleanMeetingANumberBecomesText) {
  over_every_setup("b\ntrue\n1\n", {.sample_rows = 1}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text}));
    ASSERT_EQ(t.widenings().size(), 1u);
    EXPECT_EQ(t.widenings()[0].from, boolean);
    EXPECT_EQ(t.widenings()[0].to, text);
    EXPECT_EQ(t.widenings()[0].value, "1");
  });
}

TEST(TableWidening, IntegerToDoubleToTextInTwoSteps) {
  over_every_setup("x\n1\n2.5\nn/a\n", {.sample_rows = 1}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text}));
    EXPECT_EQ(values<std::string_view>(t, "x"), (Texts{"1", "2.5", "n/a"}));
    ASSERT_EQ(t.widenings().size(), 2u);
    EXPECT_EQ(t.widenings()[0].to, float64);
    EXPECT_EQ(t.widenings()[0].row, 1u);
    EXPECT_EQ(t.widenings()[1].from, float64);
    EXPECT_EQ(t.widenings()[1].to, text);
    EXPECT_EQ(t.widenings()[1].row, 2u);
  });
}

TEST(TableWidening, AnIntegerADoubleWouldChangeKeepsTheColumnText) {
  // 2^53 + 1 fits int64; the later 0.5 would make the column double, which cannot hold it.
  over_every_setup("x\n9007199254740993\n0.5\n", {.sample_rows = 1}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{text}));
    EXPECT_EQ(values<std::string_view>(t, "x"), (Texts{"9007199254740993", "0.5"}));
    ASSERT_EQ(t.widenings().size(), 2u);
    EXPECT_EQ(t.widenings()[1].row, 0u);
    EXPECT_EQ(t.widenings()[1].value, "9007199254740993");
  });
}

TEST(TableWidening, LineOfARowAfterRecordsOverSeveralLines) {
  over_every_setup("x,y\n1,\"a\nb\"\n2,c\n\n3.5,d\n", {.sample_rows = 1, .skip_empty_lines = true},
                   [](const Table& t) {
                     ASSERT_EQ(t.widenings().size(), 1u);
                     EXPECT_EQ(t.widenings()[0].row, 2u);
                     EXPECT_EQ(t.widenings()[0].line, 6u);
                   });
}

TEST(TableWidening, ASampleOfEveryRowNeverWidens) {
  over_every_setup("x\n1\n2\n3.5\n", {.sample_rows = 0}, [](const Table& t) {
    EXPECT_EQ(types(t), (std::vector{float64}));
    EXPECT_TRUE(t.widenings().empty());
  });
}

}  // namespace
}  // namespace bufstream::csv
