// json::read_lines_chunks against one json::Reader of the whole input: the same values (as an
// nlohmann DOM, as events and as a json::Document) and the same first error, whatever the chunk
// size and thread count, from a file, from memory and from streams with tiny buffers.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/json.hpp>
#include <bufstream/json/document.hpp>
#include <bufstream/json/parallel.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "parallel_testing.hpp"
#include "split_mix64.hpp"
#include "test_streams.hpp"

namespace bufstream::json {
namespace {

using testing::Outcome;

enum class As { dom, events, document };

// Counts events and gathers their kinds, as one string per value.
struct EventText {
  std::string text;
  void null() { text += 'n'; }
  void boolean(bool b) { text += b ? 't' : 'f'; }
  void integer(std::int64_t i) { text += "i" + std::to_string(i); }
  void unsigned_integer(std::uint64_t u) { text += "u" + std::to_string(u); }
  void floating(double d) { text += "d" + std::to_string(d); }
  void string(std::string_view s) { text += "s" + std::string(s) + ";"; }
  void key(std::string_view k) { text += "k" + std::string(k) + ";"; }
  void begin_array() { text += '['; }
  void end_array() { text += ']'; }
  void begin_object() { text += '{'; }
  void end_object() { text += '}'; }
};

std::string read_one(Reader& reader, As as) {
  switch (as) {
    case As::dom: return reader.read().dump();
    case As::events: {
      EventText events;
      reader.parse(events);
      return events.text;
    }
    case As::document: {
      const Document doc = Document::parse_next(reader);
      StringWriteStream out;
      Writer writer(out);
      writer.value(doc.root());
      writer.finish();
      return std::string(out.view());
    }
  }
  return {};
}

Outcome sequential(const std::string& text, As as) {
  Outcome out;
  MemoryReadStream in(text);
  try {
    Reader reader(in, {.source_name = "t.jsonl"});
    while (!reader.at_end()) out.items.push_back(read_one(reader, as));
  } catch (const ParseError& e) {
    out.error = e.what();
  }
  return out;
}

template <class Run>
Outcome parallel(As as, Run run) {
  Outcome out;
  try {
    run(
        [&out, as](Reader& reader, const Chunk& chunk) {
          std::vector<std::string> values;
          std::vector<std::string>& into = chunk.rest ? out.items : values;
          while (!reader.at_end()) into.push_back(read_one(reader, as));
          return values;
        },
        [&](std::vector<std::string>&& values, const Chunk&) {
          out.items.insert(out.items.end(), values.begin(), values.end());
        });
  } catch (const ParseError& e) {
    out.error = e.what();
  }
  return out;
}

ParallelReadOptions options_for(std::size_t chunk, unsigned threads) {
  return {.read = {.source_name = "t.jsonl"},
          .parallel = {.threads = threads, .chunk_size = chunk}};
}

std::string random_value(test::SplitMix64& random, int depth) {
  switch (random.below(depth > 2 ? 5 : 7)) {
    case 0: return std::to_string(static_cast<std::int64_t>(random.next() % 2001) - 1000);
    case 1: return "1.5e" + std::to_string(random.below(5));
    case 2: return random.below(2) == 0 ? "true" : "null";
    case 3: return "\"a\\n\\u00e9 b\"";
    case 4: return "\"\"";
    case 5: {
      std::string s = "[";
      for (std::size_t i = 0, n = random.below(4); i < n; ++i)
        s += (i ? ", " : "") + random_value(random, depth + 1);
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (std::size_t i = 0, n = random.below(4); i < n; ++i)
        s += (i ? "," : "") + std::string("\"k") + std::to_string(i) +
             "\":" + random_value(random, depth + 1);
      return s + "}";
    }
  }
}

std::string random_lines(test::SplitMix64& random, std::size_t lines) {
  static const std::string ends[] = {"\n", "\r\n", " \n", "\n\n"};
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) text += random_value(random, 0) + ends[random.below(4)];
  return text;
}

std::string damaged(test::SplitMix64& random, std::string text) {
  static const std::string bytes = "\n\"{,]x\x01";
  const std::size_t at = random.below(text.size());
  text[at] = bytes[random.below(bytes.size())];
  return text;
}

void expect_same_everywhere(const std::string& text, const std::vector<std::size_t>& sizes,
                            const std::vector<As>& ways) {
  const testing::TempFile file(text);
  for (const As as : ways) {
    const Outcome expected = sequential(text, as);
    for (const std::size_t chunk : sizes) {
      for (const unsigned threads : testing::thread_counts()) {
        MemoryReadStream in(text);
        const Outcome got = parallel(as, [&](auto parse, auto take) {
          read_lines_chunks(in, options_for(chunk, threads), parse, take);
        });
        ASSERT_EQ(got, expected) << "stream, as " << static_cast<int>(as) << ", chunk " << chunk
                                 << ", threads " << threads << ", text:\n"
                                 << testing::escaped(text);
        const Outcome mapped = parallel(as, [&](auto parse, auto take) {
          read_lines_chunks(file.path(), options_for(chunk, threads), parse, take);
        });
        ASSERT_EQ(mapped, expected) << "file, as " << static_cast<int>(as) << ", chunk " << chunk
                                    << ", threads " << threads << ", text:\n"
                                    << testing::escaped(text);
      }
    }
  }
}

TEST(JsonLinesParallel, RandomLinesGiveTheSequentialValuesAtEveryChunkSizeAndThreadCount) {
  test::SplitMix64 random(1);
  for (int round = 0; round < testing::rounds(6); ++round) {
    const std::string text = random_lines(random, 1 + random.below(8));
    expect_same_everywhere(text, testing::every_size_to(text.size() + 2), {As::dom});
    expect_same_everywhere(text, testing::sample_sizes_to(text.size() + 2),
                           {As::events, As::document});
  }
}

TEST(JsonLinesParallel, MalformedLinesGiveTheSequentialFirstError) {
  test::SplitMix64 random(2);
  for (int round = 0; round < testing::rounds(30); ++round) {
    const std::string text = damaged(random, random_lines(random, 2 + random.below(8)));
    expect_same_everywhere(text, testing::sample_sizes_to(text.size() + 2),
                           {As::dom, As::events, As::document});
  }
}

TEST(JsonLinesParallel, ValueAcrossLinesIsReadAsTheSequentialReaderReadsIt) {
  const std::string text = "1\n[1,\n2]\n{\"a\":\n3}\n4\n[\n";
  expect_same_everywhere(text, testing::every_size_to(text.size() + 1),
                         {As::dom, As::events, As::document});
}

TEST(JsonLinesParallel, ErrorsNameTheWholeInputsLineColumnAndOffset) {
  const std::string text = "1\n2\n3\n[4,5]\n[6,,7]\n8\n";
  const Outcome got = parallel(As::dom, [&](auto parse, auto take) {
    MemoryReadStream in(text);
    read_lines_chunks(in, options_for(3, 2), parse, take);
  });
  EXPECT_EQ(got, sequential(text, As::dom));
  ASSERT_TRUE(got.error.has_value());
  EXPECT_NE(got.error->find("t.jsonl:5:4:"), std::string::npos) << *got.error;
  EXPECT_EQ(got.items.size(), 4u);
}

TEST(JsonLinesParallel, StreamsWithTinyBuffersGiveTheSameValues) {
  test::SplitMix64 random(4);
  for (int round = 0; round < testing::rounds(4); ++round) {
    std::string text = random_lines(random, 3 + random.below(6));
    if (round % 2 == 1) text = damaged(random, text);
    const Outcome expected = sequential(text, As::events);
    for (const auto& setup : bufstream::testing::reader_setups()) {
      for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{40}}) {
        for (const unsigned threads : {1u, 3u}) {
          const auto in = setup.make(text);
          const Outcome got = parallel(As::events, [&](auto parse, auto take) {
            read_lines_chunks(*in, options_for(chunk, threads), parse, take);
          });
          ASSERT_EQ(got, expected)
              << setup.name << ", chunk " << chunk << ", threads " << threads << ", text:\n"
              << testing::escaped(text);
        }
      }
    }
  }
}

TEST(JsonLinesParallel, FileIsReadMappedWithTheSameValues) {
  test::SplitMix64 random(6);
  const std::string text = random_lines(random, 400);
  const testing::TempFile file(text);
  const Outcome expected = sequential(text, As::document);
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{200}, std::size_t{1} << 20}) {
    for (const unsigned threads : {1u, 2u, 8u}) {
      const Outcome got = parallel(As::document, [&](auto parse, auto take) {
        read_lines_chunks(file.path(), options_for(chunk, threads), parse, take);
      });
      ASSERT_EQ(got, expected) << "chunk " << chunk << ", threads " << threads;
    }
  }
}

TEST(JsonLinesParallel, ByteOrderMarkIsSkippedOnlyAtTheStart) {
  expect_same_everywhere(
      "\xEF\xBB\xBF"
      "1\n2\n",
      testing::every_size_to(7), {As::dom});
  expect_same_everywhere(
      "1\n\xEF\xBB\xBF"
      "2\n",
      testing::every_size_to(7), {As::dom});
}

TEST(JsonLinesParallel, EmptyInputHasNoValues) {
  expect_same_everywhere("", {1, 5}, {As::dom});
  expect_same_everywhere("\n\n  \n", testing::every_size_to(6), {As::dom});
}

}  // namespace
}  // namespace bufstream::json
