// Runs the built bufstream-bench with a small row count and checks what it reports: the JSON
// schema of docs/BENCHMARKS.md section 3, and every variant of every suite either measured or
// skipped with a reason. (Correctness only: no timing is checked.)
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#ifndef BUFSTREAM_BENCH_EXE
#error "BUFSTREAM_BENCH_EXE must name the bufstream-bench binary"
#endif
#ifndef BUFSTREAM_BENCH_SOURCE_DIR
#error "BUFSTREAM_BENCH_SOURCE_DIR must name the bench/ source folder"
#endif

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs the program with `args` (already quoted); returns its exit status.
int run_bench(const std::string& args, const fs::path& out, const fs::path& err) {
  // Built by appending: GCC 12 warns (-Wrestrict, falsely) on "literal" + std::string.
  std::string command = "'";
  command += BUFSTREAM_BENCH_EXE;
  command += "' " + args;
  command += " > '" + out.string();
  command += "' 2> '" + err.string();
  command += "'";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every variant BENCHMARKS.md names (plus the streams suite of issue 2), by suite and op.
const std::map<std::pair<std::string, std::string>, std::vector<std::string>>& expected_variants() {
  static const std::map<std::pair<std::string, std::string>, std::vector<std::string>> variants{
      {{"streams", "write"}, {"buffered", "putc_unlocked", "ofstream::put", "unbuffered"}},
      {{"streams", "read"}, {"buffered", "getc_unlocked", "ifstream::get", "unbuffered"}},
      {{"json", "write"}, {"unbuffered", "buffered", "nlohmann", "rapidjson", "write-once"}},
      {{"json", "read"},
       {"unbuffered", "buffered", "buffered-typed", "nlohmann", "rapidjson", "simdjson",
        "read-once"}},
      {{"json-files", "read"},
       {"document", "nlohmann-dom", "events", "nlohmann", "rapidjson", "rapidjson-exact",
        "rapidjson-sax", "simdjson"}},
      {{"json-files", "write"}, {"document", "nlohmann-dom", "nlohmann", "rapidjson"}},
      {{"json-lines", "read"},
       {"document", "nlohmann-dom", "events", "nlohmann", "rapidjson", "rapidjson-exact",
        "rapidjson-sax", "simdjson"}},
      {{"json-small", "read"}, {"document", "events", "nlohmann", "rapidjson", "simdjson"}},
      {{"json-select", "read"},
       {"select-events", "select-next-events", "select-document", "whole-events", "whole-document",
        "simdjson-ondemand"}},
      {{"json-select", "seek"}, {"seek", "whole-document", "simdjson-ondemand"}},
      {{"ston", "write"}, {"unbuffered", "buffered", "write-once"}},
      {{"ston", "read"}, {"unbuffered", "buffered", "read-once"}},
      {{"csv", "write"}, {"unbuffered", "buffered", "stdio", "ofstream", "write-once"}},
      {{"csv", "read"}, {"unbuffered", "buffered", "libcsv", "getline", "read-once"}},
      {{"csv-table", "read"},
       {"table-inferred", "table-inferred-1-thread", "table-inferred-stream", "table-given-types",
        "schema-rows", "records", "read-once"}},
      {{"numbers", "parse"}, {"bufstream", "fast_float", "from_chars"}},
      {{"numbers", "format"}, {"bufstream", "to_chars", "fmt"}},
      {{"parallel", "read"}, {"sequential", "threads-1", "threads-2", "threads-all"}},
      {{"cedict", "load"},
       {"v1-iostream", "v2-mmap-wstring", "v3-raw-strings", "v4-pool", "lines-unbuffered",
        "lines-buffered", "bulk-unbuffered", "bulk-buffered", "mapped", "index", "scan-lines"}},
      {{"cedict", "lookup"}, {"headword", "pinyin", "pinyin-tones", "english", "stats"}},
      {{"compressed", "read"},
       {"gzip", "gzip-oneshot", "gzip-pipe", "zstd", "zstd-oneshot", "zstd-pipe"}},
      {{"compressed", "decompress"}, {"gzip", "gzip-oneshot", "zstd", "zstd-oneshot"}},
      {{"compressed", "write"}, {"gzip", "gzip-oneshot", "zstd", "zstd-oneshot"}},
  };
  return variants;
}

std::vector<std::string> data_sets_of(const std::string& suite) {
  if (suite == "streams") return {"bytes"};
  if (suite == "cedict") return {"cc-cedict"};
  if (suite == "json-files") return {"nested", "numbers"};  // the files SetUpTestSuite writes
  if (suite == "numbers") return {"rows", "canada"};        // canada is skipped: not in json-files
  if (suite == "json-small") return {"twitter-statuses", "citm-events"};  // skipped: not there
  if (suite == "compressed") return {"csv-floats", "csv-integers", "json-floats", "json-integers"};
  if (suite == "parallel") return {"csv-typed", "csv-records", "jsonl-events", "jsonl-document"};
  return {"floats", "integers"};
}

class BenchProgram : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() /
                        (std::string("bufstream-bench-test-") + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    // A small dictionary: the first lines of the shipped CC-CEDICT file.
    {
      std::ifstream full(fs::path(BUFSTREAM_BENCH_SOURCE_DIR) / "data" / "cedict_ts.u8",
                         std::ios::binary);
      std::ofstream small(*dir_ / "cedict-small.u8", std::ios::binary);
      std::string line;
      for (int n = 0; n < 3000 && std::getline(full, line); ++n) small << line << '\n';
    }
    // Two small JSON files for the json-files suite (and a file it must leave alone).
    fs::create_directories(*dir_ / "json-files");
    std::ofstream(*dir_ / "json-files" / "nested.json")
        << R"({"a":[1,-2,3.5e10,true,false,null],"b":{"c":"\u00e9t\u00e9 \"q\"","d":[]},)"
           R"("e":[{"f":"x"},{"g":[[],{}]}],"\u4f60":"\ud83d\ude00"})";
    std::ofstream(*dir_ / "json-files" / "numbers.json")
        << "[0,-0,1e-300,1.7976931348623157e308,18446744073709551615,-9223372036854775808,"
           "0.1,2.5,4.9e-324]";
    std::ofstream(*dir_ / "json-files" / "notes.txt") << "not JSON";
    status_ = run_bench(std::string("--rows 200 --repeat 1 --stream-mb 1 --cedict '") +
                            (*dir_ / "cedict-small.u8").string() + "' --json-files '" +
                            (*dir_ / "json-files").string() + "' --tmpdir '" + dir_->string() +
                            "' --json '" + (*dir_ / "r.json").string() + "' --svg '" +
                            (*dir_ / "r.svg").string() + "'",
                        *dir_ / "out.txt", *dir_ / "err.txt");
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }
  static nlohmann::json report() { return nlohmann::json::parse(slurp(*dir_ / "r.json")); }

  static fs::path* dir_;
  static int status_;
};

fs::path* BenchProgram::dir_ = nullptr;
int BenchProgram::status_ = -1;

TEST_F(BenchProgram, SucceedsAndWritesTablesJsonAndSvg) {
  ASSERT_EQ(status_, 0) << slurp(*dir_ / "err.txt");
  const std::string tables = slurp(*dir_ / "out.txt");
  for (const char* heading :
       {"\nstreams:", "\njson:", "\njson-files:", "\njson-lines:", "\nston:", "\ncsv:",
        "\ncsv-table:", "\nnumbers:", "\ncedict:", "\ncompressed:"}) {
    EXPECT_NE(tables.find(heading), std::string::npos) << heading;
  }
  const std::string svg = slurp(*dir_ / "r.svg");
  EXPECT_TRUE(svg.starts_with("<svg ")) << svg.substr(0, 100);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_NE(slurp(*dir_ / "err.txt").find("json"), std::string::npos);  // progress went to stderr
}

TEST_F(BenchProgram, JsonFollowsTheSchema) {
  ASSERT_EQ(status_, 0);
  const nlohmann::json j = report();
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.size(), 3u);
  ASSERT_TRUE(j["results"].is_array());
  ASSERT_TRUE(j["skipped"].is_array());
  const nlohmann::json& machine = j["machine"];
  ASSERT_TRUE(machine.is_object());
  EXPECT_EQ(machine.size(), 7u);
  EXPECT_TRUE(machine["cpu_model"].is_string());
  EXPECT_TRUE(machine["cores"].is_number_unsigned());
  EXPECT_TRUE(machine["compiler"].is_string());
  EXPECT_TRUE(machine["build_type"].is_string());
  EXPECT_TRUE(machine["isa"].is_string());
  EXPECT_TRUE(machine["isa_cpu"].is_string());
  EXPECT_TRUE(machine["simdjson"].is_string() || machine["simdjson"].is_null());

  const std::set<std::string> keys{"suite",  "op",     "data", "variant", "median_ms",
                                   "min_ms", "max_ms", "runs", "bytes"};
  for (const nlohmann::json& r : j["results"]) {
    std::set<std::string> have;
    for (const auto& [key, value] : r.items()) have.insert(key);
    std::set<std::string> want = keys;
    if (r["suite"] == "cedict") want.insert({"median_ms_incl_destructors", "entries"});
    EXPECT_EQ(have, want) << r.dump();
    for (const char* k : {"suite", "op", "data", "variant"})
      EXPECT_TRUE(r[k].is_string()) << r.dump();
    for (const char* k : {"median_ms", "min_ms", "max_ms"})
      EXPECT_TRUE(r[k].is_number()) << r.dump();
    EXPECT_LE(r["min_ms"].get<double>(), r["median_ms"].get<double>()) << r.dump();
    EXPECT_LE(r["median_ms"].get<double>(), r["max_ms"].get<double>()) << r.dump();
    EXPECT_GE(r["runs"].get<int>(), 1) << r.dump();
    EXPECT_GT(r["bytes"].get<std::uint64_t>(), 0u) << r.dump();
    // Every load has entries (but "index", which times the indexes); a look-up in the small
    // dictionary may find none.
    if (r["suite"] == "cedict" && r["op"] == "load" && r["variant"] != "index") {
      EXPECT_GT(r["entries"].get<std::uint64_t>(), 0u) << r.dump();
    }
  }
  for (const nlohmann::json& s : j["skipped"]) {
    std::set<std::string> have;
    for (const auto& [key, value] : s.items()) have.insert(key);
    EXPECT_EQ(have, (std::set<std::string>{"suite", "op", "data", "variant", "reason"}))
        << s.dump();
    EXPECT_FALSE(s["reason"].get<std::string>().empty()) << s.dump();
  }
}

TEST_F(BenchProgram, EveryVariantIsMeasuredOrSkippedWithAReasonAndNoneFailed) {
  ASSERT_EQ(status_, 0);
  const nlohmann::json j = report();
  std::map<std::string, int> seen;  // "suite/op/data/variant" -> times reported
  auto key = [](const nlohmann::json& e) {
    return e["suite"].get<std::string>() + "/" + e["op"].get<std::string>() + "/" +
           e["data"].get<std::string>() + "/" + e["variant"].get<std::string>();
  };
  for (const nlohmann::json& r : j["results"]) ++seen[key(r)];
  for (const nlohmann::json& s : j["skipped"]) {
    ++seen[key(s)];
    EXPECT_FALSE(s["reason"].get<std::string>().starts_with("FAILED")) << s.dump();
  }
  std::size_t expected_count = 0;
  for (const auto& [suite_op, variants] : expected_variants()) {
    for (const std::string& data : data_sets_of(suite_op.first)) {
      for (const std::string& variant : variants) {
        const std::string k = suite_op.first + "/" + suite_op.second + "/" + data + "/" + variant;
        EXPECT_EQ(seen[k], 1) << k << " should be reported exactly once";
        ++expected_count;
      }
    }
  }
  EXPECT_EQ(seen.size(), expected_count) << "a variant BENCHMARKS.md does not name was reported";
}

// Every suite measures each (op, data set) group's variants side by side in interleaved rounds,
// so that the ratios a table shows compare runs made under the same conditions: stderr
// announces each group once, with as many variants as the group has measured (or failed).
TEST_F(BenchProgram, EveryGroupIsMeasuredSideBySide) {
  ASSERT_EQ(status_, 0);
  const nlohmann::json j = report();
  std::map<std::string, int> measured;  // "suite/op/data" -> variants measured
  for (const nlohmann::json& r : j["results"]) {
    ++measured[r["suite"].get<std::string>() + "/" + r["op"].get<std::string>() + "/" +
               r["data"].get<std::string>()];
  }
  std::map<std::string, std::vector<int>> announced;  // "suite/op/data" -> variant counts announced
  std::istringstream err(slurp(*dir_ / "err.txt"));
  for (std::string line; std::getline(err, line);) {
    if (line.find(" variants side by side") == std::string::npos) continue;
    std::istringstream words(line);
    std::string suite, data, op;
    int variants = 0;
    words >> suite >> data >> op >> variants;
    announced[suite + "/" + op + "/" + data].push_back(variants);
  }
  std::size_t groups = 0;
  for (const auto& [suite_op, variants] : expected_variants()) {
    for (const std::string& data : data_sets_of(suite_op.first)) {
      const std::string k = suite_op.first + "/" + suite_op.second + "/" + data;
      // A group whose variants were all skipped (a format not built) has no rounds to run.
      const std::vector<int> want =
          measured[k] > 0 ? std::vector<int>{measured[k]} : std::vector<int>{};
      EXPECT_EQ(announced[k], want) << k << " should be measured side by side once";
      if (!want.empty()) ++groups;
    }
  }
  std::size_t announced_groups = 0;
  for (const auto& [k, counts] : announced) announced_groups += counts.empty() ? 0u : 1u;
  EXPECT_EQ(announced_groups, groups) << "a group BENCHMARKS.md does not name was measured";
}

TEST_F(BenchProgram, PeersFoundAtConfigureTimeAreMeasured) {
  ASSERT_EQ(status_, 0);
  // The limits and the always-available peers never depend on anything optional.
  const nlohmann::json j = report();
  std::set<std::string> measured;
  for (const nlohmann::json& r : j["results"]) {
    measured.insert(r["suite"].get<std::string>() + "/" + r["op"].get<std::string>() + "/" +
                    r["variant"].get<std::string>());
  }
  for (const char* k :
       {"streams/write/buffered", "streams/read/buffered", "streams/write/unbuffered",
        "json/write/nlohmann", "json/read/nlohmann", "json/write/write-once", "json/read/read-once",
        "csv/write/stdio", "csv/write/ofstream", "csv/read/getline", "ston/write/write-once",
        "ston/read/read-once"}) {
    EXPECT_TRUE(measured.count(k)) << k;
  }
}

// With bufstream::compress built, the compressed suite measures its decorators and one-shot
// baselines (each decompression checked against the text, each read against the rows, each
// file written decompressed and compared) and prints its goals.
TEST_F(BenchProgram, TheCompressedSuiteMeasuresTheDecoratorsAndPrintsItsGoals) {
#ifndef BUFSTREAM_BENCH_TEST_HAS_COMPRESS
  GTEST_SKIP() << "bufstream::compress is not built";
#endif
  ASSERT_EQ(status_, 0);
  const nlohmann::json j = report();
  std::set<std::string> measured;
  for (const nlohmann::json& r : j["results"]) {
    if (r["suite"] == "compressed" && r.contains("median_ms"))
      measured.insert(r["op"].get<std::string>() + "/" + r["data"].get<std::string>() + "/" +
                      r["variant"].get<std::string>());
  }
  for (const char* data : {"csv-floats", "csv-integers", "json-floats", "json-integers"}) {
    for (const char* k : {"decompress/{}/gzip", "decompress/{}/gzip-oneshot", "decompress/{}/zstd",
                          "decompress/{}/zstd-oneshot", "read/{}/gzip", "read/{}/gzip-oneshot",
                          "read/{}/zstd", "read/{}/zstd-oneshot", "write/{}/gzip",
                          "write/{}/gzip-oneshot", "write/{}/zstd", "write/{}/zstd-oneshot"}) {
      std::string key(k);
      key.replace(key.find("{}"), 2, data);
      EXPECT_TRUE(measured.count(key)) << key;
    }
  }
  const std::string tables = slurp(*dir_ / "out.txt");
  for (const char* goal : {"goal: decorator decompress within 1.1x of one-shot",
                           "read and parse, decorator vs one-shot: ",
                           "goal: decorator write within 1.1x of one-shot"}) {
    EXPECT_NE(tables.find(goal), std::string::npos) << goal;
  }
}

TEST(BenchProgramCommandLine, HelpAndUsageErrors) {
  const fs::path dir = fs::temp_directory_path();
  const fs::path out =
      dir / (std::string("bufstream-bench-help-") + std::to_string(::getpid()) + ".txt");
  const fs::path err =
      dir / (std::string("bufstream-bench-help-") + std::to_string(::getpid()) + ".err");
  EXPECT_EQ(run_bench("--help", out, err), 0);
  const std::string help = slurp(out);
  for (const char* option :
       {"--suite", "--data", "--rows", "--repeat", "--json", "--svg", "--help", "--stream-mb"}) {
    EXPECT_NE(help.find(option), std::string::npos) << option;
  }
  EXPECT_EQ(run_bench("--suite nonsense", out, err), 2);
  EXPECT_NE(slurp(err).find("unknown suite"), std::string::npos);
  fs::remove(out);
  fs::remove(err);
}

}  // namespace
