// STON to JSON as the command converts it (tools/src/ston_json.hpp): through json::Writer, so
// the bytes are the JSON writer's; what JSON cannot hold is an error at the value's position.
#include "ston_json.hpp"

#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bufstream/json/writer.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/string_write_stream.hpp>

#include "rfc8259_examples.hpp"

namespace bufstream::cli {
namespace {

std::string to_json(const ston::Value& v, json::WriteOptions options = {}) {
  StringWriteStream out;
  json::Writer writer(out, options);
  StonJsonWriter values(writer, "in.ston");
  values.write(v, {});
  writer.finish();
  return out.take();
}

TEST(StonJson, WritesWhatTheJsonWriterWrites) {
  ston::Document d;
  EXPECT_EQ(to_json(d.map({{"a", 1}, {ston::Symbol{"b"}, d.list({ston::Value(), true, 1.5})}})),
            R"({"a":1,"b":[null,true,1.5]})");
  EXPECT_EQ(to_json(ston::Symbol{"sym"}), R"("sym")");
  EXPECT_EQ(to_json(ston::Value::fraction(1, 4)), "0.25");
  EXPECT_EQ(to_json(ston::Value::fraction(1, 3)), "0.3333333333333333");
  EXPECT_EQ(to_json(ston::Value::scaled_decimal(3, 2, 1)), "1.5");
  EXPECT_EQ(to_json(1e100), "1e+100");
  // Integers exactly while they fit 64 bits (signed or not), then as the nearest double.
  EXPECT_EQ(to_json(ston::Integer::from_decimal("18446744073709551615")), "18446744073709551615");
  EXPECT_EQ(to_json(ston::Integer::from_decimal("-9223372036854775808")), "-9223372036854775808");
  EXPECT_EQ(to_json(ston::Integer::from_decimal("123456789012345678901234567890")),
            "1.2345678901234568e+29");
  // Escapes are the JSON writer's: lowercase hex, U+0080 and above as they are.
  EXPECT_EQ(to_json(std::string("\x01\x1f\"\\\n caf\xC3\xA9 \xC2\x85")),
            "\"\\u0001\\u001f\\\"\\\\\\n caf\xC3\xA9 \xC2\x85\"");
  EXPECT_EQ(to_json(std::string("caf\xC3\xA9 \xF0\x9F\x98\x80"), {.ascii_only = true}),
            R"("caf\u00e9 \ud83d\ude00")");
  EXPECT_EQ(to_json(d.map({{"a", d.list({1})}}), {.indent = 2}), "{\n  \"a\": [\n    1\n  ]\n}");
}

TEST(StonJson, ValuesJsonCannotHoldAreErrorsAtTheValue) {
  ston::Document d;
  ston::List shared = d.list({1});
  ston::List cyclic = d.list();
  cyclic.push_back(cyclic);
  struct Case {
    ston::Value value;
    std::string_view message;
  };
  const std::vector<Case> cases = {
      {d.tagged_list("Point", {1, 2}), "Point[1,2] (tagged object) has no JSON form"},
      {d.list({ston::Association(ston::Symbol{"a"}, 1)}), "#a:1 (association) has no JSON form"},
      {d.map({{1, 2}}), "the map key 1 (integer) has no JSON form (JSON keys are strings)"},
      {d.list({shared, shared}), "[1] (list) occurs more than once (JSON has no shared values)"},
      {cyclic, "[@1] (list) occurs more than once (JSON has no shared values)"},
      {std::numeric_limits<double>::quiet_NaN(),
       "Float[#nan] (float) has no JSON form (JSON has no NaN or infinity)"},
      {d.list({-std::numeric_limits<double>::infinity()}),
       "Float[#negativeInfinity] (float) has no JSON form (JSON has no NaN or infinity)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    StringWriteStream out;
    json::Writer writer(out);
    StonJsonWriter values(writer, "in.ston");
    try {
      values.write(c.value, {12, 3, 4});
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "cannot convert this value: " + std::string(c.message));
      EXPECT_EQ(e.source_name(), "in.ston");
      EXPECT_EQ(e.offset(), 12U);
      EXPECT_EQ(e.line(), 3U);
      EXPECT_EQ(e.column(), 4U);
    }
  }
}

// JSON texts read as STON and written back as JSON are the same documents for a JSON parser.
TEST(StonJson, JsonReadAsStonWritesTheSameDocument) {
  const std::vector<std::string_view> texts = {
      testing::rfc8259_object_example,
      testing::rfc8259_array_example,
      R"("Hello world!")",
      R"([0, -0, 1.5, -1.5e3, 2E+2, 1e-2, 123456789012, 0.1, 1.7976931348623157e308, 5e-324])",
      R"({"escapes": "\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20ac \ud83d\ude00"})",
      R"({"": [], "a": {}, "b": [[], [{}]], "nested": {"x": {"y": {"z": [1, [2, [3]]]}}}})",
      R"(["caf\u00e9", "café", "\u0000", 18446744073709551615, -9223372036854775808])",
  };
  for (std::string_view text : texts) {
    SCOPED_TRACE(text);
    const ston::Document doc = ston::parse(text);
    for (std::size_t indent : {std::size_t{0}, std::size_t{2}}) {
      const std::string written = to_json(doc.root(), {.indent = indent});
      EXPECT_EQ(nlohmann::json::parse(written), nlohmann::json::parse(text)) << written;
    }
  }
}

// A document's values share no container with an earlier one, but within one Document the
// writer remembers what it wrote until new_document().
TEST(StonJson, SharingIsTrackedAcrossTheValuesOfOneDocument) {
  ston::Document d;
  ston::List list = d.list({1});
  StringWriteStream out;
  json::Writer writer(out, {.json_lines = true});
  StonJsonWriter values(writer, "in.ston");
  values.write(list, {});
  EXPECT_THROW(values.write(list, {}), ParseError);
  values.new_document();
  values.write(list, {});
  EXPECT_EQ(out.take(), "[1]\n[1]\n");
}

}  // namespace
}  // namespace bufstream::cli
