// The value model: building, inspecting, exact numbers, identity and structural equality.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <bufstream/ston/document.hpp>

#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

TEST(StonValue, PrimitivesHaveTheirKinds) {
  struct Case {
    Value value;
    Kind kind;
  };
  const std::vector<Case> cases = {
      {Value(), Kind::nil},
      {nullptr, Kind::nil},
      {true, Kind::boolean},
      {42, Kind::integer},
      {std::uint64_t{1} << 63, Kind::integer},
      {Integer::from_decimal("123456789012345678901234567890"), Kind::integer},
      {1.5, Kind::floating},
      {std::numeric_limits<double>::quiet_NaN(), Kind::floating},
      {Value::fraction(1, 3), Kind::fraction},
      {Value::scaled_decimal(1, 3, 2), Kind::scaled_decimal},
      {"text", Kind::string},
      {std::string("text"), Kind::string},
      {Symbol{"sym"}, Kind::symbol},
      {Association(Symbol{"a"}, 1), Kind::association},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.value.kind(), c.kind) << kind_name(c.kind);
  }
}

TEST(StonValue, AccessorsReturnContentsAndRefuseOtherKinds) {
  EXPECT_EQ(Value(7).as_int64(), 7);
  EXPECT_EQ(Value(7).as_double(), 7.0);
  EXPECT_EQ(Value("s").as_string(), "s");
  EXPECT_EQ(Value(Symbol{"s"}).as_symbol(), "s");
  EXPECT_EQ(Value(Symbol{"s"}).text(), "s");
  EXPECT_TRUE(Value(true).as_bool());
  EXPECT_EQ(Value::fraction(1, 4).as_double(), 0.25);
  EXPECT_EQ(Value::scaled_decimal(1, 4, 2).as_double(), 0.25);

  try {
    (void)Value(7).as_string();
    FAIL() << "no AccessError";
  } catch (const AccessError& e) {
    EXPECT_STREQ(e.what(), "expected a string but the value is an integer");
  }
  EXPECT_THROW((void)Value("x").as_int64(), AccessError);
  EXPECT_THROW((void)Value(1.5).as_integer(), AccessError);
  EXPECT_THROW((void)Value().as_list(), AccessError);
  EXPECT_THROW((void)Value("s").as_symbol(), AccessError);
  EXPECT_THROW((void)Integer::from_decimal("12a"), UsageError);
  EXPECT_THROW((void)Value(Integer::from_decimal("99999999999999999999")).as_int64(), AccessError);
}

TEST(StonValue, IntegersAreExactAtAnySize) {
  struct Case {
    std::string_view text;
    bool fits;
    std::string_view canonical;
  };
  const std::vector<Case> cases = {
      {"0", true, "0"},
      {"-0", true, "0"},
      {"000123", true, "123"},
      {"9223372036854775807", true, "9223372036854775807"},
      {"-9223372036854775808", true, "-9223372036854775808"},
      {"9223372036854775808", false, "9223372036854775808"},
      {"-9223372036854775809", false, "-9223372036854775809"},
      {"-000000000000000000000012", true, "-12"},
      {"123456789012345678901234567890", false, "123456789012345678901234567890"},
  };
  for (const Case& c : cases) {
    const Integer i = Integer::from_decimal(c.text);
    EXPECT_EQ(i.fits_int64(), c.fits) << c.text;
    EXPECT_EQ(i.to_string(), c.canonical) << c.text;
    EXPECT_EQ(i, Integer::from_decimal(c.canonical)) << c.text;
  }
  EXPECT_EQ(Integer(std::numeric_limits<std::uint64_t>::max()).to_string(), "18446744073709551615");
  EXPECT_EQ(Integer(INT64_MIN).negated().to_string(), "9223372036854775808");
  EXPECT_EQ(Integer::from_decimal("9223372036854775808").negated(), Integer(INT64_MIN));
  EXPECT_EQ(Integer::from_decimal("100000000000000000000").to_double(), 1e20);
}

TEST(StonValue, FractionsAreReducedAndWholeOnesAreIntegers) {
  struct Case {
    Value value;
    std::string_view written;
  };
  const std::vector<Case> cases = {
      {Value::fraction(2, 4), "1/2"},
      {Value::fraction(-2, 4), "-1/2"},
      {Value::fraction(2, -4), "-1/2"},
      {Value::fraction(-2, -4), "1/2"},
      {Value::fraction(4, 2), "2"},
      {Value::fraction(0, 5), "0"},
      {Value::fraction(Integer::from_decimal("200000000000000000000"),
                       Integer::from_decimal("600000000000000000000")),
       "1/3"},
      {Value::fraction(Integer::from_decimal("100000000000000000000"), 3),
       "100000000000000000000/3"},
      {Value::fraction(Integer::from_decimal("300000000000000000000"), 3), "100000000000000000000"},
      {Value::scaled_decimal(6, 3, 2), "2/1s2"},
      {Value::scaled_decimal(1, 3, 2), "1/3s2"},
  };
  for (const Case& c : cases) EXPECT_EQ(to_string(c.value), c.written);
  EXPECT_THROW((void)Value::fraction(1, 0), UsageError);
  EXPECT_TRUE(Value::fraction(4, 2).is_integer());
}

TEST(StonValue, FractionToDoubleIsCorrectlyRounded) {
  EXPECT_EQ(Value::fraction(1, 3).as_double(), 1.0 / 3.0);
  EXPECT_EQ(Value::fraction(-2, 3).as_double(), -2.0 / 3.0);
  EXPECT_EQ(Value::fraction(1, Integer::from_decimal("1" + std::string(400, '0'))).as_double(),
            0.0);  // below the smallest subnormal
  EXPECT_EQ(Value::fraction(1, Integer::from_decimal("1" + std::string(310, '0'))).as_double(),
            1e-310);  // a subnormal
  EXPECT_EQ(Value::fraction(Integer::from_decimal("1" + std::string(30, '0')), 7).as_double(),
            1e30 / 7);
  EXPECT_EQ(Value::fraction(1, 10).as_double(), 0.1);
}

TEST(StonValue, ListsMapsAndTaggedObjectsLiveInTheDocument) {
  Document doc;
  List list = doc.list({1, "two", Symbol{"three"}});
  list.push_back(4.5);
  ASSERT_EQ(list.size(), 4U);
  EXPECT_EQ(list[1].as_string(), "two");
  EXPECT_THROW((void)list.at(9), AccessError);
  try {
    (void)list.at(4);
    ADD_FAILURE() << "no AccessError";
  } catch (const AccessError& e) {
    EXPECT_STREQ(e.what(), "no element 4 in a list of 4");
  }
  int integers = 0;
  for (const Value& v : list) integers += v.is_integer() ? 1 : 0;
  EXPECT_EQ(integers, 1);

  Map map = doc.map({{Symbol{"a"}, 1}, {"b", 2}});
  map.append(list, 3);  // a list as a key
  EXPECT_EQ(map.at("a").as_int64(), 1);
  EXPECT_EQ(map.find("b")->as_int64(), 2);
  EXPECT_EQ(map.find(Value(list))->as_int64(), 3);
  EXPECT_EQ(map.find("zzz"), nullptr);
  EXPECT_THROW((void)map.at("zzz"), AccessError);
  map.set(Symbol{"a"}, 10);
  EXPECT_EQ(map.size(), 3U);
  EXPECT_EQ(map.at("a").as_int64(), 10);

  Tagged point = doc.tagged_list("Point", {1, 2});
  EXPECT_EQ(point.tag(), "Point");
  EXPECT_EQ(point.at(1).as_int64(), 2);
  EXPECT_THROW((void)point.map(), AccessError);
  Tagged user = doc.tagged_map("User", {{Symbol{"name"}, "x"}});
  EXPECT_EQ(user.at("name").as_string(), "x");
  EXPECT_THROW((void)doc.tagged_list("point", {}), UsageError);
  EXPECT_THROW((void)doc.tagged_list("Po int", {}), UsageError);
  EXPECT_EQ(Value(point).as_tagged("Point").size(), 2U);
  EXPECT_THROW((void)Value(point).as_tagged("User"), AccessError);
  EXPECT_EQ(doc.container_count(), 4U);

  // A move keeps every handle valid: containers never move.
  Document moved = std::move(doc);
  EXPECT_EQ(list[0].as_int64(), 1);
  EXPECT_EQ(moved.container_count(), 4U);
}

TEST(StonValue, CopiesShareContainers) {
  Document doc;
  List list = doc.list();
  Value a = list;
  Value b = a;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  b.as_list().push_back(1);
  EXPECT_EQ(list.size(), 1U);
  EXPECT_TRUE(a.same_object(b));
  EXPECT_FALSE(a.same_object(Value(doc.list({1}))));
  EXPECT_EQ(a, Value(doc.list({1})));  // structurally equal
}

TEST(StonValue, EqualityIsStructuralWithinOneKind) {
  EXPECT_EQ(Value(1), Value(1));
  EXPECT_NE(Value(1), Value(1.0));
  EXPECT_NE(Value(1), Value::scaled_decimal(1, 1, 0));
  EXPECT_NE(Value("a"), Value(Symbol{"a"}));
  EXPECT_EQ(Value(std::nan("")), Value(std::nan("")));
  EXPECT_NE(Value(0.0), Value(-0.0));
  EXPECT_EQ(Value(Association(1, 2)), Value(Association(1, 2)));
  EXPECT_NE(Value(Association(1, 2)), Value(Association(1, 3)));
  Document doc;
  EXPECT_EQ(Value(doc.tagged_list("Point", {1, 2})), Value(doc.tagged_list("Point", {1, 2})));
  EXPECT_NE(Value(doc.tagged_list("Point", {1, 2})), Value(doc.tagged_list("Other", {1, 2})));
  EXPECT_NE(Value(doc.tagged_list("Point", {})), Value(doc.tagged_map("Point", {})));
  EXPECT_NE(Value(doc.map({{1, 2}, {3, 4}})), Value(doc.map({{3, 4}, {1, 2}})));
}

TEST(StonValue, EqualityComparesSharingAndTerminatesOnCycles) {
  Document doc;
  List a = doc.list({1});
  a.push_back(a);  // [1,@1]
  List b = doc.list({1});
  b.push_back(b);
  EXPECT_EQ(Value(a), Value(b));

  List unrolled = doc.list({1});
  List inner = doc.list({1});
  unrolled.push_back(inner);
  inner.push_back(inner);  // [1,[1,@2]]
  EXPECT_NE(Value(a), Value(unrolled));

  List shared_inner = doc.list();
  List shared = doc.list({shared_inner, shared_inner});  // [[],@2]
  List separate = doc.list({doc.list(), doc.list()});    // [[],[]]
  EXPECT_NE(Value(shared), Value(separate));
  EXPECT_EQ(Value(shared), Value(doc.list({shared_inner, shared_inner})));
}

TEST(StonValue, DeepGraphsCompareWithoutRecursion) {
  Document doc;
  auto deep = [&doc] {
    List top = doc.list();
    List current = top;
    for (int i = 0; i < 200000; ++i) {
      List next = doc.list();
      current.push_back(next);
      current = next;
    }
    return top;
  };
  EXPECT_EQ(Value(deep()), Value(deep()));
}

}  // namespace
}  // namespace bufstream::ston

namespace bufstream::ston {
namespace {

TEST(StonValue, AssigningAPartOfItselfIsSafe) {
  Value v = Association(Symbol{"a"}, Association(Symbol{"b"}, "deep"));
  v = v.as_association().value();
  EXPECT_EQ(v, Value(Association(Symbol{"b"}, "deep")));
  v = std::move(v.as_association().value());
  EXPECT_EQ(v, Value("deep"));
}

}  // namespace
}  // namespace bufstream::ston
