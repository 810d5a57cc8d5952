// Reader::parse's indexed runs (reader_index.cpp): wherever the window holds enough bytes,
// parse() takes its tokens from runs over the structural index; elsewhere, token by token.
// Both must give the same events, the same positions during every event, and the same errors
// at the same places. A window of a few bytes never holds a run, so each text is read through
// every setup and compared with one byte at a time.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "json_event_counter.hpp"
#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

// Every event with its value and the reader's positions during the call.
struct Recorder {
  Reader* reader;
  std::vector<std::string>& out;
  std::size_t throw_at = SIZE_MAX;  // throw from this event (counting from 0)

  void add(std::string event) {
    const SourcePosition p = reader->position();
    const SourcePosition t = reader->token_position();
    out.push_back(fmt::format("{} @{}:{}:{} token {}:{}:{}", event, p.line, p.column, p.offset,
                              t.line, t.column, t.offset));
    if (out.size() - 1 == throw_at) throw std::runtime_error("stop");
  }
  void null() { add("null"); }
  void boolean(bool b) { add(b ? "true" : "false"); }
  void integer(std::int64_t i) { add(fmt::format("int {}", i)); }
  void unsigned_integer(std::uint64_t u) { add(fmt::format("uint {}", u)); }
  void floating(double d) { add(fmt::format("double {}", d)); }
  void string(std::string_view s) { add(fmt::format("string {:?}", std::string(s))); }
  void key(std::string_view k) { add(fmt::format("key {:?}", std::string(k))); }
  void begin_array() { add("["); }
  void end_array() { add("]"); }
  void begin_object() { add("{"); }
  void end_object() { add("}"); }
};

struct Setup {
  std::string name;
  std::function<std::unique_ptr<ReadStream>(std::string_view)> make;
};

// The reference (one byte per window: no runs), then setups whose windows hold runs that end
// at many different places: memory (one window), and buffers over memory of several sizes.
std::vector<Setup> setups() {
  std::vector<Setup> s;
  s.push_back({"buffered1", [](std::string_view t) -> std::unique_ptr<ReadStream> {
                 return std::make_unique<BufferedReadStream>(std::make_unique<MemoryReadStream>(t),
                                                             BufferOptions{.buffer_size = 1});
               }});
  s.push_back({"memory", [](std::string_view t) -> std::unique_ptr<ReadStream> {
                 return std::make_unique<MemoryReadStream>(t);
               }});
  for (std::size_t size : {128u, 129u, 200u, 333u, 1000u, 4096u, 65536u}) {
    s.push_back({"buffered" + std::to_string(size),
                 [size](std::string_view t) -> std::unique_ptr<ReadStream> {
                   return std::make_unique<BufferedReadStream>(
                       std::make_unique<MemoryReadStream>(t), BufferOptions{.buffer_size = size});
                 }});
  }
  return s;
}

// What reading `text` (values until the end) gives: the events, then the error if any.
std::vector<std::string> read_all(ReadStream& in, const ReadOptions& options = {},
                                  std::size_t throw_at = SIZE_MAX) {
  std::vector<std::string> out;
  Reader reader(in, options);
  Recorder r{&reader, out, throw_at};
  try {
    while (!reader.at_end()) reader.parse(r);
  } catch (const ParseError& e) {
    out.push_back(std::string("error: ") + e.what());
  } catch (const std::runtime_error&) {
    const SourcePosition p = reader.position();
    out.push_back(fmt::format("stopped @{}:{}:{}", p.line, p.column, p.offset));
  }
  return out;
}

void expect_same_everywhere(const std::string& text, const ReadOptions& options = {},
                            std::size_t throw_at = SIZE_MAX) {
  const std::vector<Setup> all = setups();
  auto reference_in = all[0].make(text);
  const std::vector<std::string> reference = read_all(*reference_in, options, throw_at);
  ASSERT_FALSE(reference.empty());
  for (std::size_t i = 1; i < all.size(); ++i) {
    SCOPED_TRACE("setup " + all[i].name);
    auto in = all[i].make(text);
    EXPECT_EQ(read_all(*in, options, throw_at), reference);
  }
}

// A pretty-printed text of every kind of token, long enough for many runs and refills.
std::string long_text() {
  std::string t = "[\n";
  for (int i = 0; i < 300; ++i) {
    t += fmt::format(
        "  {{\"id\": {}, \"neg\" : -{}, \"zero\":-0, \"f\": {}.{}e-{}, \"big\": "
        "123456789012345678901234{},\n   \"s\": \"plain {}\", \"esc\": \"a\\\"b\\\\c\\n\\u00e9"
        "\\ud83d\\ude00 {}\", \"utf8\": \"h\xc3\xa9llo \xe2\x82\xac{}\",\n"
        "   \"t\": true, \"f2\": false, \"n\": null, \"e\": [], \"o\": {{}}, \"nest\": "
        "[[[{}]], {{\"k\\u0041\": [1,2 , 3]}}]}}{}\n",
        i, i * 7, i, i % 10, i % 30, i % 10, i, i, i, i, i + 1 < 300 ? "," : "");
  }
  t += "]\n  {\"second\": \"value\"}\t\r\n 42 \"last\"";
  return t;
}

TEST(JsonIndexedRuns, EventsAndPositionsAreThoseOfTheTokenReader) {
  expect_same_everywhere(long_text());
}

TEST(JsonIndexedRuns, AHandlerThatThrowsLeavesTheReaderAfterItsToken) {
  const std::string text = long_text();
  for (std::size_t at : {0u, 1u, 2u, 3u, 17u, 250u, 251u, 255u, 256u, 257u, 1000u, 4321u}) {
    SCOPED_TRACE("throw at event " + std::to_string(at));
    expect_same_everywhere(text, {}, at);
  }
}

TEST(JsonIndexedRuns, ErrorsAreTheTokenReadersAtTheSamePlace) {
  // Each after a long valid prefix (so that runs read up to it) and before a valid tail.
  const std::vector<std::string> faults{"{\"a\" 1}",
                                        "[1,]",
                                        "[1 2]",
                                        "{\"a\":1,}",
                                        "{1:2}",
                                        "\"a\x01b\"",
                                        "\"\xff\"",
                                        "\"\xc3\"",
                                        "\"\\q\"",
                                        "\"\\u12G4\"",
                                        "\"\\ud800\"",
                                        "\"\\ud800\\u0041\"",
                                        "tru",
                                        "trueX",
                                        "nul",
                                        "01",
                                        "1.",
                                        "-",
                                        "1e400",
                                        "1.5e",
                                        "]",
                                        "}",
                                        "{\"a\":1]",
                                        "[1}",
                                        "\"unterminated",
                                        "[[[[[[[[[[[[1]]]]]]]]]]]]",
                                        "\xef\xbb\xbf 1",
                                        "+1",
                                        "NaN",
                                        "\"tab\there\"",
                                        "[\"\\u0000\"]",
                                        "{\"k\": 1 \"j\": 2}"};
  std::string prefix = "[\n";
  for (int i = 0; i < 40; ++i) prefix += fmt::format("  {{\"a\": [{}, \"x\\ty\", true]}},\n", i);
  for (const std::string& fault : faults) {
    SCOPED_TRACE("fault: " + fault);
    for (const std::string& pad : {std::string(), std::string(61, ' '), std::string(100, '\n')}) {
      ReadOptions options;
      options.max_depth = 10;
      expect_same_everywhere(prefix + pad + fault + ",\n  1\n]", options);
    }
  }
}

// A run indexes its window a stretch at a time, the first 256 bytes long, each next one twice
// as long; a UTF-8 sequence cut at a stretch's end is checked with the next stretch. Characters
// of 2, 3 and 4 bytes, whole or cut, valid or not, on each side of the first two stretch ends:
// the events and the errors are the byte-at-a-time reader's.
TEST(JsonIndexedRuns, Utf8SequencesAcrossARunsStretchesAreCheckedWhole) {
  const std::vector<std::string> characters{"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
  for (const std::size_t stretch_end : {std::size_t{256}, std::size_t{256 + 512}}) {
    for (const std::string& c : characters) {
      for (std::size_t at = stretch_end - 4; at <= stretch_end + 1; ++at) {
        // The character starts `at` bytes into the text.
        SCOPED_TRACE(::testing::PrintToString(c) + " at " + std::to_string(at));
        const std::string before = "[\"" + std::string(at - 2, 'a');
        const std::string cut = c.substr(0, c.size() - 1);
        // More text after the string, so that the run has a next stretch to index.
        const std::string after = "\"," + std::string(1100, ' ') + "1]";
        for (const std::string& text :
             {before + c + after, before + cut + "(" + after, before + cut + after,
              before + "\xFF" + c + after, before + cut + "\xC3\xA9" + after}) {
          expect_same_everywhere(text);
        }
      }
    }
  }
}

// The events so far and the reader's position after each value, then the error if any.
std::vector<std::string> positions_after_values(ReadStream& in) {
  std::vector<std::string> out;
  Reader reader(in);
  // Asked for no position during a run, the reader counts the run's lines when a position is
  // asked for, over all its bytes at once.
  test::JsonEventCounter counter;
  try {
    while (!reader.at_end()) {
      reader.parse(counter);
      const SourcePosition p = reader.position();
      out.push_back(fmt::format("{} events @{}:{}:{}", counter.events, p.line, p.column, p.offset));
    }
  } catch (const ParseError& e) {
    out.push_back(std::string("error: ") + e.what());
  }
  return out;
}

// `read` of the text through every setup gives what it gives one byte at a time.
void expect_same_reads_everywhere(const std::string& text,
                                  std::vector<std::string> (*read)(ReadStream&)) {
  const std::vector<Setup> all = setups();
  auto reference_in = all[0].make(text);
  const std::vector<std::string> reference = read(*reference_in);
  for (std::size_t i = 1; i < all.size(); ++i) {
    SCOPED_TRACE("setup " + all[i].name);
    auto in = all[i].make(text);
    EXPECT_EQ(read(*in), reference);
  }
}

TEST(JsonIndexedRuns, LinesCountedAtARunsEndAreTheTokenReaders) {
  // Many short lines, then a line of some length, then a value or a fault: the last line
  // feed a run counts lies far back, and the column after it depends on where.
  std::string lines = "[\n";
  for (int i = 0; i < 2000; ++i) lines += fmt::format("  {{\"a\": [{}, \"x\", true]}},\n", i);
  for (const std::size_t long_line : {0u, 100u, 5000u, 40000u}) {
    std::string text = lines;
    while (text.size() < lines.size() + long_line) text += "1, ";
    for (const char* tail : {"2]", "2 x]", "2]\n 7 \n", "2]  [\n3,\n\n4] 5"}) {
      SCOPED_TRACE(fmt::format("long line {} tail {:?}", long_line, tail));
      expect_same_reads_everywhere(text + tail, positions_after_values);
    }
  }
}

// The runs' line feeds are counted when a position is asked for, not at each run's end (a
// run of a small value costs no count): values read by runs one after another, then a
// position, give the lines the token reader gives.
TEST(JsonIndexedRuns, LinesOfManyRunsAreCountedWhenAsked) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += fmt::format("{{\"a\": [{},\n {}]}}\n", i, i * 3);
  text += "{\"last\":\n\n  oops}";
  const auto read_then_ask = [](ReadStream& in) -> std::vector<std::string> {
    std::vector<std::string> out;
    Reader reader(in);
    test::JsonEventCounter counter;
    try {
      for (int i = 0;; ++i) {
        reader.parse(counter);
        if (i % 500 == 499) {
          const SourcePosition p = reader.position();
          out.push_back(fmt::format("@{}:{}:{}", p.line, p.column, p.offset));
        }
      }
    } catch (const ParseError& e) {
      out.push_back(std::string("error: ") + e.what());
    }
    return out;
  };
  expect_same_reads_everywhere(text, read_then_ask);
}

// A stream read around its reader (through stream()) moves the window under the runs' bytes
// whose line feeds are not counted yet: they are given up, never read where they were.
TEST(JsonIndexedRuns, AStreamReadAroundTheReaderLeavesNothingToReadBack) {
  std::string text = "[1, 2,\n 3]";
  text += std::string(5000, 'x');
  text += "\n[4]";
  MemoryReadStream source(text);
  BufferedReadStream in(source, BufferOptions{.buffer_size = 256});
  Reader reader(in);
  test::JsonEventCounter counter;
  reader.parse(counter);  // a run: its line feed is not counted yet
  in.skip(5000);          // refills: the window moves
  EXPECT_EQ(reader.position().offset, 5010U);
  reader.parse(counter);
  EXPECT_EQ(reader.position().offset, text.size());
}

// Values read in turn by parse() and by the token reader's typed read, so that a run starts
// where the token reader left the cursor, past tokens that a last run may have indexed.
std::vector<std::string> read_in_turn(ReadStream& in) {
  std::vector<std::string> out;
  Reader reader(in);
  Recorder r{&reader, out};
  try {
    for (int i = 0; !reader.at_end(); ++i) {
      if (i % 3 == 1) {
        const auto v = reader.read<std::vector<int>>();
        const SourcePosition p = reader.position();
        out.push_back(fmt::format("typed {} @{}:{}:{}", v.size(), p.line, p.column, p.offset));
      } else {
        reader.parse(r);
      }
    }
  } catch (const ParseError& e) {
    out.push_back(std::string("error: ") + e.what());
  }
  return out;
}

TEST(JsonIndexedRuns, ARunGoesOnWhereTheTokenReaderStopped) {
  std::string text;
  for (int i = 0; i < 600; ++i) {
    text += fmt::format("[{}, {}, {}]{}", i, i + 1, i + 2, i % 7 == 0 ? "\n" : " ");
  }
  for (const std::string& tail : {std::string(), std::string("[1, \"x\"]"), std::string("[1,]")}) {
    SCOPED_TRACE("tail " + tail);
    expect_same_reads_everywhere(text + tail, read_in_turn);
  }
  // Values with nothing between them, which the index holds as one run of bytes ("73true") and
  // the token reader reads one by one.
  std::string adjacent;
  for (int i = 0; i < 100; ++i) adjacent += "73true null16 \"s\"4 [5]6 1.5e3false{\"a\":7}8\n";
  expect_same_everywhere(adjacent);
}

// Values one after another (JSON Lines and the like): each run goes on with the index the last
// one left, while the window's bytes stay put (reader_index.cpp). Whatever separates the
// values, wherever the token reader stopped, and across refills, the events are the token
// reader's.
TEST(JsonIndexedRuns, ValuesOneAfterAnotherShareTheIndex) {
  const std::vector<std::string> separators{"\n", " ", "\r\n", "", "\t \n  "};
  std::string text;
  for (int i = 0; i < 400; ++i) {
    const std::string& sep = separators[static_cast<std::size_t>(i) % separators.size()];
    switch (i % 8) {
      case 0:
        text += fmt::format("{{\"i\": {}, \"s\": \"a\\\"b{}\", \"t\": [true, null]}}", i, i);
        break;
      case 1: text += fmt::format("[{}, -{}.5e3, \"x\"]", i, i); break;
      case 2: text += fmt::format("{}", i); break;  // after "", runs into the next value
      case 3: text += "true"; break;
      case 4:
        text += fmt::format("\"{}\"", std::string(static_cast<std::size_t>(100 + i), 'w'));
        break;
      case 5: text += "null"; break;
      case 6: text += fmt::format("{{\"deep\": [[[{{\"k\": {}}}]]]}}", i); break;
      case 7: text += "[]"; break;
    }
    text += sep;
  }
  for (const std::string tail : {"", "\n{\"bad\": 1,}", "\n[1, 2", "\n\"open"}) {
    SCOPED_TRACE(fmt::format("tail {:?}", tail));
    expect_same_everywhere(text + tail);
    expect_same_reads_everywhere(text + tail, read_in_turn);
  }
}

TEST(JsonIndexedRuns, TheStandardFilesGiveTheTokenReadersEvents) {
  for (const char* name : {"twitter.json", "citm_catalog.json", "canada.json"}) {
    SCOPED_TRACE(name);
    const std::string text =
        testing_support::read_file(std::filesystem::path(BUFSTREAM_JSON_FILES_DIR) / name);
    expect_same_everywhere(text);
  }
}

}  // namespace
}  // namespace bufstream::json
