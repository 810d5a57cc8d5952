// The interface between the stream decorators and a compression library: one decoder and one
// encoder per format, each a thin layer over its library's streaming call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bufstream::compress::detail {

/// What one call of a codec did.
struct Step {
  std::size_t in_used = 0;   // input bytes consumed
  std::size_t out_made = 0;  // output bytes written
  bool done = false;  // decoder: the member or frame ended, all its output given; encoder: the
                      // flush asked for is complete
};

/// Thrown by `Decoder::decode` for input that is not a valid member or frame.
struct CorruptInput {
  std::string message;
  std::size_t in_used;  // input consumed by the failing call
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  /// "gzip member", "zlib stream", "zstd frame": how errors name the unit counted from 1.
  virtual std::string_view unit() const noexcept = 0;
  /// Prepares for the next member or frame.
  virtual void reset() = 0;
  /// How many bytes the call that begins a member or frame must be given (or all that is
  /// left, if the input ends sooner), for a library that tells what it reads from that call's
  /// input alone: the stream gathers them when its input comes in smaller pieces. At most
  /// DecompressReadStream's room for them (8).
  virtual std::size_t start_size() const noexcept { return 1; }
  /// Decodes what it can of `in` into `out`; throws CorruptInput.
  virtual Step decode(std::span<const char> in, std::span<char> out) = 0;
  /// The decompressed size that the header of the member or frame beginning at `start`
  /// declares, when it declares one and `start` holds the header (a zstd frame's content size;
  /// gzip and zlib declare none up front).
  virtual std::optional<std::uint64_t> declared_size(std::span<const char> /*start*/) const {
    return std::nullopt;
  }
};

enum class Flush : unsigned char {
  none,  // compress; output as the encoder sees fit
  sync,  // output everything so far, ending the current block
  end,   // end the member or frame: trailer, checksum
};

class Encoder {
 public:
  virtual ~Encoder() = default;
  /// Prepares a new member or frame after the end of the last one.
  virtual void reset() = 0;
  /// Compresses `in` into `out`. With a flush other than `none`, `done` says that all of it
  /// has been written out; call again with more room until then.
  virtual Step encode(std::span<const char> in, std::span<char> out, Flush flush) = 0;
};

}  // namespace bufstream::compress::detail
