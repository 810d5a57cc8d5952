// bufstream cedict: look words up in the CC-CEDICT dictionary, and facts about it.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/cedict/stats.hpp>
#include <bufstream/utf8.hpp>

#include "command_line.hpp"
#include "commands.hpp"
#include "io.hpp"

#ifndef BUFSTREAM_DEFAULT_DICTIONARY
#define BUFSTREAM_DEFAULT_DICTIONARY ""
#endif
#ifndef BUFSTREAM_SOURCE_DICTIONARY
#define BUFSTREAM_SOURCE_DICTIONARY ""
#endif

namespace bufstream::cli {

namespace {

constexpr std::string_view help = R"(usage: bufstream cedict lookup [--dict FILE] QUERY...
       bufstream cedict stats [--dict FILE]

lookup  print the entries that match each QUERY, one per line, in CC-CEDICT's own format:
        a query in Chinese characters matches traditional or simplified headwords exactly;
        otherwise it matches pinyin (tone numbers or marks optional, case and spaces ignored,
        u:/v/ü alike) and English words in the glosses (whole words, case ignored)
stats   the entry count and other facts about the dictionary

Options:
  -d, --dict FILE   the dictionary (default: the one installed with bufstream); a gzip or
                    zstd compressed one is decompressed as it loads
  -h, --help        show this help
)";

// A query in Chinese characters: one with a character from U+2E80 on (CJK radicals and
// symbols, kana, the unified and compatibility ideographs and their extensions, full-width
// forms), or with bytes that are not UTF-8 (no pinyin or English word has them). Pinyin with
// tone marks ("nǐ hǎo") and English words with accents ("Lü") are not.
bool is_chinese(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p != end) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    const utf8::Decoded d = utf8::decode(p, end);
    if (d.error != utf8::Error::none || d.code_point >= 0x2E80) return true;
    p += d.length;
  }
  return false;
}

std::string dictionary_path(const ParsedArgs& args) {
  if (auto d = args.value("dict")) return *d;
  for (const char* candidate : {BUFSTREAM_DEFAULT_DICTIONARY, BUFSTREAM_SOURCE_DICTIONARY}) {
    if (*candidate != '\0' && std::filesystem::exists(candidate)) return candidate;
  }
  throw UsageError("no dictionary installed: give --dict FILE");
}

// Zero-copy over a mapping: the dictionary's text is the file itself. A compressed dictionary
// (gzip or zstd, told from its first bytes) is decompressed into the dictionary's arena.
cedict::Dictionary load_dictionary(const std::string& path) {
  {
    Input input(path);
    if (input.compression() != Compression::none)
      return cedict::Dictionary::load(input.stream(), {.source_name = path});
  }
  return cedict::Dictionary::map_file(path, {.source_name = path});
}

void print_entry(WriteStream& out, const cedict::Entry& e) {
  out.write(e.traditional);
  out.space();
  out.write(e.simplified);
  out.write(" [");
  out.write(e.pinyin);
  out.write("] /");
  out.write(e.english());
  out.write("/");
  out.lf();
}

}  // namespace

int run_cedict(std::span<const std::string> argv) {
  const ParsedArgs args = parse_args(argv, {{"dict", 'd', true}});
  if (args.has("help")) {
    std::fputs(help.data(), stdout);
    return 0;
  }
  const auto& words = args.positional();
  if (words.empty()) throw UsageError("expected 'lookup' or 'stats'");
  const std::string& action = words[0];
  if (action != "lookup" && action != "stats")
    throw UsageError(fmt::format("unknown cedict command '{}'", action));
  if (action == "lookup" && words.size() < 2) throw UsageError("lookup needs at least one QUERY");
  if (action == "stats" && words.size() > 1) throw UsageError("stats takes no argument");

  const std::string path = dictionary_path(args);
  const cedict::Dictionary dict = load_dictionary(path);
  Output output("-");
  if (action == "stats") {
    cedict::print_stats(output.stream(), dict.stats(), path);
  } else {
    for (std::size_t q = 1; q < words.size(); ++q) {
      const std::string& query = words[q];
      std::vector<cedict::Entry> found;
      if (is_chinese(query)) {
        found = dict.find_headword(query);
      } else {
        found = dict.find_pinyin(query);
        for (auto& e : dict.find_english(query)) found.push_back(e);
      }
      std::set<std::size_t> printed;  // an entry found both ways is printed once
      for (const auto& e : found) {
        if (printed.insert(e.index).second) print_entry(output.stream(), e);
      }
    }
  }
  output.finish();
  return 0;
}

}  // namespace bufstream::cli
