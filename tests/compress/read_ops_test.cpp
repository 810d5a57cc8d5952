// The read protocol through each decompressing decorator: every operation, over every kind of
// source (memory, one byte per read, a pipe, tiny buffers under the decorator) and with tiny
// buffers in the decorator itself, so that every token crosses a window edge somewhere.
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <zstd.h>

#include <bufstream/fd_read_stream.hpp>

#include "compress_fixtures.hpp"

namespace bufstream {
namespace {

using test::Codec;

struct DecoderSetup {
  std::string name;
  Codec codec;
  test::ReadSetup source;
  std::size_t buffer_size;
};

void PrintTo(const DecoderSetup& s, std::ostream* os) { *os << s.name; }

std::vector<DecoderSetup> decoder_setups() {
  std::vector<DecoderSetup> setups;
  for (Codec codec : {Codec::gzip, Codec::zlib, Codec::zstd}) {
    const std::string c = test::codec_name(codec);
    for (const test::ReadSetup& source : test::decorator_sources()) {
      setups.push_back({c + "_over_" + source.name, codec, source, 65536});
    }
    for (std::size_t size : std::initializer_list<std::size_t>{1, 2, 3, 7}) {
      setups.push_back({c + std::to_string(size) + "_over_memory",
                        codec,
                        {"memory", test::reader_over_memory},
                        size});
      setups.push_back({c + std::to_string(size) + "_over_chunked1",
                        codec,
                        {"chunked1", test::reader_one_byte_per_read},
                        size});
    }
  }
  return setups;
}

class DecompressOps : public ::testing::TestWithParam<DecoderSetup> {
 protected:
  /// A decompressing stream whose content is `text`.
  ReadStream& open(const std::string& text) { return open_compressed(compressed(text)); }

  /// A decompressing stream over `bytes` (already compressed).
  ReadStream& open_compressed(std::string bytes) {
    const DecoderSetup& s = GetParam();
    compressed_ = std::make_unique<std::string>(std::move(bytes));
    source_ = s.source.make(*compressed_);
    stream_ = test::make_reader(s.codec, *source_.stream, s.buffer_size);
    return *stream_;
  }

  /// `text` compressed with the setup's codec, cached across the cases.
  std::string compressed(const std::string& text) {
    static std::map<std::pair<Codec, std::string>, std::string> cache;
    const auto key = std::make_pair(GetParam().codec, text);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, test::compress(key.first, text)).first;
    return it->second;
  }

  ReadStream& source() { return *source_.stream; }

 private:
  std::unique_ptr<std::string> compressed_;
  test::OwningReader source_;
  std::unique_ptr<compress::DecompressReadStream> stream_;
};

INSTANTIATE_TEST_SUITE_P(Setups, DecompressOps, ::testing::ValuesIn(decoder_setups()),
                         [](const auto& p) { return p.param.name; });

const std::string& all_bytes() {
  static const std::string text = [] {
    std::string t;
    for (int i = 0; i < 256; ++i) t += static_cast<char>(i);
    return t;
  }();
  return text;
}

/// A text longer than the default buffer, made of repeats so that it compresses to a few KiB:
/// a source that gives one byte per read then costs thousands of reads, not tens of thousands.
const std::string& long_text() {
  static const std::string text = [] {
    const std::string part = test::sample_text(5000, 3);
    std::string t;
    for (int i = 0; i < 18; ++i) t += part + std::to_string(i);
    return t;
  }();
  return text;
}

TEST_P(DecompressOps, NextByteGivesEveryByteThenTheEnd) {
  ReadStream& in = open(all_bytes());
  for (int i = 0; i < 256; ++i) ASSERT_EQ(in.next_byte(), i);
  EXPECT_EQ(in.next_byte(), ReadStream::end_of_stream);
  EXPECT_EQ(in.next(), std::nullopt);
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.position(), 256U);
}

TEST_P(DecompressOps, PeekAndAtEndDoNotConsume) {
  ReadStream& in = open("ab");
  EXPECT_EQ(in.peek(), 'a');
  EXPECT_FALSE(in.at_end());
  EXPECT_EQ(in.next(), 'a');
  EXPECT_TRUE(in.peek_for('b'));
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.peek(), std::nullopt);
}

TEST_P(DecompressOps, AnEmptyContentHasNothing) {
  ReadStream& in = open("");
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.up_to_end(), "");
  EXPECT_EQ(in.fill(5).size(), 0U);
  std::array<char, 100000> big{};
  EXPECT_EQ(in.read_some(big), 0U);
}

TEST_P(DecompressOps, NextNTakesWhatIsAskedOrWhatIsLeft) {
  const std::string& text = long_text();
  ReadStream& in = open(text);
  std::size_t at = 0;
  for (std::size_t n : std::initializer_list<std::size_t>{1, 5, 100, 4096, 40000, 3}) {
    EXPECT_EQ(in.next(n), text.substr(at, n));
    at += n;
  }
  EXPECT_EQ(in.next(1000000), text.substr(at));
  EXPECT_EQ(in.next(10), "");
}

TEST_P(DecompressOps, LargeReadsGoStraightIntoTheCallersMemory) {
  const std::string& text = long_text();
  ReadStream& in = open(text);
  std::string got(text.size() + 10, '?');
  EXPECT_EQ(in.read_into(std::span<char>(got)), text.size());
  got.resize(text.size());
  EXPECT_EQ(got, text);
  EXPECT_EQ(in.position(), text.size());
}

TEST_P(DecompressOps, ReadSomeGivesAtLeastOneByteUntilTheEnd) {
  const std::string text = test::sample_text(5000, 7);
  ReadStream& in = open(text);
  std::string got;
  std::array<char, 13> chunk{};
  while (const std::size_t n = in.read_some(chunk)) got.append(chunk.data(), n);
  EXPECT_EQ(got, text);
}

TEST_P(DecompressOps, LinesAndDelimitersAcrossWindows) {
  ReadStream& in = open("first\r\nsecond\nthird\rfourth,a,b\nlast");
  EXPECT_EQ(in.next_line(), "first");
  EXPECT_EQ(in.next_line(), "second");
  EXPECT_EQ(in.next_line(), "third");
  EXPECT_EQ(in.up_to(','), "fourth");
  EXPECT_TRUE(in.skip_to(','));
  EXPECT_EQ(in.next_line(), "b");
  EXPECT_EQ(in.next_line(), "last");
  EXPECT_EQ(in.next_line(), std::nullopt);
}

TEST_P(DecompressOps, FillGrowsTheWindowBeyondTheBuffer) {
  const std::string& text = long_text();
  ReadStream& in = open(text);
  ASSERT_EQ(in.next(3), text.substr(0, 3));
  const std::string_view window = in.fill(70000);
  ASSERT_GE(window.size(), 70000U);
  EXPECT_EQ(window.substr(0, 70000), std::string_view(text).substr(3, 70000));
  in.advance(70000);
  EXPECT_EQ(in.fill(1000000).size(), text.size() - 70003);
  EXPECT_EQ(in.up_to_end(), text.substr(70003));
}

TEST_P(DecompressOps, SkipAndPositionFollowEveryOperation) {
  const std::string& text = long_text();
  ReadStream& in = open(text);
  EXPECT_EQ(in.skip(10), 10U);
  EXPECT_EQ(in.position(), 10U);
  EXPECT_EQ(in.next_byte(), static_cast<unsigned char>(text[10]));
  EXPECT_EQ(in.skip(70000), 70000U);
  EXPECT_EQ(in.position(), 70011U);
  EXPECT_EQ(in.skip(1000000), text.size() - 70011);
  EXPECT_EQ(in.position(), text.size());
  EXPECT_THROW((void)in.skip(-1), std::invalid_argument);
}

TEST_P(DecompressOps, NextIntAcrossWindows) {
  ReadStream& in = open(std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9));
  EXPECT_EQ(in.next_int<std::uint8_t>(), 1U);
  EXPECT_EQ(in.next_int<std::uint64_t>(std::endian::little), 0x0908070605040302ULL);
  EXPECT_THROW((void)in.next_int<std::uint16_t>(), ParseError);
}

TEST_P(DecompressOps, ConcatenatedMembersReadAsOneStream) {
  const std::string a = test::sample_text(3000, 1);
  const std::string b = test::sample_text(8000, 2);
  ReadStream& in = open_compressed(compressed(a) + compressed("") + compressed(b) + compressed(a));
  EXPECT_EQ(in.up_to_end(), a + b + a);
  EXPECT_TRUE(in.at_end());
}

TEST_P(DecompressOps, TheSourceStandsAfterTheLastMember) {
  // The decorator consumes exactly the compressed bytes: what the source holds next is the
  // source's again once the stream has ended.
  ReadStream& in = open("payload");
  EXPECT_EQ(in.up_to_end(), "payload");
  EXPECT_TRUE(source().at_end());
}

TEST_P(DecompressOps, CloseClosesTheSourceAndLaterReadsThrow) {
  ReadStream& in = open("abcdef");
  EXPECT_EQ(in.next(2), "ab");
  in.close();
  EXPECT_TRUE(source().is_closed());
  EXPECT_THROW((void)in.next_byte(), IoError);
  EXPECT_EQ(in.position(), 2U);
}

// The read(2) calls this process has made, as the kernel counts them (Linux).
std::optional<std::uint64_t> read_calls() {
  std::ifstream io("/proc/self/io");
  std::string key;
  std::uint64_t value = 0;
  while (io >> key >> value) {
    if (key == "syscr:") return value;
  }
  return std::nullopt;
}

// A source without a buffer of its own (a descriptor) is read in blocks, not with one read(2)
// per compressed byte.
TEST(DecompressOverADescriptor, ReadsTheSourceInBlocks) {
  if (!read_calls()) GTEST_SKIP() << "no /proc/self/io";
  const std::string text = test::sample_text(2'000'000, 7);
  for (const Codec codec : {Codec::gzip, Codec::zlib, Codec::zstd}) {
    SCOPED_TRACE(test::codec_name(codec));
    const std::string packed = test::compress(codec, text);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("bufstream-compress-" + std::to_string(::getpid()) + "-" + test::codec_name(codec));
    {
      std::ofstream file(path, std::ios::binary);
      file.write(packed.data(), static_cast<std::streamsize>(packed.size()));
    }
    FdReadStream file(path);
    const std::unique_ptr<compress::DecompressReadStream> in = test::make_reader(codec, file);
    const std::uint64_t before = *read_calls();
    const std::string out = in->up_to_end();
    const std::uint64_t calls = *read_calls() - before;
    std::filesystem::remove(path);
    EXPECT_EQ(out, text);
    // 64 KiB blocks, and a few reads of /proc/self/io itself.
    EXPECT_LE(calls, packed.size() / 65536 + 20) << packed.size() << " compressed bytes";
  }
}

// A zstd frame written in one call declares its content size: the stream tells readers what is
// left (remaining_hint), as a plain file would, so that they size their tables up front.
// Frames written as a stream and gzip declare nothing: no hint.
TEST(DecompressRemainingHint, AFrameThatDeclaresItsSizeTellsWhatIsLeft) {
  const std::string text = test::sample_text(300'000, 3);
  std::string packed(ZSTD_compressBound(text.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), text.data(), text.size(), 3));
  ASSERT_FALSE(ZSTD_isError(packed.size()));
  for (const std::size_t buffer_size : {std::size_t{1}, std::size_t{7}, std::size_t{65536}}) {
    SCOPED_TRACE(buffer_size);
    MemoryReadStream source(packed);
    compress::ZstdReadStream in(source, {.buffer_size = buffer_size});
    EXPECT_EQ(in.remaining_hint(), std::nullopt);  // the frame has not begun
    ASSERT_EQ(in.next_byte(), text[0]);
    EXPECT_EQ(in.remaining_hint(), text.size() - 1);
    in.skip(100'000);
    EXPECT_EQ(in.remaining_hint(), text.size() - 100'001);
    std::string rest(50'000, '\0');
    in.read_into(rest);  // straight into this memory, past the window
    EXPECT_EQ(in.remaining_hint(), text.size() - 150'001);
    EXPECT_EQ(in.up_to_end(), text.substr(150'001));
    EXPECT_EQ(in.remaining_hint(), 0U);
  }
  // Two frames: the hint counts the current one only (it is a hint, never a promise).
  const std::string two = packed + packed;
  MemoryReadStream source(two);
  compress::ZstdReadStream in(source);
  in.skip(10);
  EXPECT_EQ(in.remaining_hint(), text.size() - 10);
  EXPECT_EQ(in.up_to_end().size(), 2 * text.size() - 10);
  EXPECT_EQ(in.remaining_hint(), 0U);
  for (const Codec codec : {Codec::gzip, Codec::zlib, Codec::zstd}) {
    SCOPED_TRACE(test::codec_name(codec));
    const std::string streamed = test::compress(codec, text);  // as a stream: no size
    MemoryReadStream plain(streamed);
    const std::unique_ptr<compress::DecompressReadStream> reader = test::make_reader(codec, plain);
    reader->skip(10);
    EXPECT_EQ(reader->remaining_hint(), std::nullopt);
  }
}

}  // namespace
}  // namespace bufstream
