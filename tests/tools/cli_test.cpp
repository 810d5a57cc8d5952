// End-to-end tests of the bufstream command: the built binary on files and pipes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <bufstream/csv/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

// ---- The program and its usage -------------------------------------------------------------

TEST_F(Cli, HelpAndVersion) {
  auto r = cli({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: bufstream"), std::string::npos);
  r = cli({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("bufstream ", 0), 0u);
  for (const char* sub : {"check", "convert", "fmt", "cedict"}) {
    r = cli({sub, "--help"});
    EXPECT_EQ(r.status, 0) << sub;
    EXPECT_NE(r.out.find(std::string("usage: bufstream ") + sub), std::string::npos) << sub;
    EXPECT_TRUE(r.err.empty()) << sub;
  }
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{}, "usage: bufstream"},
      // Unknown words and missing values are CLI11's to report, in its words, naming them.
      {{"frobnicate"}, "bufstream: The following argument was not expected: frobnicate\n"},
      {{"--bogus"}, "bufstream: The following argument was not expected: --bogus\n"},
      {{"check", "--bogus"}, "bufstream check: The following argument was not expected: --bogus\n"},
      {{"check", "--format"}, "bufstream check: --format: 1 required F missing\n"},
      {{"fmt", "--indent", "-1", "a.json"},
       "bufstream fmt: --indent: Value -1 not in range 0 to 2147483647\n"},
      {{"cedict", "lookup"}, "bufstream cedict lookup: QUERY is required\n"},
      {{"check", "--format", "xml", "a.xml"}, "unknown format 'xml'"},
      {{"check", "file.txt"}, "cannot tell the format of 'file.txt'"},
      {{"convert", "--to", "json"}, "cannot tell the format of standard input"},
      {{"fmt", "--pretty", "--compact", "a.json"}, "exclude each other"},
      {{"cedict"}, "expected 'lookup' or 'stats'"},
  };
  for (const auto& c : cases) {
    const auto r = cli(c.args);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST_F(Cli, DoubleDashEndsOptions) {
  const std::string p = file("-odd.json", "[1]");
  const auto r = cli({"check", "--", p});
  EXPECT_EQ(r.status, 0) << r.err;
}

// ---- check ---------------------------------------------------------------------------------

TEST_F(Cli, CheckAcceptsValidFiles) {
  const auto r = cli({"check", file("a.json", "{\"a\": [1, 2.5, \"x\"]}\n"),
                      file("b.csv", "a,b\r\n1,\"x,\"\"y\"\"\"\r\n"), file("c.tsv", "a\tb\n1\t2\n"),
                      file("d.ston", "{#a : [1, @2], 'b' : Point[1,2]}"),
                      file("e.jsonl", "{\"a\":1}\n[2]\n\"three\"\n")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(r.err.empty());
}

TEST_F(Cli, CheckReportsErrorLinesWithPositions) {
  struct Case {
    std::string name, content, expected;  // expected: the error line after the path
  };
  const Case cases[] = {
      {"trailing.json", "[1, 2]\n  3", ":2:3: error: expected end of input but found '3'"},
      {"brace.json", "{\"a\": 1,\n \"b\": [1, 2}\n",
       ":2:12: error: expected ',' or ']' but found '}'"},
      {"quote.csv", "a,b\n1,x\"y\n", ":2:4: error:"},
      {"count.csv", "a,b\n1,2\n3\n", ":3:"},
      {"ref.ston", "[1, @5]", ":1:"},
      {"two.jsonl", "{\"a\":1} {\"b\":2}\n", ":1:9: error: expected a line end after the value"},
  };
  for (const auto& c : cases) {
    const std::string p = file(c.name, c.content);
    const auto r = cli({"check", p});
    EXPECT_EQ(r.status, 1) << c.name << ": " << r.err;
    EXPECT_EQ(r.err.rfind(p + c.expected, 0), 0u) << c.name << ": " << r.err;
  }
}

TEST_F(Cli, CheckGoesOnAfterAnInvalidFileAndReportsTheWorst) {
  const auto r =
      cli({"check", file("bad.json", "[1,]"), file("good.json", "[]"), path("missing.json")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.json:1:4: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("open " + path("missing.json") + ": No such file or directory"),
            std::string::npos)
      << r.err;
}

TEST_F(Cli, CheckReadsStandardInput) {
  auto r = cli({"check", "--format", "json"}, "[1, 2,\n  ]");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:2:3: error:", 0), 0u) << r.err;
  r = cli({"check", "--format", "csv", "-"}, "a;b\n1;2\n");
  EXPECT_EQ(r.status, 0) << r.err;
  r = cli({"check", "--format", "csv", "--separator", ";"}, "a;b\n1;2;3\n");
  EXPECT_EQ(r.status, 1);
}

// ---- convert -------------------------------------------------------------------------------

TEST_F(Cli, CsvToJsonKeepsFieldStringsExactly) {
  const std::string csv = "name,qty,note\r\nzhōngwén 中文,007,\"a, \"\"b\"\"\nc\"\r\n,1.50,\r\n";
  auto r = cli({"convert", "--from", "csv", "--to", "json"}, csv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "[{\"name\":\"zhōngwén 中文\",\"qty\":\"007\",\"note\":\"a, \\\"b\\\"\\nc\"},"
            "{\"name\":\"\",\"qty\":\"1.50\",\"note\":\"\"}]\n");
  r = cli({"convert", "--from", "csv", "--to", "json", "--no-header"}, "a,b\n1,2\n");
  EXPECT_EQ(r.out, "[[\"a\",\"b\"],[\"1\",\"2\"]]\n");
  r = cli({"convert", "--from", "csv", "--to", "jsonl", "--infer"}, "a,b,c,d\n1,-2.5,true,007\n");
  EXPECT_EQ(r.out, "{\"a\":1,\"b\":-2.5,\"c\":true,\"d\":\"007\"}\n");
}

TEST_F(Cli, CsvToJsonToCsvGivesTheSameBytes) {
  StringWriteStream text;
  csv::Writer writer(text);
  writer.record({"id", "word", "value"});
  writer.row(1, "one, two", 0.1);
  writer.row(2, "say \"hi\"", -1e300);
  writer.row(3, "line\nbreak", 42);
  writer.row(4, "中文 ☃ 😀", 2.5);
  writer.row(5, "", 0);
  writer.flush();
  const std::string original(text.view());
  const std::string csv_path = file("in.csv", original);
  auto r = cli({"convert", csv_path, path("mid.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  r = cli({"convert", path("mid.json"), path("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(path("out.csv")), original);
  // And through JSON Lines and TSV.
  r = cli({"convert", csv_path, path("mid.jsonl")});
  ASSERT_EQ(r.status, 0) << r.err;
  r = cli({"convert", path("mid.jsonl"), path("mid.tsv")});
  ASSERT_EQ(r.status, 0) << r.err;
  r = cli({"convert", path("mid.tsv"), path("back.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(path("back.csv")), original);
}

TEST_F(Cli, JsonToCsvRefusesWhatCsvCannotHold) {
  struct Case {
    std::string json, message;
  };
  const Case cases[] = {
      {"[{\"a\":1},{\"b\":2}]", ":1:11: error: key 'b' is not a column of the first row"},
      {"[{\"a\":1,\"a\":2}]", ":1:9: error: key 'a' occurs twice (a JSON object cannot hold both)"},
      {"[{\"a\":1},{\"a\":2,\"a\":3}]", ":1:17: error: key 'a' occurs twice"},
      {"[{\"a\":1,\"b\":2},{\"a\":3}]", "the object has no key 'b'"},
      {"[{\"a\":null}]", ":1:7: error: null cannot be written to CSV"},
      {"[[1,[2]]]", ":1:5: error: a nested array cannot be a CSV field"},
      {"[[1,2],[3]]", "expected 2 fields like the first row but found 1"},
      {"[[1],{\"a\":1}]", "expected an array like the first row"},
      {"{\"a\":1}", ":1:1: error: expected an array"},
  };
  for (const auto& c : cases) {
    const auto r = cli({"convert", "--from", "json", "--to", "csv"}, c.json);
    EXPECT_EQ(r.status, 1) << c.json;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.json << ": " << r.err;
  }
}

TEST_F(Cli, JsonAndStonBothWays) {
  auto r = cli({"convert", "--from", "json", "--to", "ston"}, "{\"a\":[1,2.5,null,true,\"it's\"]}");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "{'a':[1,2.5,nil,true,'it\\'s']}\n");
  r = cli({"convert", "--from", "ston", "--to", "json"}, "{#a:[1,2.5,nil,true,'it\\'s',#sym]}");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "{\"a\":[1,2.5,null,true,\"it's\",\"sym\"]}\n");
  r = cli({"convert", "--from", "ston", "--to", "jsonl"}, "[1] [2]");
  EXPECT_EQ(r.out, "[1]\n[2]\n");
  r = cli({"convert", "--from", "ston", "--to", "json"}, "[1]\n  Point[1,2]");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:2:3: error: cannot convert this value:", 0), 0u) << r.err;
  r = cli({"convert", "--from", "jsonl", "--to", "json"}, "1\n\"two\"\n");
  EXPECT_EQ(r.out, "[1,\"two\"]\n");
}

// The command writes JSON one way, whatever it read: the same data from CSV, JSON Lines and
// STON gives the same bytes, compact, pretty and as JSON Lines.
TEST_F(Cli, TheSameDataFromEveryFormatGivesTheSameJson) {
  const std::string strings_csv =
      file("s.csv", "name,note\nJos\xc3\xa9,\"say \"\"hi\"\"\ttab\"\n\xe4\xb8\xad,\n");
  const std::string strings_jsonl = file(
      "s.jsonl",
      "{\"name\":\"Jos\xc3\xa9\",\"note\":\"say \\\"hi\\\"\\ttab\"}\n{\"name\":\"\xe4\xb8\xad\",\"note\":\"\"}\n");
  const std::string strings_ston = file(
      "s.ston", "[{'name':'Jos\xc3\xa9','note':'say \"hi\"\\ttab'},{#name:'\\u4E2D','note':''}]");
  // Numbers: CSV has none (its fields are strings), JSON and STON write theirs differently.
  const std::string numbers_json =
      file("n.json", "[1e100,1.5,-0.0,-7,18446744073709551615,0.75,\"s\",null,true]\n");
  const std::string numbers_ston =
      file("n.ston", "[1.0e100,1.5,-0.0,-7,18446744073709551615,3/4,#s,nil,true]");
  for (const std::vector<std::string>& how : {std::vector<std::string>{"--to", "json"},
                                              std::vector<std::string>{"--to", "json", "--pretty"},
                                              std::vector<std::string>{"--to", "jsonl"}}) {
    SCOPED_TRACE(how.back());
    const auto convert = [&](const std::string& in) {
      std::vector<std::string> args{"convert"};
      args.insert(args.end(), how.begin(), how.end());
      args.push_back(in);
      const auto r = cli(args);
      EXPECT_EQ(r.status, 0) << in << ": " << r.err;
      return r.out;
    };
    const std::string from_csv = convert(strings_csv);
    EXPECT_NE(from_csv.find("Jos\xc3\xa9"), std::string::npos) << from_csv;
    EXPECT_EQ(convert(strings_jsonl), from_csv);
    EXPECT_EQ(convert(strings_ston), from_csv);
    EXPECT_EQ(convert(numbers_ston), convert(numbers_json));
  }
  EXPECT_EQ(cli({"convert", "--to", "json", numbers_ston}).out,
            "[1e+100,1.5,-0.0,-7,18446744073709551615,0.75,\"s\",null,true]\n");
}

TEST_F(Cli, WriteFailuresAreReported) {
  const auto r = cli({"convert", "--from", "csv", "--to", "json"}, "a\n1\n", "/dev/full");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  const auto f = cli({"fmt", "--format", "json"}, "[1,2]", "/dev/full");
  EXPECT_EQ(f.status, 2);
  const auto out = cli(
      {"convert", "--from", "csv", "--to", "json", "-", path("no/such/dir/out.json")}, "a\n1\n");
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.err.find("open " + path("no/such/dir/out.json")), std::string::npos) << out.err;
}

TEST_F(Cli, AReaderThatGoesAwayIsAnIoErrorNotASignal) {
  // `bufstream convert big.csv | head -c 1`: the output (megabytes) is far larger than the
  // pipe and the buffer, so writing goes on after head has exited.
  std::string csv = "id,text\n";
  for (int i = 0; i < 100000; ++i)
    csv += std::to_string(i) + ",some text to make the line longer\n";
  const std::string big = file("big.csv", csv);
  const auto r = testing::run_program(
      "/bin/bash", {"-c", std::string(BUFSTREAM_CLI) + " convert " + big +
                              " --to jsonl | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("write <stdout>: Broken pipe"), std::string::npos) << r.err;
}

// ---- fmt -----------------------------------------------------------------------------------

TEST_F(Cli, FmtRewritesJsonAndSton) {
  auto r = cli({"fmt", "--compact", "--format", "json"}, " { \"a\" : [ 1 , 2 ] } ");
  EXPECT_EQ(r.out, "{\"a\":[1,2]}\n");
  r = cli({"fmt", "--format", "json"}, "{\"a\":[1,2]}");
  EXPECT_EQ(r.out, "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
  r = cli({"fmt", "--compact", "--format", "ston"}, "{ #a : [ 1 , 2 ] }");
  EXPECT_EQ(r.out, "{#a:[1,2]}\n");
  r = cli({"fmt", "--format", "ston"}, "{#a:[1,2]}");
  EXPECT_EQ(r.out, "{\n\t#a : [\n\t\t1,\n\t\t2\n\t]\n}\n");
  // "-0" is the integer 0 in every API, so the command writes it as 0; "-0.0" stays -0.0.
  r = cli({"fmt", "--compact", "--format", "json"}, "[-0, -0.0, 1E+2, 0.1e-400]");
  EXPECT_EQ(r.out, "[0,-0.0,100.0,0.0]\n");
  r = cli({"convert", "--from", "json", "--to", "ston"}, "[-0,-0.0]");
  EXPECT_EQ(r.out, "[0,-0.0]\n");
  r = cli({"fmt", "--format", "json"}, "[1,");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:1:4: error:", 0), 0u) << r.err;
}

// ---- cedict --------------------------------------------------------------------------------

TEST_F(Cli, CedictLookupByEveryKind) {
  const std::string dict = BUFSTREAM_TEST_DICTIONARY;
  auto r = cli({"cedict", "lookup", "--dict", dict, "你好"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("你好 你好 [ni3 hao3] /hello/hi/\n"), std::string::npos) << r.out;
  r = cli({"cedict", "lookup", "--dict", dict, "NiHao"});
  EXPECT_NE(r.out.find("你好 你好 [ni3 hao3]"), std::string::npos) << r.out;
  r = cli({"cedict", "lookup", "--dict", dict, "calico"});
  EXPECT_NE(r.out.find("三色貓 三色猫 [san1 se4 mao1] /calico cat/"), std::string::npos) << r.out;
  r = cli({"cedict", "stats", "--dict", dict});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("entries:              116937"), std::string::npos) << r.out;
  r = cli({"cedict", "stats", "--dict", path("missing.u8")});
  EXPECT_EQ(r.status, 2);
}

TEST_F(Cli, WordsAfterACommandAreItsOwnEvenWhenNamedLikeCommands) {
  const auto r = cli({"cedict", "lookup", "--dict", BUFSTREAM_TEST_DICTIONARY, "check", "stats"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("制服 制服 [zhi4 fu2] /to subdue/to check/"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace bufstream
