// Typed access: user structs through ADL to_ston/from_ston, the built-in conversions and the
// well-known tags of STON.md.
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <gtest/gtest.h>

#include <bufstream/ston/typed.hpp>
#include <bufstream/ston/well_known.hpp>

#include "ston_test_util.hpp"

namespace app {

struct User {
  std::string name;
  int age = 0;
  std::vector<std::string> tags;
  std::optional<double> score;
};

bufstream::ston::Value to_ston(bufstream::ston::Document& doc, const User& u) {
  namespace ston = bufstream::ston;
  return doc.tagged_map("User", {{ston::Symbol{"name"}, u.name},
                                 {ston::Symbol{"age"}, u.age},
                                 {ston::Symbol{"tags"}, ston::to_value(doc, u.tags)},
                                 {ston::Symbol{"score"}, ston::to_value(doc, u.score)}});
}

void from_ston(const bufstream::ston::Value& v, User& u) {
  namespace ston = bufstream::ston;
  const ston::Tagged t = v.as_tagged("User");
  u.name = ston::from_value<std::string>(t.at("name"));
  u.age = ston::from_value<int>(t.at("age"));
  u.tags = ston::from_value<std::vector<std::string>>(t.at("tags"));
  u.score = ston::from_value<std::optional<double>>(t.at("score"));
}

}  // namespace app

namespace bufstream::ston {
namespace {

TEST(StonTyped, UserStructRoundTripsAsATaggedObject) {
  Document doc;
  const app::User ann{"ann", 7, {"a", "b"}, 2.5};
  const std::string text = to_string(to_value(doc, ann));
  EXPECT_EQ(text, "User{#name:'ann',#age:7,#tags:['a','b'],#score:2.5}");
  for (const auto& setup : testing::reader_setups()) {
    auto in = setup.make(text);
    const app::User back = from_value<app::User>(parse(*in).root());
    EXPECT_EQ(back.name, "ann");
    EXPECT_EQ(back.age, 7);
    EXPECT_EQ(back.tags, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(back.score, 2.5);
  }
  const app::User nobody =
      from_value<app::User>(parse("User{#name:'',#age:0,#tags:[],#score:nil}").root());
  EXPECT_FALSE(nobody.score.has_value());
  EXPECT_THROW((void)from_value<app::User>(parse("Point[1,2]").root()), AccessError);
  EXPECT_THROW((void)from_value<app::User>(parse("User{#name:'x'}").root()), AccessError);
}

TEST(StonTyped, BuiltInConversions) {
  Document doc;
  EXPECT_EQ(to_string(to_value(doc, std::vector<int>{1, 2, 3})), "[1,2,3]");
  EXPECT_EQ(to_string(to_value(doc, std::map<std::string, bool>{{"a", true}})), "{'a':true}");
  EXPECT_EQ(to_string(to_value(doc, std::optional<int>())), "nil");
  EXPECT_EQ(to_string(to_value(doc, std::numeric_limits<std::uint64_t>::max())),
            "18446744073709551615");
  EXPECT_EQ(from_value<std::uint64_t>(parse("18446744073709551615").root()),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_THROW((void)from_value<std::uint64_t>(parse("18446744073709551616").root()), AccessError);
  EXPECT_THROW((void)from_value<std::uint8_t>(parse("256").root()), AccessError);
  EXPECT_THROW((void)from_value<unsigned>(parse("-1").root()), AccessError);
  EXPECT_EQ(from_value<std::int8_t>(parse("-128").root()), -128);
  EXPECT_EQ(from_value<double>(parse("1/4").root()), 0.25);
  EXPECT_EQ((from_value<std::map<std::string, int>>(parse("{#a:1,'b':2}").root())),
            (std::map<std::string, int>{{"a", 1}, {"b", 2}}));
  EXPECT_EQ(from_value<Integer>(parse("123456789012345678901234567890").root()).to_string(),
            "123456789012345678901234567890");
}

TEST(StonTyped, ByteArray) {
  Document doc;
  const std::vector<std::byte> bytes{std::byte{0x0a}, std::byte{0x1b}, std::byte{0xff}};
  EXPECT_EQ(to_string(to_value(doc, bytes)), "ByteArray['0a1bff']");
  EXPECT_EQ(to_string(to_value(doc, bytes), {.indent = 1}), "ByteArray [ '0a1bff' ]");
  EXPECT_EQ(from_value<std::vector<std::byte>>(parse("ByteArray['0A1BFF']").root()), bytes);
  EXPECT_TRUE(from_value<std::vector<std::byte>>(parse("ByteArray['']").root()).empty());
  EXPECT_THROW((void)from_value<std::vector<std::byte>>(parse("ByteArray['0a1']").root()),
               AccessError);
  EXPECT_THROW((void)from_value<std::vector<std::byte>>(parse("ByteArray['zz']").root()),
               AccessError);
  EXPECT_THROW((void)from_value<std::vector<std::byte>>(parse("ByteArray[1]").root()), AccessError);
}

TEST(StonTyped, Character) {
  Document doc;
  EXPECT_EQ(to_string(to_value(doc, Character{U'a'})), "Character['a']");
  EXPECT_EQ(to_string(to_value(doc, Character{U'\''})), "Character['\\'']");
  EXPECT_EQ(from_value<Character>(parse("Character['\\u20AC']").root()), Character{U'\u20AC'});
  EXPECT_EQ(from_value<Character>(parse("Character['\xF0\x9F\x98\x80']").root()),
            Character{U'\U0001F600'});
  EXPECT_THROW((void)from_value<Character>(parse("Character['ab']").root()), AccessError);
  EXPECT_THROW((void)to_value(doc, Character{0xD800}), UsageError);
}

TEST(StonTyped, Point) {
  Document doc;
  EXPECT_EQ(to_string(to_value(doc, Point{1, 2.5})), "Point[1,2.5]");
  EXPECT_EQ(to_string(to_value(doc, Point{1, 2}), {.indent = 1}), "Point [ 1, 2 ]");
  const Point p = from_value<Point>(parse("Point [ 3, -1/2 ]").root());
  EXPECT_EQ(p.x, Value(3));
  EXPECT_EQ(p.y, Value::fraction(-1, 2));
  EXPECT_THROW((void)from_value<Point>(parse("Point[1]").root()), AccessError);
  EXPECT_THROW((void)from_value<Point>(parse("Point['a',1]").root()), AccessError);
}

TEST(StonTyped, FloatSpecialsAreDoubles) {
  Document doc;
  EXPECT_EQ(to_string(to_value(doc, std::numeric_limits<double>::infinity())), "Float[#infinity]");
  EXPECT_TRUE(std::isnan(from_value<double>(parse("Float[#nan]").root())));
  EXPECT_EQ(from_value<double>(parse("Float[#negativeInfinity]").root()),
            -std::numeric_limits<double>::infinity());
}

TEST(StonTyped, DateTimeAndDateAndTime) {
  Document doc;
  struct DateCase {
    std::string_view text;
    Date date;
  };
  const std::vector<DateCase> dates = {
      {"Date['2012-01-01Z']", {2012, 1, 1, 0}},
      {"Date['2012-02-29+02:00']", {2012, 2, 29, 120}},
      {"Date['1999-12-31-05:30']", {1999, 12, 31, -330}},
      {"Date['2012-01-01']", {2012, 1, 1, std::nullopt}},
  };
  for (const DateCase& c : dates) {
    EXPECT_EQ(from_value<Date>(parse(c.text).root()), c.date) << c.text;
    EXPECT_EQ(to_string(to_value(doc, c.date)), c.text);
  }
  for (std::string_view bad : {"Date['2011-02-29Z']", "Date['2012-13-01']", "Date['2012-1-01']",
                               "Date['2012-01-01X']", "Date[1]", "Time['06:30:15']"}) {
    EXPECT_THROW((void)from_value<Date>(parse(bad).root()), AccessError) << bad;
  }

  struct TimeCase {
    std::string_view text;
    Time time;
  };
  const std::vector<TimeCase> times = {
      {"Time['06:30:15']", {6, 30, 15, 0}},
      {"Time['23:59:59.5']", {23, 59, 59, 500000000}},
      {"Time['00:00:00.000000001']", {0, 0, 0, 1}},
  };
  for (const TimeCase& c : times) {
    EXPECT_EQ(from_value<Time>(parse(c.text).root()), c.time) << c.text;
    EXPECT_EQ(to_string(to_value(doc, c.time)), c.text);
  }
  EXPECT_THROW((void)from_value<Time>(parse("Time['24:00:00']").root()), AccessError);
  EXPECT_THROW((void)from_value<Time>(parse("Time['06:30']").root()), AccessError);

  struct DateAndTimeCase {
    std::string_view text;
    DateAndTime value;
    std::string_view written;
  };
  const std::vector<DateAndTimeCase> stamps = {
      {"DateAndTime['2012-01-01T06:30:15+01:00']",
       {2012, 1, 1, {6, 30, 15, 0}, 60},
       "DateAndTime['2012-01-01T06:30:15+01:00']"},
      {"DateAndTime['2012-01-01T06:30:15.25Z']",
       {2012, 1, 1, {6, 30, 15, 250000000}, 0},
       "DateAndTime['2012-01-01T06:30:15.25+00:00']"},
      {"DateAndTime['2012-01-01T06:30:15-08:00']",
       {2012, 1, 1, {6, 30, 15, 0}, -480},
       "DateAndTime['2012-01-01T06:30:15-08:00']"},
  };
  for (const DateAndTimeCase& c : stamps) {
    EXPECT_EQ(from_value<DateAndTime>(parse(c.text).root()), c.value) << c.text;
    EXPECT_EQ(to_string(to_value(doc, c.value)), c.written);
  }
  EXPECT_EQ(to_string(to_value(doc, DateAndTime{2012, 1, 1, {6, 30, 15, 0}, 60}), {.indent = 1}),
            "DateAndTime [ '2012-01-01T06:30:15+01:00' ]");
  EXPECT_THROW((void)from_value<DateAndTime>(parse("DateAndTime['2012-01-01 06:30:15Z']").root()),
               AccessError);
}

}  // namespace
}  // namespace bufstream::ston
