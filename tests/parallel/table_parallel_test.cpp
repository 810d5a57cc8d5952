// csv::Table::read on several threads against the same read on one: the same columns, types,
// values, widenings (rows, lines and values) and first error, whatever the chunk size and
// thread count, from memory, from a file and from streams that hand out a few bytes at a time.
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/csv/table.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "parallel_testing.hpp"
#include "split_mix64.hpp"
#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

using testing::Outcome;

// A table as lines of text: the dialect, each column's name, type and values (as written back,
// "-" where not valid), and each widening.
Outcome describe(const Table& table) {
  Outcome out;
  const Dialect& d = table.dialect();
  out.items.push_back(std::string("dialect ") + d.separator + (d.header ? " header" : ""));
  for (const TableColumn& column : table.columns()) {
    std::string line = column.name() + " " + std::string(to_string(column.type())) + ":";
    for (std::size_t i = 0; i < column.size(); ++i) {
      line += ' ';
      line += column.is_valid(i) ? testing::join({column.text_of(i)}) : "-";
    }
    out.items.push_back(line);
  }
  for (const Widening& w : table.widenings()) {
    out.items.push_back("widened " + std::to_string(w.column) + " " + w.name + " " +
                        std::string(to_string(w.from)) + "->" + std::string(to_string(w.to)) +
                        " row " + std::to_string(w.row) + " line " + std::to_string(w.line) +
                        " value " + w.value);
  }
  return out;
}

template <class Read>
Outcome outcome(Read read) {
  try {
    return describe(read());
  } catch (const std::exception& e) {
    Outcome out;
    out.error = e.what();
    return out;
  }
}

Outcome one_thread(const std::string& text, TableOptions options) {
  options.parallel = {.threads = 1};
  MemoryReadStream in(text);
  return outcome([&] { return Table::read(in, options); });
}

// A value for a column of kind `kind` (0 integers, 1 doubles, 2 booleans, 3 text): mostly of
// that kind, and one time in `odd` a value that widens it (or one that a widening must give
// back as written: -0, True, 1.50).
std::string random_value(test::SplitMix64& random, int kind, std::size_t odd) {
  static const std::vector<std::string> odd_values = {
      "-0", "1.5", "2e3", "abc", "9007199254740993", "True", "1.50", "007", "-0.0", "x\"y", ""};
  if (random.below(6) == 0) return "";
  if (random.below(odd) == 0) return odd_values[random.below(odd_values.size())];
  switch (kind) {
    case 0: return std::to_string(static_cast<int>(random.below(200)) - 100);
    case 1:
      return std::to_string(static_cast<int>(random.below(200)) - 100) + "." +
             std::to_string(random.below(100));
    case 2: return random.below(2) == 0 ? "true" : "false";
    default: break;
  }
  static const std::string letters = "ab \n,";
  std::string text;
  for (std::size_t i = 0, n = 1 + random.below(4); i < n; ++i)
    text += letters[random.below(letters.size())];
  return text;
}

// A CSV of `rows` records over `kinds` columns (a header first if `header`), fields quoted
// where they must be and sometimes where they need not, CR LF or LF between records.
std::string random_table(test::SplitMix64& random, const std::vector<int>& kinds, std::size_t rows,
                         bool header, std::size_t odd) {
  std::string text;
  const auto field = [&](const std::string& value, std::size_t c) {
    if (c != 0) text += ',';
    const bool must = value.find_first_of(",\"\r\n") != std::string::npos;
    if (!must && random.below(5) != 0) {
      text += value;
      return;
    }
    text += '"';
    for (const char ch : value) text += ch == '"' ? "\"\"" : std::string(1, ch);
    text += '"';
  };
  if (header) {
    for (std::size_t c = 0; c < kinds.size(); ++c) field("c" + std::to_string(c), c);
    text += "\n";
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < kinds.size(); ++c) field(random_value(random, kinds[c], odd), c);
    text += random.below(3) == 0 ? "\r\n" : "\n";
  }
  return text;
}

std::vector<int> random_kinds(test::SplitMix64& random) {
  std::vector<int> kinds;
  for (std::size_t c = 0, n = 1 + random.below(4); c < n; ++c)
    kinds.push_back(static_cast<int>(random.below(4)));
  return kinds;
}

// From a stream (chunks cut one after the other) and from the file mapped (chunks found by the
// workers from their pieces), at each chunk size and thread count.
void expect_same_everywhere(const std::string& text, TableOptions options,
                            const std::vector<std::size_t>& chunk_sizes) {
  options.source_name = "t.csv";
  const Outcome expected = one_thread(text, options);
  const testing::TempFile file(text);
  for (const std::size_t chunk : chunk_sizes) {
    for (const unsigned threads : testing::thread_counts()) {
      options.parallel = {.threads = threads, .chunk_size = chunk};
      MemoryReadStream in(text);
      ASSERT_EQ(outcome([&] { return Table::read(in, options); }), expected)
          << "stream, chunk " << chunk << ", threads " << threads << ", text:\n"
          << testing::escaped(text);
      ASSERT_EQ(outcome([&] { return Table::read(file.path(), options); }), expected)
          << "file, chunk " << chunk << ", threads " << threads << ", text:\n"
          << testing::escaped(text);
    }
  }
}

TEST(TableParallel, RandomTablesAreTheOneThreadTablesAtEveryChunkSizeAndThreadCount) {
  test::SplitMix64 random(43);
  for (int round = 0; round < testing::rounds(16); ++round) {
    const bool header = round % 2 == 0;
    const std::string text = random_table(random, random_kinds(random), 4 + random.below(12),
                                          header, 2 + random.below(round % 4 == 0 ? 3 : 40));
    // A sample of a few rows, so that widenings fall before, at and after its end.
    const TableOptions options{.header = header, .sample_rows = 1 + random.below(6)};
    expect_same_everywhere(text, options, testing::every_size_to(text.size() + 2));
  }
}

TEST(TableParallel, EveryWideningIsReportedAtTheOneThreadRowAndLine) {
  // Integers, then a double in the fourth chunk and text in the sixth; a double column that a
  // large integer makes text; a boolean column spelled two ways, then text.
  std::string text = "i,d,b\n";
  for (int r = 0; r < 40; ++r) {
    const std::string i = r == 17 ? "2.5" : r == 29 ? "n/a" : r == 3 ? "-0" : std::to_string(r);
    const std::string d = r == 33 ? "9007199254740993" : std::to_string(r) + ".25";
    const std::string b = r == 35 ? "maybe" : r % 3 == 0 ? "True" : "false";
    text += i + "," + d + ",\"" + b + (r % 5 == 0 ? "\"\n" : "\"\r\n");
  }
  const Outcome expected = one_thread(text, {.sample_rows = 4});
  ASSERT_FALSE(expected.error.has_value());
  std::vector<std::string> widenings;
  for (const std::string& item : expected.items) {
    if (item.starts_with("widened")) widenings.push_back(item);
  }
  const std::vector<std::string> expected_widenings = {
      "widened 0 i int64->double row 17 line 19 value 2.5",
      "widened 0 i double->text row 29 line 31 value n/a",
      "widened 1 d double->text row 33 line 35 value 9007199254740993",
      "widened 2 b boolean->text row 35 line 37 value maybe"};
  EXPECT_EQ(widenings, expected_widenings);
  expect_same_everywhere(text, {.sample_rows = 4}, testing::sample_sizes_to(text.size() + 2));
  expect_same_everywhere(text, {.sample_rows = 0}, testing::sample_sizes_to(text.size() + 2));
  expect_same_everywhere(text, {.sample_rows = 100}, {1, 7, 64});
}

TEST(TableParallel, MalformedTablesGiveTheOneThreadFirstError) {
  test::SplitMix64 random(8);
  for (int round = 0; round < testing::rounds(30); ++round) {
    std::string text = random_table(random, random_kinds(random), 3 + random.below(8), true, 8);
    const std::size_t at = random.below(text.size());
    static const std::string bytes = "\"\n,x";
    text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), bytes[random.below(bytes.size())]);
    expect_same_everywhere(text, {.header = true, .sample_rows = 3},
                           testing::sample_sizes_to(text.size() + 2));
  }
}

TEST(TableParallel, GivenTypesFailAtTheOneThreadField) {
  std::string text = "a,b\n";
  for (int r = 0; r < 30; ++r) text += std::to_string(r) + "," + std::to_string(r * 2) + "\n";
  text += "7,x\n8,9\n";
  const TableOptions options{
      .header = true, .types = {ColumnType::int64, ColumnType::int64}, .source_name = "t.csv"};
  const Outcome expected = one_thread(text, options);
  ASSERT_TRUE(expected.error.has_value());
  EXPECT_NE(expected.error->find("t.csv:32:3: record 32, field 2 ('b')"), std::string::npos)
      << *expected.error;
  expect_same_everywhere(text, options, testing::sample_sizes_to(text.size() + 2));
}

TEST(TableParallel, OptionsCarryToEveryChunk) {
  const std::string text =
      "\xEF\xBB\xBF"
      "a;b\n\n1;x\n\n2\n3;\"y\nz\"\n\n";
  for (const bool variable : {false, true}) {
    const TableOptions options{.separator = ';',
                               .header = true,
                               .variable_field_count = variable,
                               .skip_empty_lines = true};
    expect_same_everywhere(text, options, testing::every_size_to(text.size() + 2));
  }
  expect_same_everywhere(text, {.separator = ';', .header = true, .lazy_quotes = true},
                         {1, 5, 100});
}

TEST(TableParallel, EmptyAndHeaderOnlyInputs) {
  for (const std::string text : {"", "\xEF\xBB\xBF", "a,b\n", "a,b", "\n\n"}) {
    for (const std::optional<bool> header : {std::optional<bool>{}, std::optional<bool>(true)}) {
      expect_same_everywhere(text, {.header = header, .skip_empty_lines = true}, {1, 2, 100});
    }
  }
}

TEST(TableParallel, StreamsWithTinyBuffersGiveTheSameTable) {
  test::SplitMix64 random(12);
  for (int round = 0; round < testing::rounds(6); ++round) {
    const std::string text =
        random_table(random, random_kinds(random), 6 + random.below(10), true, 6);
    const TableOptions base{.header = true, .sample_rows = 3, .source_name = "t.csv"};
    const Outcome expected = one_thread(text, base);
    for (const auto& setup : bufstream::testing::reader_setups()) {
      for (const std::size_t chunk :
           {std::size_t{1}, std::size_t{2}, std::size_t{7}, text.size()}) {
        for (const unsigned threads : {1u, 2u, 5u}) {
          TableOptions options = base;
          options.parallel = {.threads = threads, .chunk_size = chunk};
          const auto in = setup.make(text);
          ASSERT_EQ(outcome([&] { return Table::read(*in, options); }), expected)
              << setup.name << ", chunk " << chunk << ", threads " << threads << ", text:\n"
              << testing::escaped(text);
        }
      }
    }
  }
}

TEST(TableParallel, LargeFileInDefaultChunks) {
  // Past the default chunk size many times over, with a widening far into the file.
  std::string text = "id,price,flag,note\n";
  for (int r = 0; r < 40000; ++r) {
    text += std::to_string(r) + "," + (r == 31000 ? std::string("n/a") : std::to_string(r) + ".5") +
            "," + (r % 2 == 0 ? "true" : "false") + ",\"note " + std::to_string(r % 97) + "\"\n";
  }
  const Outcome expected = one_thread(text, {});
  ASSERT_FALSE(expected.error.has_value());
  const testing::TempFile file(text);
  for (const unsigned threads : {0u, 2u, 3u, 8u}) {
    const TableOptions options{.source_name = "t.csv", .parallel = {.threads = threads}};
    MemoryReadStream in(text);
    EXPECT_EQ(outcome([&] { return Table::read(in, options); }), expected) << threads;
    EXPECT_EQ(outcome([&] { return Table::read(file.path(), options); }), expected) << threads;
  }
}

}  // namespace
}  // namespace bufstream::csv
