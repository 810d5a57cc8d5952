// The limits of ston::Reader and ston::Writer: nesting (ReadOptions::max_depth,
// WriteOptions::max_depth), strings bounded only by memory, exact integers of any length up to
// ReadOptions::max_number_length digits, and shared graphs: many references to one object,
// and a chain of references as long as the input.
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include "limits_support.hpp"

namespace bufstream::ston {
namespace {

using testing::digits;
using testing::letters;
using testing::long_text_setups;

Document parse_with(ReadStream& in, const ReadOptions& options = {}) { return parse(in, options); }

TEST(StonLimits, NestingUpToTheDefaultDepthIsRead) {
  const std::size_t depth = ReadOptions{}.max_depth;
  const std::string text = std::string(depth, '[') + std::string(depth, ']');
  const Document doc = parse(text);
  std::size_t levels = 1;
  for (Value v = doc.root(); !v.as_list().empty(); v = v.as_list()[0]) ++levels;
  EXPECT_EQ(levels, depth);
  // Both defaults are every reader's, bufstream::default_max_depth: what the writer writes, the
  // reader reads.
  EXPECT_EQ(depth, bufstream::default_max_depth);
  EXPECT_EQ(depth, WriteOptions{}.max_depth);
  EXPECT_EQ(to_string(doc.root()), text);
}

TEST(StonLimits, NestingBeyondTheDepthIsAnErrorInEveryShape) {
  const std::size_t depth = ReadOptions{}.max_depth;
  for (const std::string_view open : {"[", "{#k:", "T[", "#a:"}) {
    SCOPED_TRACE(open);
    std::string text;
    for (std::size_t i = 0; i <= depth; ++i) text += open;
    try {
      (void)parse(text);
      FAIL() << "no error for depth " << depth + 1;
    } catch (const ParseError& e) {
      EXPECT_NE(e.message().find("nesting deeper than " + std::to_string(depth) + " levels"),
                std::string::npos)
          << e.what();
    }
  }
}

// The reader and the writer keep their open containers on stacks of their own, not the call
// stack (so do equality, copying and destruction of association chains), so raising max_depth
// cannot trade the documented error for a stack overflow. Each deep case runs in a child
// process (a death test's fork), so that a crash fails that test and nothing else. The child
// reads `text`, writes it back, copies and compares, meets both depth errors one level below
// and destroys everything; its exit code says which step went wrong (0: none).
void expect_deep_round_trip(const std::string& text, std::size_t depth) {
  EXPECT_EXIT(
      {
        int failed = 0;
        {
          const Document doc = parse(text, {.max_depth = depth});
          if (to_string(doc.root(), {.max_depth = depth}) != text) failed = 1;
          // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): the copy is the test
          const Value copy = doc.root();  // an association chain is copied deeply
          if (failed == 0 && !(copy == doc.root())) failed = 2;
          // One level less is the documented error, however deep.
          try {
            (void)parse(text, {.max_depth = depth - 1});
            if (failed == 0) failed = 3;
          } catch (const ParseError& e) {
            if (failed == 0 && e.message().find("ReadOptions::max_depth") == std::string::npos)
              failed = 4;
          }
          try {
            (void)to_string(doc.root(), {.max_depth = depth - 1});
            if (failed == 0) failed = 5;
          } catch (const UsageError& e) {
            if (failed == 0 &&
                std::string(e.what()).find("WriteOptions::max_depth") == std::string::npos) {
              failed = 6;
            }
          }
        }  // destroyed here
        std::exit(failed);
      },
      ::testing::ExitedWithCode(0), "");
}

constexpr std::size_t deep = 100000;

std::string repeated(std::string_view piece, std::size_t n) {
  std::string s;
  s.reserve(piece.size() * n);
  for (std::size_t i = 0; i < n; ++i) s += piece;
  return s;
}

TEST(StonLimits, DeepNestingWithARaisedLimitDoesNotOverflowTheStack) {
  expect_deep_round_trip(std::string(deep, '[') + std::string(deep, ']'), deep);
}

TEST(StonLimits, AHundredThousandNestedMaps) {
  expect_deep_round_trip(repeated("{#k:", deep - 1) + "{}" + std::string(deep - 1, '}'), deep);
}

TEST(StonLimits, AHundredThousandNestedTaggedObjects) {
  expect_deep_round_trip(repeated("T[", deep / 2) + repeated("U{#a:", deep / 2 - 1) + "U{}" +
                             std::string(deep / 2 - 1, '}') + std::string(deep / 2, ']'),
                         deep);
}

TEST(StonLimits, AHundredThousandLongAssociationChain) {
  // `1:2:3:...` nests to the right: a:(b:(c:...)), one level per ':'.
  std::string text;
  for (std::size_t i = 1; i <= deep; ++i) text += std::to_string(i) + ":";
  text += "0";
  expect_deep_round_trip(text, deep);
}

// Every kind of nesting in turn: a list, a map value, a tagged list, a tagged map, an
// association (a map's value may be one), with shared containers referred to from deep down.
std::string mixed_nesting(std::size_t levels) {
  static constexpr std::string_view opens[] = {"[1,", "{#k:", "P['x',", "Q{#a:#b,#c:", "#s:"};
  static constexpr std::string_view closes[] = {"]", "}", "]", "}", ""};
  std::string text;
  for (std::size_t i = 0; i < levels - 1; ++i) text += opens[i % 5];
  text += "@1";
  for (std::size_t i = levels - 1; i-- > 0;) text += closes[i % 5];
  return text;
}

TEST(StonLimits, AHundredThousandLevelsOfMixedNesting) {
  const std::string text = mixed_nesting(deep);
  expect_deep_round_trip(text, deep - 1);
}

TEST(StonLimits, TenThousandLevelsOfMixedNestingThroughEveryBuffer) {
  constexpr std::size_t levels = 10000;
  const std::string text = mixed_nesting(levels);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Document doc = parse_with(*in, {.max_depth = levels});
    EXPECT_EQ(to_string(doc.root(), {.max_depth = levels}), text);
    auto again = setup.make(text);
    try {
      (void)parse_with(*again, {.max_depth = levels - 2});
      ADD_FAILURE() << "read beyond max_depth";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "nesting deeper than " + std::to_string(levels - 2) +
                                 " levels (ReadOptions::max_depth)");
    }
  }
}

TEST(StonLimits, TheWriterRefusesNestingBeyondItsDepth) {
  Document doc;
  List root = doc.list({});
  List inner = root;
  for (std::size_t i = 0; i < bufstream::default_max_depth; ++i) {
    List next = doc.list({});
    inner.push_back(next);
    inner = next;
  }
  try {
    (void)to_string(root);
    FAIL() << "513 levels were written";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("nesting deeper than 512 levels"), std::string::npos)
        << e.what();
  }
}

TEST(StonLimits, A16MiBStringIsBoundedOnlyByMemory) {
  const std::string value = letters(testing::long_token_bytes);
  const std::string text = "['" + value + "',#" + value.substr(0, 1000) + "]";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Document doc = parse_with(*in);
    const List list = doc.root().as_list();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].as_string().size(), value.size());
    EXPECT_TRUE(list[0].as_string() == value);
    EXPECT_TRUE(list[1].as_symbol() == value.substr(0, 1000));
  }
}

TEST(StonLimits, ALongStringThroughOneByteBuffers) {
  const std::string value = letters(testing::medium_token_bytes);
  const std::string text = "{'" + value + "':\"" + value + "\"}";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Document doc = parse_with(*in);
    const Map map = doc.root().as_map();
    ASSERT_EQ(map.size(), 1u);
    EXPECT_TRUE(map.begin()->key.as_string() == value);
    EXPECT_TRUE(map.begin()->value.as_string() == value);
  }
}

TEST(StonLimits, NumbersLongerThanMaxNumberLengthAreAnError) {
  // The default limit (10,000 digits per digit group, and as exponent) keeps a hostile input
  // from asking for gigabytes; the error names the option.
  for (const std::string& text : {digits(100000), "-" + digits(100000), "1." + digits(100000),
                                  std::string("1e100000"), "1/" + digits(100000)}) {
    SCOPED_TRACE(text.substr(0, 12));
    try {
      (void)parse(text);
      FAIL() << "read";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 0u);
      EXPECT_NE(e.message().find("ReadOptions::max_number_length"), std::string::npos) << e.what();
    }
  }
}

TEST(StonLimits, AHundredThousandDigitIntegerIsExactWithARaisedLimit) {
  const ReadOptions options{.max_number_length = 100000};
  const std::string positive = digits(100000);
  const std::string text = "[" + positive + ",-" + positive + ",1e99999]";
  for (const auto& setup : long_text_setups(text.size())) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    const Document doc = parse_with(*in, options);
    const List list = doc.root().as_list();
    EXPECT_TRUE(list[0].as_integer().to_string() == positive);
    EXPECT_TRUE(list[1].as_integer().to_string() == "-" + positive);
    EXPECT_TRUE(list[2].as_integer().to_string() == "1" + std::string(99999, '0'));
    EXPECT_EQ(list[0].as_integer().to_double(), HUGE_VAL);
    EXPECT_EQ(to_string(doc.root()),
              "[" + positive + ",-" + positive + ",1" + std::string(99999, '0') + "]");
  }
}

TEST(StonLimits, AHundredThousandDigitFloatIsCorrectlyRoundedOrAnError) {
  const ReadOptions options{.max_number_length = 100000};
  EXPECT_EQ(parse("0." + std::string(100000, '3'), options).root().as_double(), 1.0 / 3.0);
  EXPECT_EQ(parse(digits(100000) + ".5e-99990", options).root().as_double(),
            1234567891.23456789123456789);
  // Beyond the double range a float is an error at its first byte, as in every reader.
  for (const std::string& text : {digits(100000) + ".0", "[1,-" + digits(400) + ".0]"}) {
    try {
      (void)parse(text, options);
      ADD_FAILURE() << "read " << text.substr(0, 8);
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "expected a number within the range of double but found " +
                                 text.substr(text[0] == '[' ? 3 : 0, 40) + "...");
      EXPECT_EQ(e.offset(), text[0] == '[' ? 3U : 0U);
    }
  }
}

TEST(StonLimits, AHundredThousandReferencesToOneObject) {
  constexpr std::size_t n = 100000;
  std::string text = "[Point[1,2]";
  for (std::size_t i = 0; i < n; ++i) text += ",@2";
  text += "]";
  const Document doc = parse(text);
  const List list = doc.root().as_list();
  ASSERT_EQ(list.size(), n + 1);
  const Tagged point = list[0].as_tagged("Point");
  for (std::size_t i = 1; i <= n; ++i) ASSERT_TRUE(list[i].as_tagged().is(point)) << i;
  EXPECT_EQ(doc.container_count(), 2u);
  EXPECT_EQ(to_string(doc.root()), text);  // written back with the same references
}

// `[[@3],[@4],...,[@N+1],[]]`: each list refers to the next one, which comes later in the text,
// so the text is two levels deep while the graph is a chain of N lists.
std::string reference_chain(std::size_t n) {
  std::string text = "[";
  for (std::size_t i = 0; i < n; ++i) text += "[@" + std::to_string(i + 3) + "],";
  return text + "[]]";
}

TEST(StonLimits, AChainOfTenThousandForwardReferencesIsRead) {
  constexpr std::size_t n = 10000;
  const Document doc = parse(reference_chain(n));
  const List root = doc.root().as_list();
  ASSERT_EQ(root.size(), n + 1);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(root[i].as_list()[0].as_list().is(root[i + 1].as_list())) << i;
  EXPECT_TRUE(root[n].as_list().empty());
  EXPECT_EQ(doc.root(), parse(reference_chain(n)).root());  // equality walks it without recursion
}

TEST(StonLimits, AReferenceChainDeeperThanTheWriterDepthIsAUsageError) {
  // The writer writes each list where it first meets it (pre-order, references only back, as
  // Pharo does), so the chain becomes nesting as deep as the chain: beyond
  // WriteOptions::max_depth that is a UsageError, never a stack overflow.
  const Document doc = parse(reference_chain(10000));
  try {
    (void)to_string(doc.root());
    FAIL() << "written";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("WriteOptions::max_depth"), std::string::npos) << e.what();
  }
  // A chain within both depths is written nested and reads back equal.
  const Document shallow = parse(reference_chain(250));
  EXPECT_EQ(parse(to_string(shallow.root())).root(), shallow.root());
  // The reader's and the writer's default depths are equal: the deepest chain the writer
  // writes by default (the root, then 511 lists) reads back with default options, and one more
  // list is a UsageError.
  const Document deepest = parse(reference_chain(510));
  const std::string text = to_string(deepest.root());
  EXPECT_EQ(parse(text).root(), deepest.root());
  EXPECT_THROW((void)to_string(parse(reference_chain(511)).root()), UsageError);
}

TEST(StonLimits, ACycleThroughEveryContainerOfADeepChainIsRead) {
  // Every list of a 10,000-list chain also refers back to the root: 10,000 cycles.
  constexpr std::size_t n = 10000;
  std::string text = "[";
  for (std::size_t i = 0; i < n; ++i) text += "[@" + std::to_string(i + 3) + ",@1],";
  text += "[@1]]";
  const Document doc = parse(text);
  const List root = doc.root().as_list();
  for (std::size_t i = 0; i <= n; ++i)
    ASSERT_TRUE(root[i].as_list().items().back().as_list().is(root)) << i;
  EXPECT_EQ(doc.root(), parse(text).root());
}

}  // namespace
}  // namespace bufstream::ston
