// The cedict suite: loading CC-CEDICT the four ways of the 2005 blog series (v1..v4, in
// bench/cedict_classic), with bufstream's loader over unbuffered and buffered streams and a
// mapped file, against the floor that only finds line ends. Each load is timed excluding and
// including the destruction of what it built. The variants are measured side by side, in
// interleaved rounds, because the suite's point is their ratios (mapped against scan-lines,
// buffered against v1) and a shared machine's speed drifts between runs made minutes apart.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "harness/file_utils.hpp"
#include "harness/progress.hpp"
#include "suites/suites.hpp"

#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC
#include <bufstream/utf8.hpp>

#include "classic_loaders.hpp"
#endif
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT
#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/fd_read_stream.hpp>
#endif

#ifndef BUFSTREAM_BENCH_DEFAULT_CEDICT
#define BUFSTREAM_BENCH_DEFAULT_CEDICT "bench/data/cedict_ts.u8"
#endif

namespace bufstream::bench {
namespace {

constexpr std::string_view suite_name = "cedict";
constexpr std::string_view data_name = "cc-cedict";

// What a load produced, reduced to what every loader must agree on: the entry count and a
// hash of every entry's four fields (as UTF-8). The line scan only counts.
struct LoadSummary {
  std::uint64_t entries = 0;
  std::optional<std::uint64_t> hash;
};

class EntryHash {
 public:
  void add(std::string_view field) noexcept {
    for (char c : field) value_ = (value_ ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    value_ = (value_ ^ 0xFF) * 1099511628211ULL;  // field separator: "ab","c" differs from "a","bc"
  }
  std::uint64_t value() const noexcept { return value_; }

 private:
  std::uint64_t value_ = 14695981039346656037ULL;
};

void check(const LoadSummary& got, const LoadSummary& expected) {
  if (got.entries != expected.entries) {
    throw ValidationError(fmt::format("loaded {} entries, expected {}", got.entries, expected.entries));
  }
  if (got.hash && expected.hash && *got.hash != *expected.hash) {
    throw ValidationError("the entries' fields differ from the other loaders'");
  }
}

// A timed load: `load()` builds the dictionary (timed), `summarize` checks it (untimed), then
// its destruction is timed apart.
template <class Load, class Summarize>
TimedRun timed_load(Load load, Summarize summarize, const LoadSummary& expected, LoadSummary& last) {
  return [load, summarize, &expected, &last](Stopwatch& watch) {
    std::optional<decltype(load())> dictionary;
    dictionary.emplace(load());
    watch.stop();
    last = summarize(*dictionary);
    watch.begin_destructors();
    dictionary.reset();
    watch.stop_after_destructors();
    check(last, expected);
  };
}

#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC
template <class Dictionary>
LoadSummary summarize_classic(const Dictionary& dictionary) {
  EntryHash hash;
  for (std::size_t i = 0; i < dictionary.entry_count(); ++i) {
    const cedict::classic::EntryView e = dictionary.entry(i);
    for (std::u16string_view field : {e.traditional, e.simplified, e.pinyin, e.english}) {
      hash.add(utf8::from_utf16(field));
    }
  }
  return {.entries = dictionary.entry_count(), .hash = hash.value()};
}
#endif

#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT
LoadSummary summarize_bufstream(const cedict::Dictionary& dictionary) {
  EntryHash hash;
  for (std::size_t i = 0; i < dictionary.size(); ++i) {
    const cedict::Entry e = dictionary[i];
    for (std::string_view field : {e.traditional, e.simplified, e.pinyin, e.english()}) hash.add(field);
  }
  return {.entries = dictionary.size(), .hash = hash.value()};
}
#endif

// The variants in table order, each with how to run it here (or why it cannot). `last` is
// what the variant's latest load summarised (its own, as the variants' runs interleave).
struct CedictVariant {
  std::string_view name;
  Cost cost;
  std::optional<TimedRun> run;
  std::string unavailable;
  const LoadSummary* last = nullptr;
};

}  // namespace

void run_cedict_suite(SuiteContext& context) {
  const std::filesystem::path path = context.options.cedict_path.empty()
                                         ? std::filesystem::path(BUFSTREAM_BENCH_DEFAULT_CEDICT)
                                         : context.options.cedict_path;
  progress_note(fmt::format("cedict suite, {}", path.string()));
  std::string missing_file;
  if (!std::filesystem::exists(path)) missing_file = fmt::format("CC-CEDICT file not found: {} (see --cedict)", path.string());

  // The expected result, from an independent loader (untimed): the classic #2 if built, else
  // bufstream's mapped load. Every variant must agree with it.
  LoadSummary expected;
  // One summary per variant, filled by its runs (a deque, so that references stay valid).
  std::deque<LoadSummary> last_loads;
  if (missing_file.empty()) {
    try {
#if defined(BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC)
      expected = summarize_classic(cedict::classic::v2_mmap_wstring::load(path));
#elif defined(BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT)
      expected = summarize_bufstream(cedict::Dictionary::map_file(path));
#endif
    } catch (const std::exception& e) {
      missing_file = fmt::format("cannot load {}: {}", path.string(), e.what());
    }
  }

  std::vector<CedictVariant> variants;
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC
  namespace classic = cedict::classic;
  auto add_classic = [&](std::string_view name, auto load) {
    LoadSummary& last = last_loads.emplace_back();
    variants.push_back({name, Cost::normal,
                        timed_load([load, &path] { return load(path); },
                                   [](const auto& d) { return summarize_classic(d); }, expected, last),
                        {}, &last});
  };
  add_classic("v1-iostream", classic::v1_iostream::load);
  add_classic("v2-mmap-wstring", classic::v2_mmap_wstring::load);
  add_classic("v3-raw-strings", classic::v3_raw_strings::load);
  add_classic("v4-pool", classic::v4_pool::load);
#else
  for (std::string_view name : {"v1-iostream", "v2-mmap-wstring", "v3-raw-strings", "v4-pool"}) {
    variants.push_back({name, Cost::normal, std::nullopt, "not built yet (bench/cedict_classic has not landed)"});
  }
#endif
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT
  auto add_bufstream = [&](std::string_view name, Cost cost, auto load) {
    LoadSummary& last = last_loads.emplace_back();
    variants.push_back({name, cost,
                        timed_load(load, [](const cedict::Dictionary& d) { return summarize_bufstream(d); },
                                   expected, last),
                        {}, &last});
  };
  add_bufstream("unbuffered", Cost::slow, [&path] {
    FdReadStream in(path);
    return cedict::Dictionary::load(in);
  });
  add_bufstream("buffered", Cost::normal, [&path] {
    FdReadStream file(path);
    BufferedReadStream in(file);
    return cedict::Dictionary::load(in);
  });
  add_bufstream("mapped", Cost::normal, [&path] { return cedict::Dictionary::map_file(path); });
  // Loading (zero-copy, as "mapped") and building every look-up index. A dictionary builds
  // each index on its first look-up, so the load variants do not include them; this one shows
  // what a dictionary ready for every kind of look-up costs, its destruction included.
  add_bufstream("index", Cost::normal, [&path] {
    cedict::Dictionary dictionary = cedict::Dictionary::map_file(path);
    dictionary.build_indexes();
    return dictionary;
  });
#else
  for (std::string_view name : {"unbuffered", "buffered", "mapped", "index"}) {
    variants.push_back({name, Cost::normal, std::nullopt, "not built yet (formats/cedict has not landed)"});
  }
#endif
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC
  {
    LoadSummary& last = last_loads.emplace_back();
    variants.push_back({"scan-lines", Cost::normal,
                        timed_load([&path] { return classic::scan_lines::load(path); },
                                   [](const classic::scan_lines::LineScan& s) {
                                     return LoadSummary{.entries = s.entry_count(), .hash = std::nullopt};
                                   },
                                   expected, last),
                        {}, &last});
  }
#else
  variants.push_back({"scan-lines", Cost::normal, std::nullopt, "not built yet (bench/cedict_classic has not landed)"});
#endif

  // All of them side by side: the ratios between variants are what the suite is for.
  std::vector<InterleavedSuiteVariant> rows;
  for (const CedictVariant& v : variants) {
    InterleavedSuiteVariant row{.id = {suite_name, "load", data_name, v.name}, .cost = v.cost, .run = {},
                                .skip_reason = {}, .finish = {}};
    if (!missing_file.empty()) {
      row.skip_reason = missing_file;
    } else if (!v.run) {
      row.skip_reason = v.unavailable;
    } else {
      row.run = *v.run;
      row.finish = [&path, cost = v.cost, last = v.last](Timing timing) {
        return Measurement{.timing = std::move(timing), .cost = cost, .bytes = size_of_file(path),
                           .entries = last->entries};
      };
    }
    rows.push_back(std::move(row));
  }
  run_variants_interleaved(context, rows);
}

}  // namespace bufstream::bench
