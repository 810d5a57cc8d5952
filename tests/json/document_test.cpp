// json::Document: access by type, iteration, look-up and JSON Pointer, the errors that name a
// value's pointer, conversion to and from nlohmann::json, writing, and the standard benchmark
// files read through every reader setup.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <sys/resource.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "json_test_support.hpp"

#ifndef BUFSTREAM_JSON_FILES_DIR
#error "BUFSTREAM_JSON_FILES_DIR must name bench/data/json"
#endif

namespace bufstream::json {
namespace {

using testing_support::for_each_reader;

constexpr std::string_view sample = R"({
  "name": "caf\u00e9",
  "tags": ["a", "b", "c"],
  "n": {"i": -42, "u": 18446744073709551615, "big": 9223372036854775807, "d": 2.5, "z": -0},
  "flags": [true, false, null],
  "a/b": 1, "m~n": 2, "": 3,
  "dup": 1, "dup": 2,
  "nested": [[1, [2, {"deep": "yes"}]], {}],
  "empty": []
})";

// The message of the bufstream::AccessError `f` throws.
template <class F>
std::string access_error(F f) {
  try {
    f();
  } catch (const bufstream::AccessError& e) {
    return e.what();
  }
  return "no bufstream::AccessError";
}

TEST(JsonDocument, ScalarsOfEveryType) {
  const Document doc = Document::parse(sample);
  const Value root = doc.root();
  EXPECT_EQ(root.type(), Type::object);
  EXPECT_EQ(root["name"].as_string(), "caf\xc3\xa9");
  EXPECT_EQ(root["n"]["i"].type(), Type::int64);
  EXPECT_EQ(root["n"]["i"].as_int64(), -42);
  EXPECT_EQ(root["n"]["i"].as_double(), -42.0);
  EXPECT_EQ(root["n"]["u"].type(), Type::uint64);
  EXPECT_EQ(root["n"]["u"].as_uint64(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(root["n"]["big"].as_int64(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(root["n"]["big"].as_uint64(), 9223372036854775807u);
  EXPECT_EQ(root["n"]["d"].as_double(), 2.5);
  EXPECT_EQ(root["n"]["z"].type(), Type::uint64);  // "-0" is the integer 0
  EXPECT_EQ(root["n"]["z"].as_uint64(), 0u);
  EXPECT_TRUE(root["flags"][0].as_bool());
  EXPECT_FALSE(root["flags"][1].as_bool());
  EXPECT_TRUE(root["flags"][2].is_null());
  EXPECT_TRUE(root["n"]["d"].is_number());
  EXPECT_FALSE(root["name"].is_number());
}

TEST(JsonDocument, IterationInDocumentOrderAndSizes) {
  const Document doc = Document::parse(sample);
  const Value root = doc.root();
  std::vector<std::string> keys;
  for (const auto& [key, value] : root.members()) keys.emplace_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "tags", "n", "flags", "a/b", "m~n", "", "dup",
                                            "dup", "nested", "empty"}));
  EXPECT_EQ(root.size(), 11u);
  std::string tags;
  for (const Value v : root["tags"].elements()) tags += v.as_string();
  EXPECT_EQ(tags, "abc");
  EXPECT_EQ(root["tags"].size(), 3u);
  EXPECT_EQ(root["empty"].size(), 0u);
  EXPECT_EQ(root["empty"].elements().begin(), root["empty"].elements().end());
  EXPECT_EQ(root["nested"].size(), 2u);
  EXPECT_EQ(root["nested"][1].size(), 0u);
  EXPECT_EQ(root["nested"][0][1][1]["deep"].as_string(), "yes");
}

TEST(JsonDocument, DuplicateKeysAreKeptAndLookUpFindsTheLast) {
  const Document doc = Document::parse(sample);
  EXPECT_EQ(doc.root()["dup"].as_int64(), 2);
  int seen = 0;
  for (const auto& [key, value] : doc.root().members()) {
    if (key == "dup") {
      EXPECT_EQ(value.as_int64(), ++seen);
    }
  }
  EXPECT_EQ(seen, 2);
  EXPECT_FALSE(doc.root().find("absent").has_value());
  ASSERT_TRUE(doc.root().find("").has_value());
  EXPECT_EQ(doc.root().find("")->as_int64(), 3);
}

TEST(JsonDocument, JsonPointerLookUps) {
  const Document doc = Document::parse(sample);
  EXPECT_EQ(doc.at("").type(), Type::object);
  EXPECT_EQ(doc.at("/name").as_string(), "caf\xc3\xa9");
  EXPECT_EQ(doc.at("/tags/2").as_string(), "c");
  EXPECT_EQ(doc.at("/a~1b").as_int64(), 1);  // "~1" is '/'
  EXPECT_EQ(doc.at("/m~0n").as_int64(), 2);  // "~0" is '~'
  EXPECT_EQ(doc.at("/").as_int64(), 3);      // the empty key
  EXPECT_EQ(doc.at("/nested/0/1/1/deep").as_string(), "yes");
  EXPECT_EQ(doc.root()["nested"].at("/0/1/0").as_int64(), 2);  // relative to a value
  EXPECT_EQ(doc.at("/dup").as_int64(), 2);
}

TEST(JsonDocument, EveryValueKnowsItsPointer) {
  const Document doc = Document::parse(sample);
  EXPECT_EQ(doc.root().pointer(), "");
  for (const char* p : {"/name", "/tags/0", "/tags/2", "/n/z", "/a~1b", "/m~0n", "/",
                        "/nested/0/1/1", "/nested/0/1/1/deep", "/nested/1", "/empty"}) {
    EXPECT_EQ(doc.at(p).pointer(), p);
  }
  // Every value of the document, visited in order, names a pointer that leads back to it.
  std::vector<Value> pending{doc.root()};
  std::size_t visited = 0;
  while (!pending.empty()) {
    const Value v = pending.back();
    pending.pop_back();
    ++visited;
    EXPECT_EQ(doc.at(v.pointer()).pointer(), v.pointer());
    if (v.type() == Type::array) {
      for (const Value e : v.elements()) pending.push_back(e);
    } else if (v.type() == Type::object) {
      for (const auto& [key, member] : v.members()) pending.push_back(member);
    }
  }
  EXPECT_EQ(visited, 30u);
}

TEST(JsonDocument, WrongTypesAndMissingPathsNameThePointer) {
  const Document doc = Document::parse(sample);
  const Value root = doc.root();
  EXPECT_EQ(access_error([&] { root["name"].as_int64(); }),
            "json::Document: \"/name\" is a string, not an integer");
  EXPECT_EQ(access_error([&] { root["tags"].as_string(); }),
            "json::Document: \"/tags\" is an array, not a string");
  EXPECT_EQ(access_error([&] { root["flags"][2].as_bool(); }),
            "json::Document: \"/flags/2\" is null, not a boolean");
  EXPECT_EQ(access_error([&] { root["n"]["u"].as_int64(); }),
            "json::Document: \"/n/u\" is 18446744073709551615, out of the range of int64");
  EXPECT_EQ(access_error([&] { root["n"]["i"].as_uint64(); }),
            "json::Document: \"/n/i\" is -42, out of the range of uint64");
  EXPECT_EQ(access_error([&] { root["n"]["missing"]; }),
            "json::Document: \"/n\" has no member \"missing\"");
  EXPECT_EQ(access_error([&] { root["tags"][3]; }),
            "json::Document: \"/tags\" has 3 elements, no index 3");
  EXPECT_EQ(access_error([&] { doc.at("/tags/x"); }),
            "json::Document: \"/tags\" is an array; \"x\" is not an index");
  EXPECT_EQ(access_error([&] { doc.at("/tags/01"); }),
            "json::Document: \"/tags\" is an array; \"01\" is not an index");
  EXPECT_EQ(access_error([&] { doc.at("/name/first"); }),
            "json::Document: \"/name\" is a string; it has no \"first\"");
  EXPECT_EQ(access_error([&] { doc.at("/a~1b/c"); }),
            "json::Document: \"/a~1b\" is a uint64; it has no \"c\"");
  EXPECT_EQ(access_error([&] { root.as_double(); }),
            "json::Document: the root is an object, not a number");
  EXPECT_EQ(access_error([&] { root["name"].size(); }),
            "json::Document: \"/name\" is a string, not an array or an object");
  EXPECT_THROW(doc.at("name"), bufstream::UsageError);
  EXPECT_THROW(doc.at("/a~2"), bufstream::UsageError);
  EXPECT_THROW(doc.at("/a~"), bufstream::UsageError);
}

TEST(JsonDocument, ParseErrorsHavePositions) {
  testing_support::expect_parse_error([] { static_cast<void>(Document::parse("[1,\n 2,]")); },
                                      {2, 4, 7, "expected a value but found ']'"});
  testing_support::expect_parse_error([] { static_cast<void>(Document::parse("{} x")); },
                                      {1, 4, 3, "expected end of input but found 'x'"});
}

// Document::parse reads the rest of the stream and parses it itself; on anything wrong the
// error is the event reader's over the same stream, positions included, even when the stream
// did not start at its first byte (line 1's columns count from the stream's start): `input`,
// its first `skip` bytes read before, gives the document the reader's value or error.
void expect_the_event_readers(const std::string& input, std::size_t skip) {
  const ReadOptions options{.max_depth = 4, .source_name = "in.json"};
  std::optional<ParseError> from_reader;
  nlohmann::json read_value;
  try {
    MemoryReadStream in(input);
    in.skip(static_cast<std::int64_t>(skip));
    Reader reader(in, options);
    read_value = reader.read();
    reader.finish();
  } catch (const ParseError& e) {
    from_reader = e;
  }
  MemoryReadStream in(input);
  in.skip(static_cast<std::int64_t>(skip));
  if (!from_reader) {
    EXPECT_EQ(to_nlohmann(Document::parse(in, options).root()), read_value);
    return;
  }
  try {
    static_cast<void>(Document::parse(in, options));
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.position(), from_reader->position());
    EXPECT_EQ(e.message(), from_reader->message());
    EXPECT_STREQ(e.what(), from_reader->what());
  }
}

TEST(JsonDocument, ErrorsAreTheEventReadersFromAnyStartingPoint) {
  const std::vector<std::string> bad{"",
                                     "  ",
                                     "[1,]",
                                     "{\"a\":1,}",
                                     "{\"a\" 1}",
                                     "[1 2]",
                                     "[\"abc",
                                     "[\"a\\x\"]",
                                     "[\"\\ud800\"]",
                                     "[\"\\udc00\"]",
                                     "[\"\\u12g4\"]",
                                     "[\"a\tb\"]",
                                     "[\"\xc3(\"]",
                                     "[01]",
                                     "[-]",
                                     "[1.]",
                                     "[1e]",
                                     "[1x]",
                                     "[truex]",
                                     "[nul]",
                                     "[1e999]",
                                     "{}\n{}",
                                     "\xEF\xBB\xBF[1]",
                                     "[[[[[1]]]]]",
                                     "\n\n  [1,\n 2,\n ]"};
  for (const std::string& text : bad) {
    for (const std::size_t skip : {0u, 3u}) {
      SCOPED_TRACE(::testing::PrintToString(text) + " after " + std::to_string(skip));
      expect_the_event_readers(std::string(skip, ' ') + text, skip);
    }
  }
}

// The parser checks the UTF-8 of each 16 KiB stretch of its text as it indexes it: sequences
// across a stretch's end, whole and broken, and broken ones right before and after it, also
// at the text's end and after a byte-order mark (which moves the stretches).
TEST(JsonDocument, Utf8IsCheckedAcrossTheIndexersStretches) {
  constexpr std::size_t stretch = std::size_t{1} << 14;
  const std::vector<std::string> characters{"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
  for (const std::string bom : {"", "\xEF\xBB\xBF"}) {
    for (const std::string& c : characters) {
      for (std::size_t at = stretch - 4; at <= stretch + 1; ++at) {
        // The character starts `at` bytes into the text after the byte-order mark.
        const std::string before = bom + "[\"" + std::string(at - 2, 'a');
        SCOPED_TRACE(::testing::PrintToString(c) + " at " + std::to_string(at));
        const std::string whole = before + c + "\", 1]";
        EXPECT_EQ(Document::parse(whole).at("/0").as_string().substr(at - 2), c);
        expect_the_event_readers(before + c.substr(0, c.size() - 1) + "(\", 1]", 0);
        expect_the_event_readers(before + c.substr(0, c.size() - 1) + "\", 1]", 0);
        expect_the_event_readers(before + "\xFF" + c + "\", 1]", 0);
        expect_the_event_readers(before + c.substr(0, c.size() - 1), 0);
      }
    }
  }
}

// The parser indexes its text 16 KiB and 64 KiB at a time: strings, escapes, numbers and
// literals across every such boundary, through every reader setup.
TEST(JsonDocument, TokensAcrossTheIndexersStretches) {
  for (const std::size_t stretch : {std::size_t{1} << 14, std::size_t{1} << 16}) {
    for (std::size_t shift = 0; shift < 24; ++shift) {
      std::string text = "[\"" + std::string(stretch - 12 + shift, 'a') + "\", ";
      text +=
          "\"x\\\"y\\u00e9\\ud83d\\ude00\", -12345.6789e-3, true, null, {\"k\\n\": 18446744073709551615}, "
          "123456789012345678901234567890, -0]";
      const nlohmann::json expected = nlohmann::json::parse(text);
      const Document doc = Document::parse(text);
      ASSERT_EQ(to_nlohmann(doc.root()), expected) << shift;
      EXPECT_EQ(doc.at("/1").as_string(), "x\"y\u00e9\U0001F600");
      EXPECT_EQ(doc.at("/5/k\n").as_uint64(), 18446744073709551615u);
      EXPECT_EQ(doc.at("/7").as_uint64(), 0u);  // "-0" is the integer 0
    }
  }
  const std::string large = "[" + std::string(70000, ' ') + "\"\\u00e9\", 1]";
  for_each_reader(large, [&](ReadStream& in) {
    EXPECT_EQ(to_nlohmann(Document::parse(in).root()), nlohmann::json::parse(large));
  });
}

// The strings with escapes are decoded into the values' block, behind the nodes: here they
// are half the text, and plain ones between them point into the text.
TEST(JsonDocument, DecodedStringsLargerThanTheirRoom) {
  std::string text = "[";
  for (int i = 0; i < 3000; ++i) {
    text += "\"\\u00e9\\n\\t" + std::to_string(i) + "\", \"plain" + std::to_string(i) + "\", ";
  }
  text += "\"end\"]";
  const nlohmann::json expected = nlohmann::json::parse(text);
  for_each_reader(text, [&](ReadStream& in) {
    const Document doc = Document::parse(in);
    ASSERT_EQ(to_nlohmann(doc.root()), expected);
    EXPECT_EQ(doc.at("/0").as_string(), "\u00e9\n\t0");
    EXPECT_EQ(doc.at("/5999").as_string(), "plain2999");
    EXPECT_EQ(doc.at("/5998").as_string(), "\u00e9\n\t2999");
    EXPECT_EQ(doc.at("/6000").as_string(), "end");
  });
}

// The nodes and the decoded strings share one block, nodes from its front, strings from its
// back: here the nodes outgrow the room the parse reserved for them (a node every two bytes,
// four times what it expects) after the strings are in, and both move to a larger block.
TEST(JsonDocument, NodesOutgrowTheirRoomAfterDecodedStrings) {
  std::string text = "[";
  const auto letters = [](int i) { return std::string(100, static_cast<char>('a' + i % 26)); };
  for (int i = 0; i < 200; ++i) text += "\"\\u00e9 " + letters(i) + "\",";
  for (int i = 0; i < 100000; ++i) text += std::to_string(i % 10) + ",";
  text += "\"\\tend\"]";
  const nlohmann::json expected = nlohmann::json::parse(text);
  for_each_reader(text, [&](ReadStream& in) {
    const Document doc = Document::parse(in);
    ASSERT_EQ(to_nlohmann(doc.root()), expected);
    EXPECT_EQ(doc.at("/199").as_string(), "\u00e9 " + letters(199));
    EXPECT_EQ(doc.at("/100200").as_string(), "\tend");
    EXPECT_EQ(doc.node_count(), 100202u);
  });
}

// A document built value by value (a conversion) starts with an empty block: strings of every
// length from 0 to 299 bytes and nodes take turns to make it grow.
TEST(JsonDocument, ConversionGrowsTheBlockFromNothing) {
  nlohmann::json array = nlohmann::json::array();
  std::size_t string_bytes = 0;  // every string and key is in the block
  for (int i = 0; i < 3000; ++i) {
    const std::string s(static_cast<std::size_t>(i % 300), static_cast<char>('a' + i % 26));
    const std::string key = "k" + std::to_string(i);
    array.push_back(s);
    array.push_back(nlohmann::json::array({i, nlohmann::json::object({{key, i}})}));
    string_bytes += s.size() + key.size();
  }
  const Document doc = Document::from_nlohmann(array);
  ASSERT_EQ(to_nlohmann(doc.root()), array);
  EXPECT_EQ(doc.at("/5998").as_string(), std::string(299, static_cast<char>('a' + 2999 % 26)));
  EXPECT_EQ(doc.at("/5999/1/k2999").as_int64(), 2999);
  EXPECT_EQ(doc.text_bytes(), string_bytes);
}

// Documents parsed one after the other reuse the heap: after the first, a parse faults in
// almost no new page. (The text once reserved its size twice over, a block as large as the
// nodes', and glibc's free then gave both back to the system at the end of every Document:
// each parse faulted all its pages in again; so did decoded strings appended to the text,
// and, in a buffer of their own, decoded strings over a third of the text.)
// glibc only, and not under AddressSanitizer, whose allocator is another.
#if defined(__SANITIZE_ADDRESS__)
#define BUFSTREAM_TEST_GLIBC_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BUFSTREAM_TEST_GLIBC_HEAP 0
#endif
#endif
#if !defined(BUFSTREAM_TEST_GLIBC_HEAP) && defined(__GLIBC__)
#define BUFSTREAM_TEST_GLIBC_HEAP 1
#elif !defined(BUFSTREAM_TEST_GLIBC_HEAP)
#define BUFSTREAM_TEST_GLIBC_HEAP 0
#endif

#if BUFSTREAM_TEST_GLIBC_HEAP
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}
#endif

// 100,000 times `item` in an array (about 4 MB): parsed twice, then five times more, which
// must fault in fewer than 500 pages (one parse touches about 1,000 to 2,200).
void expect_parses_reuse_the_heap(const std::string& item, std::size_t nodes_each) {
#if BUFSTREAM_TEST_GLIBC_HEAP
  std::string text = "[";
  for (int i = 0; i < 100000; ++i) text += item + ",";
  text += "null]";
  std::size_t nodes = 0;
  for (int warm_up = 0; warm_up < 2; ++warm_up) nodes += Document::parse(text).node_count();
  const long before = minor_faults();
  for (int i = 0; i < 5; ++i) nodes += Document::parse(text).node_count();
  const long faults = minor_faults() - before;
  EXPECT_EQ(nodes, 7 * (100000 * nodes_each + 2));
  EXPECT_LT(faults, 500) << "page faults in five parses after the first two";
#else
  static_cast<void>(item);
  static_cast<void>(nodes_each);
  GTEST_SKIP() << "the fault count is glibc's heap's";
#endif
}

TEST(JsonDocument, ParsesInALoopReuseTheHeap) {
  // Coordinate pairs, as in canada.json: a node per 14 bytes.
  expect_parses_reuse_the_heap("[-65.613616999999977,43.420273000000009]", 3);
}

TEST(JsonDocument, ParsesInALoopReuseTheHeapWithDecodedStrings) {
  // One string in four with escapes: decoded strings a fifth of the text (twitter.json's are
  // 7% of it).
  expect_parses_reuse_the_heap(
      R"("line one\nline two\tcaf\u00e9 \"quoted\"", "a plain line, one of three in four",)"
      R"( "a plain line, two of three in four", "a plain line, three of three in four")",
      4);
}

TEST(JsonDocument, ParsesInALoopReuseTheHeapWhenEveryStringIsDecoded) {
  // Every string with escapes (as in a text whose non-ASCII letters are all escaped):
  // decoded strings three quarters of the text. 15,760 faults when they had a block of their
  // own.
  expect_parses_reuse_the_heap(R"("line one\nline two\tcaf\u00e9 \"quoted\"")", 1);
}

// A source whose size hint is wrong: one that claims a terabyte (a compressed frame can
// declare anything) and one that claims nothing is left, handing out three bytes per read.
class MisleadingSource final : public ReadStream {
 public:
  MisleadingSource(std::string_view text, std::uint64_t hint) : text_(text), hint_(hint) {}

 protected:
  bool refill(std::size_t min) override {
    if (at_ == text_.size()) return false;
    const std::size_t n = std::min<std::size_t>(std::max<std::size_t>(min, 3), text_.size() - at_);
    set_window(text_.data() + at_, text_.data() + at_ + n, n);
    at_ += n;
    return n >= min;
  }
  std::optional<std::uint64_t> source_remaining_hint() const override { return hint_; }

 private:
  std::string_view text_;
  std::uint64_t hint_;
  std::size_t at_ = 0;
};

TEST(JsonDocument, ReadsAStreamWhoseSizeHintIsWrong) {
  std::string text = "[";
  for (int i = 0; i < 30000; ++i) text += "\"item\\n\", " + std::to_string(i) + ", ";
  text += "null]";
  const nlohmann::json expected = nlohmann::json::parse(text);
  for (const std::uint64_t hint : {std::uint64_t{1} << 40, std::uint64_t{0}, std::uint64_t{10}}) {
    SCOPED_TRACE(hint);
    MisleadingSource in(text, hint);
    const Document doc = Document::parse(in);
    EXPECT_EQ(to_nlohmann(doc.root()), expected);
  }
}

TEST(JsonDocument, DepthLimit) {
  const std::string deep(5, '[');
  EXPECT_THROW(static_cast<void>(Document::parse(deep + std::string(5, ']'), {.max_depth = 4})),
               ParseError);
  EXPECT_NO_THROW(static_cast<void>(Document::parse(deep + std::string(5, ']'), {.max_depth = 5})));
}

TEST(JsonDocument, ConvertsToAndFromNlohmann) {
  const Document doc = Document::parse(sample);
  const nlohmann::json expected = nlohmann::json::parse(sample);
  EXPECT_EQ(to_nlohmann(doc.root()), expected);
  const Document back = Document::from_nlohmann(expected);
  EXPECT_EQ(to_nlohmann(back.root()), expected);
  EXPECT_EQ(back.at("/n/i").as_int64(), -42);
  EXPECT_EQ(back.at("/n/u").type(), Type::uint64);
  EXPECT_EQ(back.at("/n/big").type(), Type::uint64);
}

std::string write_compact(Value v) {
  StringWriteStream out;
  Writer w(out);
  w.value(v);
  w.finish();
  return std::string(out.view());
}

TEST(JsonDocument, WriterWritesADocumentThroughEveryBufferSize) {
  const Document doc = Document::parse(sample);
  const std::string text =
      testing_support::write_everywhere([&](Writer& w) { w.value(doc.root()); });
  EXPECT_EQ(nlohmann::json::parse(text), nlohmann::json::parse(sample));
  // A sub-value, inside other output.
  const std::string part = testing_support::write_everywhere([&](Writer& w) {
    w.begin_array().value(doc.at("/nested")).value(doc.at("/n/z")).end_array();
  });
  EXPECT_EQ(part, R"([[[1,[2,{"deep":"yes"}]],{}],0])");
  const std::string pretty = testing_support::write_everywhere(
      [&](Writer& w) { w.value(doc.at("/tags")); }, {.indent = 2});
  EXPECT_EQ(pretty, "[\n  \"a\",\n  \"b\",\n  \"c\"\n]");
}

// Strings read without escapes are copied as they are; decoded ones are escaped again; with
// ascii_only every non-ASCII byte is escaped either way.
TEST(JsonDocument, WritesStringsAsTheWriterEscapesThem) {
  const std::string text =
      "{\"\xc3\xa9\":\"a\\\"b\",\"k\":\"\xc3\xbc\",\"c\\n\":\"\\u0001\",\"d\":\"\\u00e9\"}";
  const Document doc = Document::parse(text);
  EXPECT_EQ(write_compact(doc.root()),
            "{\"\xc3\xa9\":\"a\\\"b\",\"k\":\"\xc3\xbc\",\"c\\n\":\"\\u0001\",\"d\":\"\xc3\xa9\"}");
  StringWriteStream out;
  Writer writer(out, {.ascii_only = true});
  writer.value(doc.root());
  writer.finish();
  EXPECT_EQ(out.view(),
            "{\"\\u00e9\":\"a\\\"b\",\"k\":\"\\u00fc\",\"c\\n\":\"\\u0001\",\"d\":\"\\u00e9\"}");
}

// The compact writing of a document places separators itself: it must write what the
// writer's value-by-value calls write for the same text (the event reader's events, each
// passed to the writer by json::EventWriter).
std::string write_through_events(std::string_view text, WriteOptions options = {}) {
  StringWriteStream out;
  Writer w(out, options);
  MemoryReadStream in(text);
  Reader reader(in);
  EventWriter handler(w);
  reader.parse(handler);
  reader.finish();
  w.finish();
  return std::string(out.view());
}

TEST(JsonDocument, CompactWritingIsTheWritersValueByValue) {
  const std::string long_text(300, 'x');
  const std::string shapes = "[{},[],{\"a\":[]},[{}],[[]],{\"o\":{}},[[],{}],{\"" + long_text +
                             "\":\"" + long_text + "\\n\"},\"" + long_text +
                             "\",[true,false,null,-1,18446744073709551615,0.5,-0.0,\"\"]]";
  for (const std::string& text :
       {shapes, std::string(sample), std::string("7"), std::string("\"top\""), std::string("{}")}) {
    SCOPED_TRACE(text.substr(0, 60));
    const Document doc = Document::parse(text);
    EXPECT_EQ(write_compact(doc.root()), write_through_events(text));
    EXPECT_EQ(testing_support::write_everywhere([&](Writer& w) { w.value(doc.root()); }),
              write_through_events(text));
  }
  for (const char* name : {"twitter.json", "citm_catalog.json", "canada.json"}) {
    SCOPED_TRACE(name);
    const std::string text =
        testing_support::read_file(std::filesystem::path(BUFSTREAM_JSON_FILES_DIR) / name);
    const Document doc = Document::parse(text);
    EXPECT_EQ(write_compact(doc.root()), write_through_events(text));
    StringWriteStream out;
    Writer ascii(out, {.ascii_only = true});
    ascii.value(doc.root());
    ascii.finish();
    EXPECT_EQ(out.view(), write_through_events(text, {.ascii_only = true}));
  }
}

// A document built from nlohmann may hold what JSON cannot: the writer refuses it as
// value(double) and value(string_view) do, or writes null where asked to.
TEST(JsonDocument, CompactWritingChecksWhatItCannotWrite) {
  nlohmann::json bad = nlohmann::json::array({1, std::nan(""), 2});
  const Document not_finite = Document::from_nlohmann(bad);
  EXPECT_THROW(write_compact(not_finite.root()), bufstream::UsageError);
  StringWriteStream out;
  Writer nulls(out, {.non_finite = NonFinite::write_null});
  nulls.value(not_finite.root());
  nulls.finish();
  EXPECT_EQ(out.view(), "[1,null,2]");
  const Document bad_string = Document::from_nlohmann(nlohmann::json::array({"a\xff"}));
  EXPECT_THROW(write_compact(bad_string.root()), bufstream::UsageError);
  const Document bad_key = Document::from_nlohmann(nlohmann::json::object({{"k\xc3", 1}}));
  try {
    write_compact(bad_key.root());
    ADD_FAILURE() << "an invalid key was written";
  } catch (const bufstream::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("key with"), std::string::npos) << e.what();
  }
  // Inside an object, where a key is due, a document value is misplaced.
  StringWriteStream o;
  Writer w(o);
  w.begin_object();
  EXPECT_THROW(w.value(Document::parse("[1]").root()), bufstream::UsageError);
}

// "-0" is the integer 0 (as "0" is), "-0.0" the double -0.0, as every reading API has them.
TEST(JsonDocument, MinusZeroIsTheIntegerZero) {
  const Document doc = Document::parse("[-0,-0.0,0]");
  EXPECT_EQ(doc.root()[0].type(), Type::uint64);
  EXPECT_EQ(doc.root()[0].as_uint64(), 0u);
  EXPECT_EQ(doc.root()[1].type(), Type::floating);
  EXPECT_TRUE(std::signbit(doc.root()[1].as_double()));
  EXPECT_EQ(write_compact(doc.root()), "[0,-0.0,0]");
  EXPECT_EQ(json::read<int>(doc.root()[0]), 0);
  EXPECT_EQ(json::read<unsigned>(doc.root()[0]), 0u);
  EXPECT_THROW(json::read<int>(doc.root()[1]), bufstream::AccessError);
  const auto doubles = json::read<std::vector<double>>(doc.root());
  ASSERT_EQ(doubles.size(), 3u);
  EXPECT_FALSE(std::signbit(doubles[0]));
  EXPECT_TRUE(std::signbit(doubles[1]));
  EXPECT_EQ(to_nlohmann(doc.root()), nlohmann::json::parse("[-0,-0.0,0]"));
  EXPECT_EQ(write_compact(Document::from_nlohmann(to_nlohmann(doc.root())).root()), "[0,-0.0,0]");
}

struct Numbers {
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
};
auto json_members(Numbers& n) {
  return std::make_tuple(member("i", n.i), member("u", n.u), member("d", n.d));
}
struct Pair {
  std::string name;
  std::vector<std::string> tags;
};
auto json_fields(Pair& p) { return std::tie(p.name, p.tags); }

TEST(JsonDocument, TypedReadsOfSubValues) {
  const Document doc = Document::parse(
      R"({"n":{"d":2.5,"u":7,"i":-3,"extra":[1]},"p":["x",["a","b"]],"bad":{"i":"no"}})");
  const Numbers n = read<Numbers>(doc.at("/n"));
  EXPECT_EQ(n.i, -3);
  EXPECT_EQ(n.u, 7u);
  EXPECT_EQ(n.d, 2.5);
  const Pair p = read<Pair>(doc.at("/p"));
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read<std::vector<std::string>>(doc.at("/p/1")), p.tags);
  EXPECT_EQ(read<double>(doc.at("/n/d")), 2.5);
  const std::string error = access_error([&] { read<Numbers>(doc.at("/bad")); });
  EXPECT_TRUE(
      error.starts_with("json::Document: \"/bad\" cannot be read as the type asked for: expected"))
      << error;
}

// The standard benchmark files: the document equals nlohmann's parse through every reader
// setup, and writing it compact is idempotent (compact output read and written again gives
// the same bytes).
TEST(JsonDocument, StandardFilesAgreeWithNlohmannAndRoundTrip) {
  for (const char* name : {"twitter.json", "citm_catalog.json", "canada.json"}) {
    SCOPED_TRACE(name);
    const std::string text =
        testing_support::read_file(std::filesystem::path(BUFSTREAM_JSON_FILES_DIR) / name);
    ASSERT_FALSE(text.empty());
    const nlohmann::json expected = nlohmann::json::parse(text);
    const Document doc = Document::parse(text);
    EXPECT_EQ(to_nlohmann(doc.root()), expected);
    const std::string compact = write_compact(doc.root());
    EXPECT_EQ(nlohmann::json::parse(compact), expected);
    EXPECT_EQ(write_compact(Document::parse(compact).root()), compact);
  }
  // One file through every reader setup (each token across window boundaries).
  const std::string twitter =
      testing_support::read_file(std::filesystem::path(BUFSTREAM_JSON_FILES_DIR) / "twitter.json");
  const nlohmann::json expected = nlohmann::json::parse(twitter);
  for_each_reader(twitter, [&](ReadStream& in) {
    EXPECT_EQ(to_nlohmann(Document::parse(in).root()), expected);
  });
  EXPECT_EQ(Document::parse(twitter).at("/statuses/0/user/screen_name").as_string(),
            expected["statuses"][0]["user"]["screen_name"].get<std::string>());
}

}  // namespace
}  // namespace bufstream::json
