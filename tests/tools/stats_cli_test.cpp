// `bufstream stats` (the dialect and each column's type, counts and range, as csv::Table infers
// them) and `bufstream convert --typed` (the rows with those types), which must agree; on files
// and standard input; errors and usage.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

TEST_F(Cli, StatsPrintsTheDialectAndEachColumn) {
  const std::string p =
      file("a.csv", "id,name,score,flag\n1,Ada,2.5,true\n2,,10,false\n3,Cy,-1.5,\n");
  const auto r = cli({"stats", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, p + ": separator ',' (inferred), quote '\"', header yes (inferred), 3 rows\n"
                       "column  type     count  empty  min    max\n"
                       "id      int64    3      0      1      3\n"
                       "name    text     2      1      Ada    Cy\n"
                       "score   double   3      0      -1.5   10\n"
                       "flag    boolean  2      1      false  true\n");
  EXPECT_TRUE(r.err.empty());
}

TEST_F(Cli, StatsOfStandardInputWithTheDialectGiven) {
  const auto r = cli({"stats", "--separator", ";", "--no-header"}, "1;x\n2;y\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "<stdin>: separator ';' (given), quote '\"', header no (given), 2 rows\n"
            "column   type   count  empty  min  max\n"
            "column1  int64  2      0      1    2\n"
            "column2  text   2      0      x    y\n");
}

TEST_F(Cli, StatsSniffsTabsAndListsWidenings) {
  const std::string p = file("w.tsv", "n\tword\n1\ta\n2\tb\n2.5\tc\n");
  const auto r = cli({"stats", "--sample-rows", "2", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, p + ": separator tab (inferred), quote '\"', header yes (inferred), 3 rows\n"
                       "column  type    count  empty  min  max\n"
                       "n       double  3      0      1    2.5\n"
                       "word    text    3      0      a    c\n"
                       "widened: column 'n' from int64 to double at row 3 (line 4): '2.5'\n");
}

TEST_F(Cli, StatsOfAnEmptyFileAndAnAllEmptyColumn) {
  const std::string empty = file("e.csv", "");
  auto r = cli({"stats", empty});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, empty +
                       ": separator ',' (inferred), quote '\"', header no (inferred), 0 rows\n"
                       "column  type  count  empty  min  max\n");
  const std::string blank = file("b.csv", "a,b\n1,\n2,\n");
  r = cli({"stats", blank});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("b       text   0      2      -    -\n"), std::string::npos) << r.out;
}

TEST_F(Cli, StatsReportsBadInputWithItsPosition) {
  const std::string bad = file("bad.csv", "a,b\n1,2\n3,\"x\n");
  const std::string good = file("good.csv", "a\n1\n");
  const auto r = cli({"stats", "--separator", ",", bad, good});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind(bad + ":3:3: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.out.find(good + ": separator"), std::string::npos);  // the next file is read
}

TEST_F(Cli, StatsUsage) {
  auto r = cli({"stats", "--header", "--no-header", "a.csv"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("exclude each other"), std::string::npos) << r.err;
  r = cli({"stats", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: bufstream stats"), std::string::npos);
  r = cli({"stats", path("missing.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.csv"), std::string::npos);
}

// ---- convert --typed: the same inference as stats --------------------------------------------

TEST_F(Cli, ConvertTypedWritesEachColumnsTypeAsStatsInfersIt) {
  const std::string p = file("t.csv", "id,name,score,flag\n1,Ada,2.5,true\n2,,10,false\n");
  auto r = cli({"convert", "--typed", "--to", "jsonl", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":1,\"name\":\"Ada\",\"score\":2.5,\"flag\":true}\n"
            "{\"id\":2,\"name\":null,\"score\":10.0,\"flag\":false}\n");
  r = cli({"stats", p});
  EXPECT_NE(r.out.find("\nid      int64 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nscore   double "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nflag    boolean "), std::string::npos) << r.out;
}

TEST_F(Cli, ConvertTypedWithoutAHeaderAndFromStandardInput) {
  auto r = cli({"convert", "--typed", "--from", "csv", "--to", "json"}, "1;x\n2;\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[{\"column1\":1,\"column2\":\"x\"},{\"column1\":2,\"column2\":null}]\n");
  r = cli({"convert", "--typed", "--no-header", "--from", "csv", "--to", "ston"}, "a\n1\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[{'column1':'a'},{'column1':'1'}]\n");
}

TEST_F(Cli, ConvertTypedErrorsAndUsage) {
  const std::string dup = file("d.csv", "a,a\nx,y\n");
  auto r = cli({"convert", "--typed", "--to", "json", dup});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("duplicate column name 'a'"), std::string::npos) << r.err;
  const std::string bad = file("bad.csv", "a,b\n1,2\n3,\"x\n");
  r = cli({"convert", "--typed", "--separator", ",", "--to", "jsonl", bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind(bad + ":3:3: error: ", 0), 0u) << r.err;
  const struct {
    std::vector<std::string> args;
    std::string message;
  } usage[] = {
      {{"convert", "--typed", "--infer", "--to", "json", dup}, "exclude each other"},
      {{"convert", "--typed", "--to", "tsv", dup}, "--typed applies to CSV converted to"},
      {{"convert", "--typed", "--from", "json", "--to", "jsonl"}, "--typed applies to CSV input"},
  };
  for (const auto& u : usage) {
    r = cli(u.args, "[]");
    EXPECT_EQ(r.status, 2) << u.message;
    EXPECT_NE(r.err.find(u.message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace bufstream
