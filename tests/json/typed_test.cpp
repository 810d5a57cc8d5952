// Typed reading and writing: standard types, user types through json_fields / json_members /
// read_json+write_json, the benchmark's 25,000 rows, and errors for values of the wrong shape.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/json/document.hpp>

#include "data_sets/words.hpp"

#include "json_test_support.hpp"

namespace bench_like {

// The benchmark row: [i, -i, 1.0 / i, sqrt(i), words(i)].
struct Row {
  std::int64_t a = 0;
  std::int64_t b = 0;
  double c = 0;
  double d = 0;
  std::string e;
  friend bool operator==(const Row&, const Row&) = default;
};
inline auto json_fields(Row& r) { return std::tie(r.a, r.b, r.c, r.d, r.e); }

struct Person {
  std::string name;
  int born = 0;
  std::optional<std::string> note;
  std::vector<std::string> tags;
  friend bool operator==(const Person&, const Person&) = default;
};
inline auto json_members(Person& p) {
  namespace json = bufstream::json;
  return std::make_tuple(json::member("name", p.name), json::member("born", p.born),
                         json::member("note", p.note), json::member("tags", p.tags));
}

// Six members, for the order in which keys are matched (declaration order first).
struct Six {
  int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
  friend bool operator==(const Six&, const Six&) = default;
};
inline auto json_members(Six& s) {
  namespace json = bufstream::json;
  return std::make_tuple(json::member("a", s.a), json::member("b", s.b), json::member("c", s.c),
                         json::member("d", s.d), json::member("e", s.e), json::member("f", s.f));
}

// A type with its own read_json/write_json: a temperature written as {"celsius": x}.
struct Celsius {
  double degrees = 0;
};
inline void write_json(bufstream::json::Writer& w, const Celsius& c) {
  w.begin_object().member("celsius", c.degrees).end_object();
}
inline void read_json(bufstream::json::Reader& r, Celsius& c) {
  r.begin_object();
  bool seen = false;
  while (auto key = r.next_key()) {
    if (*key != "celsius") r.fail_at_token("expected the key \"celsius\" but found another");
    c.degrees = r.read_double();
    seen = true;
  }
  if (!seen) r.fail_at_token("expected the key \"celsius\" but found '}'");
}

using bufstream::bench::words;  // the benchmark's own spelling (bench/data_sets), tested there

std::vector<Row> benchmark_rows(std::int64_t count) {
  std::vector<Row> rows;
  rows.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 1; i <= count; ++i) {
    rows.push_back(
        {i, -i, 1.0 / static_cast<double>(i), std::sqrt(static_cast<double>(i)), words(i)});
  }
  return rows;
}

}  // namespace bench_like

namespace bufstream::json {
namespace {

using bench_like::Celsius;
using bench_like::Person;
using bench_like::Row;
using testing_support::expect_parse_error;
using testing_support::ExpectedError;
using testing_support::for_each_reader;
using testing_support::write_everywhere;

// Each typed read runs over every reader setup and from a json::Document's value.
template <class T>
void expect_typed(std::string_view text, const T& expected) {
  for_each_reader(text, [&](ReadStream& in) { EXPECT_EQ(json::read<T>(in), expected); });
  EXPECT_EQ(json::read<T>(Document::parse(text).root()), expected) << text;
}

// Through a Document, text that is not JSON fails to parse at the same place, and a value of
// the wrong shape is an bufstream::AccessError that says what the stream reader says.
template <class T>
void expect_typed_error(std::string_view text, const ExpectedError& error) {
  for_each_reader(text,
                  [&](ReadStream& in) { expect_parse_error([&] { json::read<T>(in); }, error); });
  std::optional<Document> doc;
  try {
    doc.emplace(Document::parse(text));
  } catch (const ParseError& e) {
    // Read without a type, the text says less about what it expected ("a value" where a
    // typed read says "a number"), but not where.
    EXPECT_EQ(e.offset(), error.offset) << text << ": " << e.what();
    EXPECT_EQ(e.line(), error.line) << text << ": " << e.what();
    EXPECT_EQ(e.column(), error.column) << text << ": " << e.what();
    return;
  }
  // The value is written compactly and read back: what was expected is the same, what was
  // found is shown as the document holds it ("1e2" is 100.0).
  const std::string expected_part = error.message.substr(0, error.message.find(" but found"));
  try {
    json::read<T>(doc->root());
    ADD_FAILURE() << "no bufstream::AccessError for " << text;
  } catch (const bufstream::AccessError& e) {
    EXPECT_NE(std::string_view(e.what()).find(expected_part), std::string_view::npos) << e.what();
  }
}

TEST(JsonTyped, Scalars) {
  expect_typed<int>(" -42 ", -42);
  expect_typed<std::uint8_t>("255", 255);
  expect_typed<std::int64_t>("-9223372036854775808", std::numeric_limits<std::int64_t>::min());
  expect_typed<std::uint64_t>("18446744073709551615", std::numeric_limits<std::uint64_t>::max());
  expect_typed<double>("0.1", 0.1);
  expect_typed<double>("7", 7.0);
  expect_typed<double>("-0", 0.0);
  expect_typed<float>("0.1", 0.1f);
  expect_typed<bool>("true", true);
  expect_typed<bool>("false", false);
  expect_typed<std::string>(R"("a\u00e9\n")", "a\xc3\xa9\n");
}

TEST(JsonTyped, StandardContainers) {
  expect_typed<std::vector<int>>("[1, 2, 3]", {1, 2, 3});
  expect_typed<std::vector<bool>>("[true,false]", {true, false});
  expect_typed<std::vector<std::vector<double>>>("[[],[1.5],[2,3]]", {{}, {1.5}, {2, 3}});
  expect_typed<std::array<int, 3>>("[1,2,3]", {1, 2, 3});
  expect_typed<std::tuple<int, std::string, bool>>(R"([1,"x",true])", {1, "x", true});
  expect_typed<std::pair<std::string, double>>(R"(["p",2])", {"p", 2.0});
  expect_typed<std::optional<int>>("null", std::nullopt);
  expect_typed<std::optional<int>>("3", 3);
  expect_typed<std::map<std::string, int>>(R"({"b":2,"a":1})", {{"a", 1}, {"b", 2}});
  expect_typed<std::unordered_map<std::string, std::vector<int>>>(R"({"k":[1],"j":[]})",
                                                                  {{"k", {1}}, {"j", {}}});
  expect_typed<std::map<std::string, std::vector<int>>>(R"({"a":[1,2],"a":[3]})", {{"a", {3}}});
  expect_typed<std::vector<std::optional<std::string>>>(R"(["a",null])", {"a", std::nullopt});
  expect_typed<nlohmann::json>(R"({"x":[1,{"y":null}]})",
                               nlohmann::json::parse(R"({"x":[1,{"y":null}]})"));
  expect_typed<std::vector<nlohmann::json>>(
      R"([1,"two",[3]])", {nlohmann::json(1), nlohmann::json("two"), nlohmann::json::array({3})});
}

TEST(JsonTyped, ReadingReplacesWhatTheTargetHeld) {
  MemoryReadStream in("[4,5] {\"n\":1}");
  Reader r(in);
  std::vector<int> v{1, 2, 3};
  r.read(v);
  EXPECT_EQ(v, (std::vector<int>{4, 5}));
  std::map<std::string, int> m{{"old", 0}};
  r.read(m);
  EXPECT_EQ(m, (std::map<std::string, int>{{"n", 1}}));
}

TEST(JsonTyped, StructAsArrayOfFields) {
  const Row row{1, -1, 1.0, 1.0, "one"};
  EXPECT_EQ(write_everywhere([&](Writer& w) { w.value(row); }), R"([1,-1,1.0,1.0,"one"])");
  expect_typed<Row>(R"( [ 1 , -1 , 1.0 , 1.0 , "one" ] )", row);
  expect_typed<std::vector<Row>>(R"([[1,-1,1.0,1.0,"one"],[2,-2,0.5,1.4142135623730951,"two"]])",
                                 {row, Row{2, -2, 0.5, std::sqrt(2.0), "two"}});
}

TEST(JsonTyped, StructAsObjectOfMembers) {
  const Person ada{"Ada", 1815, std::nullopt, {"math"}};
  EXPECT_EQ(write_everywhere([&](Writer& w) { w.value(ada); }),
            R"({"name":"Ada","born":1815,"note":null,"tags":["math"]})");
  // Any order; unknown keys skipped; a missing optional member is reset; last key wins.
  expect_typed<Person>(
      R"({"tags":["math"],"extra":{"deep":[1,2]},"born":1,"name":"Ada","born":1815})", ada);
  expect_typed<Person>(R"({"name":"Bo","born":2000,"tags":[],"note":"n"})",
                       Person{"Bo", 2000, "n", {}});
  expect_typed_error<Person>(
      R"({"name":"Ada","tags":[]})",
      {1, 24, 23, "expected member \"born\" but found the end of the object"});
}

TEST(JsonTyped, MembersInAnyOrder) {
  using bench_like::Six;
  const Six six{1, 2, 3, 4, 5, 6};
  expect_typed<Six>(R"({"a":1,"b":2,"c":3,"d":4,"e":5,"f":6})", six);  // declaration order
  expect_typed<Six>(R"({"f":6,"e":5,"d":4,"c":3,"b":2,"a":1})", six);  // reversed
  expect_typed<Six>(R"({"c":3,"d":4,"a":1,"x":0,"b":2,"f":6,"e":5,"y":[1]})",
                    six);  // mixed, unknown keys
  expect_typed<Six>(R"({"a":9,"b":2,"c":3,"a":1,"b":2,"d":4,"e":5,"f":6})",
                    six);  // repeated: last wins
  expect_typed<std::vector<Six>>(
      R"([{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6},{"f":6,"a":1,"b":2,"c":3,"d":4,"e":5}])",
      std::vector<Six>{six, six});
  expect_typed_error<Six>(R"({"a":1,"b":2,"c":3,"e":5,"f":6})",
                          {1, 31, 30, "expected member \"d\" but found the end of the object"});
}

TEST(JsonTyped, UserReadJsonAndWriteJson) {
  EXPECT_EQ(write_everywhere([](Writer& w) { w.value(std::vector<Celsius>{{21.5}}); }),
            R"([{"celsius":21.5}])");
  for_each_reader(R"([{"celsius": -4}])", [](ReadStream& in) {
    const auto v = json::read<std::vector<Celsius>>(in);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].degrees, -4.0);
  });
  expect_typed_error<Celsius>(R"({"kelvin": 3})",
                              {1, 2, 1, "expected the key \"celsius\" but found another"});
}

TEST(JsonTyped, WrongShapesAreErrorsAtTheValue) {
  expect_typed_error<int>(
      "1.5", {1, 1, 0, "expected an integer from -2147483648 to 2147483647 but found 1.5"});
  expect_typed_error<int>("[3000000000]", {1, 1, 0, "expected a number but found '['"});
  expect_typed_error<std::vector<int>>(
      " [3000000000]",
      {1, 3, 2, "expected an integer from -2147483648 to 2147483647 but found 3000000000"});
  expect_typed_error<std::uint8_t>("256",
                                   {1, 1, 0, "expected an integer from 0 to 255 but found 256"});
  expect_typed_error<unsigned>("-1",
                               {1, 1, 0, "expected an integer from 0 to 4294967295 but found -1"});
  expect_typed_error<std::int64_t>(
      "1e2",
      {1, 1, 0,
       "expected an integer from -9223372036854775808 to 9223372036854775807 but found 1e2"});
  expect_typed_error<float>(
      "1e300", {1, 1, 0, "expected a number within the range of float but found one beyond it"});
  expect_typed_error<std::string>("5", {1, 1, 0, "expected a string but found '5'"});
  expect_typed_error<bool>("1", {1, 1, 0, "expected true or false but found '1'"});
  expect_typed_error<double>("\"1\"", {1, 1, 0, "expected a number but found '\"'"});
  expect_typed_error<std::vector<int>>("{}", {1, 1, 0, "expected '[' but found '{'"});
  expect_typed_error<std::map<std::string, int>>("[]", {1, 1, 0, "expected '{' but found '['"});
  expect_typed_error<Row>("[1,2,3]", {1, 7, 6, "expected an array of 5 elements but found 3"});
  expect_typed_error<Row>(R"([1,-1,1.0,1.0,"one",6])",
                          {1, 20, 19, "expected an array of 5 elements but found more"});
  expect_typed_error<Row>(R"([1,-1,1.0,1.0,2])", {1, 15, 14, "expected a string but found '2'"});
  expect_typed_error<std::optional<int>>("nil", {1, 2, 1, "expected 'null' but found 'i'"});
  expect_typed_error<std::vector<int>>("[1,2] x", {1, 7, 6, "expected end of input but found 'x'"});
}

// The typed readers' fast paths (an integer or a fraction lying in the window) and the general
// path behind them give what std::from_chars gives for the same text, alone, between spaces
// and as array elements, over every reader setup (so also across window edges); integers out
// of the type's range are errors at the number.
template <class T>
void expect_integer_as_from_chars(const std::string& text) {
  T expected{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), expected);
  const bool fits = ec == std::errc() && end == text.data() + text.size();
  // (Padded, so that in a whole-input window every number has a word of bytes after it.)
  const std::string padding(16, ' ');
  for (const std::string& doc : {text, " " + text + " ", "[" + text + ",\n" + text + "]",
                                 text + padding, "[" + text + "," + text + "]" + padding}) {
    SCOPED_TRACE(doc);
    for_each_reader(doc, [&](ReadStream& in) {
      try {
        const std::vector<T> values =
            doc[0] == '[' ? json::read<std::vector<T>>(in) : std::vector<T>{json::read<T>(in)};
        EXPECT_TRUE(fits) << "read " << +values[0];
        for (T v : values) EXPECT_EQ(v, expected);
      } catch (const ParseError& e) {
        EXPECT_FALSE(fits) << e.what();
        EXPECT_EQ(e.message().rfind("expected an integer from ", 0), 0u) << e.what();
        EXPECT_EQ(e.offset(), doc[0] == '[' || doc[0] == ' ' ? 1u : 0u) << e.what();
      }
    });
  }
}

TEST(JsonTyped, NumbersOnEveryPathAsFromCharsReadsThem) {
  const std::vector<std::string> integers = {"0",
                                             "7",
                                             "-7",
                                             "12345678",
                                             "123456789",
                                             "-99999999",
                                             "255",
                                             "256",
                                             "-128",
                                             "-129",
                                             "4294967295",
                                             "4294967296",
                                             "-2147483648",
                                             "-2147483649",
                                             "2147483647",
                                             "2147483648",
                                             "9223372036854775807",
                                             "-9223372036854775808",
                                             "9223372036854775808",
                                             "-9223372036854775809",
                                             "18446744073709551615",
                                             "18446744073709551616",
                                             "1234567890123456789",
                                             "12345678901234567890",
                                             "-12345678901234567890"};
  for (const std::string& text : integers) {
    expect_integer_as_from_chars<std::int64_t>(text);
    expect_integer_as_from_chars<std::uint64_t>(text);
    expect_integer_as_from_chars<int>(text);
    expect_integer_as_from_chars<unsigned>(text);
    expect_integer_as_from_chars<std::int8_t>(text);
    expect_integer_as_from_chars<std::uint8_t>(text);
  }
  // Not integers, or not JSON, with bytes enough after them for every path.
  expect_typed_error<std::vector<int>>(
      "[1.5,2]          ",
      {1, 2, 1, "expected an integer from -2147483648 to 2147483647 but found 1.5"});
  expect_typed_error<std::vector<int>>(
      "[1e5,2]          ",
      {1, 2, 1, "expected an integer from -2147483648 to 2147483647 but found 1e5"});
  expect_typed_error<std::vector<int>>(
      "[1E5,2]          ",
      {1, 2, 1, "expected an integer from -2147483648 to 2147483647 but found 1E5"});
  expect_typed_error<std::vector<int>>(
      "[01,2]           ",
      {1, 3, 2, "expected '.', 'e' or the end of the number after a leading 0 but found '1'"});
  expect_typed_error<std::vector<int>>(
      "[-01,2]          ",
      {1, 4, 3, "expected '.', 'e' or the end of the number after a leading 0 but found '1'"});
  expect_typed_error<std::vector<int>>("[1234567x]       ",
                                       {1, 9, 8, "expected ',' or ']' but found 'x'"});
  expect_typed_error<std::vector<int>>("[-]              ",
                                       {1, 3, 2, "expected a digit after '-' but found ']'"});
  expect_typed<std::vector<int>>("[1234567,-1234567,0,7]          ", {1234567, -1234567, 0, 7});
  // "-0" is the integer 0 (an integer has no negative zero), for every integer type.
  expect_typed<std::int64_t>("-0", 0);
  expect_typed<std::vector<int>>("[-0]", {0});
  expect_typed<unsigned>("-0", 0);
  expect_typed<std::uint8_t>(" -0", 0);
  expect_typed<std::vector<unsigned>>("[-0,1]         ", {0, 1});
  expect_typed_error<std::uint8_t>("-1",
                                   {1, 1, 0, "expected an integer from 0 to 255 but found -1"});

  const std::vector<std::string> reals = {"0.5",
                                          "-0.5",
                                          "0.1",
                                          "0.000123",
                                          "-0.0",
                                          "-0",
                                          "1.7320508075688772",
                                          "0.3333333333333333",
                                          "158.11388300841898",
                                          "4e-05",
                                          "1E+2",
                                          "1e-7",
                                          "-2.5e-3",
                                          "1.0",
                                          "100.0",
                                          "7",
                                          "-7",
                                          "123456789012345678.5",
                                          "0.00000000000000000000001234567890123456789",
                                          "12345678901234567890",
                                          "1e308",
                                          "2.2250738585072014e-308",
                                          "5e-324",
                                          "0e0",
                                          "0.0e-5",
                                          "9007199254740993",
                                          "1.00000000000000011102230246251565404236316680908203125",
                                          "-9223372036854775809"};
  for (const std::string& text : reals) {
    double expected = 0;
    std::from_chars(text.data(), text.data() + text.size(), expected);
    expect_typed<double>(text, expected);
    expect_typed<std::vector<double>>("[" + text + ", " + text + "]", {expected, expected});
    expect_typed<std::vector<double>>("[" + text + "," + text + "]" + std::string(40, ' '),
                                      {expected, expected});
    const bool negative = text[0] == '-' && text != "-0";  // "-0" is the integer 0
    for_each_reader(text, [&](ReadStream& in) {
      EXPECT_EQ(std::signbit(json::read<double>(in)), negative) << text;
    });
  }
}

// Doubles in the shapes the typed reader's word-at-a-time path takes (up to 7 integer, 15
// fraction and 3 exponent digits) and just beyond them, printed in every notation, with
// room after them and without: read as std::from_chars reads them (but for "-0", which is the
// integer 0, so 0.0: docs/ARCHITECTURE.md, "Numbers").
TEST(JsonTyped, DoublesOfEveryShapeAsFromCharsReadsThem) {
  std::mt19937_64 rng(0x5EED);
  const auto below = [&rng](std::uint64_t n) {
    return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
  };
  std::string doc = "[";
  std::vector<double> expected;
  const auto add = [&](const std::string& text) {
    double d = 0;
    std::from_chars(text.data(), text.data() + text.size(), d);
    if (text == "-0") d = 0.0;
    doc += (expected.empty() ? "" : ",") + text;
    expected.push_back(d);
  };
  for (int i = 0; i < 20000; ++i) {
    const double magnitude = std::pow(10.0, static_cast<double>(below(40)) - 20.0);
    const double d = magnitude * static_cast<double>(rng() >> 11) / 9007199254740992.0;
    char buf[64];
    add(std::string(buf, std::to_chars(buf, buf + sizeof buf, d).ptr));
    const int precision = static_cast<int>(below(18));
    add(std::string(
        buf, std::to_chars(buf, buf + sizeof buf, -d, std::chars_format::fixed, precision).ptr));
    add(std::string(
        buf,
        std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, precision).ptr));
  }
  for (const char* text : {"1234567.123456789012345",
                           "12345678.5",
                           "0.123456789012345",
                           "0.1234567890123456",
                           "1.5e999",
                           "1.5e-999",
                           "1e308",
                           "9.5e-320",
                           "1234567.1234567890123e-5",
                           "0.000000000000001",
                           "7E+1",
                           "7e-0",
                           "0.1234567890123456789",
                           "0.12345678901234567891",
                           "1.234567890123456789",
                           "12.34567890123456789",
                           "123.4567890123456789",
                           "1234.5678901234567890",
                           "0.16666666666666666",
                           "9999999.999999999999e-307",
                           "1.00000000000000000000e5",
                           "0.00011111111111111112",
                           "0.00000123456789012345678",
                           "0.000000001234567890123456",
                           "0.00000000000000000000001",
                           "0.1234567890123456789012345",
                           "0.00001234567890123456789e3"}) {
    if (std::string_view(text) == "1.5e999") continue;  // beyond the double range: an error
    add(text);
  }
  doc += "]";
  for_each_reader(doc + std::string(40, ' '), [&](ReadStream& in) {
    const auto values = json::read<std::vector<double>>(in);
    ASSERT_EQ(values.size(), expected.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(values[i]), std::bit_cast<std::uint64_t>(expected[i]))
          << i;
    }
  });
}

TEST(JsonTyped, MalformedDoublesWithRoomAfterThem) {
  const std::string room(40, ' ');
  expect_typed_error<std::vector<double>>("[1.]" + room,
                                          {1, 4, 3, "expected a digit after '.' but found ']'"});
  expect_typed_error<std::vector<double>>("[1.e5]" + room,
                                          {1, 4, 3, "expected a digit after '.' but found 'e'"});
  expect_typed_error<std::vector<double>>(
      "[1e]" + room, {1, 4, 3, "expected '+', '-' or a digit in the exponent but found ']'"});
  expect_typed_error<std::vector<double>>(
      "[1.5e+]" + room, {1, 7, 6, "expected a digit in the exponent but found ']'"});
  expect_typed_error<std::vector<double>>(
      "[01.5]" + room,
      {1, 3, 2, "expected '.', 'e' or the end of the number after a leading 0 but found '1'"});
  expect_typed_error<std::vector<double>>("[-.5]" + room,
                                          {1, 3, 2, "expected a digit after '-' but found '.'"});
  expect_typed_error<std::vector<double>>("[.5]" + room,
                                          {1, 2, 1, "expected a number but found '.'"});
  expect_typed_error<std::vector<double>>(
      "[1.5e999]" + room,
      {1, 2, 1, "expected a number within the range of double but found 1.5e999"});
  expect_typed_error<std::vector<double>>("[1.5x]" + room,
                                          {1, 5, 4, "expected ',' or ']' but found 'x'"});
}

// ---- The benchmark's data ------------------------------------------------------------------

TEST(JsonTyped, BenchmarkRowsWrittenAndReadBackExactly) {
  const std::vector<Row> rows = bench_like::benchmark_rows(25000);
  StringWriteStream out;
  {
    BufferedWriteStream buffered(out);
    json::write(buffered, rows);
  }
  const std::string text = out.take();
  EXPECT_TRUE(text.starts_with(R"([[1,-1,1.0,1.0,"one"],[2,-2,0.5,1.4142135623730951,"two"],)"))
      << text.substr(0, 80);
  EXPECT_TRUE(text.ends_with(R"([25000,-25000,4e-05,158.11388300841898,"twenty-five thousand"]])"))
      << text.substr(text.size() - 80);

  // Typed, over every reader setup.
  for_each_reader(text, [&](ReadStream& in) { EXPECT_EQ(json::read<std::vector<Row>>(in), rows); });

  // DOM: the same value nlohmann reads, and the same rows.
  MemoryReadStream in(text);
  const nlohmann::json doc = json::read(in);
  EXPECT_EQ(doc, nlohmann::json::parse(text));
  ASSERT_EQ(doc.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); i += 997) {
    EXPECT_EQ(doc[i][0].get<std::int64_t>(), rows[i].a);
    EXPECT_EQ(doc[i][2].get<double>(), rows[i].c);
    EXPECT_EQ(doc[i][3].get<double>(), rows[i].d);
    EXPECT_EQ(doc[i][4].get<std::string>(), rows[i].e);
  }

  // And the DOM written back gives the same text (nlohmann keeps the array order).
  StringWriteStream again;
  json::write(again, doc);
  EXPECT_EQ(again.view(), text);
}

TEST(JsonTyped, BenchmarkRowsStreamedRowByRow) {
  // The writer's and reader's streaming APIs, for programs that never hold all rows.
  const std::vector<Row> rows = bench_like::benchmark_rows(300);
  const std::string text = write_everywhere([&](Writer& w) {
    w.begin_array();
    for (const Row& row : rows) w.value(row);
    w.end_array();
  });
  for_each_reader(text, [&](ReadStream& in) {
    Reader r(in);
    r.begin_array();
    Row row;
    std::size_t i = 0;
    while (r.next_element()) {
      r.read(row);
      ASSERT_LT(i, rows.size());
      EXPECT_EQ(row, rows[i++]);
    }
    r.finish();
    EXPECT_EQ(i, rows.size());
  });
}

TEST(JsonTyped, BenchmarkRowsOverUnbufferedAndBufferedFiles) {
  // The benchmark's setting: a file written and read through descriptor streams, unbuffered
  // (one system call per operation) and through 64 KiB buffers.
  const std::vector<Row> rows = bench_like::benchmark_rows(2000);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("bufstream_json_rows_" + std::to_string(::getpid()) + ".json");
  for (bool buffered : {false, true}) {
    SCOPED_TRACE(buffered ? "buffered" : "unbuffered");
    {
      FdWriteStream file(path);
      if (buffered) {
        BufferedWriteStream out(file);
        json::write(out, rows);
      } else {
        json::write(file, rows);
      }
      file.close();
    }
    FdReadStream file(path);
    std::vector<Row> back;
    if (buffered) {
      BufferedReadStream in(file);
      back = json::read<std::vector<Row>>(in);
    } else {
      back = json::read<std::vector<Row>>(file);
    }
    EXPECT_EQ(back, rows);
    FdReadStream again(path);
    EXPECT_EQ(json::read(again).size(), rows.size());
  }
  std::filesystem::remove(path);
}

// ---- Sizing vectors from the stream's size hint ---------------------------------------------

std::string array_of_equal_numbers(std::size_t count) {
  std::string text = "[";
  for (std::size_t i = 0; i < count; ++i) text += i == 0 ? "12345" : ",12345";
  return text + "]";
}

TEST(JsonTyped, LargeVectorIsSizedOnceWhenTheStreamKnowsItsSize) {
  constexpr std::size_t count = 100000;
  const std::string text = array_of_equal_numbers(count);
  for_each_reader(text, [&](ReadStream& in) {
    const bool hinted = in.remaining_hint().has_value();
    const auto v = json::read<std::vector<int>>(in);
    ASSERT_EQ(v.size(), count);
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](int x) { return x == 12345; }));
    if (hinted) {
      // Sized from the estimate (equal elements: exact up to the closing bracket), not grown
      // by doubling to 131072.
      EXPECT_GE(v.capacity(), count);
      EXPECT_LE(v.capacity(), count + 2);
    }
  });
}

TEST(JsonTyped, EstimatedElementsLeft) {
  const std::string text = array_of_equal_numbers(1000);  // 6 bytes an element
  MemoryReadStream in(text);
  Reader r(in);
  r.begin_array();
  const std::uint64_t start = in.position();
  EXPECT_EQ(r.estimated_elements_left(start, 0), std::nullopt);  // nothing to average yet
  std::size_t count = 0;
  std::optional<std::uint64_t> at_100;
  while (r.next_element()) {
    EXPECT_EQ(r.read<int>(), 12345);
    ++count;
    if (count == 10) {
      // 60 of 6001 bytes: less than a sixteenth of the input, not enough to tell.
      EXPECT_EQ(r.estimated_elements_left(start, count), std::nullopt);
    }
    if (count == 100) at_100 = r.estimated_elements_left(start, count);
  }
  ASSERT_TRUE(at_100.has_value());
  // 900 elements and the closing bracket are left (5400 + 1 bytes at about 6 bytes each).
  EXPECT_GE(*at_100, 900u);
  EXPECT_LE(*at_100, 902u);
}

TEST(JsonTyped, EstimatedElementsLeftIsNeverMoreThanTheBytesLeft) {
  // Elements of one byte each ("1,") but a count that claims more: the estimate stays within
  // the bytes the stream still holds.
  const std::string text = "[1,1,1,1,1,1,1,1,1,1]";
  MemoryReadStream in(text);
  Reader r(in);
  r.begin_array();
  const std::uint64_t start = in.position();
  ASSERT_TRUE(r.next_element());
  EXPECT_EQ(r.read<int>(), 1);
  const std::optional<std::uint64_t> left = r.estimated_elements_left(start, 1000);
  ASSERT_TRUE(left.has_value());
  EXPECT_LE(*left, text.size() - 2);
}

TEST(JsonTyped, EstimatedElementsLeftIsNulloptWithoutASizeHint) {
  const std::string text = array_of_equal_numbers(1000);
  for_each_reader(text, [&](ReadStream& in) {
    const bool hinted = in.remaining_hint().has_value();
    Reader r(in);
    r.begin_array();
    const std::uint64_t start = in.position();
    std::size_t count = 0;
    while (r.next_element()) {
      r.read<int>();
      ++count;
      if (count == 500) {
        EXPECT_EQ(r.estimated_elements_left(start, count).has_value(), hinted);
      }
    }
    EXPECT_EQ(count, 1000u);
  });
}

}  // namespace
}  // namespace bufstream::json
