#include "suites/compressed_oneshot.hpp"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "harness/file_utils.hpp"

namespace bufstream::bench {

std::string gzip_compress_oneshot(std::string_view text, int level) {
  z_stream z{};
  // windowBits 15 + 16: a gzip wrapper; memLevel 8 and the default strategy, as GzipWriteStream.
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error(fmt::format("deflate failed ({})", rc));
  return out;
}

std::string gzip_decompress_oneshot(std::string_view packed) {
  if (packed.size() < 18) throw std::runtime_error("gzip: shorter than a member");
  // The trailer's ISIZE: the member's length modulo 2^32.
  const auto* tail = reinterpret_cast<const unsigned char*>(packed.data() + packed.size() - 4);
  std::uint32_t size = 0;
  for (int i = 3; i >= 0; --i) size = (size << 8) | tail[i];
  std::string out(size, '\0');
  inflate_state state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_GZIP;  // header, deflate data and trailer (CRC-32 and length) checked
  state.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(packed.data()));
  state.avail_in = static_cast<std::uint32_t>(packed.size());
  state.next_out = reinterpret_cast<std::uint8_t*>(out.data());
  state.avail_out = static_cast<std::uint32_t>(out.size());
  const int rc = isal_inflate(&state);
  if (rc != ISAL_DECOMP_OK || state.block_state != ISAL_BLOCK_FINISH || state.avail_in != 0 ||
      state.total_out != size) {
    throw std::runtime_error(fmt::format("ISA-L inflate failed ({})", rc));
  }
  return out;
}

std::string zstd_compress_oneshot(std::string_view text, int level) {
  const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                  &ZSTD_freeCCtx);
  if (!cctx) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t n =
      ZSTD_compress2(cctx.get(), out.data(), out.size(), text.data(), text.size());
  if (ZSTD_isError(n))
    throw std::runtime_error(fmt::format("ZSTD_compress2: {}", ZSTD_getErrorName(n)));
  out.resize(n);
  return out;
}

namespace {

// Frames that do not record their size (a streaming compressor's): decompressed in steps.
std::string zstd_decompress_streaming(std::string_view packed) {
  const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                  &ZSTD_freeDCtx);
  if (!dctx) throw std::bad_alloc();
  std::string out;
  ZSTD_inBuffer in{packed.data(), packed.size(), 0};
  // rc: 0 once a frame is whole and flushed, else a hint of the input still wanted.
  std::size_t rc = 0;
  bool progress = true;
  while (in.pos < in.size || (rc != 0 && progress)) {
    const std::size_t used = out.size();
    const std::size_t in_before = in.pos;
    out.resize(used + ZSTD_DStreamOutSize());
    ZSTD_outBuffer chunk{out.data() + used, out.size() - used, 0};
    rc = ZSTD_decompressStream(dctx.get(), &chunk, &in);
    out.resize(used + chunk.pos);
    if (ZSTD_isError(rc))
      throw std::runtime_error(fmt::format("ZSTD_decompressStream: {}", ZSTD_getErrorName(rc)));
    progress = chunk.pos > 0 || in.pos > in_before;
  }
  if (rc != 0) throw std::runtime_error("zstd: the data ends inside a frame");
  return out;
}

}  // namespace

std::string zstd_decompress_oneshot(std::string_view packed) {
  const unsigned long long size = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return zstd_decompress_streaming(packed);
  if (size == ZSTD_CONTENTSIZE_ERROR || size > std::numeric_limits<std::size_t>::max())
    throw std::runtime_error("zstd: not a Zstandard frame");
  std::string out(static_cast<std::size_t>(size), '\0');
  const std::size_t n = ZSTD_decompress(out.data(), out.size(), packed.data(), packed.size());
  if (ZSTD_isError(n) || n != out.size())
    throw std::runtime_error(fmt::format("ZSTD_decompress: {}", ZSTD_getErrorName(n)));
  return out;
}

namespace {

// The path as one shell word.
std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

}  // namespace

ToolPipe::ToolPipe(const std::string& tool, const std::filesystem::path& path)
    : command_(shell_quoted(tool) + " -- " + shell_quoted(path.string())) {
  pipe_ = ::popen(command_.c_str(), "re");
  if (pipe_ == nullptr) throw std::system_error(errno, std::generic_category(), "popen");
}

ToolPipe::~ToolPipe() {
  if (pipe_ != nullptr) ::pclose(pipe_);
}

int ToolPipe::fd() const noexcept { return ::fileno(pipe_); }

void ToolPipe::close() {
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("`{}` failed (status {})", command_, status));
}

std::string find_program(std::string_view name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    std::string candidate(dirs.substr(0, colon));
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
    candidate += '/';
    candidate += name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace bufstream::bench
