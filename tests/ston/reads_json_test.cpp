// STON reads JSON as it is (a JSON text is a STON text): the RFC 8259 examples and the shapes
// the JSON reader is tested with read as nlohmann reads them. (STON to JSON is the command's
// conversion through json::Writer: tests/tools/ston_json_test.cpp.)
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rfc8259_examples.hpp"
#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

// The JSON document a STON value stands for (numbers as doubles unless integral).
nlohmann::json to_json(const Value& v) {
  switch (v.kind()) {
    case Kind::nil: return nullptr;
    case Kind::boolean: return v.as_bool();
    case Kind::integer: return v.as_int64();
    case Kind::floating:
    case Kind::fraction:
    case Kind::scaled_decimal: return v.as_double();
    case Kind::string:
    case Kind::symbol: return v.text();
    case Kind::list: {
      nlohmann::json a = nlohmann::json::array();
      for (const Value& item : v.as_list()) a.push_back(to_json(item));
      return a;
    }
    case Kind::map: {
      nlohmann::json o = nlohmann::json::object();
      for (const MapEntry& e : v.as_map()) o[e.key.text()] = to_json(e.value);
      return o;
    }
    default: throw std::runtime_error("not JSON");
  }
}

// Numbers compare by value: STON reads 1e2 as the integer 100, JSON as the double 100.0.
bool same_json(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_json(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !same_json(it.value(), b[it.key()])) return false;
    }
    return true;
  }
  return a == b;
}

const std::vector<std::string_view> json_texts = {
    testing::rfc8259_object_example,
    testing::rfc8259_array_example,
    R"("Hello world!")",
    R"(42)",
    R"(true)",
    R"(null)",
    R"([0, -0, 1.5, -1.5e3, 2E+2, 1e-2, 123456789012, 0.1, 1.7976931348623157e308, 5e-324])",
    R"({"escapes": "\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20ac \ud83d\ude00"})",
    R"({"": [], "a": {}, "b": [[], [{}]], "nested": {"x": {"y": {"z": [1, [2, [3]]]}}}})",
    "[1,\r\n\t2 ,  3\n]",
    R"(["caf\u00e9", "café", "\u0000"])",
};

TEST(StonReadsJson, AsAJsonParserDoes) {
  for (std::string_view text : json_texts) {
    SCOPED_TRACE(text);
    const Document doc = test::parse_everywhere(text);
    EXPECT_TRUE(same_json(to_json(doc.root()), nlohmann::json::parse(text)));
  }
}

}  // namespace
}  // namespace bufstream::ston
