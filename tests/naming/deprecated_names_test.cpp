// The names of one version ago (docs/ARCHITECTURE.md, "Naming") still name what the new names
// name, and still work, for one version. They are [[deprecated]]; this file alone turns the
// warning off, so that every other use in the tree is held to the new names by -Werror.
#include <memory>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include <bufstream/cedict.hpp>
#include <bufstream/csv.hpp>
#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/ston.hpp>
#include <bufstream/string_write_stream.hpp>
#if __has_include(<bufstream/compress.hpp>)
#include <bufstream/compress.hpp>
#define NAMING_TEST_HAS_COMPRESS 1
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace bufstream {
namespace {

TEST(DeprecatedNames, AreAliasesOfTheNewNames) {
  static_assert(std::is_same_v<json::UsageError, UsageError>);
  static_assert(std::is_same_v<json::AccessError, AccessError>);
  static_assert(std::is_same_v<ston::WriteError, UsageError>);
  static_assert(std::is_same_v<ston::TypeError, AccessError>);
  static_assert(std::is_same_v<csv::ReaderOptions, csv::ReadOptions>);
  static_assert(std::is_same_v<csv::WriterOptions, csv::WriteOptions>);
  static_assert(std::is_same_v<csv::LineEnd, LineEnd>);
  static_assert(std::is_same_v<cedict::LoadOptions, cedict::ReadOptions>);
  static_assert(json::default_max_depth == default_max_depth);
  static_assert(ston::default_max_depth == default_max_depth);
#ifdef NAMING_TEST_HAS_COMPRESS
  static_assert(std::is_same_v<GzipReadStream, compress::GzipReadStream>);
  static_assert(std::is_same_v<GzipWriteStream, compress::GzipWriteStream>);
  static_assert(std::is_same_v<GzipWriteOptions, compress::GzipWriteOptions>);
  static_assert(std::is_same_v<GzipFormat, compress::GzipFormat>);
  static_assert(std::is_same_v<ZstdReadStream, compress::ZstdReadStream>);
  static_assert(std::is_same_v<ZstdWriteStream, compress::ZstdWriteStream>);
  static_assert(std::is_same_v<ZstdWriteOptions, compress::ZstdWriteOptions>);
  static_assert(std::is_same_v<DecompressOptions, compress::ReadOptions>);
  static_assert(std::is_same_v<DecompressReadStream, compress::DecompressReadStream>);
  static_assert(std::is_same_v<CompressWriteStream, compress::CompressWriteStream>);
#endif
}

TEST(DeprecatedNames, CatchWhatTheyCaught) {
  StringWriteStream out;
  json::Writer writer(out);
  writer.begin_object();
  EXPECT_THROW(writer.value(1), json::UsageError);  // a value where a key is due
  const json::Document doc = json::Document::parse("{\"a\":1}");
  EXPECT_THROW((void)doc.at("/b"), json::AccessError);

  ston::Document graph;
  ston::List cycle = graph.list({1});
  cycle.push_back(cycle);
  EXPECT_THROW((void)ston::to_string(cycle, {.references = ston::ReferencePolicy::error}),
               ston::WriteError);
  EXPECT_THROW((void)ston::Value("x").as_int64(), ston::TypeError);
}

TEST(DeprecatedNames, OptionsStillConfigure) {
  StringWriteStream text;
  csv::Writer writer(text, csv::WriterOptions{.separator = ';', .line_end = csv::LineEnd::lf});
  writer.row("a", "b");
  EXPECT_EQ(text.view(), "a;b\n");
  MemoryReadStream in(text.view());
  csv::Reader reader(in, csv::ReaderOptions{.separator = ';'});
  ASSERT_NE(reader.next(), nullptr);

  const cedict::Dictionary dict = cedict::Dictionary::load_view(
      "\xE4\xBD\xA0\xE5\xA5\xBD \xE4\xBD\xA0\xE5\xA5\xBD [ni3 hao3] /hello/hi/\n",
      cedict::LoadOptions{.source_name = "old.u8"});
  EXPECT_EQ(dict.size(), 1U);

#ifdef NAMING_TEST_HAS_COMPRESS
  StringWriteStream gz;
  GzipWriteStream gzip(gz, GzipWriteOptions{.level = 1, .format = GzipFormat::gzip});
  gzip.write("old names\n");
  gzip.close();
  MemoryReadStream compressed(gz.view());
  std::unique_ptr<DecompressReadStream> gunzip = std::make_unique<GzipReadStream>(
      compressed, GzipFormat::gzip, DecompressOptions{.source_name = "old.gz"});
  EXPECT_EQ(gunzip->up_to_end(), "old names\n");
#endif
}

}  // namespace
}  // namespace bufstream

#pragma GCC diagnostic pop
