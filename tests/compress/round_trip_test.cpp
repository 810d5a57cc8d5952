// Compressing writers: round trips of random data and the benchmark file at several levels,
// through every kind of sink; our output read by the system's gzip and zstd, theirs read by us.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <bufstream/buffered_write_stream.hpp>

#include "compress_fixtures.hpp"

namespace bufstream {
namespace {

using test::Codec;

const std::string& cedict_prefix() {
  // The first 256 KiB of the benchmark's dictionary: real text, quick to compress.
  static const std::string text = [] {
    std::ifstream in(BUFSTREAM_CEDICT_FILE, std::ios::binary);
    std::string t(256 * 1024, '\0');
    in.read(t.data(), static_cast<std::streamsize>(t.size()));
    t.resize(static_cast<std::size_t>(in.gcount()));
    return t;
  }();
  return text;
}

struct LevelCase {
  Codec codec;
  int level;
};

class Levels : public ::testing::TestWithParam<LevelCase> {};

INSTANTIATE_TEST_SUITE_P(All, Levels,
                         ::testing::Values(LevelCase{Codec::gzip, 0}, LevelCase{Codec::gzip, 1},
                                           LevelCase{Codec::gzip, 6}, LevelCase{Codec::gzip, 9},
                                           LevelCase{Codec::zlib, 1}, LevelCase{Codec::zlib, 9},
                                           LevelCase{Codec::zstd, -5}, LevelCase{Codec::zstd, 1},
                                           LevelCase{Codec::zstd, 3}, LevelCase{Codec::zstd, 9}),
                         [](const auto& p) {
                           return test::codec_name(p.param.codec) + "_level" +
                                  (p.param.level < 0 ? "minus" + std::to_string(-p.param.level)
                                                     : std::to_string(p.param.level));
                         });

TEST_P(Levels, RandomDataRoundTrips) {
  for (std::size_t n : std::initializer_list<std::size_t>{0, 1, 100, 70000, 150000}) {
    const std::string data = test::random_bytes(n, n + 3);
    EXPECT_EQ(test::decompress(GetParam().codec,
                               test::compress(GetParam().codec, data, GetParam().level)),
              data)
        << n << " bytes";
  }
}

TEST_P(Levels, TheBenchmarkTextRoundTripsAndShrinks) {
  const std::string& text = cedict_prefix();
  ASSERT_GT(text.size(), 100000U);
  const std::string packed = test::compress(GetParam().codec, text, GetParam().level);
  if (GetParam().level != 0) {
    EXPECT_LT(packed.size(), text.size() / 2);
  }
  EXPECT_EQ(test::decompress(GetParam().codec, packed), text);
}

TEST_P(Levels, TheSystemToolReadsOurOutput) {
  if (GetParam().codec == Codec::zlib) GTEST_SKIP() << "no system tool reads raw zlib";
  const std::string text = test::sample_text(60000, 5);
  const std::string packed = test::compress(GetParam().codec, text, GetParam().level);
  EXPECT_EQ(test::run_tool(GetParam().codec == Codec::gzip ? "gzip -dc" : "zstd -dcq", packed),
            text);
}

TEST(SystemTools, WeReadTheirOutputAtEveryLevel) {
  const std::string text = test::sample_text(30000, 9);
  for (const char* level : {"-1", "-6", "-9"}) {
    const auto packed = test::run_tool(std::string("gzip -nc ") + level, text);
    ASSERT_TRUE(packed);
    EXPECT_EQ(test::decompress(Codec::gzip, *packed), text) << level;
  }
  for (const char* level : {"-1", "-3", "-19", "--fast=4"}) {
    const auto packed = test::run_tool(std::string("zstd -qc ") + level, text);
    ASSERT_TRUE(packed);
    EXPECT_EQ(test::decompress(Codec::zstd, *packed), text) << level;
  }
}

TEST(SystemTools, WeReadAGzipHeaderWithNameAndTime) {
  // gzip without -n stores the file name and time in the header.
  test::TempFile file("named content\n");
  const auto packed = test::run_tool("gzip -c " + file.path(), "");
  ASSERT_TRUE(packed);
  EXPECT_EQ(test::decompress(Codec::gzip, *packed), "named content\n");
}

TEST(SystemTools, TheyReadOurConcatenatedMembersAndFrames) {
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    StringWriteStream out;
    auto writer = test::make_writer(codec, out);
    writer->write("one\n");
    writer->finish();
    writer->write("two\n");
    writer->flush();
    writer->write("three\n");
    writer->close();
    EXPECT_EQ(test::run_tool(codec == Codec::gzip ? "gzip -dc" : "zstd -dcq", out.view()),
              "one\ntwo\nthree\n");
    EXPECT_EQ(test::decompress(codec, out.view()), "one\ntwo\nthree\n");
  }
}

TEST(SystemTools, WeReadMultiFrameZstdAndSkippableFrames) {
  const auto a = test::run_tool("zstd -qc", "first frame\n");
  const auto b = test::run_tool("zstd -qc --no-check", "second frame\n");
  ASSERT_TRUE(a && b);
  // A skippable frame: magic 0x184D2A50 (little-endian), a 4-byte length, that many bytes.
  const std::string skippable("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
  EXPECT_EQ(test::decompress(Codec::zstd, *a + skippable + *b), "first frame\nsecond frame\n");
}

// ---- Writers over every sink, with tiny buffers of their own -------------------------------

class CompressInto : public ::testing::TestWithParam<test::WriteSetup> {};

INSTANTIATE_TEST_SUITE_P(AllSinks, CompressInto, ::testing::ValuesIn(test::all_write_setups()),
                         test::write_setup_name);

TEST_P(CompressInto, EveryOperationRoundTrips) {
  const std::string text = test::sample_text(20000, 11);
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    for (std::size_t size : std::initializer_list<std::size_t>{1, 7, 65536}) {
      auto target = GetParam().make();
      auto writer = test::make_writer(codec, target->stream(), -1, size);
      writer->put('<');
      writer->write(std::string_view(text).substr(0, 10000));  // larger than the buffer
      for (char c : std::string_view(text).substr(10000, 100)) writer->put(c);
      writer->print(12345);
      writer->flush();
      writer->write(std::string_view(text).substr(10100));
      char* room = writer->reserve(3);
      room[0] = '>';
      writer->commit(1);
      writer->close();
      EXPECT_TRUE(writer->is_closed());
      EXPECT_EQ(writer->position(), text.size() + 7);
      const std::string packed = target->finish();
      EXPECT_EQ(test::decompress(codec, packed),
                "<" + text.substr(0, 10100) + "12345" + text.substr(10100) + ">")
          << test::codec_name(codec) << " buffer " << size;
    }
  }
}

TEST(CompressWriteStream, EveryTinyBufferRoundTrips) {
  const std::string text = test::sample_text(5000, 12);
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    for (std::size_t size : testing::tiny_buffer_sizes()) {
      StringWriteStream out;
      auto writer = test::make_writer(codec, out, -1, size);
      EXPECT_EQ(writer->buffer_size(), size);
      for (char c : std::string_view(text).substr(0, 100)) writer->put(c);
      writer->write(std::string_view(text).substr(100, 3000));
      writer->flush();
      writer->print(-7);
      writer->finish();  // a second member or frame follows
      writer->write(std::string_view(text).substr(3100));
      writer->close();
      EXPECT_EQ(writer->position(), text.size() + 2);
      EXPECT_EQ(test::decompress(codec, out.view()),
                text.substr(0, 3100) + "-7" + text.substr(3100))
          << test::codec_name(codec) << " buffer " << size;
    }
  }
}

TEST(CompressWriteStream, AnEmptyStreamIsAValidEmptyFile) {
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    StringWriteStream out;
    test::make_writer(codec, out)->close();
    EXPECT_FALSE(out.view().empty());
    EXPECT_EQ(test::run_tool(codec == Codec::gzip ? "gzip -dc" : "zstd -dcq", out.view()), "");
    EXPECT_EQ(test::decompress(codec, out.view()), "");
  }
}

TEST(CompressWriteStream, FlushMakesEveryByteSoFarReadable) {
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    StringWriteStream out;
    auto writer = test::make_writer(codec, out);
    writer->write("visible before the end");
    writer->flush();
    // The stream is not finished, so reading to the end is an error, but every byte written
    // before the flush comes out first.
    MemoryReadStream in(out.view());
    auto reader = test::make_reader(codec, in);
    EXPECT_EQ(reader->next(22), "visible before the end");
    EXPECT_THROW((void)reader->next_byte(), ParseError);
    writer->close();
  }
}

TEST(CompressWriteStream, DestructionFinishesTheStream) {
  for (Codec codec : {Codec::gzip, Codec::zstd}) {
    StringWriteStream out;
    test::make_writer(codec, out)->write("not closed");
    EXPECT_EQ(test::decompress(codec, out.view()), "not closed");
    EXPECT_FALSE(out.is_closed());
  }
}

TEST(CompressWriteStream, CloseClosesTheSinkOwnedOrNot) {
  StringWriteStream borrowed;
  compress::GzipWriteStream a(borrowed);
  a.close();
  EXPECT_TRUE(borrowed.is_closed());
  auto owned = std::make_unique<StringWriteStream>();
  StringWriteStream* sink = owned.get();
  compress::ZstdWriteStream b(std::move(owned));
  b.write("x");
  b.close();
  EXPECT_TRUE(sink->is_closed());
  EXPECT_THROW(b.put('y'), IoError);
}

TEST(CompressWriteStream, LevelsOutsideTheRangeAreRefused) {
  StringWriteStream out;
  EXPECT_THROW(compress::GzipWriteStream(out, {.level = 10}), UsageError);
  EXPECT_THROW(compress::GzipWriteStream(out, {.level = -1}), UsageError);
  EXPECT_THROW(compress::ZstdWriteStream(out, {.level = 23}), UsageError);
}

}  // namespace
}  // namespace bufstream
