// bufstream cedict: look words up in the CC-CEDICT dictionary, and facts about it.
#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <CLI/Error.hpp>

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/cedict/stats.hpp>
#include <bufstream/utf8.hpp>

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

std::string dictionary_path(const CedictArgs& args) {
  if (!args.dict.empty()) return args.dict;
  for (const char* candidate : {BUFSTREAM_DEFAULT_DICTIONARY, BUFSTREAM_SOURCE_DICTIONARY}) {
    if (*candidate != '\0' && std::filesystem::exists(candidate)) return candidate;
  }
  throw CLI::ValidationError("no dictionary installed: give --dict FILE");
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

int run_cedict(const CedictArgs& args) {
  const std::string path = dictionary_path(args);
  const cedict::Dictionary dict = load_dictionary(path);
  Output output("-");
  if (args.stats) {
    cedict::print_stats(output.stream(), dict.stats(), path);
  } else {
    for (const std::string& query : args.queries) {
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
