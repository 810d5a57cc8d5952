#include <bufstream/compress/gzip.hpp>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "codec.hpp"

namespace bufstream::compress {

namespace {

using detail::CorruptInput;
using detail::Flush;
using detail::Step;

// Both libraries count in 32 bits; larger spans are taken in parts.
template <class T>
T clamp32(std::size_t n) {
  return static_cast<T>(std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max()));
}

// gzip members are read with ISA-L, the header by this class: ISA-L 2.30 checks a header CRC
// (FHCRC) wrongly when the header arrives over several calls (the fuzzer found a bad CRC taken
// as good), and it does not refuse the reserved flag bits. ISA-L then inflates the deflate
// data and checks the trailer (CRC-32 and length).
class IsalGzipDecoder final : public detail::Decoder {
 public:
  IsalGzipDecoder() : state_(std::make_unique<inflate_state>()) {
    isal_inflate_init(state_.get());
    reset();
  }

  std::string_view unit() const noexcept override { return "gzip member"; }

  void reset() override {
    isal_inflate_reset(state_.get());
    state_->crc_flag = ISAL_GZIP_NO_HDR_VER;
    part_ = Part::fixed;
    count_ = 0;
    header_crc_ = crc32(0, nullptr, 0);
  }

  Step decode(std::span<const char> in, std::span<char> out) override {
    std::size_t used = 0;
    while (part_ != Part::body) {
      if (used == in.size()) return {used, 0, false};
      const auto c = static_cast<unsigned char>(in[used]);
      header_byte(c, ++used);
    }
    inflate_state& s = *state_;
    in = in.subspan(used);
    // ISA-L does not write through next_in; its interface is simply not const.
    s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data()));
    s.avail_in = clamp32<std::uint32_t>(in.size());
    s.next_out = reinterpret_cast<std::uint8_t*>(out.data());
    s.avail_out = clamp32<std::uint32_t>(out.size());
    const std::uint32_t in_given = s.avail_in;
    const std::uint32_t out_given = s.avail_out;
    const int rc = isal_inflate(&s);
    // At the end of a member ISA-L hands back the input bytes it read ahead, so the next
    // member starts exactly at the first byte not used. On an error it may hand back more
    // than this call gave it (bytes of earlier calls): the error's offset is then this
    // call's start.
    const bool handed_back_more = s.avail_in > in_given;
    const Step step{used + (handed_back_more ? 0 : in_given - s.avail_in), out_given - s.avail_out,
                    s.block_state == ISAL_BLOCK_FINISH};
    if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT && rc != ISAL_OUT_OVERFLOW) {
      throw CorruptInput{describe(rc), step.in_used};
    }
    if (handed_back_more) {
      // Never seen at the end of a valid member; were it to happen, the next member's start
      // would be lost, so it is an error rather than a wrong result.
      throw CorruptInput{"inflate lost its place in the input", step.in_used};
    }
    return step;
  }

 private:
  // The parts of a header (RFC 1952, 2.3) in their order; the flags say which are present.
  enum class Part { fixed, extra_length, extra, name, comment, header_crc, body };
  static constexpr unsigned flag_hcrc = 0x02, flag_extra = 0x04, flag_name = 0x08,
                            flag_comment = 0x10, flags_reserved = 0xE0;

  // Takes one header byte; `used` counts the input consumed with it, for errors.
  void header_byte(unsigned char c, std::size_t used) {
    if (part_ != Part::header_crc) header_crc_ = crc32(header_crc_, &c, 1);
    switch (part_) {
      case Part::fixed:
        if ((count_ == 0 && c != 0x1f) || (count_ == 1 && c != 0x8b)) {
          throw CorruptInput{"not gzip data (no gzip magic bytes)", used};
        }
        if (count_ == 2 && c != 8) throw CorruptInput{"compression method is not deflate", used};
        if (count_ == 3) {
          if ((c & flags_reserved) != 0) throw CorruptInput{"reserved header flags are set", used};
          flags_ = c;
        }
        if (++count_ == 10) next_part(Part::extra_length);
        return;
      case Part::extra_length:
        extra_left_ |= static_cast<std::size_t>(c) << (8 * count_);
        if (++count_ == 2) next_part(extra_left_ > 0 ? Part::extra : Part::name);
        return;
      case Part::extra:
        if (--extra_left_ == 0) next_part(Part::name);
        return;
      case Part::name:
        if (c == 0) next_part(Part::comment);
        return;
      case Part::comment:
        if (c == 0) next_part(Part::header_crc);
        return;
      case Part::header_crc:
        stored_crc_ |= static_cast<unsigned>(c) << (8 * count_);
        if (++count_ == 2) {
          if (stored_crc_ != (header_crc_ & 0xFFFF)) {
            throw CorruptInput{"header CRC mismatch", used};
          }
          next_part(Part::body);
        }
        return;
      case Part::body: return;
    }
  }

  // Moves to `part`, or past it to the next part the flags say is present.
  void next_part(Part part) {
    count_ = 0;
    if (part == Part::extra_length) {
      extra_left_ = 0;
      if ((flags_ & flag_extra) != 0) {
        part_ = part;
        return;
      }
      part = Part::name;
    }
    if (part == Part::extra) {
      part_ = part;
      return;
    }
    if (part == Part::name) {
      if ((flags_ & flag_name) != 0) {
        part_ = part;
        return;
      }
      part = Part::comment;
    }
    if (part == Part::comment) {
      if ((flags_ & flag_comment) != 0) {
        part_ = part;
        return;
      }
      part = Part::header_crc;
    }
    if (part == Part::header_crc) {
      stored_crc_ = 0;
      if ((flags_ & flag_hcrc) != 0) {
        part_ = part;
        return;
      }
    }
    part_ = Part::body;
  }

  static std::string describe(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid deflate code";
      case ISAL_INVALID_LOOKBACK: return "back-reference before the start of the data";
      case ISAL_INCORRECT_CHECKSUM: return "checksum mismatch (the trailer's CRC-32 or length)";
      default: return fmt::format("inflate failed (ISA-L code {})", rc);
    }
  }

  std::unique_ptr<inflate_state> state_;  // large (tens of KiB): on the heap
  Part part_ = Part::fixed;
  std::size_t count_ = 0;  // bytes of the current part so far (fixed, lengths, CRC)
  unsigned flags_ = 0;
  std::size_t extra_left_ = 0;
  unsigned stored_crc_ = 0;
  uLong header_crc_ = 0;
};

// zlib streams are read with zlib: ISA-L's zlib wrapper (2.30) reads one byte past the end of
// a stream when more input follows, which would lose the start of what comes next.
class ZlibDecoder final : public detail::Decoder {
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

std::unique_ptr<detail::Decoder> make_decoder(GzipFormat format) {
  if (format == GzipFormat::zlib) return std::make_unique<ZlibDecoder>();
  return std::make_unique<IsalGzipDecoder>();
}

class DeflateEncoder final : public detail::Encoder {
 public:
  DeflateEncoder(int level, GzipFormat format) {
    if (level < 0 || level > 9) {
      throw UsageError(fmt::format("gzip level {} is not in 0..9", level));
    }
    // Window bits: 15 (32 KiB window); +16 asks zlib for the gzip wrapper.
    const int window_bits = format == GzipFormat::gzip ? 15 + 16 : 15;
    const int rc = deflateInit2(&z_, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw std::logic_error(fmt::format("deflateInit2 failed ({})", rc));
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

GzipReadStream::GzipReadStream(ReadStream& source, GzipFormat format, ReadOptions options)
    : DecompressReadStream(source, make_decoder(format), std::move(options)) {}

GzipReadStream::GzipReadStream(std::unique_ptr<ReadStream> source, GzipFormat format,
                               ReadOptions options)
    : DecompressReadStream(std::move(source), make_decoder(format), std::move(options)) {}

GzipReadStream::~GzipReadStream() = default;

GzipWriteStream::GzipWriteStream(WriteStream& sink, GzipWriteOptions options)
    : CompressWriteStream(sink, std::make_unique<DeflateEncoder>(options.level, options.format),
                          {.buffer_size = options.buffer_size}) {}

GzipWriteStream::GzipWriteStream(std::unique_ptr<WriteStream> sink, GzipWriteOptions options)
    : CompressWriteStream(std::move(sink),
                          std::make_unique<DeflateEncoder>(options.level, options.format),
                          {.buffer_size = options.buffer_size}) {}

GzipWriteStream::~GzipWriteStream() { finish_on_destruction("GzipWriteStream"); }

}  // namespace bufstream::compress
