#include <bufstream/compress/zstd.hpp>

#include <zstd.h>

#include <new>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "codec.hpp"

namespace bufstream::compress {

namespace {

using detail::CorruptInput;
using detail::Flush;
using detail::Step;

class ZstdDecoder final : public detail::Decoder {
 public:
  ZstdDecoder() : d_(ZSTD_createDCtx()) {
    if (d_ == nullptr) throw std::bad_alloc();
  }
  ~ZstdDecoder() override { ZSTD_freeDCtx(d_); }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;

  std::string_view unit() const noexcept override { return "zstd frame"; }

  // libzstd begins the next frame by itself once a frame is done.
  void reset() override {}

  // libzstd 1.5 (ZSTD_decompressStream) tells a legacy frame (the formats before zstd 1.0) only
  // from the input of the call that begins it, once that call has given it the 5 bytes of a
  // frame's prefix (ZSTD_FRAMEHEADERSIZE_PREFIX: the magic number and the frame header
  // descriptor). A call that holds fewer bytes is checked against the current and skippable
  // magic numbers alone, so a legacy frame that arrives a byte or two at a time would be
  // "Unknown frame descriptor" where a large buffer reads it.
  std::size_t start_size() const noexcept override { return 5; }

  Step decode(std::span<const char> in, std::span<char> out) override {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(d_, &output, &input);
    if (ZSTD_isError(rc)) {
      // Reset so that the context is in a defined state; the stream's error is sticky anyway.
      ZSTD_DCtx_reset(d_, ZSTD_reset_session_only);
      throw CorruptInput{ZSTD_getErrorName(rc), input.pos};
    }
    // 0: a frame is decoded and all of its output given.
    return {input.pos, output.pos, rc == 0};
  }

  std::optional<std::uint64_t> declared_size(std::span<const char> start) const override {
    const unsigned long long size = ZSTD_getFrameContentSize(start.data(), start.size());
    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return std::nullopt;
    return size;
  }

 private:
  ZSTD_DCtx* d_;
};

class ZstdEncoder final : public detail::Encoder {
 public:
  ZstdEncoder(int level, bool checksum) : c_(ZSTD_createCCtx()) {
    if (c_ == nullptr) throw std::bad_alloc();
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
      ZSTD_freeCCtx(c_);
      throw UsageError(
          fmt::format("zstd level {} is not in {}..{}", level, ZSTD_minCLevel(), ZSTD_maxCLevel()));
    }
    ZSTD_CCtx_setParameter(c_, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c_, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  }
  ~ZstdEncoder() override { ZSTD_freeCCtx(c_); }
  ZstdEncoder(const ZstdEncoder&) = delete;
  ZstdEncoder& operator=(const ZstdEncoder&) = delete;

  // After ZSTD_e_end the context starts a new frame with the next call.
  void reset() override {}

  Step encode(std::span<const char> in, std::span<char> out, Flush flush) override {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    const ZSTD_EndDirective mode = flush == Flush::none   ? ZSTD_e_continue
                                   : flush == Flush::sync ? ZSTD_e_flush
                                                          : ZSTD_e_end;
    const std::size_t rc = ZSTD_compressStream2(c_, &output, &input, mode);
    if (ZSTD_isError(rc)) {
      throw std::logic_error(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(rc)));
    }
    // For a flush or the end, 0 means everything is written out.
    return {input.pos, output.pos, rc == 0};
  }

 private:
  ZSTD_CCtx* c_;
};

}  // namespace

ZstdReadStream::ZstdReadStream(ReadStream& source, ReadOptions options)
    : DecompressReadStream(source, std::make_unique<ZstdDecoder>(), std::move(options)) {}

ZstdReadStream::ZstdReadStream(std::unique_ptr<ReadStream> source, ReadOptions options)
    : DecompressReadStream(std::move(source), std::make_unique<ZstdDecoder>(), std::move(options)) {
}

ZstdReadStream::~ZstdReadStream() = default;

ZstdWriteStream::ZstdWriteStream(WriteStream& sink, ZstdWriteOptions options)
    : CompressWriteStream(sink, std::make_unique<ZstdEncoder>(options.level, options.checksum),
                          {.buffer_size = options.buffer_size}) {}

ZstdWriteStream::ZstdWriteStream(std::unique_ptr<WriteStream> sink, ZstdWriteOptions options)
    : CompressWriteStream(std::move(sink),
                          std::make_unique<ZstdEncoder>(options.level, options.checksum),
                          {.buffer_size = options.buffer_size}) {}

ZstdWriteStream::~ZstdWriteStream() { finish_on_destruction("ZstdWriteStream"); }

}  // namespace bufstream::compress
