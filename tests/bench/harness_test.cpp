// The benchmark program's parts that decide what is measured and how it is reported: the
// command line, the repetition policy and statistics (one variant at a time and interleaved),
// the reference CSV parser that checks written files, and the JSON and SVG reports.
#include <algorithm>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/measure.hpp"
#include "harness/options.hpp"
#include "harness/results.hpp"
#include "harness/temp_dir.hpp"
#include "output/json_report.hpp"
#include "output/svg_chart.hpp"
#include "output/text_table.hpp"
#include "suites/csv_peers.hpp"
#include "suites/suite.hpp"

namespace bufstream::bench {
namespace {

Options parse(std::vector<const char*> args) {
  args.insert(args.begin(), "bufstream-bench");
  return parse_options(static_cast<int>(args.size()), args.data());
}

TEST(Options, DefaultsRunEverythingAtTheSpecifiedSize) {
  const Options o = parse({});
  EXPECT_EQ(o.suites, all_suites());
  EXPECT_EQ(o.data, (std::vector<DataKind>{DataKind::floats, DataKind::integers}));
  EXPECT_EQ(o.rows, 25000u);
  EXPECT_EQ(o.stream_mb, 100u);
  EXPECT_GE(o.repeat, 1);
  EXPECT_TRUE(o.json_path.empty());
  EXPECT_FALSE(o.help);
}

TEST(Options, SuitesAreRepeatableAndKeepTheCanonicalOrder) {
  const Options o = parse({"--suite", "csv", "--suite=json", "--suite", "csv"});
  EXPECT_EQ(o.suites, (std::vector<std::string>{"json", "csv"}));
  EXPECT_TRUE(o.runs("json"));
  EXPECT_FALSE(o.runs("streams"));
}

TEST(Options, ValuesAreParsed) {
  const Options o = parse({"--data", "integers", "--rows", "200", "--repeat=2", "--stream-mb", "3",
                           "--json", "r.json", "--svg", "r.svg", "--help"});
  EXPECT_EQ(o.data, std::vector<DataKind>{DataKind::integers});
  EXPECT_EQ(o.rows, 200u);
  EXPECT_EQ(o.repeat, 2);
  EXPECT_EQ(o.stream_mb, 3u);
  EXPECT_EQ(o.json_path, "r.json");
  EXPECT_EQ(o.svg_path, "r.svg");
  EXPECT_TRUE(o.help);
}

TEST(Options, MistakesAreUsageErrors) {
  EXPECT_THROW(parse({"--suite", "xml"}), UsageError);
  EXPECT_THROW(parse({"--data", "strings"}), UsageError);
  EXPECT_THROW(parse({"--rows", "0"}), UsageError);
  EXPECT_THROW(parse({"--rows", "12x"}), UsageError);
  EXPECT_THROW(parse({"--repeat"}), UsageError);
  EXPECT_THROW(parse({"--fast"}), UsageError);
}

TEST(Measure, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({7}), 7);
}

// One variant alone: its warm-ups, then its runs.
std::vector<InterleavedResult> measure_alone(const RunPolicy& policy, TimedRun run) {
  const InterleavedVariant variant{.policy = policy, .run = std::move(run)};
  return measure_interleaved(std::span<const InterleavedVariant>(&variant, 1));
}

TEST(Measure, RunsWarmUpsAndRepetitionsAndValidatesEach) {
  int calls = 0;
  const auto ok =
      measure_alone({.warmups = 1, .runs = 4, .budget_ms = 1e9}, [&](Stopwatch&) { ++calls; });
  EXPECT_EQ(calls, 5);
  ASSERT_EQ(ok.size(), 1u);
  ASSERT_TRUE(ok[0].timing.has_value());
  const Timing& t = *ok[0].timing;
  EXPECT_EQ(t.runs(), 4);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.max_ms);
  const auto wrong = measure_alone({.warmups = 0, .runs = 2, .budget_ms = 1e9},
                                   [](Stopwatch&) { throw ValidationError("wrong"); });
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_FALSE(wrong[0].timing.has_value());
  EXPECT_THROW(std::rethrow_exception(wrong[0].error), ValidationError);
}

TEST(Measure, SlowVariantsRunFewerTimesWithoutWarmUp) {
  const RunPolicy slow = run_policy(Cost::slow, 5);
  EXPECT_EQ(slow.warmups, 0);
  EXPECT_LE(slow.runs, 3);
  EXPECT_EQ(run_policy(Cost::normal, 5).runs, 5);
  EXPECT_EQ(run_policy(Cost::slow, 1).runs, 1);
}

TEST(Measure, ABudgetOfZeroStillRunsOnce) {
  int calls = 0;
  const auto results =
      measure_alone({.warmups = 0, .runs = 5, .budget_ms = 0}, [&](Stopwatch&) { ++calls; });
  EXPECT_EQ(calls, 1);
  ASSERT_TRUE(results.at(0).timing.has_value());
  EXPECT_EQ(results[0].timing->runs(), 1);
}

// Fake variants for the interleaved measurement: each call appends the variant's name to a
// shared log (the order the harness called them in), stops the stopwatch, optionally marks an
// (empty) destruction, and throws on a chosen call.
class CallLog {
 public:
  struct Fake {
    std::string name;
    RunPolicy policy;
    int throw_on_call = 0;  // 1-based call (warm-ups count); 0: never
    bool throws_validation = true;
    bool marks_destructors = false;
  };

  TimedRun run(const Fake& fake) {
    return [this, fake, calls = 0](Stopwatch& watch) mutable {
      calls_.push_back(fake.name);
      watch.stop();
      if (fake.marks_destructors) {
        watch.begin_destructors();
        watch.stop_after_destructors();
      }
      if (++calls == fake.throw_on_call) {
        if (fake.throws_validation) throw ValidationError(fake.name + " is wrong");
        throw 42;  // not a std::exception: still a failure of this variant only
      }
    };
  }

  std::vector<InterleavedResult> measure(const std::vector<Fake>& fakes) {
    std::vector<InterleavedVariant> variants;
    for (const Fake& f : fakes) variants.push_back({.policy = f.policy, .run = run(f)});
    return measure_interleaved(variants, [this](int round) { rounds_.push_back(round); });
  }

  const std::vector<std::string>& calls() const noexcept { return calls_; }
  const std::vector<int>& rounds() const noexcept { return rounds_; }

 private:
  std::vector<std::string> calls_;
  std::vector<int> rounds_;
};

using Calls = std::vector<std::string>;

constexpr double no_budget = 1e12;

TEST(MeasureInterleaved, RunsEveryVariantOncePerRoundEachRoundFromTheNextAfterAllWarmUps) {
  CallLog log;
  const auto results =
      log.measure({{.name = "a", .policy = {.warmups = 1, .runs = 3, .budget_ms = no_budget}},
                   {.name = "b", .policy = {.warmups = 1, .runs = 3, .budget_ms = no_budget}},
                   {.name = "c", .policy = {.warmups = 1, .runs = 3, .budget_ms = no_budget}}});
  // Each variant follows each of the others in turn.
  EXPECT_EQ(log.calls(), (Calls{"a", "b", "c",  // warm-ups, in table order
                                "a", "b", "c", "b", "c", "a", "c", "a", "b"}));
  EXPECT_EQ(log.rounds(), (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(results.size(), 3u);
  for (const InterleavedResult& r : results) {
    ASSERT_TRUE(r.timing);
    EXPECT_FALSE(r.error);
    EXPECT_EQ(r.timing->runs(), 3);
  }
}

TEST(MeasureInterleaved, WarmUpRoundsComeBeforeTheMeasuredOnes) {
  CallLog log;
  const auto results =
      log.measure({{.name = "a", .policy = {.warmups = 2, .runs = 2, .budget_ms = no_budget}},
                   {.name = "b", .policy = {.warmups = 0, .runs = 2, .budget_ms = no_budget}},
                   {.name = "c", .policy = {.warmups = 1, .runs = 2, .budget_ms = no_budget}}});
  EXPECT_EQ(log.calls(), (Calls{"a", "c", "a",  // warm-up rounds 0 and 1
                                "a", "b", "c", "b", "c", "a"}));
  EXPECT_EQ(results[0].timing->runs(), 2);  // warm-ups are not samples
  EXPECT_EQ(results[1].timing->runs(), 2);
  EXPECT_EQ(results[2].timing->runs(), 2);
}

TEST(MeasureInterleaved, SlowVariantsTakePartInTheFirstRoundsOnly) {
  CallLog log;
  const RunPolicy normal = run_policy(Cost::normal, 5);
  const RunPolicy slow = run_policy(Cost::slow, 5);
  const auto results = log.measure({{.name = "fast", .policy = normal},
                                    {.name = "slow", .policy = slow},
                                    {.name = "floor", .policy = normal}});
  EXPECT_EQ(log.calls(), (Calls{"fast", "floor",  // the slow one has no warm-up
                                "fast", "slow", "floor", "slow", "floor", "fast", "floor", "fast",
                                "slow", "fast", "floor", "floor", "fast"}));
  EXPECT_EQ(log.rounds(), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(results[0].timing->runs(), 5);
  EXPECT_EQ(results[1].timing->runs(), 3);
  EXPECT_EQ(results[2].timing->runs(), 5);
}

TEST(MeasureInterleaved, AThrowingVariantDropsOutAndTheOthersComplete) {
  CallLog log;
  const RunPolicy policy{.warmups = 1, .runs = 4, .budget_ms = no_budget};
  const auto results =
      log.measure({{.name = "a", .policy = policy},
                   {.name = "b", .policy = policy, .throw_on_call = 3},  // its 2nd measured run
                   {.name = "c", .policy = policy}});
  EXPECT_EQ(log.calls(), (Calls{"a", "b", "c", "a", "b", "c", "b", "c", "a", "c", "a", "a", "c"}));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].timing->runs(), 4);
  EXPECT_EQ(results[2].timing->runs(), 4);
  EXPECT_FALSE(results[1].timing);
  ASSERT_TRUE(results[1].error);
  try {
    std::rethrow_exception(results[1].error);
    ADD_FAILURE() << "no exception";
  } catch (const ValidationError& e) {
    EXPECT_STREQ(e.what(), "b is wrong");
  }
}

TEST(MeasureInterleaved, AFailedWarmUpMeansNoMeasuredRuns) {
  CallLog log;
  const RunPolicy policy{.warmups = 1, .runs = 2, .budget_ms = no_budget};
  const auto results =
      log.measure({{.name = "a", .policy = policy, .throw_on_call = 1, .throws_validation = false},
                   {.name = "b", .policy = policy}});
  EXPECT_EQ(log.calls(), (Calls{"a", "b", "b", "b"}));
  ASSERT_TRUE(results[0].error);
  EXPECT_FALSE(results[0].timing);
  EXPECT_THROW(std::rethrow_exception(results[0].error), int);  // any exception, kept as thrown
  EXPECT_EQ(results[1].timing->runs(), 2);
}

TEST(MeasureInterleaved, AVariantThatUsedItsBudgetStopsWhileTheOthersGoOn) {
  CallLog log;
  // Every run takes some time, so a budget of zero is used up by the first run (at least one
  // always runs); a budget no run can use up lets the variant run all its repetitions.
  const auto results =
      log.measure({{.name = "spent", .policy = {.warmups = 0, .runs = 4, .budget_ms = 0}},
                   {.name = "rich", .policy = {.warmups = 0, .runs = 4, .budget_ms = no_budget}}});
  EXPECT_EQ(log.calls(), (Calls{"spent", "rich", "rich", "rich", "rich"}));
  EXPECT_EQ(results[0].timing->runs(), 1);
  EXPECT_EQ(results[1].timing->runs(), 4);
}

TEST(MeasureInterleaved, EachTimingIsComputedFromTheVariantsOwnSamples) {
  CallLog log;
  const auto results =
      log.measure({{.name = "destroys",
                    .policy = {.warmups = 0, .runs = 5, .budget_ms = no_budget},
                    .marks_destructors = true},
                   {.name = "plain", .policy = {.warmups = 0, .runs = 4, .budget_ms = no_budget}}});
  ASSERT_EQ(results.size(), 2u);
  const Timing& destroys = *results[0].timing;
  const Timing& plain = *results[1].timing;
  ASSERT_EQ(destroys.runs(), 5);
  ASSERT_EQ(plain.runs(), 4);
  for (const Timing* t : {&destroys, &plain}) {
    EXPECT_EQ(t->median_ms, median(t->samples_ms));
    EXPECT_EQ(t->min_ms, *std::min_element(t->samples_ms.begin(), t->samples_ms.end()));
    EXPECT_EQ(t->max_ms, *std::max_element(t->samples_ms.begin(), t->samples_ms.end()));
  }
  // Only the variant whose runs all marked their destruction has a median including it.
  ASSERT_TRUE(destroys.median_incl_destructors_ms);
  EXPECT_GE(*destroys.median_incl_destructors_ms, 0.0);
  EXPECT_FALSE(plain.median_incl_destructors_ms);
}

TEST(MeasureInterleaved, NoVariantsNoRounds) {
  CallLog log;
  EXPECT_TRUE(log.measure({}).empty());
  EXPECT_TRUE(log.rounds().empty());
}

TEST(RunVariantsInterleaved, RecordsEveryRowInTableOrder) {
  const Options options = parse({"--repeat", "3"});
  const TempDir temp;
  Results results;
  SuiteContext context{.options = options, .temp = temp, .results = results};
  CallLog log;
  auto finish = [](Timing t) {
    return Measurement{.timing = std::move(t), .cost = Cost::normal, .bytes = 1, .entries = 2};
  };
  const std::vector<InterleavedSuiteVariant> rows{
      {.id = {"s", "load", "d", "first"},
       .cost = Cost::normal,
       .run = log.run({.name = "first", .policy = {}}),
       .skip_reason = {},
       .finish = finish},
      {.id = {"s", "load", "d", "absent"},
       .cost = Cost::normal,
       .run = {},
       .skip_reason = "not built",
       .finish = {}},
      {.id = {"s", "load", "d", "wrong"},
       .cost = Cost::normal,
       .run = log.run({.name = "wrong", .policy = {}, .throw_on_call = 2}),
       .skip_reason = {},
       .finish = finish},
      {.id = {"s", "load", "d", "slow"},
       .cost = Cost::slow,
       .run = log.run({.name = "slow", .policy = {}}),
       .skip_reason = {},
       .finish = finish},
      {.id = {"s", "load", "d", "unfinished"},
       .cost = Cost::normal,
       .run = log.run({.name = "unfinished", .policy = {}}),
       .skip_reason = {},
       .finish = [](const Timing&) -> Measurement {
         throw ValidationError("file reads back wrong");
       }},
  };
  run_variants_interleaved(context, rows);

  // Policies by cost and --repeat: one warm-up and 3 runs; the slow one 3 runs, no warm-up.
  EXPECT_EQ(log.calls(),
            (Calls{"first", "wrong", "unfinished", "first", "wrong", "slow", "unfinished", "slow",
                   "unfinished", "first", "slow", "unfinished", "first"}));
  const std::vector<Entry>& entries = results.entries();
  ASSERT_EQ(entries.size(), 5u);
  std::vector<std::string> variants;
  for (const Entry& e : entries) variants.push_back(e.variant);
  EXPECT_EQ(variants, (std::vector<std::string>{"first", "absent", "wrong", "slow", "unfinished"}));
  ASSERT_TRUE(entries[0].measured);
  EXPECT_EQ(entries[0].measured->timing.runs(), 3);
  EXPECT_EQ(entries[0].measured->entries, 2u);
  EXPECT_FALSE(entries[1].measured);
  EXPECT_FALSE(entries[1].failed);
  EXPECT_EQ(entries[1].reason, "not built");
  EXPECT_TRUE(entries[2].failed);
  EXPECT_EQ(entries[2].reason, "FAILED: wrong is wrong");
  ASSERT_TRUE(entries[3].measured);
  EXPECT_EQ(entries[3].measured->cost, Cost::slow);
  EXPECT_EQ(entries[3].measured->timing.runs(), 3);
  EXPECT_TRUE(entries[4].failed);
  EXPECT_EQ(entries[4].reason, "FAILED: file reads back wrong");
  EXPECT_TRUE(results.any_failed());
}

TEST(CsvReference, ParsesQuotedAndUnquotedRowsWithEitherLineEnd) {
  const auto rows = parse_csv_reference(
      "1,-1,1,1.5,one\r\n1001,-1001,0.001,2,\"one thousand, one\"\n"
      "2,-2,3,4,\"say \"\"hi\"\"\"\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (Row{1, -1, 1.0, 1.5, "one"}));
  EXPECT_EQ(rows[1], (Row{1001, -1001, 0.001, 2.0, "one thousand, one"}));
  EXPECT_EQ(rows[2].words, "say \"hi\"");
}

TEST(CsvReference, RejectsMalformedText) {
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,one"), ValidationError);         // no line end
  EXPECT_THROW(parse_csv_reference("1,-1,x,1,one\n"), ValidationError);       // not a number
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,one, two\n"), ValidationError);  // unquoted comma
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,\"one\n"), ValidationError);     // open quote
  EXPECT_THROW(parse_csv_reference("1,-1,1\n"), ValidationError);             // short record
}

Results sample_results() {
  Results r;
  Timing t{.samples_ms = {1, 2, 3},
           .median_ms = 2,
           .min_ms = 1,
           .max_ms = 3,
           .median_incl_destructors_ms = {}};
  r.add_measured("json", "write", "floats", "buffered",
                 {.timing = t, .cost = Cost::normal, .bytes = 10, .entries = {}});
  t.median_incl_destructors_ms = 2.5;
  r.add_measured("cedict", "load", "cc-cedict", "v4-pool",
                 {.timing = t, .cost = Cost::normal, .bytes = 99, .entries = 7});
  r.add_skipped("json", "read", "floats", "simdjson", "simdjson not found");
  r.add_failed("csv", "read", "floats", "getline", "bad checksum");
  return r;
}

TEST(JsonReport, HasTheSchemaOfBenchmarksMd) {
  const MachineInfo machine{.cpu_model = "cpu",
                            .cores = 2,
                            .compiler = "GCC",
                            .build_type = "Release",
                            .isa = "sse2",
                            .isa_cpu = "avx2",
                            .simdjson = ""};
  const nlohmann::json j = results_to_json(sample_results(), machine);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0], (nlohmann::json{{"suite", "json"},
                                             {"op", "write"},
                                             {"data", "floats"},
                                             {"variant", "buffered"},
                                             {"median_ms", 2.0},
                                             {"min_ms", 1.0},
                                             {"max_ms", 3.0},
                                             {"runs", 3},
                                             {"bytes", 10}}));
  EXPECT_EQ(j["results"][1]["median_ms_incl_destructors"], 2.5);
  EXPECT_EQ(j["results"][1]["entries"], 7);
  ASSERT_EQ(j["skipped"].size(), 2u);
  EXPECT_EQ(j["skipped"][0], (nlohmann::json{{"suite", "json"},
                                             {"op", "read"},
                                             {"data", "floats"},
                                             {"variant", "simdjson"},
                                             {"reason", "simdjson not found"}}));
  EXPECT_EQ(j["skipped"][1]["reason"], "FAILED: bad checksum");
  EXPECT_EQ(j["machine"], (nlohmann::json{{"cpu_model", "cpu"},
                                          {"cores", 2},
                                          {"compiler", "GCC"},
                                          {"build_type", "Release"},
                                          {"isa", "sse2"},
                                          {"isa_cpu", "avx2"},
                                          {"simdjson", nullptr}}));
}

TEST(MachineLine, NamesTheInstructionSetsInUse) {
  MachineInfo machine{.cpu_model = "cpu",
                      .cores = 2,
                      .compiler = "GCC",
                      .build_type = "Release",
                      .isa = "avx2",
                      .isa_cpu = "avx2",
                      .simdjson = ""};
  EXPECT_EQ(instruction_sets(machine), "kernels avx2");
  machine.isa = "portable";
  machine.simdjson = "haswell";
  EXPECT_EQ(instruction_sets(machine),
            "kernels portable of avx2 (BUFSTREAM_ISA), simdjson haswell");
}

TEST(SvgChart, IsOneSvgDocumentWithEveryVariantLabelled) {
  const MachineInfo machine{.cpu_model = "A & B <cpu>",
                            .cores = 2,
                            .compiler = "GCC",
                            .build_type = "Release",
                            .isa = "avx2",
                            .isa_cpu = "avx2",
                            .simdjson = ""};
  const std::string svg = render_svg_chart(sample_results(), Options{}, machine);
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_NE(svg.find("A &amp; B &lt;cpu&gt;"), std::string::npos);  // text is escaped
  EXPECT_EQ(svg.find("<cpu>"), std::string::npos);
  for (const char* label : {">buffered<", ">v4-pool<", ">simdjson<", ">getline<", "FAILED",
                            "skipped: simdjson not found"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
}

TEST(TextTable, GroupsDigitsInThousands) {
  EXPECT_EQ(group_digits(0), "0");
  EXPECT_EQ(group_digits(999), "999");
  EXPECT_EQ(group_digits(1000), "1,000");
  EXPECT_EQ(group_digits(25000), "25,000");
  EXPECT_EQ(group_digits(116937), "116,937");
  EXPECT_EQ(group_digits(1234567), "1,234,567");
}

}  // namespace
}  // namespace bufstream::bench
