#include "compression.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#ifdef BUFSTREAM_CLI_HAVE_COMPRESS
#include <bufstream/compress/gzip.hpp>
#include <bufstream/compress/zstd.hpp>
#endif

namespace bufstream::cli {

namespace {

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix) noexcept {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<long>(suffix.size()),
                    [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) ==
                             std::tolower(static_cast<unsigned char>(b));
                    });
}

}  // namespace

std::string_view compression_name(Compression compression) noexcept {
  switch (compression) {
    case Compression::none: return "no";
    case Compression::gzip: return "gzip";
    case Compression::zstd: return "zstd";
  }
  return "?";
}

bool compression_supported() noexcept {
#ifdef BUFSTREAM_CLI_HAVE_COMPRESS
  return true;
#else
  return false;
#endif
}

void require_support(Compression compression, const std::string& name) {
  if (compression == Compression::none || compression_supported()) return;
  throw std::runtime_error(
      fmt::format("{}: {} compression, but this bufstream was built without gzip/zstd support "
                  "(bufstream::compress needs zlib1g-dev, libzstd-dev and libisal-dev)",
                  name, compression_name(compression)));
}

Compression detect_compression(ReadStream& in) {
  std::string_view start = in.fill(1);
  if (start.empty()) return Compression::none;
  const auto first = static_cast<unsigned char>(start[0]);
  if (first != 0x1F && first != 0x28) return Compression::none;
  start = in.fill(first == 0x1F ? 2 : 4);
  if (start.starts_with("\x1F\x8B")) return Compression::gzip;
  if (start.starts_with("\x28\xB5\x2F\xFD")) return Compression::zstd;
  return Compression::none;
}

Compression compression_from_name(std::string_view path) noexcept {
  if (ends_with_ignoring_case(path, ".gz")) return Compression::gzip;
  if (ends_with_ignoring_case(path, ".zst")) return Compression::zstd;
  return Compression::none;
}

std::string_view without_compression_suffix(std::string_view path) noexcept {
  switch (compression_from_name(path)) {
    case Compression::gzip: return path.substr(0, path.size() - 3);
    case Compression::zstd: return path.substr(0, path.size() - 4);
    case Compression::none: break;
  }
  return path;
}

std::unique_ptr<ReadStream> decompressing(ReadStream& source, Compression compression,
                                          const std::string& name) {
#ifdef BUFSTREAM_CLI_HAVE_COMPRESS
  switch (compression) {
    case Compression::gzip:
      return std::make_unique<compress::GzipReadStream>(source, compress::GzipFormat::gzip,
                                                        compress::ReadOptions{.source_name = name});
    case Compression::zstd:
      return std::make_unique<compress::ZstdReadStream>(source,
                                                        compress::ReadOptions{.source_name = name});
    case Compression::none: break;
  }
  throw std::logic_error("decompressing: no compression");
#else
  static_cast<void>(source);
  require_support(compression, name);
  throw std::logic_error("decompressing: no compression");
#endif
}

std::unique_ptr<WriteStream> compressing(WriteStream& sink, Compression compression,
                                         const std::string& name) {
#ifdef BUFSTREAM_CLI_HAVE_COMPRESS
  static_cast<void>(name);
  switch (compression) {
    case Compression::gzip: return std::make_unique<compress::GzipWriteStream>(sink);
    case Compression::zstd: return std::make_unique<compress::ZstdWriteStream>(sink);
    case Compression::none: break;
  }
  throw std::logic_error("compressing: no compression");
#else
  static_cast<void>(sink);
  require_support(compression, name);
  throw std::logic_error("compressing: no compression");
#endif
}

}  // namespace bufstream::cli
