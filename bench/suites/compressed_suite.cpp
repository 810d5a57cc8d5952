// The compressed suite: the 25,000-row CSV and JSON files as .gz and .zst, decompressed to the
// end through the decorators (GzipReadStream, ZstdReadStream, their windows consumed as they
// come) against the library's own one-shot decompression into memory, which is what the
// stream costs; read and parsed through the decorators against that one-shot decompression
// followed by a parse from memory, and against a zcat/zstdcat pipe; and written through the
// decorators (GzipWriteStream, ZstdWriteStream) against rendering into memory and compressing it in
// one call at the same level. Every read is checked against the data set's checksum, every file
// written is decompressed and compared with the rendered bytes (untimed).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "harness/progress.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_COMPRESSED_SUITE
#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/compress/gzip.hpp>
#include <bufstream/compress/zstd.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include "data_sets/checksum.hpp"
#include "harness/file_utils.hpp"
#include "suites/compressed_oneshot.hpp"
#include "suites/csv_bufstream.hpp"
#include "suites/json_bufstream.hpp"
#include "suites/stream_variants.hpp"
#endif

namespace bufstream::bench {
namespace {

const char* const read_variants[] = {"gzip", "gzip-oneshot", "gzip-pipe",
                                     "zstd", "zstd-oneshot", "zstd-pipe"};
// Of the decompress and write ops.
const char* const codec_variants[] = {"gzip", "gzip-oneshot", "zstd", "zstd-oneshot"};
const char* const formats[] = {"csv", "json"};

#ifdef BUFSTREAM_BENCH_HAVE_COMPRESSED_SUITE

// The levels of `gzip` and `zstd` by default, and of the decorators by default.
constexpr int gzip_level = 6;
constexpr int zstd_level = 3;

struct Format {
  std::string name;  // "csv"
  StreamWriteFn write;
  StreamReadFn read;
};

Format format_named(const std::string& name) {
  if (name == "csv") return {name, write_csv_bufstream, read_csv_bufstream};
  return {name, write_json_bufstream, read_json_bufstream_typed};
}

void check_rows(const Checksum& got, const Checksum& expected) {
  if (!got.matches(expected)) {
    throw ValidationError(
        fmt::format("the rows read: got {}; expected {}", got.describe(), expected.describe()));
  }
}

std::string decompress_oneshot(bool gzip, std::string_view packed) {
  return gzip ? gzip_decompress_oneshot(packed) : zstd_decompress_oneshot(packed);
}

// The file decompressed to its end through the decorator, over the buffered file stream, its
// windows consumed as they come (nothing copied out): the bytes it gave.
template <class Decompressor>
std::uint64_t decompress_decorated(const std::filesystem::path& path) {
  FdReadStream file(path);
  BufferedReadStream buffered(file);
  Decompressor in(buffered);
  std::uint64_t total = 0;
  for (std::string_view window = in.fill(1); !window.empty(); window = in.fill(1)) {
    total += window.size();
    in.advance(window.size());
  }
  return total;
}

// The rows parsed from the file through the decorator, over the buffered file stream.
template <class Decompressor>
Checksum read_decorated(const Format& format, const std::filesystem::path& path, Stopwatch& watch) {
  FdReadStream file(path);
  BufferedReadStream buffered(file);
  Decompressor in(buffered);
  return format.read(in, watch);
}

Checksum read_oneshot(const Format& format, bool gzip, const std::filesystem::path& path,
                      Stopwatch& watch) {
  const std::string text = decompress_oneshot(gzip, read_file(path));
  MemoryReadStream in(text);
  return format.read(in, watch);
}

Checksum read_piped(const Format& format, const std::string& tool,
                    const std::filesystem::path& path, Stopwatch& watch) {
  ToolPipe pipe(tool, path);
  FdReadStream fd(pipe.fd());
  BufferedReadStream in(fd);
  const Checksum got = format.read(in, watch);
  pipe.close();  // untimed: the rows are built once the pipe has ended
  return got;
}

template <class Compressor, class Options>
void write_decorated(const Format& format, const DataSet& set, const std::filesystem::path& path,
                     Options options) {
  FdWriteStream file(path);
  BufferedWriteStream buffered(file);
  Compressor out(buffered, options);
  format.write(out, set);
  out.close();  // the trailer, then the buffer and the file
}

void write_oneshot(const Format& format, bool gzip, const DataSet& set,
                   const std::filesystem::path& path) {
  StringWriteStream text;
  format.write(text, set);
  const std::string packed = gzip ? gzip_compress_oneshot(text.view(), gzip_level)
                                  : zstd_compress_oneshot(text.view(), zstd_level);
  write_file(path, packed);
}

Measurement of_size(Timing timing, std::uint64_t bytes) {
  return {.timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
}

// What the stream costs: the decorator against one call into memory, both to the end of the
// file, no parsing. The bytes are compared with the text once, untimed; each run checks the
// count.
void run_decompress(SuiteContext& context, const std::string& data, const std::filesystem::path& gz,
                    const std::filesystem::path& zst, const std::string& text) {
  {
    FdReadStream gz_file(gz);
    FdReadStream zst_file(zst);
    if (compress::GzipReadStream(gz_file).up_to_end() != text ||
        compress::ZstdReadStream(zst_file).up_to_end() != text)
      throw std::runtime_error("a decorator does not decompress the file to its text");
  }
  std::vector<InterleavedSuiteVariant> rows;
  auto add = [&](const char* name, const std::filesystem::path& file,
                 std::function<std::uint64_t(const std::filesystem::path&)> decompress) {
    rows.push_back({
        .id = {"compressed", "decompress", data, name},
        .cost = Cost::normal,
        .run =
            [file, decompress = std::move(decompress), size = text.size()](Stopwatch& watch) {
              const std::uint64_t got = decompress(file);
              watch.stop();
              if (got != size)
                throw ValidationError(fmt::format("{} bytes decompressed; expected {}", got, size));
            },
        .skip_reason = {},
        .finish = [bytes = size_of_file(file)](Timing t) { return of_size(std::move(t), bytes); },
    });
  };
  add("gzip", gz, decompress_decorated<compress::GzipReadStream>);
  add("gzip-oneshot", gz, [](const std::filesystem::path& p) -> std::uint64_t {
    return decompress_oneshot(true, read_file(p)).size();
  });
  add("zstd", zst, decompress_decorated<compress::ZstdReadStream>);
  add("zstd-oneshot", zst, [](const std::filesystem::path& p) -> std::uint64_t {
    return decompress_oneshot(false, read_file(p)).size();
  });
  run_variants_interleaved(context, rows);
}

void run_reads(SuiteContext& context, const Format& format, const std::string& data,
               const std::filesystem::path& gz, const std::filesystem::path& zst,
               const Checksum& expected) {
  const std::string zcat = find_program("zcat");
  const std::string zstdcat = find_program("zstdcat");
  std::vector<InterleavedSuiteVariant> rows;
  auto add = [&](const char* name, const std::filesystem::path& file, ReadFn read,
                 std::string skip_reason = {}) {
    InterleavedSuiteVariant row{.id = {"compressed", "read", data, name},
                                .cost = Cost::normal,
                                .run = {},
                                .skip_reason = std::move(skip_reason),
                                .finish = {}};
    if (row.skip_reason.empty()) {
      row.run = [read = std::move(read), file, &expected](Stopwatch& watch) {
        check_rows(read(file, watch), expected);
      };
      row.finish = [bytes = size_of_file(file)](Timing t) { return of_size(std::move(t), bytes); };
    }
    rows.push_back(std::move(row));
  };
  add("gzip", gz, [&format](const std::filesystem::path& p, Stopwatch& w) {
    return read_decorated<compress::GzipReadStream>(format, p, w);
  });
  add("gzip-oneshot", gz, [&format](const std::filesystem::path& p, Stopwatch& w) {
    return read_oneshot(format, true, p, w);
  });
  add(
      "gzip-pipe", gz,
      [&format, zcat](const std::filesystem::path& p, Stopwatch& w) {
        return read_piped(format, zcat, p, w);
      },
      zcat.empty() ? "zcat not found on the PATH (apt install gzip)" : "");
  add("zstd", zst, [&format](const std::filesystem::path& p, Stopwatch& w) {
    return read_decorated<compress::ZstdReadStream>(format, p, w);
  });
  add("zstd-oneshot", zst, [&format](const std::filesystem::path& p, Stopwatch& w) {
    return read_oneshot(format, false, p, w);
  });
  add(
      "zstd-pipe", zst,
      [&format, zstdcat](const std::filesystem::path& p, Stopwatch& w) {
        return read_piped(format, zstdcat, p, w);
      },
      zstdcat.empty() ? "zstdcat not found on the PATH (apt install zstd)" : "");
  run_variants_interleaved(context, rows);
}

void run_writes(SuiteContext& context, const Format& format, const DataSet& set,
                const std::string& data, const std::string& text) {
  std::vector<InterleavedSuiteVariant> rows;
  auto add = [&](const char* name, bool gzip, WriteFn write) {
    const std::filesystem::path out = context.temp.file(
        fmt::format("compressed-{}-{}.{}{}", data, name, format.name, gzip ? ".gz" : ".zst"));
    rows.push_back({
        .id = {"compressed", "write", data, name},
        .cost = Cost::normal,
        .run =
            [&set, out, write = std::move(write)](Stopwatch& watch) {
              start_on_new_files(watch, {out});
              write(set, out);
            },
        .skip_reason = {},
        .finish =
            [out, gzip, &text](Timing timing) {
              if (decompress_oneshot(gzip, read_file(out)) != text)
                throw ValidationError("the file written decompresses to other bytes");
              Measurement m = of_size(std::move(timing), size_of_file(out));
              std::filesystem::remove(out);
              return m;
            },
    });
  };
  add("gzip", true, [&format](const DataSet& s, const std::filesystem::path& p) {
    write_decorated<compress::GzipWriteStream>(format, s, p,
                                               compress::GzipWriteOptions{.level = gzip_level});
  });
  add("gzip-oneshot", true, [&format](const DataSet& s, const std::filesystem::path& p) {
    write_oneshot(format, true, s, p);
  });
  add("zstd", false, [&format](const DataSet& s, const std::filesystem::path& p) {
    write_decorated<compress::ZstdWriteStream>(format, s, p,
                                               compress::ZstdWriteOptions{.level = zstd_level});
  });
  add("zstd-oneshot", false, [&format](const DataSet& s, const std::filesystem::path& p) {
    write_oneshot(format, false, s, p);
  });
  run_variants_interleaved(context, rows);
}

void run_data_set(SuiteContext& context, const Format& format, DataKind kind) {
  const std::string data = fmt::format("{}-{}", format.name, to_string(kind));
  // A failure here (before any variant is recorded) fails every variant of the data set.
  const DataSet set = make_data_set(kind, context.options.rows);
  const Checksum expected = checksum(set);
  StringWriteStream rendered;
  format.write(rendered, set);
  const std::string text = rendered.take();
  // The inputs, compressed in one call at the tools' default levels and checked both ways.
  const std::filesystem::path gz =
      context.temp.file(fmt::format("compressed-{}.{}.gz", data, format.name));
  const std::filesystem::path zst =
      context.temp.file(fmt::format("compressed-{}.{}.zst", data, format.name));
  write_file(gz, gzip_compress_oneshot(text, gzip_level));
  write_file(zst, zstd_compress_oneshot(text, zstd_level));
  for (const auto& file : {gz, zst}) {
    if (decompress_oneshot(file == gz, read_file(file)) != text)
      throw std::runtime_error(fmt::format("{} does not decompress to its text", file.string()));
  }
  {
    MemoryReadStream in(text);
    Stopwatch watch;
    check_rows(format.read(in, watch), expected);
  }
  run_decompress(context, data, gz, zst, text);
  run_reads(context, format, data, gz, zst, expected);
  run_writes(context, format, set, data, text);
  std::filesystem::remove(gz);
  std::filesystem::remove(zst);
}

#endif  // BUFSTREAM_BENCH_HAVE_COMPRESSED_SUITE

}  // namespace

void run_compressed_suite(SuiteContext& context) {
  progress_note(fmt::format("compressed suite, {} rows", context.options.rows));
  for (const char* format : formats) {
    for (DataKind kind : context.options.data) {
      const std::string data = fmt::format("{}-{}", format, to_string(kind));
#ifdef BUFSTREAM_BENCH_HAVE_COMPRESSED_SUITE
      try {
        run_data_set(context, format_named(format), kind);
      } catch (const std::exception& e) {
        const std::string reason = fmt::format("cannot prepare the files: {}", e.what());
        for (const char* name : read_variants)
          context.results.add_failed("compressed", "read", data, name, reason);
        for (const char* name : codec_variants) {
          context.results.add_failed("compressed", "decompress", data, name, reason);
          context.results.add_failed("compressed", "write", data, name, reason);
        }
        progress_failed(reason);
      }
#else
      const char* reason =
          "bufstream::compress (zlib1g-dev, libzstd-dev, libisal-dev) or the csv/json formats "
          "not built";
      for (const char* name : read_variants)
        skip_variant(context, {"compressed", "read", data, name}, reason);
      for (const char* name : codec_variants) {
        skip_variant(context, {"compressed", "decompress", data, name}, reason);
        skip_variant(context, {"compressed", "write", data, name}, reason);
      }
#endif
    }
  }
}

}  // namespace bufstream::bench
