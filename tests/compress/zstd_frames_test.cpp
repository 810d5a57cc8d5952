// zstd frames as they come, over every source and every buffer size: legacy frames (the formats
// before zstd 1.0, which libzstd reads when it is built with legacy support, as Debian's is),
// current and skippable frames, concatenated, and cut short. The content is what libzstd makes of
// the whole input in one call (ZSTD_decompress); an error is the one (message and offset) of a
// read over a large buffer.
#include <zstd.h>

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "compress_fixtures.hpp"

namespace bufstream {
namespace {

using test::Codec;

// ---- Frames made byte by byte ----------------------------------------------------------------

// Legacy frames of v0.5 to v0.7 share their block header: 3 bytes, big-endian, the block's type
// in the top two bits (0 compressed, 1 raw, 2 RLE, 3 the end of the frame) and its size in the
// low 19 (lib/legacy/zstd_v0*.c, getcBlockSize).
std::string raw_block(std::string_view content) {
  const std::size_t n = content.size();
  std::string block{static_cast<char>(0x40 | (n >> 16 & 0x07)), static_cast<char>(n >> 8 & 0xff),
                    static_cast<char>(n & 0xff)};
  return block.append(content);
}

const std::string end_block("\xc0\x00\x00", 3);

// A legacy frame of `version` (5, 6 or 7) holding `content` in one raw block (none when it is
// empty), then the end block. The frame header is the magic number 0xFD2FB525 + (version - 5),
// little-endian, then: v0.5 one byte, the window's log less 11 (0: 2 KiB); v0.6 one byte, the
// window's log less 10 in the low four bits and no content size in the top two; v0.7 the frame
// header descriptor (0: a window descriptor follows, no dictionary, no checksum, no content
// size) and the window descriptor (0: 1 KiB).
std::string legacy_frame(int version, std::string_view content) {
  std::string frame;
  switch (version) {
    case 5: frame.assign("\x25\xb5\x2f\xfd\x00", 5); break;
    case 6: frame.assign("\x26\xb5\x2f\xfd\x00", 5); break;
    case 7: frame.assign("\x27\xb5\x2f\xfd\x00\x00", 6); break;
  }
  if (!content.empty()) frame += raw_block(content);
  return frame + end_block;
}

// A current frame written in one call (its header declares the content size).
std::string current_frame(std::string_view content) {
  std::string frame(ZSTD_compressBound(content.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), content.data(), content.size(), 3));
  return frame;
}

// A skippable frame: magic 0x184D2A50 (little-endian), a 4-byte length, that many bytes.
const std::string skippable_frame("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);

// What libzstd makes of the whole input in one call; nullopt where it fails.
std::optional<std::string> one_shot(std::string_view bytes) {
  std::string out(65536, '\0');
  const std::size_t n = ZSTD_decompress(out.data(), out.size(), bytes.data(), bytes.size());
  if (ZSTD_isError(n)) return std::nullopt;
  out.resize(n);
  return out;
}

// Whether this libzstd reads legacy frames (a build option of libzstd: Debian's reads v0.5 on).
bool reads_legacy_frames() { return one_shot(legacy_frame(7, "")).has_value(); }

// ---- Every way of reading -------------------------------------------------------------------

struct Outcome {
  std::string content{};  // what was read before the end or the error
  std::string error{};    // the ParseError's message; empty if none
  std::size_t offset = 0;
  bool operator==(const Outcome&) const = default;
};

void PrintTo(const Outcome& o, std::ostream* os) {
  *os << "content \"" << o.content << "\"";
  if (!o.error.empty()) *os << ", error \"" << o.error << "\" at " << o.offset;
}

// A source (memory, one byte per read, a pipe, tiny windows over memory or one byte per read)
// under a ZstdReadStream of one of the buffer sizes 1, 2, 3, 7 and 65536.
struct Way {
  std::string name;
  test::ReadSetup source;
  std::size_t buffer_size;
};

void PrintTo(const Way& w, std::ostream* os) { *os << w.name; }

std::vector<Way> ways() {
  std::vector<Way> all;
  for (const test::ReadSetup& source : test::decorator_sources()) {
    for (const std::size_t size : testing::tiny_buffer_sizes()) {
      all.push_back({source.name + "_buffer" + std::to_string(size), source, size});
    }
  }
  return all;
}

Outcome read_all(ReadStream& source, std::size_t buffer_size) {
  compress::ZstdReadStream in(source, {.buffer_size = buffer_size});
  Outcome got;
  try {
    std::array<char, 64> chunk{};
    while (const std::size_t n = in.read_some(chunk)) got.content.append(chunk.data(), n);
  } catch (const ParseError& e) {
    got.error = e.message();
    got.offset = e.offset();
  }
  return got;
}

// The reference for errors: the whole input in memory, under the default 64 KiB buffer.
Outcome over_a_large_buffer(std::string_view bytes) {
  MemoryReadStream source(bytes);
  return read_all(source, 65536);
}

class ZstdFrames : public ::testing::TestWithParam<Way> {
 protected:
  Outcome read(std::string_view bytes) {
    const test::OwningReader source = GetParam().source.make(bytes);
    return read_all(*source.stream, GetParam().buffer_size);
  }
};

INSTANTIATE_TEST_SUITE_P(Ways, ZstdFrames, ::testing::ValuesIn(ways()),
                         [](const auto& p) { return p.param.name; });

TEST_P(ZstdFrames, ALegacyFrameIsReadWhateverTheBuffer) {
  if (!reads_legacy_frames()) GTEST_SKIP() << "libzstd is built without legacy support";
  for (const int version : {5, 6, 7}) {
    for (const std::string_view content : {"", "hello, legacy frame\n"}) {
      SCOPED_TRACE(::testing::Message() << "v0." << version << " \"" << content << "\"");
      const std::string frame = legacy_frame(version, content);
      ASSERT_EQ(one_shot(frame), content);  // libzstd's own reading: the bytes are a valid frame
      EXPECT_EQ(read(frame), Outcome{.content = std::string(content)});
    }
  }
}

TEST_P(ZstdFrames, LegacyFramesBetweenCurrentFrames) {
  if (!reads_legacy_frames()) GTEST_SKIP() << "libzstd is built without legacy support";
  const std::string legacy = legacy_frame(7, "legacy\n");
  const std::string current = current_frame("current\n");
  const std::string streamed = test::compress(Codec::zstd, "streamed\n");  // no content size
  const std::vector<std::string> inputs{
      current + legacy,
      legacy + current,
      streamed + legacy + streamed,
      legacy + legacy_frame(5, "") + legacy_frame(6, "six\n") + skippable_frame + legacy,
  };
  for (const std::string& bytes : inputs) {
    const std::optional<std::string> expected = one_shot(bytes);
    ASSERT_TRUE(expected);
    EXPECT_EQ(read(bytes), Outcome{.content = *expected}) << bytes.size() << " bytes";
  }
}

TEST_P(ZstdFrames, CurrentAndSkippableFramesConcatenated) {
  const std::string first = current_frame("first frame\n");
  const std::string second = current_frame("second frame\n");
  const std::string streamed = test::compress(Codec::zstd, "streamed\n");
  const std::string empty = current_frame("");
  const std::vector<std::string> inputs{
      first + second,          streamed + streamed,
      empty + first,           first + empty,
      skippable_frame + first, first + skippable_frame + streamed,
      skippable_frame,         skippable_frame + skippable_frame,
  };
  for (const std::string& bytes : inputs) {
    const std::optional<std::string> expected = one_shot(bytes);
    ASSERT_TRUE(expected);
    EXPECT_EQ(read(bytes), Outcome{.content = *expected}) << bytes.size() << " bytes";
  }
}

// Input that ends inside a frame fails where it ends, as over a large buffer: within the first
// 5 bytes (the prefix libzstd reads a frame's kind from) a current or skippable frame's magic
// number is "the input ends inside it", while the start of a legacy frame cannot be told from
// garbage there ("Unknown frame descriptor"); every later cut of any frame is "the input ends
// inside it".
TEST_P(ZstdFrames, ATruncatedFrameFailsAsOverALargeBuffer) {
  const std::string before = current_frame("before\n");
  std::vector<std::string> frames{current_frame("current\n"),
                                  test::compress(Codec::zstd, "streamed\n"), skippable_frame};
  if (reads_legacy_frames()) {
    for (const std::string& frame :
         {legacy_frame(5, "v0.5\n"), legacy_frame(6, "v0.6\n"), legacy_frame(7, "")}) {
      frames.push_back(frame);
    }
  }
  for (const std::string& frame : frames) {
    const bool legacy = frame[0] != '\x28' && frame[0] != '\x50';
    for (const std::string& prefix : {std::string(), before}) {
      const std::string frame_number = prefix.empty() ? "1" : "2";
      for (std::size_t n = 1; n < frame.size(); ++n) {
        const std::string bytes = prefix + frame.substr(0, n);
        SCOPED_TRACE(::testing::Message() << "frame " << frame_number << " cut after " << n);
        const Outcome large = over_a_large_buffer(bytes);
        const std::string what = n < 5 && legacy ? "Unknown frame descriptor"  //
                                                 : "the input ends inside it";
        EXPECT_EQ(large.error, "zstd frame " + frame_number + " at compressed byte " +
                                   std::to_string(bytes.size()) + ": " + what);
        EXPECT_EQ(large.offset, bytes.size());
        EXPECT_EQ(read(bytes), large);
      }
    }
  }
}

// Bytes that begin no frame fail as over a large buffer, whatever pieces the input comes in: at
// the first of them (libzstd looks at 5 bytes before it refuses them, and counts none used), or
// where the input ends when it ends sooner.
TEST_P(ZstdFrames, GarbageFailsWhereItBeginsAsOverALargeBuffer) {
  const std::string frame = current_frame("frame\n");
  const std::vector<std::string> inputs{
      "this is plain text, not compressed data at all\n", frame + std::string(8, '\0'),
      legacy_frame(7, "legacy\n") + "garbage",
      frame + "\x27\xb5",  // the first bytes of a legacy frame's magic number, then the end
  };
  for (const std::string& bytes : inputs) {
    SCOPED_TRACE(::testing::Message() << bytes.size() << " bytes");
    const Outcome large = over_a_large_buffer(bytes);
    ASSERT_NE(large.error.find(": Unknown frame descriptor"), std::string::npos) << large.error;
    EXPECT_EQ(read(bytes), large);
  }
}

}  // namespace
}  // namespace bufstream
