// Compressed inputs and outputs of the command: gzip and Zstandard, told from an input's first
// bytes and from an output's name (`.gz`, `.zst`).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::cli {

enum class Compression { none, gzip, zstd };

std::string_view compression_name(Compression compression) noexcept;

/// True when the command was built with bufstream::compress (gzip and zstd support).
bool compression_supported() noexcept;

/// Throws std::runtime_error naming `name` when `compression` is not none and the command was
/// built without gzip/zstd support.
void require_support(Compression compression, const std::string& name);

/// The compression of the bytes `in` starts with: gzip (1F 8B) or a Zstandard frame
/// (28 B5 2F FD). Reads one byte, and up to four when that one can start a magic number, so
/// that a pipeline feeding one short line at a time is never kept waiting for more.
Compression detect_compression(ReadStream& in);

/// The compression an output's name asks for: `.gz` or `.zst` (any case), else none.
Compression compression_from_name(std::string_view path) noexcept;

/// The path without a trailing `.gz` or `.zst`: "out.csv.gz" -> "out.csv".
std::string_view without_compression_suffix(std::string_view path) noexcept;

/// A stream of the decompressed bytes of `source`, which must outlive it; its errors name
/// `name`. Throws
/// std::runtime_error naming `name` when the command was built without gzip/zstd support.
std::unique_ptr<ReadStream> decompressing(ReadStream& source, Compression compression,
                                          const std::string& name);

/// A stream that compresses what is written into `sink` (at the tool's default level; gzip 6,
/// zstd 3); `close()` writes the trailer, then closes the sink. Throws std::runtime_error
/// naming `name` when the command was built without gzip/zstd support.
std::unique_ptr<WriteStream> compressing(WriteStream& sink, Compression compression,
                                         const std::string& name);

}  // namespace bufstream::cli
