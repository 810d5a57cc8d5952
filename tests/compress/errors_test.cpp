// What goes wrong: truncated, corrupt and garbage input (a ParseError naming the compressed
// byte and the member or frame, never a crash and never a shortened result), failing sources
// (FaultyReadStream) under each decorator, and failing sinks under each writer.
#include <cerrno>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <faulty_read_stream.hpp>

#include "compress_fixtures.hpp"

namespace bufstream {
namespace {

using test::Codec;

class Corrupt : public ::testing::TestWithParam<Codec> {
 protected:
  Codec codec() const { return GetParam(); }
  std::string unit() const {
    return codec() == Codec::gzip   ? "gzip member"
           : codec() == Codec::zlib ? "zlib stream"
                                    : "zstd frame";
  }
  /// Reads `bytes` to the end and returns the ParseError, failing the test if there is none.
  ParseError error_of(std::string_view bytes, std::size_t chunk = 0) {
    std::unique_ptr<ReadStream> source;
    if (chunk == 0) {
      source = std::make_unique<MemoryReadStream>(bytes);
    } else {
      source = std::make_unique<testing::ChunkedReadStream>(std::string(bytes), chunk);
    }
    auto reader = test::make_reader(codec(), *source, 65536, "data.bin");
    try {
      (void)reader->up_to_end();
    } catch (const ParseError& e) {
      // It names the source given in the options, as every reader's error does.
      EXPECT_EQ(e.source_name(), "data.bin");
      EXPECT_TRUE(std::string_view(e.what()).starts_with("data.bin:")) << e.what();
      // Sticky: the next read throws it again.
      try {
        (void)reader->next_byte();
        ADD_FAILURE() << "the error is not sticky";
      } catch (const ParseError& again) {
        EXPECT_EQ(std::string(again.what()), e.what());
      }
      return e;
    }
    ADD_FAILURE() << "no error";
    return ParseError({}, "none");
  }
};

INSTANTIATE_TEST_SUITE_P(Codecs, Corrupt, ::testing::Values(Codec::gzip, Codec::zlib, Codec::zstd),
                         test::codec_param_name);

TEST_P(Corrupt, EmptyInputIsAnError) {
  const ParseError e = error_of("");
  EXPECT_EQ(e.message(), unit() + " 1 at compressed byte 0: the input is empty");
  EXPECT_EQ(e.offset(), 0U);
}

TEST_P(Corrupt, EveryTruncationIsAnError) {
  const std::string text = test::sample_text(1000, 4);
  const std::string packed = test::compress(codec(), text);
  // Every cut near the ends (headers, trailers), every fifth in between.
  for (std::size_t n = 1; n < packed.size(); n += n < 64 || n + 64 > packed.size() ? 1U : 5U) {
    const ParseError e = error_of(std::string_view(packed).substr(0, n), n % 3 == 0 ? 1 : 0);
    EXPECT_LE(e.offset(), n) << n;
    EXPECT_NE(e.message().find(unit() + " 1 at compressed byte "), std::string::npos)
        << e.message();
  }
}

TEST_P(Corrupt, ATruncationSaysTheInputEndsInsideTheMember) {
  const std::string packed = test::compress(codec(), test::sample_text(3000, 4));
  const std::string cut = packed.substr(0, packed.size() - 1);
  const ParseError e = error_of(cut);
  EXPECT_EQ(e.message(), unit() + " 1 at compressed byte " + std::to_string(cut.size()) +
                             ": the input ends inside it");
  EXPECT_EQ(e.offset(), cut.size());
}

TEST_P(Corrupt, EveryFlippedByteIsAnErrorOrChangesNothing) {
  const std::string text = test::sample_text(600, 6);
  const std::string packed = test::compress(codec(), text);
  for (std::size_t i = 0; i < packed.size(); ++i) {
    for (unsigned bit : {0x01U, 0x80U}) {
      if (bit == 0x80U && i % 3 != 0) continue;  // the high bit of every third byte
      std::string bad = packed;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ bit);
      try {
        EXPECT_EQ(test::decompress(codec(), bad), text) << "byte " << i;
      } catch (const ParseError& e) {
        EXPECT_LE(e.offset(), packed.size());
      }
    }
  }
}

TEST_P(Corrupt, GarbageIsNotTakenForData) {
  const ParseError e = error_of("this is plain text, not compressed data at all\n");
  EXPECT_NE(e.message().find(unit() + " 1 at compressed byte "), std::string::npos);
}

TEST_P(Corrupt, BytesAfterTheLastMemberMustStartAnother) {
  const std::string packed = test::compress(codec(), "data");
  const ParseError e = error_of(packed + std::string(8, '\0'));
  EXPECT_NE(e.message().find(unit() + " 2 at compressed byte "), std::string::npos) << e.message();
  EXPECT_GE(e.offset(), packed.size());
}

TEST_P(Corrupt, TheErrorNamesTheMemberItIsIn) {
  const std::string a = test::compress(codec(), test::sample_text(500, 1));
  std::string b = test::compress(codec(), test::sample_text(500, 2));
  b[b.size() - 2] = static_cast<char>(b[b.size() - 2] ^ 0x10);  // in the checksum (trailer)
  const ParseError e = error_of(a + a + b);
  EXPECT_NE(e.message().find(unit() + " 3 at compressed byte "), std::string::npos) << e.message();
  EXPECT_GE(e.offset(), 2 * a.size());
  EXPECT_LE(e.offset(), 2 * a.size() + b.size());
}

TEST(CorruptGzip, ABadCrcOrLengthIsACheckumMismatch) {
  const std::string packed = test::compress(Codec::gzip, test::sample_text(5000, 3));
  for (std::size_t from_end :
       std::initializer_list<std::size_t>{8, 5, 4, 1}) {  // CRC-32, then ISIZE
    std::string bad = packed;
    bad[bad.size() - from_end] = static_cast<char>(bad[bad.size() - from_end] ^ 0x01);
    try {
      (void)test::decompress(Codec::gzip, bad);
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "gzip member 1 at compressed byte " + std::to_string(packed.size()) +
                                 ": checksum mismatch (the trailer's CRC-32 or length)");
    }
  }
}

// A member whose header has every optional part: extra field, name, comment, header CRC.
const std::string full_header_member(
    "\x1f\x8b\x08\x1e\x00\x00\x00\x00\x00\x03\x06\x00\x41\x42\x02\x00\x78\x79\x66\x69"
    "\x6c\x65\x2e\x74\x78\x74\x00\x6e\x6f\x74\x65\x00\x8d\xac\xcb\x48\xcd\xc9\xc9\xd7"
    "\x51\x28\xcf\x2f\xca\x49\xe1\x02\x00\x53\x74\x24\xf4\x0d\x00\x00\x00",
    57);
constexpr std::size_t full_header_size = 34;

TEST(CorruptGzip, EveryOptionalHeaderPartIsReadInAnyPieces) {
  EXPECT_EQ(test::run_tool("gzip -dc", full_header_member), "hello, world\n");
  for (std::size_t chunk : std::initializer_list<std::size_t>{1, 2, 5, 100}) {
    testing::ChunkedReadStream source(full_header_member + full_header_member, chunk);
    compress::GzipReadStream in(source, compress::GzipFormat::gzip, {.buffer_size = 3});
    EXPECT_EQ(in.up_to_end(), "hello, world\nhello, world\n") << chunk;
  }
}

TEST(CorruptGzip, ABadHeaderCrcOrAReservedFlagIsAnError) {
  for (std::size_t chunk : std::initializer_list<std::size_t>{1, 100}) {
    std::string bad_crc = full_header_member;
    bad_crc[full_header_size - 1] = static_cast<char>(bad_crc[full_header_size - 1] ^ 0x01);
    testing::ChunkedReadStream source(bad_crc, chunk);
    compress::GzipReadStream in(source);
    try {
      (void)in.up_to_end();
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "gzip member 1 at compressed byte 34: header CRC mismatch");
    }
  }
  std::string reserved = full_header_member;
  reserved[3] = static_cast<char>(reserved[3] | 0x20);
  try {
    (void)test::decompress(Codec::gzip, reserved);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(), "gzip member 1 at compressed byte 4: reserved header flags are set");
  }
}

TEST(CorruptGzip, TheMagicBytesAndMethodAreChecked) {
  try {
    (void)test::decompress(Codec::gzip, "\x1f\x8c\x08");
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(),
              "gzip member 1 at compressed byte 2: not gzip data (no gzip magic bytes)");
  }
  try {
    (void)test::decompress(Codec::gzip, "\x1f\x8b\x07");
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(), "gzip member 1 at compressed byte 3: compression method is not deflate");
  }
}

TEST(CorruptZstd, ABadChecksumIsAnError) {
  const auto packed = test::run_tool("zstd -qc --check", test::sample_text(5000, 3));
  ASSERT_TRUE(packed);
  std::string bad = *packed;
  bad.back() = static_cast<char>(bad.back() ^ 0x01);
  try {
    (void)test::decompress(Codec::zstd, bad);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("zstd frame 1 at compressed byte "), std::string::npos);
    EXPECT_NE(e.message().find("checksum"), std::string::npos) << e.message();
  }
}

TEST(CorruptGzip, TheWhatTextNamesEverything) {
  try {
    (void)test::decompress(Codec::gzip, "\x1f\x8b");
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(),
                 "<input>: gzip member 1 at compressed byte 2: the input ends inside it (byte 2)");
  }
}

// ---- Failing sources -----------------------------------------------------------------------

class FaultySource : public ::testing::TestWithParam<Codec> {};

INSTANTIATE_TEST_SUITE_P(Codecs, FaultySource,
                         ::testing::Values(Codec::gzip, Codec::zlib, Codec::zstd),
                         test::codec_param_name);

TEST_P(FaultySource, ShortAndInterruptedReadsGiveTheSameBytes) {
  const std::string text = test::sample_text(30000, 8);
  const std::string packed = test::compress(GetParam(), text);
  for (const auto& kind : testing::fault_setups()) {
    auto setup = kind.make(packed, {.max_per_read = 1, .interrupt_every = 3});
    auto reader = test::make_reader(GetParam(), setup.stream(), 7);
    EXPECT_EQ(reader->up_to_end(), text) << kind.name;
  }
}

TEST_P(FaultySource, EveryFailingReadPropagatesAndSticks) {
  const std::string text = test::sample_text(4000, 8);
  const std::string packed = test::compress(GetParam(), text);
  for (const auto& kind : testing::fault_setups()) {
    // Every early read, then ever sparser ones (a one-byte buffer makes thousands of reads).
    for (std::size_t fail_at = 1;; fail_at += fail_at < 8 ? 1 : fail_at / 4) {
      auto setup = kind.make(packed, {.fail_at = fail_at, .error_number = EIO, .max_per_read = 64});
      auto reader = test::make_reader(GetParam(), setup.stream(), 3);
      std::string got;
      try {
        got = reader->up_to_end();
      } catch (const IoError& e) {
        EXPECT_EQ(e.code(), std::error_code(EIO, std::generic_category()));
        EXPECT_TRUE(reader->failed());
        EXPECT_THROW((void)reader->next_byte(), IoError) << kind.name << " " << fail_at;
        EXPECT_LE(reader->position(), text.size());
        EXPECT_EQ(text.substr(0, got.size()), got);
        continue;
      }
      // No read failed: the source was read in fewer reads than fail_at.
      EXPECT_EQ(got, text) << kind.name;
      EXPECT_LT(setup.source->reads(), fail_at);
      break;
    }
  }
}

// ---- Failing sinks -------------------------------------------------------------------------

class FaultySink : public ::testing::TestWithParam<Codec> {};

INSTANTIATE_TEST_SUITE_P(Codecs, FaultySink, ::testing::Values(Codec::gzip, Codec::zstd),
                         test::codec_param_name);

TEST_P(FaultySink, FlushReportsTheFailureAndCloseReportsItAgain) {
  testing::FaultyWriteStream sink({.fail_at = 1, .error_number = ENOSPC});
  auto writer = test::make_writer(GetParam(), sink);
  writer->write("buffered, not yet compressed");
  EXPECT_THROW(writer->flush(), IoError);
  EXPECT_TRUE(writer->failed());
  EXPECT_THROW(writer->put('x'), IoError);
  try {
    writer->close();
    ADD_FAILURE() << "close did not report the failure";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::error_code(ENOSPC, std::generic_category()));
  }
  EXPECT_TRUE(sink.closed());
}

TEST_P(FaultySink, CloseReportsAFailureOfTheTrailer) {
  // The sink fails on the first call after the flush: the one that takes the trailer.
  std::size_t calls_to_flush = 0;
  {
    testing::FaultyWriteStream sink;
    auto writer = test::make_writer(GetParam(), sink);
    writer->write(test::sample_text(1000, 1));
    writer->flush();
    calls_to_flush = sink.calls();
    writer->close();
  }
  testing::FaultyWriteStream sink({.fail_at = calls_to_flush + 1});
  auto writer = test::make_writer(GetParam(), sink);
  writer->write(test::sample_text(1000, 1));
  writer->flush();
  EXPECT_THROW(writer->close(), IoError);
  EXPECT_TRUE(sink.closed());
}

TEST_P(FaultySink, LargeWritesReportTheFailureAtOnce) {
  testing::FaultyWriteStream sink({.fail_at = 1});
  auto writer = test::make_writer(GetParam(), sink, 1, 1024);
  EXPECT_THROW(writer->write(test::random_bytes(200000, 2)), IoError);
  EXPECT_THROW(writer->close(), IoError);
}

TEST_P(FaultySink, AFailureInALargeWriteCountsWhatTheEncoderTook) {
  // Random bytes do not shrink: each call of the encoder fills its room and takes about as
  // much input; the second piece handed to the sink fails.
  testing::FaultyWriteStream sink({.fail_at = 2});
  auto writer = test::make_writer(GetParam(), sink, 1, 1024);
  const std::string data = test::random_bytes(4000000, 3);
  EXPECT_THROW(writer->write(data), IoError);
  EXPECT_GT(writer->position(), 0U);  // taken by the encoder, part of the output
  EXPECT_LT(writer->position(), data.size());
  EXPECT_TRUE(writer->pending().empty());  // the rest is still the caller's
  EXPECT_TRUE(writer->failed());
}

std::vector<std::string>& lost_reports() {
  static std::vector<std::string> reports;
  return reports;
}

TEST_P(FaultySink, DestructionWithAnUnreportedFailureCallsTheLostDataHandler) {
  const LostDataHandler previous =
      set_lost_data_handler([](std::string_view d) noexcept { lost_reports().emplace_back(d); });
  lost_reports().clear();
  {
    testing::FaultyWriteStream sink({.fail_at = 1});
    test::make_writer(GetParam(), sink)->write("lost");
  }
  ASSERT_EQ(lost_reports().size(), 1U);
  EXPECT_NE(lost_reports()[0].find("WriteStream destroyed with"), std::string::npos)
      << lost_reports()[0];
  {
    // Once the caller has seen the failure, destruction is quiet.
    testing::FaultyWriteStream sink({.fail_at = 1});
    auto writer = test::make_writer(GetParam(), sink);
    writer->write("seen");
    EXPECT_THROW(writer->flush(), IoError);
  }
  EXPECT_EQ(lost_reports().size(), 1U);
  set_lost_data_handler(previous);
}

}  // namespace
}  // namespace bufstream
