// Zstandard (RFC 8878) decorators over libzstd's streaming API: ZstdReadStream, ZstdWriteStream.
#pragma once

#include <memory>

#include <bufstream/compress/compress_write_stream.hpp>
#include <bufstream/compress/decompress_read_stream.hpp>

namespace bufstream::compress {

/// The decompressed bytes of a Zstandard stream (one or more frames; skippable frames are
/// skipped); see DecompressReadStream for the window and errors. A frame whose checksum flag
/// is set has its checksum checked. Frames that need a window above 128 MiB are refused
/// (libzstd's default limit), so a hostile header cannot make it allocate more.
class ZstdReadStream final : public DecompressReadStream {
 public:
  /// Reads `source`, which must outlive this stream.
  explicit ZstdReadStream(ReadStream& source, ReadOptions options = {});
  /// The same, owning `source`.
  explicit ZstdReadStream(std::unique_ptr<ReadStream> source, ReadOptions options = {});
  ~ZstdReadStream() override;
};

/// The options of ZstdWriteStream.
struct ZstdWriteOptions {
  /// libzstd's levels: 1 (fastest) to 19 (22 with its ultra mode), negative for faster still;
  /// 3 is its default.
  int level = 3;
  /// Ends each frame with a checksum of its content (as the `zstd` command does).
  bool checksum = true;
  /// Bytes buffered before they are compressed (0 is taken as 1).
  std::size_t buffer_size = default_buffer_size;
};

/// Compresses into a Zstandard stream; see CompressWriteStream for flushing, finishing and
/// errors. Throws `UsageError` for a level libzstd does not have.
class ZstdWriteStream final : public CompressWriteStream {
 public:
  /// Writes into `sink`, which must outlive this stream.
  explicit ZstdWriteStream(WriteStream& sink, ZstdWriteOptions options = {});
  /// The same, owning `sink`.
  explicit ZstdWriteStream(std::unique_ptr<WriteStream> sink, ZstdWriteOptions options = {});
  /// Finishes the stream into the sink; see CompressWriteStream.
  ~ZstdWriteStream() override;
};

}  // namespace bufstream::compress

// Deprecated names of one version ago: the decorators live in bufstream::compress.
namespace bufstream {
/// Deprecated name of one version ago: compress::ZstdReadStream.
using ZstdReadStream [[deprecated("use bufstream::compress::ZstdReadStream")]] =
    compress::ZstdReadStream;
/// Deprecated name of one version ago: compress::ZstdWriteOptions.
using ZstdWriteOptions [[deprecated("use bufstream::compress::ZstdWriteOptions")]] =
    compress::ZstdWriteOptions;
/// Deprecated name of one version ago: compress::ZstdWriteStream.
using ZstdWriteStream [[deprecated("use bufstream::compress::ZstdWriteStream")]] =
    compress::ZstdWriteStream;
}  // namespace bufstream
