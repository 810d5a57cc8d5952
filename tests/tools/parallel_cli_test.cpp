// check and convert with -j N: the same output, error lines and exit status as -j 1, on files
// of several chunks (1 MiB each), sound and damaged.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

// About 3 MB of CSV: a header, then records with quotes, doubled quotes and line breaks in
// quoted fields, CRLF line ends.
std::string big_csv() {
  static const char* notes[] = {
      "plain", "\"with \"\"quotes\"\"\"", "\"two\nlines\"", "", "\"a,b\"", "12.5", "true"};
  std::string text = "id,name,score,note\r\n";
  for (int i = 0; i < 90000; ++i) {
    text += std::to_string(i) + ",n" + std::to_string(i) + "," + std::to_string(i % 977) + "." +
            std::to_string(i % 10) + "," + notes[i % 7] + "\r\n";
  }
  return text;
}

// About 3 MB of JSON Lines.
std::string big_jsonl() {
  std::string text;
  for (int i = 0; i < 60000; ++i) {
    text += "{\"i\":" + std::to_string(i) + ",\"s\":\"x\\u00e9" +
            std::string(static_cast<std::size_t>(i % 5), 'y') + "\",\"a\":[1,2.5,null,true]}\n";
  }
  return text;
}

class ParallelCli : public Cli {
 protected:
  // Runs the command with -j 1 and with each other N and expects the same results.
  void expect_same_with_jobs(std::vector<std::string> args) {
    std::vector<std::string> one = args;
    one.insert(one.begin() + 1, {"-j", "1"});
    const auto expected = cli(one);
    for (const char* jobs : {"2", "3", "8"}) {
      std::vector<std::string> n = args;
      n.insert(n.begin() + 1, {"-j", jobs});
      const auto got = cli(n);
      EXPECT_EQ(got.status, expected.status) << args[0] << " -j " << jobs << ": " << got.err;
      EXPECT_EQ(got.err, expected.err) << args[0] << " -j " << jobs;
      EXPECT_TRUE(got.out == expected.out) << args[0] << " -j " << jobs << ": the output differs";
    }
  }
};

TEST_F(ParallelCli, CheckGivesTheSameVerdictsWithAnyJobs) {
  const std::string csv = big_csv();
  const std::string jsonl = big_jsonl();
  expect_same_with_jobs({"check", file("a.csv", csv), file("a.jsonl", jsonl)});
  std::string bad_csv = csv;
  bad_csv.insert(2'000'000, "x\"y");
  std::string bad_jsonl = jsonl;
  bad_jsonl.insert(2'500'000, "[1,,2]\n");
  expect_same_with_jobs({"check", file("b.csv", bad_csv), file("b.jsonl", bad_jsonl)});
}

TEST_F(ParallelCli, ConvertWritesTheSameBytesWithAnyJobs) {
  const std::string csv = file("a.csv", big_csv());
  const std::string jsonl = file("a.jsonl", big_jsonl());
  for (const char* to : {"json", "jsonl", "csv", "tsv"}) {
    expect_same_with_jobs({"convert", "--to", to, csv, "-"});
    expect_same_with_jobs({"convert", "--to", to, "--no-header", "--infer", "--lf", csv, "-"});
  }
  expect_same_with_jobs({"convert", "--to", "json", "--pretty", csv, "-"});
  for (const char* to : {"json", "jsonl"})
    expect_same_with_jobs({"convert", "--to", to, jsonl, "-"});
  expect_same_with_jobs({"convert", "--to", "json", "--pretty", jsonl, "-"});
}

// convert --typed reads a csv::Table on -j threads: the same rows, whatever the count, from a
// file whose double column becomes text far past the sample (the file is read again for it).
TEST_F(ParallelCli, ConvertTypedWritesTheSameBytesWithAnyJobs) {
  std::string text = "id,price,flag\n";
  for (int i = 0; i < 60000; ++i) {
    text += std::to_string(i) + "," +
            (i == 45000 ? std::string("n/a") : std::to_string(i) + ".25") + "," +
            (i % 3 == 0 ? "true" : "false") + "\n";
  }
  const std::string csv = file("t.csv", text);
  for (const char* to : {"json", "jsonl", "ston"})
    expect_same_with_jobs({"convert", "--typed", "--to", to, csv, "-"});
  expect_same_with_jobs({"convert", "--typed", "--to", "jsonl", file("a.csv", big_csv()), "-"});
  const auto r = cli({"convert", "-j", "2", "--typed", "--to", "jsonl", csv, "-"});
  EXPECT_NE(r.out.find("{\"id\":45000,\"price\":\"n/a\",\"flag\":true}\n"), std::string::npos);
  EXPECT_NE(r.out.find("{\"id\":1,\"price\":\"1.25\",\"flag\":false}\n"), std::string::npos);
}

TEST_F(ParallelCli, ConvertStopsAtTheSameErrorWithAnyJobs) {
  std::string csv = big_csv();
  csv.insert(1'500'000, "\"unclosed,");
  std::string jsonl = big_jsonl();
  jsonl.insert(2'200'000, "{\"a\":}\n");
  const std::string bad_csv = file("b.csv", csv);
  const std::string bad_jsonl = file("b.jsonl", jsonl);
  for (const char* to : {"json", "jsonl", "csv"})
    expect_same_with_jobs({"convert", "--to", to, bad_csv, "-"});
  for (const char* to : {"json", "jsonl"})
    expect_same_with_jobs({"convert", "--to", to, bad_jsonl, "-"});
  expect_same_with_jobs({"convert", "--typed", "--to", "jsonl", bad_csv, "-"});
}

}  // namespace
}  // namespace bufstream
