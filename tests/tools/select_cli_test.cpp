// `bufstream get POINTER FILE...` and `bufstream convert --select POINTER`: values picked out of
// JSON by pointer, as each output format writes them; misses and malformed input reported
// with their positions; compressed input and standard input.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

const std::string dump = R"({"meta": {"version": "1.2", "n": 3, "a/b": {"m~n": true}},
 "rows": [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}, {"id": 3, "name": "thr\"ee"}],
 "empty": [], "after": 7}
)";

TEST_F(Cli, GetPrintsTheValueAtAPointer) {
  const std::string p = file("dump.json", dump);
  auto r = cli({"get", "/meta/version", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "\"1.2\"\n");
  r = cli({"get", "/rows/2", p});
  EXPECT_EQ(r.out, "{\"id\":3,\"name\":\"thr\\\"ee\"}\n");
  r = cli({"get", "/meta/a~1b/m~0n", p});
  EXPECT_EQ(r.out, "true\n");
  r = cli({"get", "--pretty", "/meta", p});
  EXPECT_EQ(r.out, nlohmann::ordered_json::parse(dump)["meta"].dump(2) + "\n");
  r = cli({"get", "", p});  // the whole document
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::parse(dump));
}

TEST_F(Cli, GetReadsNoFurtherThanTheValue) {
  // What follows the value is never read: here it is not JSON at all.
  const std::string p = file("head.json", R"({"meta": {"version": 2}, "rows": [1, 2, oops)");
  const auto r = cli({"get", "/meta/version", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "2\n");
}

TEST_F(Cli, GetSaysWhyAValueIsNotThere) {
  const std::string p = file("dump.json", dump);
  auto r = cli({"get", "/rows/3", p});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, p + ":2:91: error: JSON Pointer \"/rows/3\" not found: the array at \"/rows\" "
                       "has 3 elements, none at index 3\n");
  r = cli({"get", "/meta/version/x", p});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, p + ":1:22: error: JSON Pointer \"/meta/version/x\" not found: "
                       "\"/meta/version\" is a string, which has no \"x\"\n");
  // Malformed text before the value is the reader's error, at its place.
  r = cli({"get", "/b", file("bad.json", "{\"a\": [1,], \"b\": 2}")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind(path("bad.json") + ":1:10: error: expected a value but found ']'", 0), 0U)
      << r.err;
  // Several files: each one's value or reason, the worst status.
  r = cli({"get", "/after", p, file("other.json", "{\"after\": [1]}"), file("none.json", "{}")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "7\n[1]\n");
  EXPECT_EQ(r.err, path("none.json") +
                       ":1:2: error: JSON Pointer \"/after\" not found: the "
                       "object at the root has no member \"after\"\n");
}

TEST_F(Cli, GetRefusesWildcardsAndMalformedPointers) {
  const std::string p = file("dump.json", dump);
  auto r = cli({"get", "/rows/*", p});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("bufstream get: POINTER: '/rows/*' has a '*'", 0), 0U) << r.err;
  r = cli({"get", "rows", p});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("invalid JSON Pointer \"rows\""), std::string::npos) << r.err;
  r = cli({"get", "/a", file("x.csv", "a\n1\n")});
  EXPECT_EQ(r.status, 2);
}

TEST_F(Cli, GetReadsStandardInputJsonLinesAndCompressedFiles) {
  auto r = cli({"get", "-f", "json", "/rows/0/name"}, dump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "\"one\"\n");
  r = cli({"get", "/a/b",
           file("lines.jsonl", "{\"a\": {\"b\": 1, \"c\": [2]}}\n{\"a\": {\"b\": [3]}}\n")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1\n[3]\n");
  r = cli({"get", "/a", file("miss.jsonl", "{\"a\": 1}\n{\"b\": 2}\n")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "1\n");
  EXPECT_NE(r.err.find("miss.jsonl:2:8: error: JSON Pointer \"/a\" not found"), std::string::npos)
      << r.err;
#ifdef BUFSTREAM_TEST_CLI_HAS_COMPRESS
  const std::string plain = file("dump.json", dump);
  ASSERT_EQ(cli({"convert", "--from", "json", "--to", "json", plain, path("dump.json.gz")}).status,
            0);
  r = cli({"get", "/rows/1/id", path("dump.json.gz")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "2\n");
#endif
}

TEST_F(Cli, ConvertSelectWritesEachSelectedValueAsTheTargetDoes) {
  const std::string p = file("dump.json", dump);
  auto r = cli({"convert", "--select", "/rows/*", "--to", "jsonl", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":1,\"name\":\"one\"}\n{\"id\":2,\"name\":\"two\"}\n"
            "{\"id\":3,\"name\":\"thr\\\"ee\"}\n");
  r = cli({"convert", "--select", "/rows/*", "--to", "csv", "--lf", p});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "id,name\n1,one\n2,two\n3,\"thr\"\"ee\"\n");
  r = cli({"convert", "--select", "/rows/*/name", "--to", "json", p});
  EXPECT_EQ(r.out, "[\"one\",\"two\",\"thr\\\"ee\"]\n");
  r = cli({"convert", "--select", "/*/n", "--to", "ston", p});
  EXPECT_EQ(r.out, "[3]\n");
  r = cli({"convert", "--select", "/empty/*", "--to", "jsonl", p});  // nothing selected
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  // JSON Lines in: the pointer applies to each value.
  r = cli({"convert", "--from", "jsonl", "--to", "jsonl", "--select", "/a/*"},
          "{\"a\": [1, 2]}\n{\"a\": []}\n{\"b\": 0}\n{\"a\": [3]}\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1\n2\n3\n");
}

TEST_F(Cli, ConvertSelectReportsMalformedInputAndMisuse) {
  // With `*` the whole input is read: an error after the selected values is still one.
  auto r = cli({"convert", "--select", "/rows/*", "--to", "jsonl",
                file("late.json", "{\"rows\": [1, 2], \"x\": [1 2]}")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "1\n2\n");  // standard output is written as the values come
  EXPECT_NE(r.err.find("late.json:1:26: error: expected ',' or ']' but found '2'"),
            std::string::npos)
      << r.err;
  r = cli({"convert", "--select", "/rows/*", "--to", "jsonl", file("x.csv", "a\n1\n")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--select applies to JSON and JSON Lines input only"), std::string::npos)
      << r.err;
  r = cli({"convert", "--select", "/a~2", "--to", "jsonl", file("y.json", "{}")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--select: invalid JSON Pointer \"/a~2\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bufstream
