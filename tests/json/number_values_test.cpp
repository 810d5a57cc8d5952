// One value for one number text, whichever API reads it: the pull reader, read_double, the
// events (token by token and through the indexed walk), the nlohmann DOM, json::Document (whole
// and value after value), and typed reads from a stream and from a document. The texts are the
// edges where the paths once differed: "-0", overflow, underflow, an upper-case exponent with
// a sign, integers one past 64 bits.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

using testing_support::for_each_reader;

// What a text reads as: an integer of one sign or the other, a double, or an error message.
using Expected = std::variant<std::uint64_t, std::int64_t, double, std::string>;

struct Case {
  std::string text;
  Expected value;
};

std::vector<Case> cases() {
  const std::string overflow = "expected a number within the range of double but found ";
  return {
      {"0", std::uint64_t{0}},
      {"-0", std::uint64_t{0}},  // the integer 0: an integer has no negative zero
      {"-0.0", -0.0},
      {"-0e0", -0.0},
      {"0.0", 0.0},
      {"1E+2", 100.0},
      {"1e400", overflow + "1e400"},
      {"-1e400", overflow + "-1e400"},
      {"0.1e-400", 0.0},
      {"-0.1e-400", -0.0},
      {"18446744073709551615", std::numeric_limits<std::uint64_t>::max()},
      {"18446744073709551616", 18446744073709551616.0},
      {"-9223372036854775808", std::numeric_limits<std::int64_t>::min()},
      {"-9223372036854775809", -9223372036854775809.0},
      {"123456789012345678901234567890", 1.2345678901234568e29},
      {"-7", std::int64_t{-7}},
      {"2.5", 2.5},
  };
}

// A number as an API gave it, to compare with the expectation bit for bit (-0.0 is not 0.0).
struct Seen {
  Expected value;
  friend bool operator==(const Seen& a, const Expected& b) {
    if (a.value.index() != b.index()) return false;
    if (const double* d = std::get_if<double>(&a.value)) {
      const double e = std::get<double>(b);
      return std::memcmp(d, &e, sizeof e) == 0;
    }
    return a.value == b;
  }
};

std::string describe(const Expected& e) {
  switch (e.index()) {
    case 0: return "uint64 " + std::to_string(std::get<0>(e));
    case 1: return "int64 " + std::to_string(std::get<1>(e));
    case 2: return fmt::format("double {}", std::get<2>(e));
    default: return "error: " + std::get<3>(e);
  }
}

Seen of(const Number& n) {
  switch (n.kind) {
    case Number::Kind::unsigned_integer: return {n.u};
    case Number::Kind::signed_integer: return {n.i};
    case Number::Kind::floating: break;
  }
  return {n.d};
}

Seen of(const nlohmann::json& j) {
  if (j.is_number_unsigned()) return {j.get<std::uint64_t>()};
  if (j.is_number_integer()) return {j.get<std::int64_t>()};
  if (j.is_number_float()) return {j.get<double>()};
  return {std::string("not a number: ") + j.dump()};
}

Seen of(const Value& v) {
  switch (v.type()) {
    case Type::uint64: return {v.as_uint64()};
    case Type::int64: return {v.as_int64()};
    case Type::floating: return {v.as_double()};
    default: return {std::string("not a number: ") + std::string(type_name(v.type()))};
  }
}

// The one number event of a parse.
struct NumberEvent {
  std::optional<Seen> seen;
  void null() {}
  void boolean(bool) {}
  void integer(std::int64_t i) { seen = Seen{i}; }
  void unsigned_integer(std::uint64_t u) { seen = Seen{u}; }
  void floating(double d) { seen = Seen{d}; }
  void string(std::string_view) {}
  void key(std::string_view) {}
  void begin_array() {}
  void end_array() {}
  void begin_object() {}
  void end_object() {}
};

// Runs `read`, which gives what it read, and holds it to the expectation: the value, or a
// ParseError with the expected message.
template <class Read>
void expect_reads(const Case& c, std::string_view api, Read read) {
  SCOPED_TRACE(std::string(api));
  try {
    const Seen seen = read();
    EXPECT_TRUE(seen == c.value) << c.text << ": " << describe(seen.value) << ", expected "
                                 << describe(c.value);
  } catch (const ParseError& e) {
    ASSERT_EQ(c.value.index(), 3u) << c.text << ": " << e.what();
    EXPECT_EQ(e.message(), std::get<std::string>(c.value));
  }
}

// Each text alone, and with room after it: a window of 128 bytes or more from the number on
// makes the reader walk the structural index (events.hpp), a short one reads token by token.
TEST(JsonNumberValues, EveryReadingApiGivesTheSameValue) {
  for (const Case& c : cases()) {
    SCOPED_TRACE("text: " + c.text);
    const std::string padded = c.text + std::string(200, ' ');
    for (const std::string& text : {c.text, padded}) {
      for_each_reader(text, [&](ReadStream& in) {
        Reader r(in);
        expect_reads(c, "read_number", [&] { return of(r.read_number()); });
      });
      for_each_reader(text, [&](ReadStream& in) {
        Reader r(in);
        expect_reads(c, "events", [&] {
          NumberEvent e;
          r.parse(e);
          return e.seen.value_or(Seen{std::string("no event")});
        });
      });
      for_each_reader(text, [&](ReadStream& in) {
        Reader r(in);
        expect_reads(c, "nlohmann", [&] { return of(r.read<nlohmann::json>()); });
      });
      for_each_reader(text, [&](ReadStream& in) {
        expect_reads(c, "document", [&] { return of(Document::parse(in).root()); });
      });
      for_each_reader(text, [&](ReadStream& in) {
        Reader r(in);
        expect_reads(c, "document parse_next", [&] { return of(Document::parse_next(r).root()); });
      });
    }
    // Inside an array, between other numbers: the indexed walk's and the document's paths.
    const std::string array = "[1," + c.text + ",2]" + std::string(200, ' ');
    for_each_reader(array, [&](ReadStream& in) {
      Reader r(in);
      expect_reads(c, "nlohmann element", [&] { return of(r.read<nlohmann::json>()[1]); });
    });
    for_each_reader(array, [&](ReadStream& in) {
      expect_reads(c, "document element", [&] { return of(Document::parse(in).root()[1]); });
    });
  }
}

// A double read gives the number's value as the nearest double: an integer's zero is 0.0.
TEST(JsonNumberValues, DoubleReadsGiveTheNearestDouble) {
  for (const Case& c : cases()) {
    SCOPED_TRACE("text: " + c.text);
    Expected as_double = c.value;
    if (const auto* u = std::get_if<std::uint64_t>(&c.value)) as_double = static_cast<double>(*u);
    if (const auto* i = std::get_if<std::int64_t>(&c.value)) as_double = static_cast<double>(*i);
    const Case d{c.text, as_double};
    for (const std::string& text : {c.text, c.text + std::string(200, ' ')}) {
      for_each_reader(text, [&](ReadStream& in) {
        Reader r(in);
        expect_reads(d, "read_double", [&] { return Seen{r.read_double()}; });
      });
      for_each_reader(text, [&](ReadStream& in) {
        expect_reads(d, "read<double>", [&] { return Seen{json::read<double>(in)}; });
      });
    }
    if (c.value.index() != 3) {
      expect_reads(d, "document read<double>",
                   [&] { return Seen{json::read<double>(Document::parse(c.text).root())}; });
    }
  }
}

// An integer read takes the integers' texts that fit, "-0" as 0 for every integer type.
TEST(JsonNumberValues, IntegerReadsTakeTheIntegersThatFit) {
  EXPECT_EQ(json::read<unsigned>(Document::parse("-0").root()), 0u);
  for (const std::string& text : {std::string("-0"), "-0" + std::string(200, ' ')}) {
    for_each_reader(text, [](ReadStream& in) { EXPECT_EQ(json::read<std::uint8_t>(in), 0u); });
    for_each_reader(text, [](ReadStream& in) { EXPECT_EQ(json::read<std::uint64_t>(in), 0u); });
    for_each_reader(text, [](ReadStream& in) { EXPECT_EQ(json::read<int>(in), 0); });
  }
  for_each_reader("[-0,-0,7]", [](ReadStream& in) {
    EXPECT_EQ(json::read<std::vector<unsigned>>(in), (std::vector<unsigned>{0, 0, 7}));
  });
  for (const std::string text : {"-0.0", "1E+2", "18446744073709551616"}) {
    SCOPED_TRACE(text);
    for_each_reader(
        text, [](ReadStream& in) { EXPECT_THROW(json::read<std::uint64_t>(in), ParseError); });
    EXPECT_THROW(json::read<std::uint64_t>(Document::parse(text).root()), bufstream::AccessError);
  }
  for_each_reader("-9223372036854775809",
                  [](ReadStream& in) { EXPECT_THROW(json::read<std::int64_t>(in), ParseError); });
}

// Written back, a number is written as the value it read as: "-0" as the integer 0.
TEST(JsonNumberValues, WrittenBackAsTheValueRead) {
  const std::string text = "[-0,-0.0,1E+2,0.1e-400,18446744073709551616,-9223372036854775809]";
  const std::string written = "[0,-0.0,100.0,0.0,18446744073709551616.0,-9223372036854775808.0]";
  StringWriteStream out;
  Writer w(out);
  w.value(Document::parse(text).root());
  w.finish();
  EXPECT_EQ(out.view(), written);
  MemoryReadStream in(text);
  Reader r(in);
  StringWriteStream out2;
  Writer w2(out2);
  EventWriter events(w2);
  r.parse(events);
  w2.finish();
  EXPECT_EQ(out2.view(), written);
}

}  // namespace
}  // namespace bufstream::json
