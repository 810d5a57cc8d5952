// gzip (RFC 1952) and zlib (RFC 1950) decorators: GzipReadStream and GzipWriteStream.
//
// Reading gzip uses Intel's ISA-L inflate (igzip) after a header reader of our own; reading
// zlib and writing both use zlib. ISA-L decompresses the benchmark files 2.6 to 3.2 times as
// fast as zlib (docs/ARCHITECTURE.md, "Compression"); it compresses only at its own four
// levels, so zlib keeps the familiar 0..9.
#pragma once

#include <cstdint>
#include <memory>

#include <bufstream/compress/compress_write_stream.hpp>
#include <bufstream/compress/decompress_read_stream.hpp>

namespace bufstream::compress {

/// The wrapper around the deflate data.
enum class GzipFormat : std::uint8_t {
  gzip,  ///< RFC 1952: header, CRC-32 and length trailer (`.gz`)
  zlib,  ///< RFC 1950: two-byte header, Adler-32 trailer
};

/// The decompressed bytes of a gzip (or zlib) stream; see DecompressReadStream for the window,
/// concatenated members and errors.
class GzipReadStream final : public DecompressReadStream {
 public:
  /// Reads `source`, which must outlive this stream.
  explicit GzipReadStream(ReadStream& source, GzipFormat format = GzipFormat::gzip,
                          ReadOptions options = {});
  /// The same, owning `source`.
  explicit GzipReadStream(std::unique_ptr<ReadStream> source, GzipFormat format = GzipFormat::gzip,
                          ReadOptions options = {});
  ~GzipReadStream() override;
};

/// The options of GzipWriteStream.
struct GzipWriteOptions {
  /// 0 (stored) to 9 (smallest); 6 is gzip's default.
  int level = 6;
  /// The wrapper written around the deflate data.
  GzipFormat format = GzipFormat::gzip;
  /// Bytes buffered before they are compressed (0 is taken as 1).
  std::size_t buffer_size = default_buffer_size;
};

/// Compresses into a gzip (or zlib) stream; see CompressWriteStream for flushing, finishing
/// and errors. Throws `UsageError` for a level outside 0..9.
class GzipWriteStream final : public CompressWriteStream {
 public:
  /// Writes into `sink`, which must outlive this stream.
  explicit GzipWriteStream(WriteStream& sink, GzipWriteOptions options = {});
  /// The same, owning `sink`.
  explicit GzipWriteStream(std::unique_ptr<WriteStream> sink, GzipWriteOptions options = {});
  /// Finishes the stream into the sink; see CompressWriteStream.
  ~GzipWriteStream() override;
};

}  // namespace bufstream::compress

// Deprecated names of one version ago: the decorators live in bufstream::compress.
namespace bufstream {
/// Deprecated name of one version ago: compress::GzipFormat.
using GzipFormat [[deprecated("use bufstream::compress::GzipFormat")]] = compress::GzipFormat;
/// Deprecated name of one version ago: compress::GzipReadStream.
using GzipReadStream [[deprecated("use bufstream::compress::GzipReadStream")]] =
    compress::GzipReadStream;
/// Deprecated name of one version ago: compress::GzipWriteOptions.
using GzipWriteOptions [[deprecated("use bufstream::compress::GzipWriteOptions")]] =
    compress::GzipWriteOptions;
/// Deprecated name of one version ago: compress::GzipWriteStream.
using GzipWriteStream [[deprecated("use bufstream::compress::GzipWriteStream")]] =
    compress::GzipWriteStream;
}  // namespace bufstream
