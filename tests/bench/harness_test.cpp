// The benchmark program's parts that decide what is measured and how it is reported: the
// command line, the repetition policy and statistics, the reference CSV parser that checks
// written files, and the JSON and SVG reports.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/measure.hpp"
#include "harness/options.hpp"
#include "harness/results.hpp"
#include "output/json_report.hpp"
#include "output/svg_chart.hpp"
#include "output/text_table.hpp"
#include "suites/csv_peers.hpp"

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

TEST(Measure, RunsWarmUpsAndRepetitionsAndValidatesEach) {
  int calls = 0;
  const Timing t = measure({.warmups = 1, .runs = 4, .budget_ms = 1e9}, [&](Stopwatch&) { ++calls; });
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(t.runs(), 4);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.max_ms);
  EXPECT_THROW(measure({.warmups = 0, .runs = 2, .budget_ms = 1e9},
                       [](Stopwatch&) { throw ValidationError("wrong"); }),
               ValidationError);
}

TEST(Measure, SlowVariantsRunFewerTimesWithoutWarmUp) {
  const RunPolicy slow = run_policy(Cost::slow, 5);
  EXPECT_EQ(slow.warmups, 0);
  EXPECT_LE(slow.runs, 3);
  EXPECT_EQ(run_policy(Cost::normal, 5).runs, 5);
  EXPECT_EQ(run_policy(Cost::slow, 1).runs, 1);
}

TEST(CsvReference, ParsesQuotedAndUnquotedRowsWithEitherLineEnd) {
  const auto rows = parse_csv_reference("1,-1,1,1.5,one\r\n1001,-1001,0.001,2,\"one thousand, one\"\n"
                                        "2,-2,3,4,\"say \"\"hi\"\"\"\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (Row{1, -1, 1.0, 1.5, "one"}));
  EXPECT_EQ(rows[1], (Row{1001, -1001, 0.001, 2.0, "one thousand, one"}));
  EXPECT_EQ(rows[2].words, "say \"hi\"");
}

TEST(CsvReference, RejectsMalformedText) {
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,one"), ValidationError);           // no line end
  EXPECT_THROW(parse_csv_reference("1,-1,x,1,one\n"), ValidationError);         // not a number
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,one, two\n"), ValidationError);    // unquoted comma
  EXPECT_THROW(parse_csv_reference("1,-1,1,1,\"one\n"), ValidationError);       // open quote
  EXPECT_THROW(parse_csv_reference("1,-1,1\n"), ValidationError);               // short record
}

Results sample_results() {
  Results r;
  Timing t{.samples_ms = {1, 2, 3}, .median_ms = 2, .min_ms = 1, .max_ms = 3, .median_incl_destructors_ms = {}};
  r.add_measured("json", "write", "floats", "buffered", {.timing = t, .cost = Cost::normal, .bytes = 10, .entries = {}});
  t.median_incl_destructors_ms = 2.5;
  r.add_measured("cedict", "load", "cc-cedict", "v4-pool", {.timing = t, .cost = Cost::normal, .bytes = 99, .entries = 7});
  r.add_skipped("json", "read", "floats", "simdjson", "simdjson not found");
  r.add_failed("csv", "read", "floats", "getline", "bad checksum");
  return r;
}

TEST(JsonReport, HasTheSchemaOfBenchmarksMd) {
  const MachineInfo machine{.cpu_model = "cpu", .cores = 2, .compiler = "GCC", .build_type = "Release"};
  const nlohmann::json j = results_to_json(sample_results(), machine);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0],
            (nlohmann::json{{"suite", "json"}, {"op", "write"}, {"data", "floats"}, {"variant", "buffered"},
                            {"median_ms", 2.0}, {"min_ms", 1.0}, {"max_ms", 3.0}, {"runs", 3}, {"bytes", 10}}));
  EXPECT_EQ(j["results"][1]["median_ms_incl_destructors"], 2.5);
  EXPECT_EQ(j["results"][1]["entries"], 7);
  ASSERT_EQ(j["skipped"].size(), 2u);
  EXPECT_EQ(j["skipped"][0], (nlohmann::json{{"suite", "json"}, {"op", "read"}, {"data", "floats"},
                                             {"variant", "simdjson"}, {"reason", "simdjson not found"}}));
  EXPECT_EQ(j["skipped"][1]["reason"], "FAILED: bad checksum");
  EXPECT_EQ(j["machine"], (nlohmann::json{{"cpu_model", "cpu"}, {"cores", 2}, {"compiler", "GCC"},
                                          {"build_type", "Release"}}));
}

TEST(SvgChart, IsOneSvgDocumentWithEveryVariantLabelled) {
  const MachineInfo machine{.cpu_model = "A & B <cpu>", .cores = 2, .compiler = "GCC", .build_type = "Release"};
  const std::string svg = render_svg_chart(sample_results(), Options{}, machine);
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_NE(svg.find("A &amp; B &lt;cpu&gt;"), std::string::npos);  // text is escaped
  EXPECT_EQ(svg.find("<cpu>"), std::string::npos);
  for (const char* label : {">buffered<", ">v4-pool<", ">simdjson<", ">getline<", "FAILED", "skipped: simdjson not found"}) {
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
