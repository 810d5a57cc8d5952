#include "suites/serialization_suite.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "harness/file_utils.hpp"
#include "harness/progress.hpp"

namespace bufstream::bench {
namespace {

// The floor for reading: the whole file into memory with one read(2).
Checksum read_once(const std::filesystem::path& path, Stopwatch& watch) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) io_failed("open", path);
  struct stat info {};
  if (::fstat(fd, &info) != 0) io_failed("stat", path);
  const auto size = static_cast<std::size_t>(info.st_size);
  auto buffer = std::make_unique_for_overwrite<char[]>(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, buffer.get() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_failed("read", path);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  watch.stop();
  return bytes_checksum({buffer.get(), got});
}

void check(const Checksum& got, const Checksum& expected, std::string_view what) {
  if (!got.matches(expected)) {
    throw ValidationError(
        fmt::format("{}: got {}; expected {}", what, got.describe(), expected.describe()));
  }
}

void run_data_set(SuiteContext& context, const SerializationSuite& suite, DataKind kind) {
  const std::string data(to_string(kind));
  const DataSet set = make_data_set(kind, context.options.rows);
  const Checksum expected = checksum(set);
  const std::filesystem::path reference =
      context.temp.file(fmt::format("{}-{}-reference.{}", suite.name, data, suite.extension));

  std::string reference_bytes;
  try {
    suite.reference_writer(set, reference);
    if (suite.read_back) check(suite.read_back(reference), expected, "the reference file");
    reference_bytes = read_file(reference);
  } catch (const std::exception& e) {
    const std::string reason = fmt::format("cannot prepare the reference file: {}", e.what());
    for (const auto& w : suite.writers)
      context.results.add_failed(suite.name, "write", data, w.name, reason);
    if (suite.measure_writes)
      context.results.add_failed(suite.name, "write", data, "write-once", reason);
    for (const auto& r : suite.readers)
      context.results.add_failed(suite.name, "read", data, r.name, reason);
    context.results.add_failed(suite.name, "read", data, "read-once", reason);
    progress_failed(reason);
    return;
  }
  const Checksum expected_bytes = bytes_checksum(reference_bytes);

  // Writers, measured side by side: each run of a writer makes a new file of the writer's own
  // (so that the other writers' runs, which come in between, cannot touch it), and `finish`
  // checks the last one once by reading it back.
  std::vector<InterleavedSuiteVariant> write_rows;
  auto add_writer = [&](std::string_view name, Cost cost, WriteFn write,
                        std::function<void(const std::filesystem::path&)> check_output) {
    const std::filesystem::path out =
        context.temp.file(fmt::format("{}-{}-{}.{}", suite.name, data, name, suite.extension));
    write_rows.push_back({
        .id = {suite.name, "write", data, name},
        .cost = cost,
        .run =
            [&set, out, write = std::move(write)](Stopwatch& watch) {
              start_on_new_files(watch, {out});
              write(set, out);
            },
        .skip_reason = {},
        .finish =
            [out, cost, check_output = std::move(check_output)](Timing timing) {
              check_output(out);
              Measurement m{.timing = std::move(timing),
                            .cost = cost,
                            .bytes = size_of_file(out),
                            .entries = {}};
              std::filesystem::remove(out);
              return m;
            },
    });
  };
  for (const WriteVariant& w : suite.writers) {
    if (!w.write) {
      write_rows.push_back({.id = {suite.name, "write", data, w.name},
                            .cost = w.cost,
                            .run = {},
                            .skip_reason = w.unavailable,
                            .finish = {}});
      continue;
    }
    add_writer(w.name, w.cost, w.write, [&suite, &expected](const std::filesystem::path& out) {
      if (!suite.read_back) throw ValidationError("no reader to check the file written");
      check(suite.read_back(out), expected, "the file written reads back wrong");
    });
  }
  add_writer(
      "write-once", Cost::normal,
      [&reference_bytes](const DataSet&, const std::filesystem::path& out) {
        write_file(out, reference_bytes);  // the floor: one write(2)
      },
      [&reference_bytes](const std::filesystem::path& out) {
        if (read_file(out) != reference_bytes)
          throw ValidationError("the file written differs from the rendered bytes");
      });
  if (suite.measure_writes) run_variants_interleaved(context, write_rows);

  // Readers, measured side by side, all of the reference file (which nothing writes while
  // they run), each run validated.
  std::vector<InterleavedSuiteVariant> read_rows;
  auto add_reader = [&](std::string_view name, Cost cost, ReadFn read, const Checksum& want) {
    read_rows.push_back({
        .id = {suite.name, "read", data, name},
        .cost = cost,
        .run = [&reference, read = std::move(read),
                want](Stopwatch& watch) { check(read(reference, watch), want, "the result read"); },
        .skip_reason = {},
        .finish =
            [cost, bytes = reference_bytes.size()](Timing timing) {
              return Measurement{
                  .timing = std::move(timing), .cost = cost, .bytes = bytes, .entries = {}};
            },
    });
  };
  for (const ReadVariant& r : suite.readers) {
    if (!r.read) {
      read_rows.push_back({.id = {suite.name, "read", data, r.name},
                           .cost = r.cost,
                           .run = {},
                           .skip_reason = r.unavailable,
                           .finish = {}});
      continue;
    }
    add_reader(r.name, r.cost, r.read, expected);
  }
  add_reader("read-once", Cost::normal, read_once, expected_bytes);
  run_variants_interleaved(context, read_rows);
  std::filesystem::remove(reference);
}

}  // namespace

void run_serialization_suite(SuiteContext& context, const SerializationSuite& suite) {
  progress_note(fmt::format("{} suite, {} rows", suite.name, context.options.rows));
  for (DataKind kind : context.options.data) run_data_set(context, suite, kind);
}

}  // namespace bufstream::bench
