// The compressed suite's baselines: whole-buffer compression and decompression with the
// libraries the decorators use (ISA-L to inflate gzip, zlib to deflate it, libzstd), and the
// system's zcat/zstdcat as a pipe.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace bufstream::bench {

/// gzip members (RFC 1952) deflated by zlib at `level`, in one call.
std::string gzip_compress_oneshot(std::string_view text, int level);
/// One gzip member inflated by ISA-L in one call, into a buffer sized from its trailer.
/// Throws std::runtime_error when the data is not one whole, valid member.
std::string gzip_decompress_oneshot(std::string_view packed);
/// One Zstandard frame (with a content checksum, as ZstdWriteStream writes) in one call.
std::string zstd_compress_oneshot(std::string_view text, int level);
/// Zstandard frames decompressed in one call into a buffer of the size the first frame's
/// header records (a frame that records none, as a streaming compressor writes it, is
/// decompressed in steps instead: for checking such files, not for timing).
std::string zstd_decompress_oneshot(std::string_view packed);

/// A decompressing command (`zcat`, `zstdcat`) running on a file, read through a pipe.
class ToolPipe {
 public:
  /// Starts `tool path` with popen. Throws std::system_error when it cannot.
  ToolPipe(const std::string& tool, const std::filesystem::path& path);
  /// Waits for the command if `close()` was not called.
  ~ToolPipe();
  ToolPipe(const ToolPipe&) = delete;
  ToolPipe& operator=(const ToolPipe&) = delete;

  /// The read end of the pipe.
  int fd() const noexcept;
  /// Waits for the command; throws std::runtime_error unless it exited with status 0.
  void close();

 private:
  std::FILE* pipe_;
  std::string command_;
};

/// The program on the PATH, or "" when there is none.
std::string find_program(std::string_view name);

}  // namespace bufstream::bench
