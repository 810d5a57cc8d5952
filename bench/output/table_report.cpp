#include "output/table_report.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "output/result_groups.hpp"
#include "output/text_table.hpp"

namespace bufstream::bench {
namespace {

using Align = TextTable::Align;

std::string format_ms(double ms) {
  if (ms >= 100) return fmt::format("{:.0f}", ms);
  if (ms >= 10) return fmt::format("{:.1f}", ms);
  return fmt::format("{:.2f}", ms);
}

std::string format_ratio(double ratio) {
  if (ratio >= 100) return fmt::format("{:.0f}x", ratio);
  if (ratio >= 10) return fmt::format("{:.1f}x", ratio);
  return fmt::format("{:.2f}x", ratio);
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes >= (1u << 20)) return fmt::format("{:.1f} MB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= (1u << 10)) return fmt::format("{:.1f} KB", static_cast<double>(bytes) / (1 << 10));
  return fmt::format("{} B", bytes);
}

std::string cell_for_unmeasured(const Entry* e) {
  if (e == nullptr) return "";
  return e->failed ? "FAILED" : "skipped";
}

// The reasons of the skipped and failed variants of a suite, one paragraph per reason.
void print_reasons(std::FILE* out, const Results& results, std::string_view suite) {
  struct Reason {
    std::string text;
    std::vector<std::string> variants;  // "op variant"
    std::vector<std::string> data;
  };
  std::vector<Reason> reasons;
  auto add_once = [](std::vector<std::string>& list, std::string value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
  };
  for (const Entry& e : results.entries()) {
    if (e.suite != suite || e.measured) continue;
    auto it = std::find_if(reasons.begin(), reasons.end(),
                           [&](const Reason& r) { return r.text == e.reason; });
    if (it == reasons.end()) it = reasons.insert(reasons.end(), Reason{e.reason, {}, {}});
    add_once(it->variants, e.op + " " + e.variant);
    add_once(it->data, e.data);
  }
  for (const Reason& r : reasons) {
    fmt::print(out, "  not measured: {} ({}):\n    {}\n", fmt::join(r.variants, ", "),
               fmt::join(r.data, ", "), r.text);
  }
}

// The figures of the original experiments (BENCHMARKS.md), printed under each table so that
// the shapes can be compared (the machines and languages differ; the ratios are the point).
void print_origin(std::FILE* out, std::string_view suite) {
  std::string_view text;
  if (suite == "json") {
    text =
        "Pharo NeoJSON, 25,000 rows of floats, ms unbuffered vs buffered: write 22152 vs 5147, read 3502 vs 1214";
  } else if (suite == "ston") {
    text =
        "Pharo STON, 25,000 rows of floats, ms unbuffered vs buffered: write 22275 vs 5501, read 3632 vs 1367";
  } else if (suite == "csv") {
    text =
        "Pharo NeoCSV, 25,000 rows of floats, ms unbuffered vs buffered: write 20916 vs 5559, read 1290 vs 970;"
        " integers, buffered: write 311, read 396";
  } else if (suite == "cedict") {
    text =
        "2016 reproduction (i7-6700, 32-bit), ms excluding/including destructors: v1 641/651, v2 105/118,"
        " v3 58/73, v4 50/50";
  }
  if (!text.empty()) fmt::print(out, "  origin: {}\n", text);
}

std::string runs_note(const Options& options) {
  return fmt::format(
      "median of {} run{} after one warm-up; variants that make one system call per stream "
      "operation run at most {} time{}, without warm-up (column 'runs')",
      options.repeat, options.repeat == 1 ? "" : "s", run_policy(Cost::slow, options.repeat).runs,
      run_policy(Cost::slow, options.repeat).runs == 1 ? "" : "s");
}

// Throughput in MB/s (2^20 bytes), so that the unbuffered stream's 1 MB compares with the rest.
double megabytes_per_second(const Measurement& m) {
  return static_cast<double>(m.bytes) / (1 << 20) / (m.timing.median_ms / 1000);
}

// Rows: ops and their variants; a column group per data set: median ms, runs or MB/s, and the
// speed-up against `reference` (a variant of the same op and data set).
struct RatioTable {
  std::string_view suite;
  std::string_view reference;
  bool throughput = false;  // MB/s instead of the run count
  /// When set, each variant's own reference (`reference` then only names the column).
  std::function<std::string(std::string_view variant)> reference_of = {};
};

void print_ratio_table(std::FILE* out, const Results& results, const RatioTable& spec) {
  const std::string suite(spec.suite);
  const auto data_sets = data_in(results, suite);
  TextTable table;
  table.add_column("op", Align::left);
  table.add_column("variant", Align::left);
  for (const std::string& data : data_sets) {
    table.add_column("median ms", Align::right, data);
    table.add_column(spec.throughput ? "MB/s" : "runs", Align::right, data);
    table.add_column(fmt::format("vs {}", spec.reference), Align::right, data);
  }
  const auto ops = ops_in(results, suite);
  for (std::size_t o = 0; o < ops.size(); ++o) {
    if (o > 0) table.add_separator();
    for (const std::string& variant : variants_in(results, suite, ops[o])) {
      std::vector<std::string> row{ops[o], variant};
      for (const std::string& data : data_sets) {
        const Entry* e = find_entry(results, suite, ops[o], data, variant);
        if (e == nullptr || !e->measured) {
          row.insert(row.end(), {cell_for_unmeasured(e), "", ""});
          continue;
        }
        const Measurement* base = find_measured(
            results, suite, ops[o], data,
            spec.reference_of ? spec.reference_of(variant) : std::string(spec.reference));
        const Measurement& m = *e->measured;
        const double median = m.timing.median_ms;
        row.push_back(format_ms(median));
        row.push_back(spec.throughput ? fmt::format("{:.0f}", megabytes_per_second(m))
                                      : std::to_string(m.timing.runs()));
        row.push_back(base != nullptr && median > 0 ? format_ratio(base->timing.median_ms / median)
                                                    : "-");
      }
      table.add_row(std::move(row));
    }
  }
  table.print(out);
}

void print_serialization_table(std::FILE* out, const Results& results, const std::string& suite,
                               const Options& options) {
  fmt::print(out, "\n{}: write and read {} rows ({})\n", suite, group_digits(options.rows),
             runs_note(options));
  print_ratio_table(out, results, {.suite = suite, .reference = "unbuffered"});
  print_origin(out, suite);
  print_reasons(out, results, suite);
}

void print_streams_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(
      out, "\nstreams: {} MB one byte at a time (unbuffered: 1 MB, one system call per byte; {})\n",
      options.stream_mb, runs_note(options));
  TextTable table;
  table.add_column("op", Align::left);
  table.add_column("variant", Align::left);
  table.add_column("bytes", Align::right);
  table.add_column("runs", Align::right);
  table.add_column("median ms", Align::right);
  table.add_column("MB/s", Align::right);
  table.add_column("vs unbuffered", Align::right);
  const auto ops = ops_in(results, "streams");
  std::vector<std::string> summary;
  for (std::size_t o = 0; o < ops.size(); ++o) {
    if (o > 0) table.add_separator();
    const Measurement* base = find_measured(results, "streams", ops[o], "bytes", "unbuffered");
    const Measurement* buffered = find_measured(results, "streams", ops[o], "bytes", "buffered");
    std::vector<std::string> ratios;
    for (const std::string& variant : variants_in(results, "streams", ops[o])) {
      const Entry* e = find_entry(results, "streams", ops[o], "bytes", variant);
      if (e == nullptr || !e->measured) {
        table.add_row({ops[o], variant, cell_for_unmeasured(e)});
        continue;
      }
      const Measurement& m = *e->measured;
      const double speed = megabytes_per_second(m);
      table.add_row({ops[o], variant, format_bytes(m.bytes), std::to_string(m.timing.runs()),
                     format_ms(m.timing.median_ms), fmt::format("{:.1f}", speed),
                     base != nullptr ? format_ratio(speed / megabytes_per_second(*base)) : "-"});
      if (buffered != nullptr && variant != "buffered") {
        ratios.push_back(
            fmt::format("{} {}", format_ratio(megabytes_per_second(*buffered) / speed), variant));
      }
    }
    if (!ratios.empty())
      summary.push_back(
          fmt::format("  buffered {} throughput: {}", ops[o], fmt::join(ratios, ", ")));
  }
  table.print(out);
  for (const std::string& line : summary) fmt::print(out, "{}\n", line);
  fmt::print(
      out,
      "  (issue 2's targets: at least 1x putc/getc_unlocked, 3x ofstream::put/ifstream::get, 100x unbuffered)\n");
  print_reasons(out, results, "streams");
}

void print_cedict_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(
      out,
      "\ncedict: load the CC-CEDICT dictionary, and look words up with the bufstream command ({})\n",
      runs_note(options));
  TextTable table;
  table.add_column("op", Align::left);
  table.add_column("variant", Align::left);
  table.add_column("entries", Align::right);
  table.add_column("runs", Align::right);
  table.add_column("median ms", Align::right);
  table.add_column("incl. destructors", Align::right);
  table.add_column("vs v1-iostream", Align::right);
  const auto data_sets = data_in(results, "cedict");
  const std::string data = data_sets.empty() ? "" : data_sets.front();
  const auto ops = ops_in(results, "cedict");
  const Measurement* base = find_measured(results, "cedict", "load", data, "v1-iostream");
  for (std::size_t o = 0; o < ops.size(); ++o) {
    if (o > 0) table.add_separator();
    for (const std::string& variant : variants_in(results, "cedict", ops[o])) {
      const Entry* e = find_entry(results, "cedict", ops[o], data, variant);
      if (e == nullptr || !e->measured) {
        table.add_row({ops[o], variant, cell_for_unmeasured(e)});
        continue;
      }
      const Measurement& m = *e->measured;
      const double incl = m.timing.median_incl_destructors_ms.value_or(m.timing.median_ms);
      table.add_row({ops[o], variant, m.entries ? group_digits(*m.entries) : "",
                     std::to_string(m.timing.runs()), format_ms(m.timing.median_ms),
                     format_ms(incl),
                     base != nullptr && ops[o] == "load"
                         ? format_ratio(base->timing.median_ms / m.timing.median_ms)
                         : "-"});
    }
  }
  table.print(out);
  print_origin(out, "cedict");
  // What a buffer does for each way of reading, from this run.
  std::vector<std::string> buffering;
  for (const char* way : {"lines", "bulk"}) {
    const Measurement* unbuffered =
        find_measured(results, "cedict", "load", data, fmt::format("{}-unbuffered", way));
    const Measurement* buffered =
        find_measured(results, "cedict", "load", data, fmt::format("{}-buffered", way));
    if (unbuffered != nullptr && buffered != nullptr && buffered->timing.median_ms > 0) {
      buffering.push_back(fmt::format(
          "{} {}", way, format_ratio(unbuffered->timing.median_ms / buffered->timing.median_ms)));
    }
  }
  if (!buffering.empty())
    fmt::print(out, "  buffered vs unbuffered: {}\n", fmt::join(buffering, ", "));
  fmt::print(
      out,
      "  lines-*: a line at a time, next_line and the line parser, as Smalltalk reads a file; bulk-*: the "
      "loader reads the file straight into its arena 256 KiB at a time, so over either stream it makes "
      "few system calls and the buffer is moot\n");
  fmt::print(
      out,
      "  index: a zero-copy load plus building every look-up index (look-ups scan the entries until "
      "their kind's index pays, so the load variants exclude them)\n");
  fmt::print(
      out,
      "  lookup: `bufstream cedict lookup --dict FILE QUERY`, one process per run, load included: "
      "headword 你好, pinyin \"ni hao\" and \"ni3 hao3\", english \"calico\"; stats: the same process "
      "loading and printing the counts, no look-up\n");
  print_reasons(out, results, "cedict");
}

// The compressed files: each decorator (and pipe) against the one-shot (de)compression with the
// same library, and the goals: the decorator's decompression, and writing through it, within
// 1.1x of the one-shot. Reading and parsing is shown the same way; there the one-shot side
// parses from memory, whose size it knows (a decorator over gzip does not).
void print_compressed_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out, "\ncompressed: {} rows as .gz and .zst files, read and written ({})\n",
             group_digits(options.rows), runs_note(options));
  const auto one_shot_of = [](std::string_view variant) {
    return fmt::format("{}-oneshot", variant.substr(0, variant.find('-')));
  };
  print_ratio_table(out, results,
                    {.suite = "compressed",
                     .reference = "one-shot",
                     .throughput = true,
                     .reference_of = one_shot_of});
  fmt::print(out,
             "  gzip/zstd: file -> 64 KiB BufferedReadStream -> GzipReadStream/ZstdReadStream -> "
             "its windows consumed to the end (decompress) or the CSV or JSON reader (read) "
             "(written: the writer -> GzipWriteStream/ZstdWriteStream -> BufferedWriteStream -> "
             "file); *-oneshot: the whole file in one read, decompressed in one call (ISA-L, "
             "libzstd) into memory (decompress), then parsed from memory (read) (written: "
             "rendered into memory, compressed in one call, zlib or libzstd, one write); *-pipe: "
             "zcat/zstdcat into a BufferedReadStream; gzip level 6, zstd level 3; MB/s of the "
             "compressed file\n");
  for (const char* op : {"decompress", "read", "write"}) {
    std::vector<std::string> ratios;
    bool met = true;
    for (const std::string& data : data_in(results, "compressed")) {
      for (const char* codec : {"gzip", "zstd"}) {
        const Measurement* decorator = find_measured(results, "compressed", op, data, codec);
        const Measurement* one_shot =
            find_measured(results, "compressed", op, data, one_shot_of(codec));
        if (decorator == nullptr || one_shot == nullptr || one_shot->timing.median_ms <= 0)
          continue;
        const double ratio = decorator->timing.median_ms / one_shot->timing.median_ms;
        met = met && ratio <= 1.1;
        ratios.push_back(fmt::format("{} {} {}", data, codec, format_ratio(ratio)));
      }
    }
    if (ratios.empty()) continue;
    if (std::string_view(op) == "read") {  // not a goal: see above
      fmt::print(out, "  read and parse, decorator vs one-shot: {}\n", fmt::join(ratios, ", "));
      continue;
    }
    fmt::print(out, "  goal: decorator {} within 1.1x of one-shot ({}): {}\n", op,
               met ? "met" : "MISSED", fmt::join(ratios, ", "));
  }
  print_reasons(out, results, "compressed");
}

// The standard JSON files: one column group per file, each variant against nlohmann's parse
// (or dump) of the same file, the library most C++ programs read JSON with.
void print_json_files_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out, "\njson-files: the standard JSON benchmark files, read and written ({})\n",
             runs_note(options));
  print_ratio_table(out, results,
                    {.suite = "json-files", .reference = "nlohmann", .throughput = true});
  fmt::print(out,
             "  read: document is bufstream's json::Document, nlohmann-dom its json::Reader into "
             "nlohmann::json, events its event interface into a handler that counts values "
             "and adds up the numbers; rapidjson is its DOM with default flags, rapidjson-exact "
             "with kParseFullPrecisionFlag (doubles correctly rounded, as bufstream's), "
             "rapidjson-sax its Reader into the same kind of handler\n"
             "  write: from each one's own DOM through bufstream's json::Writer (document, "
             "nlohmann-dom) or the library's own writer\n");
  print_reasons(out, results, "json-files");
}

// JSON Lines: one column group per data set, each variant against nlohmann's parse of each
// line.
void print_json_lines_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out, "\njson-lines: {} rows as JSON Lines, read value after value ({})\n",
             group_digits(options.rows), runs_note(options));
  print_ratio_table(out, results,
                    {.suite = "json-lines", .reference = "nlohmann", .throughput = true});
  fmt::print(out,
             "  each value is dropped before the next is read, and its shape taken as it is "
             "read (every variant walks its own DOM, or counts events, inside the time); "
             "document is json::Document::parse_next, nlohmann-dom json::Reader::read into "
             "nlohmann::json, events parse() into a counting handler, each from one json::Reader; "
             "nlohmann parses each std::getline; rapidjson and rapidjson-sax read one value at a "
             "time (kParseStopWhenDoneFlag) from one stream; simdjson is load_many\n");
  print_reasons(out, results, "json-lines");
}

// json-small: one column group per data set, each variant against RapidJSON's DOM.
void print_json_small_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out, "\njson-small: small documents, each parsed on its own from memory ({})\n",
             runs_note(options));
  print_ratio_table(out, results,
                    {.suite = "json-small", .reference = "rapidjson", .throughput = true});
  fmt::print(out,
             "  twitter-statuses: each status of twitter.json, citm-events: each event of "
             "citm_catalog.json, as a document of its own (compact, from nlohmann's dump), the "
             "set over again to 4 MiB; "
             "document is json::Document::parse(text), events a json::Reader over a "
             "MemoryReadStream into a counting handler, rapidjson a new Document's Parse, "
             "simdjson one dom::parser's parse of each, nlohmann json::parse; every variant "
             "takes each document's shape inside the time\n");
  print_reasons(out, results, "json-small");
}

// json-select: one column group per data set, each variant against the plain event walk
// over the whole file.
void print_json_select_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out,
             "\njson-select: one document of {} rows, {{\"meta\": {{...}}, \"rows\": [...]}}, "
             "read by JSON Pointer ({})\n",
             group_digits(options.rows), runs_note(options));
  print_ratio_table(out, results,
                    {.suite = "json-select", .reference = "whole-events", .throughput = true});
  fmt::print(out,
             "  read: json::Selection of \"/rows/*\": select-events reads every row as events "
             "in one walk (Selection::parse), select-next-events each row after next() by the "
             "reader's parse(), select-document each by Document::parse_next; whole-events is "
             "parse() of the whole file into a handler that keeps the rows (what `bufstream "
             "check` does), whole-document json::Document::parse of the whole file; "
             "simdjson-ondemand iterates \"rows\" with the whole file in memory. seek: the value "
             "at \"/meta/version\", near the start: json::seek, then read_integer; a whole "
             "Document's at(); simdjson's doc[\"meta\"][\"version\"] after loading the file\n");
  print_reasons(out, results, "json-select");
}

// Numbers: one column group per data set, each conversion against bufstream's own (a peer
// above 1.00x is faster than bufstream).
void print_numbers_table(std::FILE* out, const Results& results, const Options& options) {
  fmt::print(out, "\nnumbers: decimal text to double and double to shortest text ({})\n",
             runs_note(options));
  print_ratio_table(out, results,
                    {.suite = "numbers", .reference = "bufstream", .throughput = true});
  fmt::print(out,
             "  rows: the floats data set's two number columns ({} rows, shortest text); canada: "
             "every number of canada.json as written there. parse: bufstream's parse_double, "
             "fast_float::from_chars, std::from_chars; format: bufstream's format_double, "
             "std::to_chars, {{fmt}}'s \"{{}}\" (Dragonbox), each value written shortest\n",
             group_digits(options.rows));
  print_reasons(out, results, "numbers");
}

// The parallel suite: a row per data set and variant, each against threads-1 (the speed-up) and
// that divided by its threads (the efficiency per thread), and threads-1 against the sequential
// reader.
void print_parallel_table(std::FILE* out, const Results& results, const Options& options) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  fmt::print(out, "\nparallel: {} rows as CSV and JSON Lines, read on 1, 2 and {} threads ({})\n",
             group_digits(options.rows_given ? options.rows : 1'000'000), cores,
             runs_note(options));
  TextTable table;
  table.add_column("data", Align::left);
  table.add_column("variant", Align::left);
  table.add_column("median ms", Align::right);
  table.add_column("MB/s", Align::right);
  table.add_column("speed-up", Align::right);
  table.add_column("per thread", Align::right);
  table.add_column("vs sequential", Align::right);
  const auto data_sets = data_in(results, "parallel");
  for (std::size_t d = 0; d < data_sets.size(); ++d) {
    if (d > 0) table.add_separator();
    const std::string& data = data_sets[d];
    const Measurement* one = find_measured(results, "parallel", "read", data, "threads-1");
    const Measurement* sequential = find_measured(results, "parallel", "read", data, "sequential");
    for (const std::string& variant : variants_in(results, "parallel", "read")) {
      const Entry* e = find_entry(results, "parallel", "read", data, variant);
      if (e == nullptr || !e->measured) {
        table.add_row({data, variant, cell_for_unmeasured(e), "", "", "", ""});
        continue;
      }
      const Measurement& m = *e->measured;
      const double median = m.timing.median_ms;
      const unsigned threads = variant == "threads-2" ? 2 : variant == "threads-all" ? cores : 1;
      std::string speed_up = "-", per_thread = "-", vs_sequential = "-";
      if (one != nullptr && median > 0 && variant != "sequential") {
        const double s = one->timing.median_ms / median;
        speed_up = format_ratio(s);
        per_thread = fmt::format("{:.0f}%", 100 * s / threads);
      }
      if (sequential != nullptr && median > 0)
        vs_sequential = format_ratio(sequential->timing.median_ms / median);
      table.add_row({data, variant, format_ms(median),
                     fmt::format("{:.0f}", megabytes_per_second(m)), speed_up, per_thread,
                     vs_sequential});
    }
  }
  table.print(out);
  fmt::print(out,
             "  sequential: one csv::Reader or json::Reader over the mapped file; threads-N: "
             "csv::read_rows (csv-typed), csv::read_chunks (csv-records) and "
             "json::read_lines_chunks (jsonl-*) of the file, mapped, in chunks of 128 KiB; "
             "speed-up: against threads-1; per thread: the speed-up divided by the threads\n"
             "  goals (issue 42): threads-2 at least 1.80x threads-1 for csv-typed and "
             "jsonl-document; threads-1 no slower than sequential (vs sequential >= 1.00x)\n");
  print_reasons(out, results, "parallel");
}

}  // namespace

void print_tables(std::FILE* out, const Results& results, const Options& options,
                  const MachineInfo& machine) {
  fmt::print(out, "\nbufstream-bench on {} ({} cores), {}, {} build, {}\n", machine.cpu_model,
             machine.cores, machine.compiler, machine.build_type, instruction_sets(machine));
  for (const std::string& suite : suites_in(results)) {
    if (suite == "streams") {
      print_streams_table(out, results, options);
    } else if (suite == "cedict") {
      print_cedict_table(out, results, options);
    } else if (suite == "json-files") {
      print_json_files_table(out, results, options);
    } else if (suite == "json-lines") {
      print_json_lines_table(out, results, options);
    } else if (suite == "json-small") {
      print_json_small_table(out, results, options);
    } else if (suite == "json-select") {
      print_json_select_table(out, results, options);
    } else if (suite == "compressed") {
      print_compressed_table(out, results, options);
    } else if (suite == "numbers") {
      print_numbers_table(out, results, options);
    } else if (suite == "parallel") {
      print_parallel_table(out, results, options);
    } else {
      print_serialization_table(out, results, suite, options);
    }
  }
  std::fflush(out);
}

}  // namespace bufstream::bench
