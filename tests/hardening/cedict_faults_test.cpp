// Fault injection over cedict::Dictionary::load, strict and lenient (see fault_harness.hpp).
#include <string>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bufstream/cedict/dictionary.hpp>

#include "fault_harness.hpp"

namespace bufstream::cedict {
namespace {

using testing::check_reader;

// A byte-order mark, a comment, metadata, entries short enough for the fast path and one long
// enough for the general one, a CRLF line, and a last line without a line end.
const std::string document =
    "\xEF\xBB\xBF# CC-CEDICT\n"
    "#! version=1\n"
    "\xE4\xBD\xA0\xE5\xA5\xBD \xE4\xBD\xA0\xE5\xA5\xBD [ni3 hao3] /hello/hi/\n"
    "\xE4\xB8\xAD\xE5\x9C\x8B \xE4\xB8\xAD\xE5\x9B\xBD [Zhong1 guo2] /China/\r\n"
    "AA\xE5\x88\xB6 AA\xE5\x88\xB6 [A A zhi4] /" +
    std::string(150, 'x') +
    "/to split the bill/\n"
    "\xE6\x8B\x9C\xE6\x8B\x9C \xE6\x8B\x9C\xE6\x8B\x9C [bai2 bai2] /bye-bye (loanword)/";

std::string describe(const Dictionary& dict) {
  const Stats s = dict.stats();
  std::string out = fmt::format(
      "{} lines, {} entries, {} glosses, {} comments, {} metadata, {} malformed, "
      "{} bytes, final newline missing: {}, crlf: {}\n",
      s.lines, s.entries, s.glosses, s.comment_lines, s.metadata_lines, s.malformed_lines, s.bytes,
      s.missing_final_newline, s.crlf_line_ends);
  for (std::size_t i = 0; i < dict.size(); ++i) {
    const Entry e = dict[i];
    out += fmt::format("{} {} [{}] {}\n", e.traditional, e.simplified, e.pinyin, e.english());
  }
  return out;
}

TEST(CedictFaults, LoadStrict) {
  check_reader("cedict::Dictionary::load", document,
               [](ReadStream& in) { return describe(Dictionary::load(in)); });
}

TEST(CedictFaults, LoadLenient) {
  const std::string sloppy = document + "\nbad line\n\xFF\xFE [x] /y/\n";
  check_reader("cedict::Dictionary::load lenient", sloppy, [](ReadStream& in) {
    return describe(Dictionary::load(in, {.errors = ErrorMode::lenient}));
  });
}

}  // namespace
}  // namespace bufstream::cedict
