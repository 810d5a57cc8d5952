// The command's compressed files: an input whose content is gzip or zstd is decompressed
// (whatever its name, standard input too), an output named *.gz or *.zst is compressed, the
// format is taken from the name without that suffix, and corrupt or truncated compressed input
// is invalid input (exit 1, the compressed byte offset) that leaves the old output as it was.
// The compressed files are made, and the outputs read back, by the system's gzip and zstd.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/encoding.hpp>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

// The program `name` on the PATH, or "" when there is none.
std::string find_tool(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

struct Tool {
  std::string_view name;    // "gzip"
  std::string_view suffix;  // ".gz"
};
constexpr Tool tools[] = {{"gzip", ".gz"}, {"zstd", ".zst"}};

#ifdef BUFSTREAM_TEST_CLI_HAS_COMPRESS
constexpr bool cli_has_compression = true;
#else
constexpr bool cli_has_compression = false;
#endif

class CompressedCli : public Cli {
 protected:
  void SetUp() override {
    Cli::SetUp();
    for (const Tool& t : tools) {
      if (find_tool(std::string(t.name)).empty())
        GTEST_SKIP() << t.name << " is not installed: it makes and checks the compressed files";
    }
  }

  // `text` compressed by the system tool, as `gzip -c` / `zstd -c` write it.
  static std::string compress(const Tool& tool, const std::string& text) {
    const auto r = testing::run_program(find_tool(std::string(tool.name)), {"-q", "-c"}, text);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  }
  // The file decompressed by the system tool.
  static std::string decompress(const Tool& tool, const std::string& file) {
    const auto r =
        testing::run_program(find_tool(std::string(tool.name)), {"-q", "-d", "-c", file});
    EXPECT_EQ(r.status, 0) << tool.name << " -dc " << file << ": " << r.err;
    return r.out;
  }
};

// Enough rows that the decompressed text spans several 64 KiB buffers.
std::string many_csv_rows() {
  std::string csv = "id,name,value\r\n";
  for (int i = 0; i < 12000; ++i) {
    csv += std::to_string(i) + ",Zo\u00eb " + std::to_string(i * 7) + "," +
           std::to_string(i * 31 % 1000) + ".5\r\n";
  }
  return csv;
}

struct Sample {
  std::string_view format;
  std::string text;
};

std::vector<Sample> samples() {
  return {{"csv", many_csv_rows()},
          {"json", R"([{"a":1,"b":"x\u00e9"},{"a":2.5,"b":[true,null]}])"},
          {"jsonl", "{\"a\":1}\n[2,3]\n\"four\"\n"},
          {"ston", "[{#a:1,#b:'x'},#sym,nil]\n"}};
}

TEST_F(CompressedCli, CompressedInputIsReadByItsContentWhateverItsName) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  for (const Sample& s : samples()) {
    const std::string format(s.format);
    const std::string plain = file("plain." + format, s.text);
    const auto want = cli({"convert", "--to", "json", plain});
    ASSERT_EQ(want.status, 0) << format << ": " << want.err;
    for (const Tool& t : tools) {
      const std::string packed = compress(t, s.text);
      const std::string what = format + " " + std::string(t.name);
      // With the suffix (the format from the name before it), without it, and on stdin.
      const std::string suffixed = file("data." + format + std::string(t.suffix), packed);
      const std::string bare = file("bare." + format, packed);
      auto r = cli({"convert", "--to", "json", suffixed});
      EXPECT_EQ(r.status, 0) << what << ": " << r.err;
      EXPECT_EQ(r.out, want.out) << what;
      r = cli({"convert", "--to", "json", bare});
      EXPECT_EQ(r.status, 0) << what << ": " << r.err;
      EXPECT_EQ(r.out, want.out) << what;
      r = cli({"convert", "--from", format, "--to", "json"}, packed);
      EXPECT_EQ(r.status, 0) << what << " on stdin: " << r.err;
      EXPECT_EQ(r.out, want.out) << what << " on stdin";
      r = cli({"check", suffixed, bare});
      EXPECT_EQ(r.status, 0) << what << ": " << r.err;
      r = cli({"check", "--format", format, "-"}, packed);
      EXPECT_EQ(r.status, 0) << what << ": " << r.err;
      if (format != "csv") {
        const auto fmt_plain = cli({"fmt", plain});
        r = cli({"fmt", suffixed});
        EXPECT_EQ(r.status, 0) << what << ": " << r.err;
        EXPECT_EQ(r.out, fmt_plain.out) << what;
      }
    }
  }
}

TEST_F(CompressedCli, ConcatenatedMembersAndFramesReadAsOneInput) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  for (const Tool& t : tools) {
    const std::string in =
        file("two.jsonl", compress(t, "{\"a\":1}\n") + compress(t, "{\"a\":2}\n"));
    const auto r = cli({"convert", "--to", "jsonl", in});
    EXPECT_EQ(r.status, 0) << t.name << ": " << r.err;
    EXPECT_EQ(r.out, "{\"a\":1}\n{\"a\":2}\n") << t.name;
  }
}

TEST_F(CompressedCli, OutputsNamedGzOrZstAreCompressedInTheFormatTheirNameSays) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  const std::string csv = many_csv_rows();
  const std::string in = file("in.csv", csv);
  for (const Tool& t : tools) {
    for (const char* format : {"csv", "json", "jsonl", "ston"}) {
      const std::string out = path(std::string("out.") + format + std::string(t.suffix));
      const auto want = cli({"convert", "--to", format, in});
      ASSERT_EQ(want.status, 0) << want.err;
      const auto r = cli({"convert", in, out});
      EXPECT_EQ(r.status, 0) << out << ": " << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_NE(read(out), want.out) << out << " is not compressed";
      EXPECT_EQ(decompress(t, out), want.out) << out;
    }
    // An upper-case suffix too; the file read back by the command itself.
    const std::string upper = path("UP.CSV" + std::string(t.name == "gzip" ? ".GZ" : ".ZST"));
    ASSERT_EQ(cli({"convert", in, upper}).status, 0);
    EXPECT_EQ(decompress(t, upper), csv);
    const auto back = cli({"convert", "--to", "csv", upper});
    EXPECT_EQ(back.out, csv) << back.err;
  }
  // Standard output is never compressed.
  const auto r = cli({"convert", "--to", "csv", in});
  EXPECT_EQ(r.out, csv);
}

TEST_F(CompressedCli, CompressionComposesWithEncodings) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  const std::string text = "name\tcity\r\nZo\u00eb\tK\u00f6ln\r\n";
  const std::string utf16 = "\xFF\xFE" + encode_from_utf8(text, Encoding::utf16le);
  for (const Tool& t : tools) {
    // Decompressed, then decoded: the mark inside the compressed bytes says UTF-16LE.
    const std::string in = file("export.tsv" + std::string(t.suffix), compress(t, utf16));
    auto r = cli({"convert", "--to", "json", in});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "[{\"name\":\"Zo\u00eb\",\"city\":\"K\u00f6ln\"}]\n");
    r = cli({"convert", "--encoding", "utf-16le", "--to", "json", in});
    EXPECT_EQ(r.out, "[{\"name\":\"Zo\u00eb\",\"city\":\"K\u00f6ln\"}]\n") << r.err;
    // Encoded, then compressed.
    const std::string out = path("back.tsv" + std::string(t.suffix));
    r = cli({"convert", "--output-encoding", "utf-16le", in, out});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(decompress(t, out), utf16);
  }
}

TEST_F(CompressedCli, TheSameCompressedFileInAndOutKeepsItsData) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  const std::string csv = many_csv_rows();
  for (const Tool& t : tools) {
    const std::string x = file("x.csv" + std::string(t.suffix), compress(t, csv));
    const auto r = cli({"convert", x, x});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(decompress(t, x), csv);
  }
  EXPECT_EQ(names(), (std::vector<std::string>{"x.csv.gz", "x.csv.zst"}));
}

TEST_F(CompressedCli, CorruptOrTruncatedCompressedInputIsInvalidAndKeepsTheOldOutput) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  const std::string csv = many_csv_rows();
  const std::string old = "[{\"old\":\"1\"}]\r\n\x01\xff old bytes";
  for (const Tool& t : tools) {
    const std::string packed = compress(t, csv);
    ASSERT_GT(packed.size(), 100u);
    std::string corrupt_middle = packed;
    corrupt_middle[packed.size() / 2] = static_cast<char>(corrupt_middle[packed.size() / 2] ^ 0x55);
    std::string corrupt_checksum = packed;  // the last byte: gzip's length, zstd's checksum
    corrupt_checksum.back() = static_cast<char>(corrupt_checksum.back() ^ 0x01);
    const std::string truncated = packed.substr(0, packed.size() - 7);
    const std::string cut_in_half = packed.substr(0, packed.size() / 2);
    for (const auto& [label, bytes] :
         std::vector<std::pair<std::string, std::string>>{{"corrupt-middle", corrupt_middle},
                                                          {"corrupt-checksum", corrupt_checksum},
                                                          {"truncated", truncated},
                                                          {"cut-in-half", cut_in_half}}) {
      const std::string what = std::string(t.name) + " " + label;
      const std::string bad = file("bad.csv" + std::string(t.suffix), bytes);
      for (const std::string& target :
           {std::string("out.json"), "out.json" + std::string(t.suffix)}) {
        const std::string out = file(target, old);
        auto r = cli({"convert", bad, out});
        EXPECT_EQ(r.status, 1) << what << " -> " << target << ": " << r.err;
        EXPECT_TRUE(r.err.starts_with(bad + ": error: ")) << what << ": " << r.err;
        EXPECT_NE(r.err.find("at compressed byte "), std::string::npos) << what << ": " << r.err;
        EXPECT_EQ(read(out), old) << what << " -> " << target;
        std::filesystem::remove(out);
      }
      // The offset is where the data stopped making sense: for a cut file, its end.
      auto r = cli({"check", bad});
      EXPECT_EQ(r.status, 1) << what << ": " << r.err;
      EXPECT_TRUE(r.err.starts_with(bad + ": error: ")) << what << ": " << r.err;
      if (label == "truncated" || label == "cut-in-half") {
        EXPECT_NE(r.err.find("at compressed byte " + std::to_string(bytes.size()) + ":"),
                  std::string::npos)
            << what << ": " << r.err;
      }
      r = cli({"convert", "--from", "csv", "--to", "json"}, bytes);
      EXPECT_EQ(r.status, 1) << what << " on stdin: " << r.err;
      EXPECT_TRUE(r.err.starts_with("<stdin>: error: ")) << what << ": " << r.err;
      r = cli({"fmt", "--format", "jsonl"}, compress(t, "{\"a\":1}\n").substr(0, 12));
      EXPECT_EQ(r.status, 1) << what << " fmt: " << r.err;
      EXPECT_TRUE(r.err.starts_with("<stdin>: error: ")) << what << ": " << r.err;
      EXPECT_EQ(names(), std::vector<std::string>{"bad.csv" + std::string(t.suffix)}) << what;
      std::filesystem::remove(bad);
    }
  }
}

TEST_F(CompressedCli, ACompressedDictionaryLoads) {
  if (!cli_has_compression) GTEST_SKIP() << "the command was built without gzip/zstd support";
  const std::string full = read(BUFSTREAM_TEST_DICTIONARY);
  const std::string text = full.substr(0, full.find('\n', 400000) + 1);
  const std::string plain = file("dict.u8", text);
  const auto want = cli({"cedict", "lookup", "--dict", plain, "\u4f60\u597d", "ni hao", "good"});
  ASSERT_EQ(want.status, 0) << want.err;
  ASSERT_FALSE(want.out.empty());
  for (const Tool& t : tools) {
    const std::string packed = file("dict.u8" + std::string(t.suffix), compress(t, text));
    auto r = cli({"cedict", "lookup", "--dict", packed, "\u4f60\u597d", "ni hao", "good"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, want.out) << t.name;
    const std::string cut = file("cut.u8", compress(t, text).substr(0, 1000));
    r = cli({"cedict", "stats", "--dict", cut});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_TRUE(r.err.starts_with(cut + ": error: ")) << r.err;
  }
}

// A command built without bufstream::compress says so, and makes no file.
TEST_F(CompressedCli, WithoutCompressionSupportCompressedFilesAreAClearError) {
  if (cli_has_compression) GTEST_SKIP() << "the command was built with gzip/zstd support";
  for (const Tool& t : tools) {
    const std::string in = file("in.csv" + std::string(t.suffix), compress(t, "a\r\n1\r\n"));
    auto r = cli({"convert", "--to", "json", in});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("built without gzip/zstd support"), std::string::npos) << r.err;
    const std::string plain = file("plain.csv", "a\r\n1\r\n");
    const std::string out = path("out.json" + std::string(t.suffix));
    r = cli({"convert", plain, out});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("built without gzip/zstd support"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    std::filesystem::remove(in);
    std::filesystem::remove(plain);
  }
}

}  // namespace
}  // namespace bufstream
