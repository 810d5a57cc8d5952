// Shared by the compression tests: each codec's reader and writer behind one name, texts that
// exercise them, and a way to run the system's `gzip` and `zstd` on bytes.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/compress/gzip.hpp>
#include <bufstream/compress/zstd.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "../streams/stream_fixtures.hpp"

namespace bufstream::test {

enum class Codec { gzip, zlib, zstd };

inline std::string codec_name(Codec codec) {
  switch (codec) {
    case Codec::gzip: return "gzip";
    case Codec::zlib: return "zlib";
    case Codec::zstd: return "zstd";
  }
  return "?";
}

inline std::string codec_param_name(const ::testing::TestParamInfo<Codec>& p) {
  return codec_name(p.param);
}

inline std::unique_ptr<compress::DecompressReadStream> make_reader(
    Codec codec, std::unique_ptr<ReadStream> source, std::size_t buffer_size = 65536) {
  const compress::ReadOptions options{.buffer_size = buffer_size};
  switch (codec) {
    case Codec::gzip:
      return std::make_unique<compress::GzipReadStream>(std::move(source),
                                                        compress::GzipFormat::gzip, options);
    case Codec::zlib:
      return std::make_unique<compress::GzipReadStream>(std::move(source),
                                                        compress::GzipFormat::zlib, options);
    case Codec::zstd: return std::make_unique<compress::ZstdReadStream>(std::move(source), options);
  }
  return nullptr;
}

inline std::unique_ptr<compress::DecompressReadStream> make_reader(Codec codec, ReadStream& source,
                                                                   std::size_t buffer_size = 65536,
                                                                   std::string source_name = {}) {
  const compress::ReadOptions options{.buffer_size = buffer_size,
                                      .source_name = std::move(source_name)};
  switch (codec) {
    case Codec::gzip:
      return std::make_unique<compress::GzipReadStream>(source, compress::GzipFormat::gzip,
                                                        options);
    case Codec::zlib:
      return std::make_unique<compress::GzipReadStream>(source, compress::GzipFormat::zlib,
                                                        options);
    case Codec::zstd: return std::make_unique<compress::ZstdReadStream>(source, options);
  }
  return nullptr;
}

/// The writer of `codec` at `level` (-1: the codec's default) into `sink`.
inline std::unique_ptr<compress::CompressWriteStream> make_writer(Codec codec, WriteStream& sink,
                                                                  int level = -1,
                                                                  std::size_t buffer_size = 65536) {
  switch (codec) {
    case Codec::gzip:
    case Codec::zlib:
      return std::make_unique<compress::GzipWriteStream>(
          sink,
          compress::GzipWriteOptions{.level = level < 0 ? 6 : level,
                                     .format = codec == Codec::gzip ? compress::GzipFormat::gzip
                                                                    : compress::GzipFormat::zlib,
                                     .buffer_size = buffer_size});
    case Codec::zstd:
      return std::make_unique<compress::ZstdWriteStream>(
          sink,
          compress::ZstdWriteOptions{.level = level < 0 ? 3 : level, .buffer_size = buffer_size});
  }
  return nullptr;
}

/// `text` compressed by our writer in one write.
inline std::string compress(Codec codec, std::string_view text, int level = -1) {
  StringWriteStream out;
  auto writer = make_writer(codec, out, level);
  writer->write(text);
  writer->close();
  return std::string(out.view());
}

/// `compressed` read to its end by our reader over memory.
inline std::string decompress(Codec codec, std::string_view compressed) {
  MemoryReadStream in(compressed);
  return make_reader(codec, in)->up_to_end();
}

/// A text of `n` bytes with lines and repetition (compresses like real text).
inline std::string sample_text(std::size_t n, std::uint64_t seed = 1) {
  static constexpr std::string_view words[] = {"stream", "window", "refill", "buffer", "gzip",
                                               "zstd",   "frame",  "member", "\n",     ", ",
                                               "\r\n",   "42",     "\t",     "éà",     "  "};
  SplitMix64 rng(seed);
  std::string text;
  while (text.size() < n) text += words[rng.below(std::size(words))];
  text.resize(n);
  return text;
}

/// Runs `command` (a shell command) with `input` on its standard input; returns its standard
/// output, or nullopt if it exits with a failure.
inline std::optional<std::string> run_tool(const std::string& command, std::string_view input) {
  TempFile in(input);
  TempFile out;
  const std::string line = command + " < " + in.path() + " > " + out.path() + " 2>/dev/null";
  const int status = std::system(line.c_str());
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out.read();
}

}  // namespace bufstream::test
