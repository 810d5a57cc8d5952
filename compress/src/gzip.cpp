#include <bufstream/compress/gzip.hpp>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

#include "codec.hpp"

namespace bufstream {

namespace {

using compress_detail::CorruptInput;
using compress_detail::Flush;
using compress_detail::Step;

// Both libraries count in 32 bits; larger spans are taken in parts.
template <class T>
T clamp32(std::size_t n) {
  return static_cast<T>(std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max()));
}

// gzip members are read with ISA-L.
class IsalGzipDecoder final : public compress_detail::Decoder {
 public:
  IsalGzipDecoder() : state_(std::make_unique<inflate_state>()) {
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_GZIP;
  }

  std::string_view unit() const noexcept override { return "gzip member"; }

  void reset() override {
    isal_inflate_reset(state_.get());
    state_->crc_flag = ISAL_GZIP;
  }

  Step decode(std::span<const char> in, std::span<char> out) override {
    inflate_state& s = *state_;
    // ISA-L does not write through next_in; its interface is simply not const.
    s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data()));
    s.avail_in = clamp32<std::uint32_t>(in.size());
    s.next_out = reinterpret_cast<std::uint8_t*>(out.data());
    s.avail_out = clamp32<std::uint32_t>(out.size());
    const std::uint32_t in_given = s.avail_in;
    const std::uint32_t out_given = s.avail_out;
    const int rc = isal_inflate(&s);
    Step step{in_given - s.avail_in, out_given - s.avail_out, s.block_state == ISAL_BLOCK_FINISH};
    if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT && rc != ISAL_OUT_OVERFLOW) {
      throw CorruptInput{describe(rc), step.in_used};
    }
    // At the end of a member ISA-L has handed back the input bytes it read ahead, so the
    // next member starts exactly at the first byte not used.
    return step;
  }

 private:
  static std::string describe(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid deflate code";
      case ISAL_INVALID_LOOKBACK: return "back-reference before the start of the data";
      case ISAL_INVALID_WRAPPER: return "not gzip data (the header is wrong)";
      case ISAL_UNSUPPORTED_METHOD: return "compression method is not deflate";
      case ISAL_INCORRECT_CHECKSUM:
        return "checksum mismatch (header CRC, or the trailer's CRC-32 or length)";
      default: return fmt::format("inflate failed (ISA-L code {})", rc);
    }
  }

  std::unique_ptr<inflate_state> state_;  // large (tens of KiB): on the heap
};

// zlib streams are read with zlib: ISA-L's zlib wrapper (2.30) reads one byte past the end of
// a stream when more input follows, which would lose the start of what comes next.
class ZlibDecoder final : public compress_detail::Decoder {
 public:
  ZlibDecoder() {
    const int rc = inflateInit2(&z_, 15);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw std::logic_error(fmt::format("inflateInit2 failed ({})", rc));
  }
  ~ZlibDecoder() override { inflateEnd(&z_); }
  ZlibDecoder(const ZlibDecoder&) = delete;
  ZlibDecoder& operator=(const ZlibDecoder&) = delete;

  std::string_view unit() const noexcept override { return "zlib stream"; }

  void reset() override { inflateReset(&z_); }

  Step decode(std::span<const char> in, std::span<char> out) override {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = clamp32<uInt>(in.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data());
    z_.avail_out = clamp32<uInt>(out.size());
    const uInt in_given = z_.avail_in;
    const uInt out_given = z_.avail_out;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    const Step step{in_given - z_.avail_in, out_given - z_.avail_out, rc == Z_STREAM_END};
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc == Z_NEED_DICT) {
      throw CorruptInput{"needs a preset dictionary, which is not supported", step.in_used};
    }
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      throw CorruptInput{z_.msg != nullptr ? z_.msg : "invalid data", step.in_used};
    }
    return step;
  }

 private:
  z_stream z_{};
};

std::unique_ptr<compress_detail::Decoder> make_decoder(GzipFormat format) {
  if (format == GzipFormat::zlib) return std::make_unique<ZlibDecoder>();
  return std::make_unique<IsalGzipDecoder>();
}

class DeflateEncoder final : public compress_detail::Encoder {
 public:
  DeflateEncoder(int level, GzipFormat format) {
    if (level < 0 || level > 9) {
      throw std::invalid_argument(fmt::format("gzip level {} is not in 0..9", level));
    }
    // Window bits: 15 (32 KiB window); +16 asks zlib for the gzip wrapper.
    const int window_bits = format == GzipFormat::gzip ? 15 + 16 : 15;
    const int rc = deflateInit2(&z_, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw std::invalid_argument(fmt::format("deflateInit2 failed ({})", rc));
  }
  ~DeflateEncoder() override { deflateEnd(&z_); }
  DeflateEncoder(const DeflateEncoder&) = delete;
  DeflateEncoder& operator=(const DeflateEncoder&) = delete;

  void reset() override { deflateReset(&z_); }

  Step encode(std::span<const char> in, std::span<char> out, Flush flush) override {
    // zlib does not write through next_in either.
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = clamp32<uInt>(in.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data());
    z_.avail_out = clamp32<uInt>(out.size());
    const uInt in_given = z_.avail_in;
    const uInt out_given = z_.avail_out;
    const int mode = flush == Flush::none   ? Z_NO_FLUSH
                     : flush == Flush::sync ? Z_SYNC_FLUSH
                                            : Z_FINISH;
    const int rc = deflate(&z_, mode);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      throw std::logic_error(fmt::format("deflate failed ({})", rc));
    }
    Step step{in_given - z_.avail_in, out_given - z_.avail_out, false};
    // A sync flush is complete when all input is taken and room was left over; the end when
    // zlib says so.
    step.done = flush == Flush::end ? rc == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0;
    return step;
  }

 private:
  z_stream z_{};
};

}  // namespace

GzipReadStream::GzipReadStream(ReadStream& source, GzipFormat format, BufferOptions options)
    : DecompressReadStream(source, make_decoder(format), options) {}

GzipReadStream::GzipReadStream(std::unique_ptr<ReadStream> source, GzipFormat format,
                               BufferOptions options)
    : DecompressReadStream(std::move(source), make_decoder(format), options) {}

GzipReadStream::~GzipReadStream() = default;

GzipWriteStream::GzipWriteStream(WriteStream& sink, GzipWriteOptions options)
    : CompressWriteStream(sink, std::make_unique<DeflateEncoder>(options.level, options.format),
                          {.buffer_size = options.buffer_size}) {}

GzipWriteStream::GzipWriteStream(std::unique_ptr<WriteStream> sink, GzipWriteOptions options)
    : CompressWriteStream(std::move(sink),
                          std::make_unique<DeflateEncoder>(options.level, options.format),
                          {.buffer_size = options.buffer_size}) {}

GzipWriteStream::~GzipWriteStream() { finish_on_destruction("GzipWriteStream"); }

}  // namespace bufstream
