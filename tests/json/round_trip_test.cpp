// Round trips of randomly generated documents (deep nesting, every escape, characters outside
// the Basic Multilingual Plane, extreme numbers): nlohmann::json -> Writer -> text -> Reader
// -> nlohmann::json gives back an equal value, and the text agrees with nlohmann both ways
// (nlohmann parses our output; we read nlohmann's dump()).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bufstream/json/document.hpp>
#include <bufstream/utf8.hpp>

#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

using testing_support::for_each_reader;

class DocumentGenerator {
 public:
  explicit DocumentGenerator(std::uint32_t seed) : rng_(seed) {}

  nlohmann::json document() { return value(0); }

 private:
  std::uint64_t below(std::uint64_t n) {
    return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_);
  }

  nlohmann::json value(int depth) {
    const std::uint64_t kind = below(depth < 7 ? 9 : 6);
    switch (kind) {
      case 0: return nullptr;
      case 1: return below(2) == 0;
      case 2: return integer();
      case 3: return floating();
      case 4:
      case 5: return string();
      case 6: {
        nlohmann::json a = nlohmann::json::array();
        for (std::uint64_t n = below(6); n > 0; --n) a.push_back(value(depth + 1));
        return a;
      }
      default: {
        nlohmann::json o = nlohmann::json::object();
        for (std::uint64_t n = below(6); n > 0; --n) o[string()] = value(depth + 1);
        return o;
      }
    }
  }

  nlohmann::json integer() {
    switch (below(6)) {
      case 0: return std::numeric_limits<std::int64_t>::min();
      case 1: return std::numeric_limits<std::int64_t>::max();
      case 2: return std::numeric_limits<std::uint64_t>::max();
      case 3: return static_cast<std::int64_t>(below(2000)) - 1000;
      case 4: return static_cast<std::int64_t>(rng_());
      default: return std::uint64_t{rng_()} << 32 | rng_();
    }
  }

  nlohmann::json floating() {
    switch (below(8)) {
      case 0: return 0.0;
      case 1: return -0.0;
      case 2: return std::numeric_limits<double>::max();
      case 3: return std::numeric_limits<double>::denorm_min();
      case 4: return -std::numeric_limits<double>::min();
      case 5: return static_cast<double>(below(1000));  // integral doubles stay doubles
      default: {
        double d = 0;
        do {
          d = std::bit_cast<double>(std::uint64_t{rng_()} << 32 | rng_());
        } while (!std::isfinite(d));
        return d;
      }
    }
  }

  std::string string() {
    static const char32_t specials[] = {'"',    '\\',   '/',     '\b',    '\f',    '\n',   '\r',
                                        '\t',   0,      0x1f,    0x7f,    0xe9,    0x20ac, 0x2028,
                                        0xfffd, 0xffff, 0x1f600, 0x10000, 0x10ffff};
    std::string s;
    for (std::uint64_t n = below(12); n > 0; --n) {
      char32_t cp = 0;
      switch (below(4)) {
        case 0: cp = specials[below(std::size(specials))]; break;
        case 1: cp = static_cast<char32_t>(below(0x80)); break;
        case 2: cp = static_cast<char32_t>(0x80 + below(0xD800 - 0x80)); break;
        default: cp = static_cast<char32_t>(0x10000 + below(0x100000)); break;
      }
      char bytes[4];
      s.append(bytes, bufstream::utf8::encode(cp, bytes));
    }
    return s;
  }

  std::mt19937 rng_;
};

std::string write_text(const nlohmann::json& doc, WriteOptions options = {}) {
  StringWriteStream out;
  json::write(out, doc, options);
  return out.take();
}

std::string write_text(const Value& value, WriteOptions options = {}) {
  StringWriteStream out;
  Writer w(out, options);
  w.value(value);
  w.finish();
  return out.take();
}

TEST(JsonRoundTrip, RandomDocumentsThroughWriterAndReader) {
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    DocumentGenerator gen(seed);
    const nlohmann::json doc = gen.document();
    for (const WriteOptions& options :
         {WriteOptions{}, WriteOptions{.indent = 2}, WriteOptions{.ascii_only = true}}) {
      const std::string text = write_text(doc, options);
      ASSERT_EQ(nlohmann::json::parse(text), doc) << text;  // our output, parsed by nlohmann
      MemoryReadStream in(text);
      ASSERT_EQ(json::read(in), doc) << text;
      // Through a Document: the same value, and written again, the same bytes.
      const Document read_back = Document::parse(text);
      ASSERT_EQ(to_nlohmann(read_back.root()), doc) << text;
      ASSERT_EQ(write_text(read_back.root(), options), text);
      ASSERT_EQ(write_text(Document::from_nlohmann(doc).root(), options), text);
      if (options.ascii_only) {
        for (char c : text) ASSERT_LT(static_cast<unsigned char>(c), 0x7f) << text;
      }
    }
    const std::string dump = doc.dump();  // nlohmann's output, read by us
    MemoryReadStream dumped(dump);
    EXPECT_EQ(json::read(dumped), doc);
  }
}

TEST(JsonRoundTrip, RandomDocumentsOverEveryReaderSetup) {
  for (std::uint32_t seed = 1000; seed < 1030; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    DocumentGenerator gen(seed);
    const nlohmann::json doc = gen.document();
    const std::string text = write_text(doc, {.indent = 1});
    for_each_reader(text, [&](ReadStream& in) { EXPECT_EQ(json::read(in), doc); });
    for_each_reader(
        text, [&](ReadStream& in) { EXPECT_EQ(to_nlohmann(Document::parse(in).root()), doc); });
  }
}

TEST(JsonRoundTrip, JsonLinesOfRandomDocuments) {
  std::vector<nlohmann::json> docs;
  StringWriteStream out;
  Writer w(out, {.json_lines = true});
  for (std::uint32_t seed = 2000; seed < 2050; ++seed) {
    docs.push_back(DocumentGenerator(seed).document());
    w.value(docs.back());
  }
  w.finish();
  const std::string text = out.take();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 50);
  for_each_reader(text, [&](ReadStream& in) {
    Reader r(in);
    std::size_t i = 0;
    while (!r.at_end()) {
      ASSERT_LT(i, docs.size());
      EXPECT_EQ(r.read(), docs[i++]);
    }
    EXPECT_EQ(i, docs.size());
  });
  for_each_reader(text, [&](ReadStream& in) {
    Reader r(in);
    std::size_t i = 0;
    while (!r.at_end()) {
      ASSERT_LT(i, docs.size());
      EXPECT_EQ(to_nlohmann(Document::parse_next(r).root()), docs[i++]);
    }
    EXPECT_EQ(i, docs.size());
  });
}

TEST(JsonRoundTrip, FloatsStayFloatsAndIntegersStayIntegers) {
  const nlohmann::json doc = nlohmann::json::array({1.0, 1, -0.0, 0, 1e300, -5});
  const std::string text = write_text(doc);
  MemoryReadStream in(text);
  const nlohmann::json back = json::read(in);
  for (std::size_t i = 0; i < doc.size(); ++i) {
    EXPECT_EQ(back[i].is_number_float(), doc[i].is_number_float()) << i;
  }
  EXPECT_TRUE(std::signbit(back[2].get<double>()));
  const Document read_back = Document::parse(text);
  const Type expected[] = {Type::floating, Type::uint64,   Type::floating,
                           Type::uint64,   Type::floating, Type::int64};
  for (std::size_t i = 0; i < doc.size(); ++i) EXPECT_EQ(read_back.root()[i].type(), expected[i]);
  EXPECT_TRUE(std::signbit(read_back.root()[2].as_double()));
}

}  // namespace
}  // namespace bufstream::json
