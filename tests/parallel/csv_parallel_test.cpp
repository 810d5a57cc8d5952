// csv::read_chunks and the parallel csv::read_rows against one csv::Reader of the whole input:
// the same records, rows and first error, whatever the chunk size and thread count, from a
// file, from memory and from streams that hand out a few bytes at a time.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/csv/parallel.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "parallel_testing.hpp"
#include "split_mix64.hpp"
#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

using testing::Outcome;

// What one reader of the whole text gives.
Outcome sequential(const std::string& text, const ParallelReadOptions& options) {
  Outcome out;
  MemoryReadStream in(text);
  try {
    Reader reader(in, options.read);
    if (options.header) reader.read_header();
    while (const Record* r = reader.next()) out.items.push_back(testing::join(r->to_strings()));
  } catch (const ParseError& e) {
    out.error = e.what();
  }
  return out;
}

// The records of each chunk, joined in input order. The rest of the input, read on the calling
// thread in order, puts its records straight into the outcome (as a program that writes them
// out would), so that those before its error count.
template <class Run>
Outcome parallel(Run run) {
  Outcome out;
  std::size_t next_index = 0;
  try {
    run(
        [&out](Reader& reader, const Chunk& chunk) {
          std::vector<std::string> records;
          std::vector<std::string>& into = chunk.rest ? out.items : records;
          while (const Record* r = reader.next()) into.push_back(testing::join(r->to_strings()));
          return records;
        },
        [&](std::vector<std::string>&& records, const Chunk& chunk) {
          EXPECT_EQ(chunk.index, next_index) << "chunks out of order";
          ++next_index;
          out.items.insert(out.items.end(), records.begin(), records.end());
        });
  } catch (const ParseError& e) {
    out.error = e.what();
  }
  return out;
}

Outcome parallel_memory(const std::string& text, const ParallelReadOptions& options) {
  MemoryReadStream in(text);
  return parallel([&](auto parse, auto take) { read_chunks(in, options, parse, take); });
}

// A random CSV text of `records` records of `fields` fields: quoted and unquoted fields, doubled
// quotes, CR, LF and CR LF inside quotes and between records, empty fields.
std::string random_csv(test::SplitMix64& random, std::size_t records, std::size_t fields,
                       bool last_line_end) {
  static const std::string plain = "ab1 ;";
  static const std::string quoted = "ab,\"\r\n ";
  static const std::string ends[] = {"\n", "\r\n", "\r"};
  std::string text;
  for (std::size_t r = 0; r < records; ++r) {
    for (std::size_t f = 0; f < fields; ++f) {
      if (f != 0) text += ',';
      const std::size_t length = random.below(5);
      if (random.below(3) == 0) {
        text += '"';
        for (std::size_t i = 0; i < length; ++i) {
          const char c = quoted[random.below(quoted.size())];
          text += c;
          if (c == '"') text += '"';
        }
        text += '"';
      } else {
        for (std::size_t i = 0; i < length; ++i) text += plain[random.below(plain.size())];
      }
    }
    if (r + 1 < records || last_line_end) text += ends[random.below(3)];
  }
  return text;
}

// A random CSV text with one byte replaced or inserted: a quote, a line end, a separator or a
// letter (malformed more often than not).
std::string damaged(test::SplitMix64& random, std::string text) {
  static const std::string bytes = "\"\n\r,x";
  if (text.empty()) return "\"";
  const std::size_t at = random.below(text.size());
  const char c = bytes[random.below(bytes.size())];
  if (random.below(2) == 0) {
    text[at] = c;
  } else {
    text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
  }
  return text;
}

// From a stream (chunks cut one after the other) and from the file mapped (chunks found by
// the workers from their pieces), at each chunk size and thread count.
void expect_same_everywhere(const std::string& text, ParallelReadOptions options,
                            const std::vector<std::size_t>& chunk_sizes) {
  const Outcome expected = sequential(text, options);
  const testing::TempFile file(text);
  for (const std::size_t chunk : chunk_sizes) {
    for (const unsigned threads : testing::thread_counts()) {
      options.parallel = {.threads = threads, .chunk_size = chunk};
      ASSERT_EQ(parallel_memory(text, options), expected)
          << "stream, chunk " << chunk << ", threads " << threads << ", text:\n"
          << testing::escaped(text);
      ASSERT_EQ(
          parallel([&](auto parse, auto take) { read_chunks(file.path(), options, parse, take); }),
          expected)
          << "file, chunk " << chunk << ", threads " << threads << ", text:\n"
          << testing::escaped(text);
    }
  }
}

TEST(CsvParallel, RandomTextsGiveTheSequentialRecordsAtEveryChunkSizeAndThreadCount) {
  test::SplitMix64 random(42);
  for (int round = 0; round < testing::rounds(12); ++round) {
    const std::string text =
        random_csv(random, 1 + random.below(12), 1 + random.below(4), random.below(2) == 0);
    expect_same_everywhere(text, {}, testing::every_size_to(text.size() + 2));
  }
}

TEST(CsvParallel, MalformedTextsGiveTheSequentialFirstError) {
  test::SplitMix64 random(7);
  for (int round = 0; round < testing::rounds(40); ++round) {
    const std::string text =
        damaged(random, random_csv(random, 2 + random.below(10), 1 + random.below(3), true));
    expect_same_everywhere(text, {}, testing::sample_sizes_to(text.size() + 2));
  }
}

TEST(CsvParallel, ReaderOptionsCarryToEveryChunk) {
  test::SplitMix64 random(3);
  for (int round = 0; round < testing::rounds(12); ++round) {
    std::string text = random_csv(random, 2 + random.below(10), 1 + random.below(3), true);
    if (round % 3 == 0) text = "\n\r\n" + text + "\n\n";  // empty lines
    if (round % 4 == 1) text = damaged(random, text);
    for (const bool header : {false, true}) {
      ParallelReadOptions options{.read = {.variable_field_count = round % 2 == 0,
                                           .skip_empty_lines = round % 3 == 0,
                                           .validate_utf8 = true,
                                           .source_name = "t.csv"},
                                  .header = header};
      expect_same_everywhere(text, options, testing::sample_sizes_to(text.size() + 2));
    }
  }
}

TEST(CsvParallel, ErrorsNameTheWholeInputsLineColumnAndOffset) {
  // Record 5 has a quote in an unquoted field, on line 6 (a quoted line break before it).
  const std::string text = "a,b\n1,2\n\"x\ny\",3\n4,5\n6,7\n8,x\"y\n9,9\n";
  ParallelReadOptions options{.read = {.source_name = "d.csv"},
                              .parallel = {.threads = 2, .chunk_size = 4}};
  const Outcome got = parallel_memory(text, options);
  ASSERT_TRUE(got.error.has_value());
  EXPECT_EQ(*got.error, sequential(text, options).error);
  EXPECT_NE(got.error->find("d.csv:7:4: record 6"), std::string::npos) << *got.error;
  EXPECT_EQ(got.items.size(), 5u);  // every record before the error, none after
}

TEST(CsvParallel, FieldCountOfTheFirstRecordHoldsInEveryChunk) {
  const std::string text = "a,b\n1,2\n3,4\n5\n6,7\n";
  ParallelReadOptions options{.parallel = {.threads = 3, .chunk_size = 1}};
  const Outcome got = parallel_memory(text, options);
  EXPECT_EQ(got, sequential(text, options));
  ASSERT_TRUE(got.error.has_value());
  EXPECT_NE(got.error->find("4:2: record 4: expected 2 fields, as in the first record"),
            std::string::npos)
      << *got.error;
}

TEST(CsvParallel, UnclosedQuoteAtTheEndIsTheSequentialError) {
  const std::string text = "a,b\n1,2\n3,\"4\n5,6\n7,8\n";
  expect_same_everywhere(text, {}, testing::every_size_to(text.size() + 2));
}

TEST(CsvParallel, LazyQuotesReadOnTheCallingThreadWithTheSameRecords) {
  const std::string text = "a,b\"c\n\"x\"y,z\n1,\"2\n";
  expect_same_everywhere(text, {.read = {.lazy_quotes = true}}, {1, 2, 5, 100});
}

TEST(CsvParallel, ByteOrderMarkIsSkippedOnlyAtTheStart) {
  const std::string text = "\xEF\xBB\xBFh\n\xEF\xBB\xBFx\ny\n";
  expect_same_everywhere(text, {}, testing::every_size_to(text.size() + 1));
}

TEST(CsvParallel, StreamsWithTinyBuffersGiveTheSameRecords) {
  test::SplitMix64 random(11);
  for (int round = 0; round < testing::rounds(6); ++round) {
    std::string text = random_csv(random, 3 + random.below(10), 1 + random.below(3), true);
    if (round % 2 == 1) text = damaged(random, text);
    const ParallelReadOptions base{.header = round % 3 == 0};
    const Outcome expected = sequential(text, base);
    for (const auto& setup : bufstream::testing::reader_setups()) {
      for (const std::size_t chunk :
           {std::size_t{1}, std::size_t{2}, std::size_t{7}, text.size()}) {
        for (const unsigned threads : {1u, 2u, 5u}) {
          ParallelReadOptions options = base;
          options.parallel = {.threads = threads, .chunk_size = chunk};
          const auto in = setup.make(text);
          const Outcome got =
              parallel([&](auto parse, auto take) { read_chunks(*in, options, parse, take); });
          ASSERT_EQ(got, expected)
              << setup.name << ", chunk " << chunk << ", threads " << threads << ", text:\n"
              << testing::escaped(text);
        }
      }
    }
  }
}

TEST(CsvParallel, FileIsReadMappedWithTheSameRecords) {
  test::SplitMix64 random(5);
  const std::string text = random_csv(random, 300, 3, true);
  const testing::TempFile file(text);
  const Outcome expected = sequential(text, {});
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{100}, std::size_t{4096}}) {
    for (const unsigned threads : {1u, 2u, 8u}) {
      const ParallelReadOptions options{.parallel = {.threads = threads, .chunk_size = chunk}};
      const Outcome got =
          parallel([&](auto parse, auto take) { read_chunks(file.path(), options, parse, take); });
      ASSERT_EQ(got, expected) << "chunk " << chunk << ", threads " << threads;
    }
  }
}

struct Trade {
  std::int64_t id = 0;
  double price = 0;
  std::string note;
  friend bool operator==(const Trade&, const Trade&) = default;
};

TEST(CsvParallel, TypedRowsAreTheSequentialRowsInOneVector) {
  std::string text = "id,price,note\n";
  for (int i = 0; i < 2000; ++i)
    text +=
        std::to_string(i) + "," + std::to_string(i * 0.5) + ",\"n\"\"" + std::to_string(i) + "\"\n";
  const testing::TempFile file(text);
  const auto schema = Schema<Trade>()
                          .field("price", &Trade::price)
                          .field("id", &Trade::id)
                          .field("note", &Trade::note);
  MemoryReadStream memory(text);
  Reader one(memory);
  const std::vector<Trade> expected = read_rows(one, schema);
  ASSERT_EQ(expected.size(), 2000u);
  for (const unsigned threads : {1u, 2u, 4u}) {
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{333}, std::size_t{1} << 20}) {
      const ParallelReadOptions options{.parallel = {.threads = threads, .chunk_size = chunk}};
      EXPECT_EQ(read_rows(file.path(), schema, options), expected);
      MemoryReadStream in(text);
      EXPECT_EQ(read_rows(in, schema, options), expected);
    }
  }
}

TEST(CsvParallel, TypedRowsReportTheSequentialConversionError) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::to_string(i) + ",1.5\n";
  text += "501,abc\n502,2\n";
  const auto schema = tuple_schema<std::tuple<int, double>>();
  std::string expected;
  try {
    MemoryReadStream memory(text);
    Reader one(memory, {.source_name = "t.csv"});
    read_rows(one, schema);
  } catch (const ParseError& e) {
    expected = e.what();
  }
  ASSERT_FALSE(expected.empty());
  for (const unsigned threads : {1u, 2u, 3u}) {
    MemoryReadStream in(text);
    try {
      read_rows(
          in, schema,
          {.read = {.source_name = "t.csv"}, .parallel = {.threads = threads, .chunk_size = 64}});
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.what(), expected);
    }
  }
}

TEST(CsvParallel, ParseThatStopsEarlyIsAUsageError) {
  MemoryReadStream in("a\nb\nc\n");
  EXPECT_THROW(read_chunks(
                   in, {.parallel = {.threads = 2, .chunk_size = 1}},
                   [](Reader&, const Chunk&) { return 0; }, [](int, const Chunk&) {}),
               UsageError);
}

TEST(CsvParallel, EmptyInputHasNoRecordsAndAHeaderIsAnError) {
  EXPECT_EQ(parallel_memory("", {}), sequential("", {}));
  EXPECT_EQ(parallel_memory("", {.header = true}), sequential("", {.header = true}));
  EXPECT_TRUE(parallel_memory("", {.header = true}).error.has_value());
}

}  // namespace
}  // namespace bufstream::csv
