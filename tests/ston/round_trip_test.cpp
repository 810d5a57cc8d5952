// Round trips of random value graphs (every kind, sharing and cycles): written compact and
// pretty, read back over every reader setup, equal to the original including its sharing,
// and written again to the same bytes.
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "ston_test_util.hpp"

namespace bufstream::ston {
namespace {

class RandomGraph {
 public:
  RandomGraph(Document& doc, std::uint32_t seed) : doc_(doc), rng_(seed) {}

  Value value(int depth) {
    const int choice = pick(depth >= 4 ? 13 : 18);
    switch (choice) {
      case 0: return Value();
      case 1: return pick(2) == 0;
      case 2: return static_cast<std::int64_t>(rng_()) - (std::int64_t{1} << 31);
      case 3:
        return Integer::from_decimal(digits(20 + static_cast<std::size_t>(pick(30)), pick(2) == 0));
      case 4: return a_double();
      case 5: return Value::fraction(pick(2000) - 1000, 1 + pick(999));
      case 6:
        return Value::scaled_decimal(pick(2000) - 1000, 1 + pick(99),
                                     static_cast<std::uint32_t>(pick(5)));
      case 7:
      case 8: return text();
      case 9: return Symbol{pick(2) == 0 ? "simple.name-1" : text()};
      case 10: {
        // Appended rather than `"k" + std::to_string(...)`, which trips GCC 12's false
        // -Wrestrict warning (GCC bug 105329) in Release builds.
        std::string key = "k";
        key += std::to_string(pick(5));
        return Association(Symbol{std::move(key)}, value(depth + 1));
      }
      case 11:
      case 12: return shared_or_new(depth);
      default: return container(depth);
    }
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint32_t>(n)); }

  std::string digits(std::size_t count, bool negative) {
    std::string s = negative ? "-" : "";
    s += static_cast<char>('1' + pick(9));
    for (std::size_t i = 1; i < count; ++i) s += static_cast<char>('0' + pick(10));
    return s;
  }

  double a_double() {
    switch (pick(6)) {
      case 0: return std::numeric_limits<double>::quiet_NaN();
      case 1: return pick(2) == 0 ? HUGE_VAL : -HUGE_VAL;
      case 2: return -0.0;
      default: {
        std::uniform_real_distribution<double> mantissa(-10, 10);
        return std::ldexp(mantissa(rng_), pick(600) - 300);
      }
    }
  }

  std::string text() {
    static const std::vector<std::string> pieces = {"a",
                                                    "Z",
                                                    " ",
                                                    "'",
                                                    "\"",
                                                    "\\",
                                                    "/",
                                                    "\n",
                                                    "\r",
                                                    "\t",
                                                    std::string(1, '\0'),
                                                    "\x7f",
                                                    "\xC2\x85",
                                                    "\xC3\xA9",
                                                    "\xE2\x82\xAC",
                                                    "\xF0\x9F\x98\x80",
                                                    "#",
                                                    "[",
                                                    "@1",
                                                    "//",
                                                    "/*"};
    std::string s;
    const int n = pick(8);
    for (int i = 0; i < n; ++i)
      s += pieces[static_cast<std::size_t>(pick(static_cast<int>(pieces.size())))];
    return s;
  }

  Value shared_or_new(int depth) {
    if (!made_.empty() && pick(3) != 0)
      return made_[static_cast<std::size_t>(pick(static_cast<int>(made_.size())))];
    return container(depth);
  }

  Value container(int depth) {
    const int n = pick(5);
    Value made;
    switch (pick(4)) {
      case 0: {
        List list = doc_.list();
        made = list;
        made_.push_back(made);  // before the children: they may refer back (cycles)
        for (int i = 0; i < n; ++i) list.push_back(value(depth + 1));
        break;
      }
      case 1: {
        Map map = doc_.map();
        made = map;
        made_.push_back(made);
        for (int i = 0; i < n; ++i) map.append(key(depth + 1), value(depth + 1));
        break;
      }
      case 2: {
        Tagged t = doc_.tagged_list(pick(2) == 0 ? "Point" : "Bag", {});
        made = t;
        made_.push_back(made);
        for (int i = 0; i < n; ++i) t.list().push_back(value(depth + 1));
        break;
      }
      default: {
        Tagged t = doc_.tagged_map("Obj_" + std::to_string(pick(3)), {});
        made = t;
        made_.push_back(made);
        for (int i = 0; i < n; ++i) t.map().append(key(depth + 1), value(depth + 1));
        break;
      }
    }
    return made;
  }

  // Any value but an association (a key a:b would read back as part of the entry).
  Value key(int depth) {
    for (;;) {
      Value k = value(depth);
      if (!k.is_association()) return k;
    }
  }

  Document& doc_;
  std::mt19937 rng_;
  std::vector<Value> made_;
};

TEST(StonRoundTrip, RandomGraphsWithSharingAndCycles) {
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    SCOPED_TRACE(seed);
    Document doc;
    RandomGraph graph(doc, seed);
    const Value original = graph.value(0);
    for (bool pretty : {false, true}) {
      for (bool ascii : {false, true}) {
        const WriteOptions options{.indent = pretty ? 1U : 0U, .ascii_only = ascii};
        const std::string text = test::write_everywhere(original, options);
        const Document back = test::parse_everywhere(text);
        ASSERT_EQ(back.root(), original) << text;
        ASSERT_EQ(to_string(back.root(), options), text);
      }
    }
  }
}

TEST(StonRoundTrip, BenchmarkRowsThroughTheStreamingWriter) {
  // The benchmark's shape: [i, -i, 1.0/i, sqrt(i), words] rows in a list of lists.
  StringWriteStream sink;
  {
    BufferedWriteStream out(sink, {.buffer_size = 7});
    Writer w(out);
    w.begin_list();
    for (int i = 1; i <= 300; ++i) {
      w.begin_list();
      w.value(i);
      w.value(-i);
      w.value(1.0 / i);
      w.value(std::sqrt(static_cast<double>(i)));
      w.value("word " + std::to_string(i) + " it's");
      w.end_list();
    }
    w.end_list();
    out.flush();
  }
  const std::string text = sink.take();
  EXPECT_EQ(text.substr(0, 40), "[[1,-1,1.0,1.0,'word 1 it\\'s'],[2,-2,0.5");
  const Document doc = test::parse_everywhere(text);
  const List rows = doc.root().as_list();
  ASSERT_EQ(rows.size(), 300U);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto i = static_cast<std::int64_t>(r + 1);
    const List row = rows[r].as_list();
    ASSERT_EQ(row.size(), 5U);
    EXPECT_EQ(row[0].as_int64(), i);
    EXPECT_EQ(row[1].as_int64(), -i);
    EXPECT_EQ(row[2], Value(1.0 / static_cast<double>(i)));
    EXPECT_EQ(row[3], Value(std::sqrt(static_cast<double>(i))));
    EXPECT_EQ(row[4].as_string(), "word " + std::to_string(i) + " it's");
  }
}

TEST(StonRoundTrip, PharoMetadataIsRewrittenAsPharoWritesIt) {
  const std::vector<std::string_view> texts = {
      "{\n\t#format : #tonel\n}",
      "{\n\t'srcDirectory' : 'src'\n}",
      // One literal on two lines, not two elements missing a comma.
      // NOLINTNEXTLINE(bugprone-suspicious-missing-comma)
      "Class {\n\t#name : #Foo,\n\t#superclass : #Object,\n\t#instVars : [\n\t\t'count',\n"
      "\t\t'items'\n\t],\n\t#category : 'Bar'\n}",
      "Package {\n\t#name : #Bar-Core\n}",
      "Trait {\n\t#name : #TFoo,\n\t#category : #Bar-Traits\n}",
      "Class {\n\t#name : #Foo,\n\t#superclass : #Object,\n\t#category : #'Bar Core'\n}",
  };
  for (std::string_view text : texts) {
    const Document doc = test::parse_everywhere(text);
    EXPECT_EQ(test::write_everywhere(doc.root(), {.indent = 1}), text);
  }
  // Tonel's own writer quotes every symbol with a '-' (`#'Bar-Core'`); STON's rule writes
  // it bare, and both read as the same symbol.
  EXPECT_EQ(to_string(parse("Package {\n\t#name : #'Bar-Core'\n}").root(), {.indent = 1}),
            "Package {\n\t#name : #Bar-Core\n}");
  const Document compact =
      parse("Class { #name : #Foo, #superclass : #Object, #category : 'Bar' }");
  EXPECT_EQ(to_string(compact.root()), "Class{#name:#Foo,#superclass:#Object,#category:'Bar'}");
}

}  // namespace
}  // namespace bufstream::ston
