// The cedict suite. Op `load`: CC-CEDICT loaded the four ways of the 2005 blog series (v1..v4,
// in bench/cedict_classic); bufstream's loader read the Smalltalk way, a line at a time
// (`lines-*`: next_line and the line parser), and in bulk (`bulk-*`: a few large reads), each
// over the unbuffered and the buffered stream, and zero-copy over a mapped file; a load with
// every look-up index; and the floor that only finds line ends. Each load is timed excluding
// and including the destruction of what it built. Op `lookup`: the `bufstream cedict lookup`
// command, one process per query, as a user runs it. The variants of each op are measured side
// by side, in interleaved rounds, because the suite's point is their ratios and a shared
// machine's speed drifts between runs made minutes apart.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
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
#include <bufstream/cedict/stats.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>
#endif

extern char** environ;  // the environment, handed to the processes the lookup variants start

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
    throw ValidationError(
        fmt::format("loaded {} entries, expected {}", got.entries, expected.entries));
  }
  if (got.hash && expected.hash && *got.hash != *expected.hash) {
    throw ValidationError("the entries' fields differ from the other loaders'");
  }
}

// A timed load: `load()` builds the dictionary (timed), `summarize` checks it (untimed), then
// its destruction is timed apart.
template <class Load, class Summarize>
TimedRun timed_load(Load load, Summarize summarize, const LoadSummary& expected,
                    LoadSummary& last) {
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
    for (std::string_view field : {e.traditional, e.simplified, e.pinyin, e.english()})
      hash.add(field);
  }
  return {.entries = dictionary.size(), .hash = hash.value()};
}
#endif

#if defined(BUFSTREAM_BENCH_CLI) && defined(BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT)
#define BUFSTREAM_BENCH_CEDICT_LOOKUP 1

// Runs `argv` as a child process with its standard output and error in new files `out` and
// `err`, and waits for it. Returns its exit status; throws if it cannot be started or a signal
// ends it.
int run_process(const std::vector<std::string>& argv, const std::filesystem::path& out,
                const std::filesystem::path& err) {
  const auto check = [&](int error, std::string_view what) {
    if (error != 0)
      throw std::system_error(error, std::generic_category(), fmt::format("{} {}", what, argv[0]));
  };
  posix_spawn_file_actions_t actions;
  check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int error =
      posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (error == 0)
    error = posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_EXCL,
                                             0644);
  if (error == 0) error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  check(error, "posix_spawn");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waitpid");
  }
  if (!WIFEXITED(status))
    throw ValidationError(fmt::format("{} was ended by signal {}", argv[0], WTERMSIG(status)));
  return WEXITSTATUS(status);
}

// A question for the command, and whether it is a headword (Chinese characters) or is looked
// up as pinyin and as an English word.
struct LookupQuery {
  std::string_view variant;
  std::string_view query;
  bool headword;
};

constexpr LookupQuery lookup_queries[] = {
    {"headword", "你好", true},
    {"pinyin", "ni hao", false},
    {"pinyin-tones", "ni3 hao3", false},
    {"english", "calico", false},
};

// What `bufstream cedict lookup QUERY` must print (docs/CLI.md), from the library: the entries
// found, as CC-CEDICT lines, each once, those found by pinyin before those found by English
// word. `count` is how many.
std::string expected_lookup(const cedict::Dictionary& dict, const LookupQuery& q,
                            std::uint64_t& count) {
  std::vector<cedict::Entry> found =
      q.headword ? dict.find_headword(q.query) : dict.find_pinyin(q.query);
  if (!q.headword) {
    for (const cedict::Entry& e : dict.find_english(q.query)) found.push_back(e);
  }
  std::string text;
  std::set<std::size_t> printed;
  count = 0;
  for (const cedict::Entry& e : found) {
    if (!printed.insert(e.index).second) continue;
    text += fmt::format("{} {} [{}] /{}/\n", e.traditional, e.simplified, e.pinyin, e.english());
    ++count;
  }
  return text;
}

// A timed run of the command: `argv` in a process of its own, its output in new files (removed
// first, untimed), checked against `expected` after the clock has stopped.
TimedRun timed_command(std::vector<std::string> argv, std::filesystem::path out,
                       std::filesystem::path err, std::string expected) {
  return [argv = std::move(argv), out = std::move(out), err = std::move(err),
          expected = std::move(expected)](Stopwatch& watch) {
    start_on_new_files(watch, {out, err});
    const int status = run_process(argv, out, err);
    // The process has freed all it held: its run includes its destructors.
    watch.begin_destructors();
    watch.stop_after_destructors();
    if (status != 0)
      throw ValidationError(fmt::format("exit status {}: {}", status, read_file(err)));
    const std::string got = read_file(out);
    if (got != expected) {
      throw ValidationError(fmt::format("printed {} bytes, not the {} expected: {:.200}",
                                        got.size(), expected.size(), got));
    }
  };
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
  std::string_view op = "load";
};

}  // namespace

void run_cedict_suite(SuiteContext& context) {
  const std::filesystem::path path = context.options.cedict_path.empty()
                                         ? std::filesystem::path(BUFSTREAM_BENCH_DEFAULT_CEDICT)
                                         : context.options.cedict_path;
  progress_note(fmt::format("cedict suite, {}", path.string()));
  std::string missing_file;
  if (!std::filesystem::exists(path))
    missing_file = fmt::format("CC-CEDICT file not found: {} (see --cedict)", path.string());

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
    variants.push_back(
        {name,
         Cost::normal,
         timed_load([load, &path] { return load(path); },
                    [](const auto& d) { return summarize_classic(d); }, expected, last),
         {},
         &last});
  };
  add_classic("v1-iostream", classic::v1_iostream::load);
  add_classic("v2-mmap-wstring", classic::v2_mmap_wstring::load);
  add_classic("v3-raw-strings", classic::v3_raw_strings::load);
  add_classic("v4-pool", classic::v4_pool::load);
#else
  for (std::string_view name : {"v1-iostream", "v2-mmap-wstring", "v3-raw-strings", "v4-pool"}) {
    variants.push_back(
        {name, Cost::normal, std::nullopt, "not built yet (bench/cedict_classic has not landed)"});
  }
#endif
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_FORMAT
  auto add_bufstream = [&](std::string_view name, Cost cost, auto load) {
    LoadSummary& last = last_loads.emplace_back();
    variants.push_back(
        {name,
         cost,
         timed_load(
             load, [](const cedict::Dictionary& d) { return summarize_bufstream(d); }, expected,
             last),
         {},
         &last});
  };
  // The Smalltalk way: a line at a time, which is what a buffer is for.
  add_bufstream("lines-unbuffered", Cost::slow, [&path] {
    FdReadStream in(path);
    return cedict::Dictionary::load_lines(in);
  });
  add_bufstream("lines-buffered", Cost::normal, [&path] {
    FdReadStream file(path);
    BufferedReadStream in(file);
    return cedict::Dictionary::load_lines(in);
  });
  // In bulk: reads of 256 KiB straight into the arena, over either stream: the buffer is moot.
  add_bufstream("bulk-unbuffered", Cost::normal, [&path] {
    FdReadStream in(path);
    return cedict::Dictionary::load(in);
  });
  add_bufstream("bulk-buffered", Cost::normal, [&path] {
    FdReadStream file(path);
    BufferedReadStream in(file);
    return cedict::Dictionary::load(in);
  });
  add_bufstream("mapped", Cost::normal, [&path] { return cedict::Dictionary::map_file(path); });
  // Loading (zero-copy, as "mapped") and building every look-up index. A dictionary builds
  // each index after a few look-ups of its kind, so the load variants do not include them;
  // this one shows what a dictionary ready for every kind of look-up costs, its destruction
  // included.
  add_bufstream("index", Cost::normal, [&path] {
    cedict::Dictionary dictionary = cedict::Dictionary::map_file(path);
    dictionary.build_indexes();
    return dictionary;
  });
#else
  for (std::string_view name : {"lines-unbuffered", "lines-buffered", "bulk-unbuffered",
                                "bulk-buffered", "mapped", "index"}) {
    variants.push_back(
        {name, Cost::normal, std::nullopt, "not built yet (formats/cedict has not landed)"});
  }
#endif
#ifdef BUFSTREAM_BENCH_HAVE_CEDICT_CLASSIC
  {
    LoadSummary& last = last_loads.emplace_back();
    variants.push_back({"scan-lines",
                        Cost::normal,
                        timed_load([&path] { return classic::scan_lines::load(path); },
                                   [](const classic::scan_lines::LineScan& s) {
                                     return LoadSummary{.entries = s.entry_count(),
                                                        .hash = std::nullopt};
                                   },
                                   expected, last),
                        {},
                        &last});
  }
#else
  variants.push_back({"scan-lines", Cost::normal, std::nullopt,
                      "not built yet (bench/cedict_classic has not landed)"});
#endif

  // The command, one process per question, as a user runs it; and, as the floor, the same
  // process loading the dictionary and printing its counts without a look-up.
#ifdef BUFSTREAM_BENCH_CEDICT_LOOKUP
  std::optional<cedict::Dictionary> reference;
  std::string reference_error;
  if (missing_file.empty()) {
    try {
      reference.emplace(cedict::Dictionary::map_file(path));
    } catch (const std::exception& e) {
      reference_error = e.what();
    }
  }
  const std::string cli = BUFSTREAM_BENCH_CLI;
  const auto add_command = [&](std::string_view name, std::vector<std::string> argv,
                               std::string output, std::uint64_t count) {
    LoadSummary& last =
        last_loads.emplace_back(LoadSummary{.entries = count, .hash = std::nullopt});
    std::optional<TimedRun> run;
    if (reference) {
      run = timed_command(std::move(argv), context.temp.file(fmt::format("cedict-{}.out", name)),
                          context.temp.file(fmt::format("cedict-{}.err", name)), std::move(output));
    }
    variants.push_back({name, Cost::normal, std::move(run),
                        fmt::format("cannot load {}: {}", path.string(), reference_error), &last,
                        "lookup"});
  };
  // The floor's output first: it includes the memory of any index, which look-ups may build.
  std::string stats_output;
  if (reference) {
    StringWriteStream text;
    cedict::print_stats(text, reference->stats(), path.string());
    stats_output = std::string(text.view());
  }
  for (const LookupQuery& q : lookup_queries) {
    std::uint64_t count = 0;
    std::string output = reference ? expected_lookup(*reference, q, count) : std::string();
    add_command(q.variant, {cli, "cedict", "lookup", "--dict", path.string(), std::string(q.query)},
                std::move(output), count);
  }
  add_command("stats", {cli, "cedict", "stats", "--dict", path.string()}, std::move(stats_output),
              reference ? reference->size() : 0);
#else
#ifdef BUFSTREAM_BENCH_CLI
  const std::string no_command = "not built yet (formats/cedict has not landed)";
#else
  const std::string no_command = "the bufstream command is not built (BUFSTREAM_BUILD_TOOLS=OFF)";
#endif
  for (const std::string_view name : {"headword", "pinyin", "pinyin-tones", "english", "stats"}) {
    variants.push_back({name, Cost::normal, std::nullopt, no_command, nullptr, "lookup"});
  }
#endif

  // Each op's variants side by side: the ratios between them are what the suite is for.
  for (const std::string_view op : {"load", "lookup"}) {
    std::vector<InterleavedSuiteVariant> rows;
    for (const CedictVariant& v : variants) {
      if (v.op != op) continue;
      InterleavedSuiteVariant row{.id = {suite_name, v.op, data_name, v.name},
                                  .cost = v.cost,
                                  .run = {},
                                  .skip_reason = {},
                                  .finish = {}};
      if (!missing_file.empty()) {
        row.skip_reason = missing_file;
      } else if (!v.run) {
        row.skip_reason = v.unavailable;
      } else {
        row.run = *v.run;
        row.finish = [&path, cost = v.cost, last = v.last](Timing timing) {
          return Measurement{.timing = std::move(timing),
                             .cost = cost,
                             .bytes = size_of_file(path),
                             .entries = last->entries};
        };
      }
      rows.push_back(std::move(row));
    }
    run_variants_interleaved(context, rows);
  }
}

}  // namespace bufstream::bench
