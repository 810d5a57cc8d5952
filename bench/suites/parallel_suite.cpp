// The parallel suite (issue 42): the data set's rows as CSV and as JSON Lines, a file of
// 1,000,000 rows by default (--rows), read by the sequential reader and by the parallel readers
// (bufstream::read_chunks under csv::read_rows, csv::read_chunks and json::read_lines_chunks)
// on 1 thread, 2 threads and every core. Data: csv-typed (csv::Schema rows into one vector),
// csv-records (each record's fields converted where they lie, nothing kept), jsonl-events
// (parse() into a handler per value) and jsonl-document (json::Document::parse_next per value).
// Every variant reads the file mapped.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "data_sets/checksum.hpp"
#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "harness/results.hpp"
#include "suites/suites.hpp"

#if defined(BUFSTREAM_BENCH_HAVE_CSV_FORMAT) && defined(BUFSTREAM_BENCH_HAVE_JSON_FORMAT)
#define BUFSTREAM_BENCH_HAVE_PARALLEL
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/csv.hpp>
#include <bufstream/csv/parallel.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/json.hpp>
#include <bufstream/json/parallel.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "suites/csv_bufstream.hpp"
#include "suites/json_bufstream.hpp"
#endif

namespace bufstream::bench {
namespace {

constexpr std::size_t default_rows = 1'000'000;

#ifdef BUFSTREAM_BENCH_HAVE_PARALLEL

// A checksum that chunks add up in input order: counts, sums, an order-free sum of each row's
// hash, and whether the rows' `i` run on from one chunk to the next.
struct ChunkSum {
  std::uint64_t count = 0;
  std::uint64_t hashes = 0;
  double sum_x = 0;
  double sum_y = 0;
  std::int64_t first_i = 0;
  std::int64_t last_i = 0;
  bool in_order = true;

  void add(std::int64_t i, std::int64_t minus_i, double x, double y, std::string_view words) {
    std::uint64_t h = 1469598103934665603ULL;
    const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
    mix(static_cast<std::uint64_t>(i));
    mix(static_cast<std::uint64_t>(minus_i));
    for (const char c : words) mix(static_cast<unsigned char>(c));
    hashes += h;
    sum_x += x;
    sum_y += y;
    if (count == 0) first_i = i;
    in_order = in_order && (count == 0 || i == last_i + 1);
    last_i = i;
    ++count;
  }
  void add(const ChunkSum& next) {
    if (next.count == 0) return;
    in_order = in_order && next.in_order && (count == 0 || next.first_i == last_i + 1);
    if (count == 0) first_i = next.first_i;
    last_i = next.last_i;
    count += next.count;
    hashes += next.hashes;
    sum_x += next.sum_x;
    sum_y += next.sum_y;
  }
  Checksum result() const {
    return {.count = count, .exact = hashes + (in_order ? 0 : 1), .sum_x = sum_x, .sum_y = sum_y};
  }
};

ChunkSum chunk_sum(const DataSet& set) {
  ChunkSum sum;
  for (const Row& r : set.rows) sum.add(r.i, r.minus_i, r.x, r.y, r.words);
  return sum;
}

enum class Threads { sequential, one, two, all };

unsigned thread_count(Threads t) {
  switch (t) {
    case Threads::one: return 1;
    case Threads::two: return 2;
    default: return parallel_threads({});  // the library's default: every core
  }
}

csv::Schema<Row> row_schema() {
  return csv::Schema<Row>()
      .field(&Row::i)
      .field(&Row::minus_i)
      .field(&Row::x)
      .field(&Row::y)
      .field(&Row::words);
}

Checksum csv_typed(const std::filesystem::path& path, Threads t, Stopwatch& watch) {
  std::vector<Row> rows;
  if (t == Threads::sequential) {
    MappedFile file(path);
    csv::Reader reader(file);
    rows = csv::read_rows(reader, row_schema());
  } else {
    rows = csv::read_rows(path, row_schema(), {.parallel = {.threads = thread_count(t)}});
  }
  watch.stop();
  return checksum(rows);
}

ChunkSum csv_records_of(csv::Reader& reader) {
  ChunkSum sum;
  add_records(reader, sum);
  return sum;
}

Checksum csv_records(const std::filesystem::path& path, Threads t, Stopwatch& watch) {
  ChunkSum sum;
  if (t == Threads::sequential) {
    MappedFile file(path);
    csv::Reader reader(file);
    sum = csv_records_of(reader);
  } else {
    csv::read_chunks(
        path, {.parallel = {.threads = thread_count(t)}},
        [](csv::Reader& reader, const Chunk&) { return csv_records_of(reader); },
        [&sum](const ChunkSum& chunk, const Chunk&) { sum.add(chunk); });
  }
  watch.stop();
  return sum.result();
}

// The events of one row, [i, -i, x, y, words].
struct RowEvents {
  ChunkSum sum;
  double numbers[4] = {};
  int field = 0;
  void number(double v) {
    if (field < 4) numbers[field] = v;
    ++field;
  }
  void null() { throw ValidationError("null in a row"); }
  void boolean(bool) { throw ValidationError("a boolean in a row"); }
  void integer(std::int64_t v) { number(static_cast<double>(v)); }
  void unsigned_integer(std::uint64_t v) { number(static_cast<double>(v)); }
  void floating(double v) { number(v); }
  void string(std::string_view s) {
    sum.add(static_cast<std::int64_t>(numbers[0]), static_cast<std::int64_t>(numbers[1]),
            numbers[2], numbers[3], s);
    ++field;
  }
  void key(std::string_view) { throw ValidationError("an object in a row"); }
  void begin_array() {}
  void end_array() {
    if (field != 5) throw ValidationError("a row without five fields");
    field = 0;
  }
  void begin_object() { throw ValidationError("an object in a row"); }
  void end_object() {}
};

ChunkSum jsonl_events_of(json::Reader& reader) {
  RowEvents events;
  while (!reader.at_end()) reader.parse(events);
  return events.sum;
}

ChunkSum jsonl_documents_of(json::Reader& reader) {
  ChunkSum sum;
  while (!reader.at_end()) {
    const json::Document doc = json::Document::parse_next(reader);
    const json::Value row = doc.root();
    if (row.size() != 5) throw ValidationError("a row without five fields");
    sum.add(row[0].as_int64(), row[1].as_int64(), row[2].as_double(), row[3].as_double(),
            row[4].as_string());
  }
  return sum;
}

template <ChunkSum (*Read)(json::Reader&)>
Checksum jsonl(const std::filesystem::path& path, Threads t, Stopwatch& watch) {
  ChunkSum sum;
  if (t == Threads::sequential) {
    MappedFile file(path);
    json::Reader reader(file);
    sum = Read(reader);
  } else {
    json::read_lines_chunks(
        path, {.parallel = {.threads = thread_count(t)}},
        [](json::Reader& reader, const Chunk&) { return Read(reader); },
        [&sum](const ChunkSum& chunk, const Chunk&) { sum.add(chunk); });
  }
  watch.stop();
  return sum.result();
}

void write_jsonl(const DataSet& set, const std::filesystem::path& path) {
  FdWriteStream file(path);
  BufferedWriteStream out(file);
  json::Writer w(out, {.json_lines = true});
  for (const Row& row : set.rows) write_json_row(w, row, set.integral());
  w.finish();
  out.close();
}

void write_csv(const DataSet& set, const std::filesystem::path& path) {
  FdWriteStream file(path);
  BufferedWriteStream out(file);
  write_csv_bufstream(out, set);
  out.close();
}

using Read = Checksum (*)(const std::filesystem::path&, Threads, Stopwatch&);

void run_data(SuiteContext& context, std::string_view data, Read read,
              const std::filesystem::path& path, const Checksum& expected) {
  const std::uint64_t bytes = size_of_file(path);
  std::vector<InterleavedSuiteVariant> variants;
  for (const auto& [name, threads] :
       {std::pair{"sequential", Threads::sequential}, std::pair{"threads-1", Threads::one},
        std::pair{"threads-2", Threads::two}, std::pair{"threads-all", Threads::all}}) {
    InterleavedSuiteVariant v{.id = {"parallel", "read", data, name},
                              .cost = Cost::normal,
                              .run = {},
                              .skip_reason = {},
                              .finish = {}};
    v.run = [read, &path, &expected, threads = threads, name = name](Stopwatch& watch) {
      const Checksum got = read(path, threads, watch);
      if (!got.matches(expected)) {
        throw ValidationError(
            fmt::format("{}: got {}, expected {}", name, got.describe(), expected.describe()));
      }
    };
    v.finish = [bytes](Timing timing) {
      return Measurement{
          .timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
    };
    variants.push_back(std::move(v));
  }
  run_variants_interleaved(context, variants);
}

#endif  // BUFSTREAM_BENCH_HAVE_PARALLEL

}  // namespace

void run_parallel_suite(SuiteContext& context) {
  const std::size_t rows = context.options.rows_given ? context.options.rows : default_rows;
  progress_note(fmt::format("parallel suite, {} rows", rows));
#ifdef BUFSTREAM_BENCH_HAVE_PARALLEL
  const DataSet set = make_data_set(context.options.data.front(), rows);
  const std::filesystem::path csv_path = context.temp.path() / "parallel.csv";
  const std::filesystem::path jsonl_path = context.temp.path() / "parallel.jsonl";
  write_csv(set, csv_path);
  write_jsonl(set, jsonl_path);
  const Checksum rows_sum = checksum(set);
  const Checksum chunk_rows_sum = chunk_sum(set).result();
  run_data(context, "csv-typed", csv_typed, csv_path, rows_sum);
  run_data(context, "csv-records", csv_records, csv_path, chunk_rows_sum);
  run_data(context, "jsonl-events", jsonl<jsonl_events_of>, jsonl_path, chunk_rows_sum);
  run_data(context, "jsonl-document", jsonl<jsonl_documents_of>, jsonl_path, chunk_rows_sum);
#else
  for (const char* data : {"csv-typed", "csv-records", "jsonl-events", "jsonl-document"}) {
    for (const char* v : {"sequential", "threads-1", "threads-2", "threads-all"})
      skip_variant(context, {"parallel", "read", data, v}, "bufstream::csv or ::json not built");
  }
#endif
}

}  // namespace bufstream::bench
