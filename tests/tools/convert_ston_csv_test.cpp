// End-to-end tests of `bufstream convert` between STON and CSV: STON to CSV follows the STON to
// JSON rules and then the JSON to CSV rules; CSV to STON follows CSV to JSON and then JSON to
// STON. Every exit status, and an error naming each value CSV cannot hold and where it is.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_program.hpp"

namespace bufstream {
namespace {

using testing::ProgramResult;

ProgramResult convert(const std::vector<std::string>& args, const std::string& input = {},
                      const std::string& stdout_path = {}) {
  std::vector<std::string> all{"convert"};
  all.insert(all.end(), args.begin(), args.end());
  return testing::run_program(BUFSTREAM_CLI, all, input, stdout_path);
}

TEST(ConvertStonCsv, MapsBecomeRecordsUnderAHeaderFromTheFirstMap) {
  const auto r = convert({"--from", "ston", "--to", "csv"},
                         "[{#name:'Ada',#born:1815,'ratio':1/4,#sym:#x},\n"
                         " {#born:-2,#name:'B, \"q\"',#ratio:2.5e-3,#sym:true}]");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "name,born,ratio,sym\r\nAda,1815,0.25,x\r\n\"B, \"\"q\"\"\",-2,0.0025,true\r\n");
  EXPECT_EQ(r.err, "");
}

TEST(ConvertStonCsv, ListsBecomeRecordsWithoutAHeader) {
  const auto r =
      convert({"--from", "ston", "--to", "tsv", "--lf"}, "[[1,'a b'],[2,'\xC3\xA9\xE4\xB8\xAD']]");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1\ta b\n2\t\xC3\xA9\xE4\xB8\xAD\n");
}

TEST(ConvertStonCsv, SeveralTopLevelValuesAreEachARecord) {
  // As STON to JSON makes several values one JSON array.
  const auto r = convert({"--from", "ston", "--to", "csv", "--lf"}, "{#a:1}\n{#a:2}\n{#a:3}\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "a\n1\n2\n3\n");
}

TEST(ConvertStonCsv, IntegersOfAnySizeAreWrittenDigitForDigit) {
  const std::string big = "123456789012345678901234567890123456789";
  const auto r =
      convert({"--from", "ston", "--to", "csv", "--lf"}, "[[" + big + ",-" + big + ",1e30]]");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, big + ",-" + big + ",1" + std::string(30, '0') + "\n");
}

TEST(ConvertStonCsv, AnEmptyListIsNoRecords) {
  const auto r = convert({"--from", "ston", "--to", "csv"}, "[]");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(ConvertStonCsv, AValueCsvCannotHoldIsAnErrorNamingItAndWhere) {
  struct Case {
    std::string ston, message;
  };
  const Case cases[] = {
      {"[{#a:1},\n{#a:nil}]",
       "<stdin>:1:1: error: record 2, column 'a': nil cannot be written to CSV"},
      {"{#a:1}\n  {#a:[1]}",
       "<stdin>:2:3: error: record 2, column 'a': a nested [1] (list) cannot be a CSV field"},
      {"[[{#k:2}]]",
       "<stdin>:1:1: error: record 1, column 1: a nested {#k:2} (map) cannot be a CSV field"},
      {"[[1,Point[1,2]]]",
       "record 1, column 2: Point[1,2] (tagged object) has no JSON or CSV form"},
      {"[[#a:1]]", "record 1, column 1: #a:1 (association) has no JSON or CSV form"},
      {"[[Float[#nan]]]", "record 1, column 1: Float[#nan] (float) has no JSON or CSV form"},
      {"[{1:2}]", "record 1: the key 1 (integer) cannot be a column name"},
      {"[{'a':1,#a:2}]", "record 1, column 'a': the key occurs twice"},
      {"[{#a:1},{#b:2}]", "record 2, column 'b': the key is not a column of the first record"},
      {"[{#a:1,#b:2},{#a:3}]", "record 2: the map has no key 'b' (the first record had it)"},
      {"[[1,2],[3]]", "record 2: expected 2 fields like the first record but found 1"},
      {"[[1],{#a:1}]", "record 2: expected a list like the first record but found a map"},
      {"[{#a:1},[1]]", "record 2: expected a map like the first record but found a list"},
      {"[[1],@2]", "record 2: the same list is this record and an earlier one"},
      {"[1]", "record 1: expected a list or a map (one CSV record) but found 1 (integer)"},
      {"  {#a:1}",
       "<stdin>:1:3: error: expected a list (its elements are the CSV records) but found map"},
      {"[1,", "<stdin>:1:4: error: expected a value but found end of input"},
      {"[@2]", "<stdin>:1:2: error: reference @2 does not exist"},
  };
  for (const auto& c : cases) {
    const auto r = convert({"--from", "ston", "--to", "csv"}, c.ston);
    EXPECT_EQ(r.status, 1) << c.ston;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.ston << ": " << r.err;
  }
}

TEST(ConvertStonCsv, EmptyInputIsAnErrorWithStatusOne) {
  const auto r = convert({"--from", "ston", "--to", "csv"}, "  \n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "<stdin>:2:1: error: expected a value but found end of input\n");
}

TEST(ConvertStonCsv, UsageAndIoErrorsExitWithTwo) {
  auto r = convert({"--from", "ston", "--to", "csv", "--no-header"}, "[]");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--no-header and --infer apply to CSV input only"), std::string::npos)
      << r.err;
  r = convert({"--to", "csv", "/no/such/file.ston"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("open /no/such/file.ston"), std::string::npos) << r.err;
  r = convert({"--from", "ston", "--to", "csv"}, "[[1,2]]", "/dev/full");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
}

TEST(ConvertStonCsv, CsvBecomesAListOfMapsWithStringKeys) {
  auto r = convert({"--from", "csv", "--to", "ston"}, "name,n\r\nAda,1\r\n\"it's\",\xC3\xA9\r\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[{'name':'Ada','n':'1'},{'name':'it\\'s','n':'\xC3\xA9'}]\n");
  r = convert({"--from", "csv", "--to", "ston", "--no-header", "--infer"}, "a,1\nb,-2.5\ntrue,x\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[['a',1],['b',-2.5],[true,'x']]\n");
}

TEST(ConvertStonCsv, CsvErrorsKeepTheirPositions) {
  auto r = convert({"--from", "csv", "--to", "ston"}, "a,b\n1,\"x\ny");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:2:3: error:", 0), 0u) << r.err;
  r = convert({"--from", "csv", "--to", "ston"}, "a,a\n1,2\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("duplicate column name 'a'"), std::string::npos) << r.err;
}

TEST(ConvertStonCsv, CsvToStonToCsvGivesTheSameBytes) {
  const std::string csv =
      "id,name,note\r\n1,Ada,\"a, b\"\r\n2,\xE4\xB8\xAD,\"line\r\nbreak \"\"q\"\"\"\r\n3,,\r\n";
  const auto to_ston = convert({"--from", "csv", "--to", "ston"}, csv);
  ASSERT_EQ(to_ston.status, 0) << to_ston.err;
  const auto back = convert({"--from", "ston", "--to", "csv"}, to_ston.out);
  EXPECT_EQ(back.status, 0) << back.err;
  EXPECT_EQ(back.out, csv);
}

}  // namespace
}  // namespace bufstream
