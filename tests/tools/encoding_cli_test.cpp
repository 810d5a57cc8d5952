// The command's text encodings: --encoding for input (default: what a byte-order mark says,
// else UTF-8), --output-encoding and --bom for CSV/TSV output, as Excel reads and writes them.
#include <gtest/gtest.h>

#include <string>

#include <bufstream/encoding.hpp>

#include "cli_fixture.hpp"

namespace bufstream {
namespace {

using namespace std::string_literals;

// What Excel's "Unicode text" export is: UTF-16LE with its mark, tab-separated, CRLF.
const std::string excel_tsv = "name\tcity\r\nZo\u00eb\tK\u00f6ln\r\n\U0001F600\t\u20ac 5\r\n";
const std::string excel_json =
    "[{\"name\":\"Zo\u00eb\",\"city\":\"K\u00f6ln\"},{\"name\":\"\U0001F600\",\"city\":\"\u20ac "
    "5\"}]\n";

std::string utf16le_with_mark(const std::string& text) {
  return "\xFF\xFE" + encode_from_utf8(text, Encoding::utf16le);
}

TEST_F(Cli, AnExcelUnicodeTextExportConvertsToJson) {
  const std::string in = file("export.txt", utf16le_with_mark(excel_tsv));
  auto r = cli({"convert", "--from", "tsv", "--to", "json", in});  // the mark says UTF-16LE
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, excel_json);
  r = cli({"convert", "--from", "tsv", "--to", "json", "--encoding", "utf-16le", in});
  EXPECT_EQ(r.out, excel_json) << r.err;
  r = cli({"convert", "--from", "tsv", "--to", "json", "-"}, utf16le_with_mark(excel_tsv));
  EXPECT_EQ(r.out, excel_json) << r.err;
  r = cli({"check", "--format", "tsv", in});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Cli, EncodingNamesTheInputsEncoding) {
  auto r = cli({"convert", "--from", "csv", "--to", "json", "--encoding", "latin1"},
               "caf\xE9,na\xEFve\r\n1,2\r\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[{\"caf\u00e9\":\"1\",\"na\u00efve\":\"2\"}]\n");
  r = cli({"convert", "--from", "csv", "--to", "json", "--encoding", "windows-1252"},
          "\x93q\x94\r\n\x80\r\n");
  EXPECT_EQ(r.out, "[{\"\u201cq\u201d\":\"\u20ac\"}]\n") << r.err;
  r = cli({"convert", "--from", "json", "--to", "json", "--encoding", "utf-32be"},
          encode_from_utf8("[\"\U0001F600\"]", Encoding::utf32be));
  EXPECT_EQ(r.out, "[\"\U0001F600\"]\n") << r.err;
  // Without --encoding and without a mark, the text is UTF-8.
  r = cli({"convert", "--from", "csv", "--to", "json"}, "caf\xE9\r\n");
  EXPECT_EQ(r.status, 1);
  // Bytes that are not text are not taken for a mark.
  r = cli({"convert", "--from", "csv", "--to", "csv", "--bytes", "--lf"}, "\xFF\xFE,x\n");
  EXPECT_EQ(r.out, "\xFF\xFE,x\n") << r.err;
}

TEST_F(Cli, OutputEncodingWritesWhatExcelReads) {
  const std::string in = file("data.json", excel_json);
  const std::string out = path("export.txt");
  auto r = cli({"convert", "--to", "tsv", "--output-encoding", "utf-16le", in, out});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(out), utf16le_with_mark(excel_tsv));          // the mark, always, for UTF-16
  r = cli({"convert", "--from", "tsv", "--to", "json", out});  // and back
  EXPECT_EQ(r.out, excel_json) << r.err;
  r = cli({"convert", "--to", "csv", "--bom", in});  // UTF-8 with a mark
  EXPECT_EQ(r.out, "\xEF\xBB\xBFname,city\r\nZo\u00eb,K\u00f6ln\r\n\U0001F600,\u20ac 5\r\n")
      << r.err;
  r = cli({"convert", "--from", "json", "--to", "csv", "--output-encoding", "cp1252", "--lf"},
          "[[\"\u20ac\",\"\u00e9\"]]");
  EXPECT_EQ(r.out, "\x80,\xE9\n") << r.err;
}

TEST_F(Cli, EncodingErrorsNameTheFileAndTheByte) {
  const std::string bad = file("bad.txt",
                               "\xFF\xFE"
                               "a\0\t\0\x00\xDC\r\0\n\0"s);
  auto r = cli({"convert", "--from", "tsv", "--to", "json", bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, bad +
                       ": error: invalid UTF-16LE: low surrogate 0xDC00 without a high "
                       "surrogate before it (at byte 6)\n");
  r = cli({"check", "--format", "tsv", bad});
  EXPECT_EQ(r.status, 1);
  // A character the output encoding lacks: status 1, and the output file is not touched.
  const std::string out = file("out.csv", "old");
  r = cli({"convert", "--from", "json", "--to", "csv", "--output-encoding", "latin1", "-", out},
          "[[\"\u0100\"]]");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, out + ": error: U+0100 cannot be written in ISO-8859-1 (at byte 0)\n");
  EXPECT_EQ(read(out), "old");
}

TEST_F(Cli, EncodingUsageErrors) {
  auto r = cli({"convert", "--from", "csv", "--to", "json", "--encoding", "utf-16"}, "");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown encoding 'utf-16'"), std::string::npos) << r.err;
  r = cli({"convert", "--from", "csv", "--to", "json", "--output-encoding", "utf-16le"}, "");
  EXPECT_EQ(r.status, 2);  // JSON is written in UTF-8
  r = cli({"convert", "--from", "json", "--to", "csv", "--output-encoding", "latin1", "--bom"},
          "[]");
  EXPECT_EQ(r.status, 2);  // Latin-1 has no mark
}

}  // namespace
}  // namespace bufstream
