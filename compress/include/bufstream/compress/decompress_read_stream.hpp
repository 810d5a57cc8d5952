// DecompressReadStream: the read half shared by the gzip and Zstandard decorators.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <bufstream/buffer_options.hpp>
#include <bufstream/detail/window_buffer.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::compress {

namespace detail {
class Decoder;
}

/// Options of GzipReadStream and ZstdReadStream.
struct ReadOptions {
  /// Bytes in the window of decompressed bytes (0 is taken as 1), and in the block of
  /// compressed bytes read at a time from a source that has no window of its own.
  std::size_t buffer_size = default_buffer_size;
  /// The file or stream name that a ParseError names (see ParseError::source_name); empty
  /// names none.
  std::string source_name{};
};

/// Reads the decompressed bytes of another stream (the source). The decoder writes straight
/// into this stream's window, or, once the window is empty, into the caller's memory for a
/// `read_into`/`read_some`/`next(n)` of more than half the buffer; it reads the compressed
/// bytes straight from the source's window. So, while it is in use, read the source only
/// through it; afterwards the source stands just after the last member or frame.
///
/// Concatenated members (gzip) or frames (zstd) read as one stream, as `gzip -d` and `zstd -d`
/// read them. The input must be whole: empty input, input that ends inside a member or frame,
/// bytes after the last one that do not start another, and any corrupt data or checksum throw
/// `ParseError`, whose offset is the compressed byte (counted from where this stream started
/// reading its source) at which the decoder stopped, and whose message names the member or
/// frame (from 1), and whose source name is the options' `source_name`. A ParseError is sticky:
/// every later read throws it again. A failure of the source (`IoError`) propagates and is sticky
/// too. `close()` closes the source, owned or not.
class DecompressReadStream : public ReadStream {
 public:
  ~DecompressReadStream() override;

  /// The stream this one reads from.
  ReadStream& source() noexcept { return *source_; }
  /// Compressed bytes consumed from the source so far.
  std::uint64_t compressed_position() const noexcept { return compressed_; }
  /// Members or frames begun so far.
  std::uint64_t members() const noexcept { return members_; }

 protected:
  /// For the format classes: decompresses `source`, which must outlive this stream, with
  /// `decoder`.
  DecompressReadStream(ReadStream& source, std::unique_ptr<detail::Decoder> decoder,
                       ReadOptions options);
  /// The same, owning `source`.
  DecompressReadStream(std::unique_ptr<ReadStream> source, std::unique_ptr<detail::Decoder> decoder,
                       ReadOptions options);

  bool refill(std::size_t min) override;
  std::size_t read_direct(std::span<char> dst) override;
  void close_source() override;
  /// What the current member or frame has left to give, when its header declared its size (a
  /// zstd frame written in one call, as the `zstd` command writes a file), so that readers can
  /// size their tables up front as over the plain file (see `ReadStream::remaining_hint`);
  /// nullopt otherwise (gzip, zlib, frames written as a stream). A hint: frames after it are
  /// not counted.
  std::optional<std::uint64_t> source_remaining_hint() const override;

 private:
  /// Decompresses into `dst` (not empty) at least one byte, or returns 0 at the end.
  std::size_t produce(std::span<char> dst);
  /// Compressed bytes not yet decoded (empty at the end of the source).
  std::string_view next_input();
  /// Marks `n` bytes of next_input() decoded.
  void take_input(std::size_t n);
  /// Moves the first `want` bytes of a member (or all that is left) into head_; returns them.
  std::string_view gather_start(std::size_t want);
  /// Consumes `n` bytes of input_ or of the source's window, without counting them.
  void drop_input(std::size_t n);
  [[noreturn]] void fail_corrupt(std::string_view what);

  std::unique_ptr<ReadStream> owned_;
  ReadStream* source_;
  std::unique_ptr<detail::Decoder> decoder_;
  std::size_t buffer_size_;
  std::string source_name_;
  bufstream::detail::WindowBuffer buffer_;
  // The first bytes of a member, when the input came in smaller pieces than the decoder's
  // start_size(): given to the decoder before input_ and the source.
  std::array<char, 8> head_{};
  std::size_t head_size_ = 0;
  std::size_t head_used_ = 0;
  std::unique_ptr<char[]> input_;  // compressed bytes, once the source's window is empty
  std::size_t input_size_ = 0;
  std::size_t input_used_ = 0;
  std::uint64_t compressed_ = 0;
  std::uint64_t members_ = 0;
  bool in_member_ = false;
  std::optional<std::uint64_t> member_left_;  // the member's declared size, less what it gave
  bool ended_ = false;
  std::exception_ptr corrupt_;
};

}  // namespace bufstream::compress

// Deprecated names of one version ago: the decorators live in bufstream::compress.
namespace bufstream {
/// Deprecated name of one version ago: compress::ReadOptions.
using DecompressOptions [[deprecated("use bufstream::compress::ReadOptions")]] =
    compress::ReadOptions;
/// Deprecated name of one version ago: compress::DecompressReadStream.
using DecompressReadStream [[deprecated("use bufstream::compress::DecompressReadStream")]] =
    compress::DecompressReadStream;
}  // namespace bufstream
