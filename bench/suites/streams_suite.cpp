// The streams suite (issue 2's micro-benchmark): N MB written and read one byte at a time
// through bufstream's 64 KiB buffered streams over a descriptor, against stdio's
// putc_unlocked/getc_unlocked, iostreams' put/get, and the unbuffered descriptor streams
// (one system call per byte: 1 MB only, compared as throughput). The writers, then the
// readers, are measured side by side in interleaved rounds, so that their ratios compare runs
// made under the same conditions.
#include <cstdio>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>

#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "suites/suites.hpp"

namespace bufstream::bench {
namespace {

constexpr std::uint64_t megabyte = 1 << 20;
constexpr std::uint64_t unbuffered_bytes = megabyte;

// Byte k of every file: cheap to produce, and a reader that loses or reorders bytes changes
// the hash below.
inline char pattern(std::uint64_t k) noexcept { return static_cast<char>(k ^ (k >> 8)); }

// An order-sensitive hash of the bytes read, so that the reads cannot be optimised away.
struct ByteHash {
  std::uint64_t value = 0;
  void add(char c) noexcept { value = value * 31 + static_cast<unsigned char>(c); }
};

std::uint64_t expected_hash(std::uint64_t n) {
  ByteHash hash;
  for (std::uint64_t k = 0; k < n; ++k) hash.add(pattern(k));
  return hash.value;
}

[[noreturn]] void io_failed(const char* what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), std::string(what) + " " + path.string());
}

// ---- Writers: each writes bytes 0 .. n-1 of the pattern, one call per byte -----------------

void write_bufstream(WriteStream& out, std::uint64_t n) {
  for (std::uint64_t k = 0; k < n; ++k) out.put(pattern(k));
  out.close();
}

void write_buffered(const std::filesystem::path& path, std::uint64_t n) {
  FdWriteStream file(path);
  BufferedWriteStream out(file);
  write_bufstream(out, n);
}

void write_unbuffered(const std::filesystem::path& path, std::uint64_t n) {
  FdWriteStream out(path);
  write_bufstream(out, n);
}

void write_putc_unlocked(const std::filesystem::path& path, std::uint64_t n) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) io_failed("open", path);
  for (std::uint64_t k = 0; k < n; ++k) putc_unlocked(pattern(k), f);
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) io_failed("write", path);
}

void write_ofstream_put(const std::filesystem::path& path, std::uint64_t n) {
  std::ofstream out(path, std::ios::binary);
  if (!out) io_failed("open", path);
  for (std::uint64_t k = 0; k < n; ++k) out.put(pattern(k));
  out.close();
  if (!out) io_failed("write", path);
}

// ---- Readers: each reads the first n bytes, one call per byte, and hashes them ------------

[[noreturn]] void ended_early(std::uint64_t k) {
  throw ValidationError(fmt::format("the file ended after {} bytes", k));
}

std::uint64_t read_bufstream(ReadStream& in, std::uint64_t n) {
  ByteHash hash;
  for (std::uint64_t k = 0; k < n; ++k) {
    const int c = in.next_byte();  // next() in getc's shape, as the peers below are called
    if (c == ReadStream::end_of_stream) ended_early(k);
    hash.add(static_cast<char>(c));
  }
  return hash.value;
}

std::uint64_t read_buffered(const std::filesystem::path& path, std::uint64_t n) {
  FdReadStream file(path);
  BufferedReadStream in(file);
  return read_bufstream(in, n);
}

std::uint64_t read_unbuffered(const std::filesystem::path& path, std::uint64_t n) {
  FdReadStream in(path);
  return read_bufstream(in, n);
}

std::uint64_t read_getc_unlocked(const std::filesystem::path& path, std::uint64_t n) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) io_failed("open", path);
  ByteHash hash;
  for (std::uint64_t k = 0; k < n; ++k) {
    const int c = getc_unlocked(f);
    if (c == EOF) {
      std::fclose(f);
      ended_early(k);
    }
    hash.add(static_cast<char>(c));
  }
  std::fclose(f);
  return hash.value;
}

std::uint64_t read_ifstream_get(const std::filesystem::path& path, std::uint64_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failed("open", path);
  ByteHash hash;
  for (std::uint64_t k = 0; k < n; ++k) {
    const auto c = in.get();
    if (c == std::ifstream::traits_type::eof()) ended_early(k);
    hash.add(static_cast<char>(c));
  }
  return hash.value;
}

struct StreamVariant {
  const char* name;
  Cost cost;
  void (*write)(const std::filesystem::path&, std::uint64_t);
  std::uint64_t (*read)(const std::filesystem::path&, std::uint64_t);
};

// Checks once that a written file holds exactly the pattern.
void check_written(const std::filesystem::path& path, std::uint64_t n) {
  const std::string bytes = read_file(path);
  if (bytes.size() != n)
    throw ValidationError(fmt::format("wrote {} bytes, expected {}", bytes.size(), n));
  for (std::uint64_t k = 0; k < n; ++k) {
    if (bytes[k] != pattern(k)) throw ValidationError(fmt::format("byte {} differs", k));
  }
}

}  // namespace

void run_streams_suite(SuiteContext& context) {
  const std::uint64_t full = context.options.stream_mb * megabyte;
  progress_note(fmt::format("streams suite, {} MB byte by byte (unbuffered: 1 MB)",
                            context.options.stream_mb));
  const StreamVariant writers[] = {
      {"buffered", Cost::normal, write_buffered, nullptr},
      {"putc_unlocked", Cost::normal, write_putc_unlocked, nullptr},
      {"ofstream::put", Cost::normal, write_ofstream_put, nullptr},
      {"unbuffered", Cost::slow, write_unbuffered, nullptr},
  };
  const StreamVariant readers[] = {
      {"buffered", Cost::normal, nullptr, read_buffered},
      {"getc_unlocked", Cost::normal, nullptr, read_getc_unlocked},
      {"ifstream::get", Cost::normal, nullptr, read_ifstream_get},
      {"unbuffered", Cost::slow, nullptr, read_unbuffered},
  };
  auto bytes_for = [&](Cost cost) {
    return cost == Cost::slow ? std::min(unbuffered_bytes, full) : full;
  };

  // The writers side by side, each to a file of its own (the other writers' runs come between
  // a writer's last run and the check of its file in `finish`).
  std::vector<InterleavedSuiteVariant> write_rows;
  for (const StreamVariant& v : writers) {
    const std::uint64_t n = bytes_for(v.cost);
    const std::filesystem::path path =
        context.temp.file(fmt::format("streams-write-{}.bin", v.name));
    write_rows.push_back({
        .id = {"streams", "write", "bytes", v.name},
        .cost = v.cost,
        .run =
            [path, n, write = v.write](Stopwatch& watch) {
              start_on_new_files(watch, {path});
              write(path, n);
            },
        .skip_reason = {},
        .finish =
            [path, n, cost = v.cost](Timing timing) {
              check_written(path, n);
              std::filesystem::remove(path);
              return Measurement{
                  .timing = std::move(timing), .cost = cost, .bytes = n, .entries = {}};
            },
    });
  }
  run_variants_interleaved(context, write_rows);

  // The readers side by side, all of the same file (the unbuffered one only its first
  // megabyte).
  const std::filesystem::path input = context.temp.file("streams-read.bin");
  {
    std::string bytes(full, '\0');
    for (std::uint64_t k = 0; k < full; ++k) bytes[k] = pattern(k);
    write_file(input, bytes);
  }
  const std::uint64_t hash_full = expected_hash(full);
  const std::uint64_t hash_small = expected_hash(bytes_for(Cost::slow));
  std::vector<InterleavedSuiteVariant> read_rows;
  for (const StreamVariant& v : readers) {
    const std::uint64_t n = bytes_for(v.cost);
    const std::uint64_t want = v.cost == Cost::slow ? hash_small : hash_full;
    read_rows.push_back({
        .id = {"streams", "read", "bytes", v.name},
        .cost = v.cost,
        .run =
            [&input, n, want, read = v.read](Stopwatch& watch) {
              const std::uint64_t got = read(input, n);
              watch.stop();
              if (got != want)
                throw ValidationError("the bytes read differ from the bytes in the file");
            },
        .skip_reason = {},
        .finish =
            [n, cost = v.cost](Timing timing) {
              return Measurement{
                  .timing = std::move(timing), .cost = cost, .bytes = n, .entries = {}};
            },
    });
  }
  run_variants_interleaved(context, read_rows);
  std::filesystem::remove(input);
}

}  // namespace bufstream::bench
