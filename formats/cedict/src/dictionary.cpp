// Loading a Dictionary: finding lines in a stream's window (or in mapped text) and storing the
// entries the line parser returns.
#include <bufstream/cedict/dictionary.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/cedict/line_parser.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/utf8.hpp>

#include <fmt/format.h>

#include "dictionary_data.hpp"
#include "line_parser_detail.hpp"

namespace bufstream::cedict {

/// Takes the lines of one load, in order, and stores what they hold.
class Dictionary::Loader {
 public:
  Loader(detail::DictionaryData& data, const LoadOptions& options) : data_(data), options_(options) {}

  /// One line without its LF, starting at byte `offset` of the source. With `copy`, the
  /// entry's text is copied into the arena; otherwise `line` must outlive the dictionary.
  void line(std::string_view line, std::uint64_t offset, bool copy) {
    Stats& stats = data_.stats;
    ++stats.lines;
    parse_line(line, parsed_, glosses_);
    switch (parsed_.kind) {
      case LineKind::entry: store_entry(line, copy); break;
      case LineKind::comment: ++stats.comment_lines; break;
      case LineKind::metadata: store_metadata(); break;
      case LineKind::malformed: malformed(offset); break;
    }
    if (!line.empty() && line.back() == '\r') stats.crlf_line_ends = true;
  }

  /// Sizes the tables for an input of `bytes` bytes, so that they do not grow (and copy
  /// themselves) during the load. CC-CEDICT averages 76 bytes and 1.7 glosses per entry
  /// (44 bytes per gloss); the estimates err on the large side.
  void expect_bytes(std::uint64_t bytes, bool copy) {
    // Beyond 64 GiB the tables would pass their 2^32-element limits anyway.
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, std::uint64_t{1} << 36));
    data_.records.reserve(n / 64 + 16);
    data_.glosses.reserve(n / 40 + 16);
    if (copy) data_.text.reserve(n);
  }

  /// The fast path for the line that starts at `p`: a plain, valid entry of fewer than 128
  /// bytes and its LF, parsed without finding the LF first. Returns the bytes consumed, LF
  /// included; 0 leaves the line to `line`.
  std::size_t entry_before_lf(const char* p, const char* end, bool copy) {
    const std::size_t n = detail::parse_entry_before_lf(p, end, parsed_, glosses_);
    if (n == 0) return 0;
    ++data_.stats.lines;
    store_entry({p, n}, copy);
    return n + 1;
  }

  void finish(std::uint64_t bytes, bool missing_final_newline) {
    data_.stats.bytes = bytes;
    data_.stats.missing_final_newline = missing_final_newline;
  }

 private:
  void store_entry(std::string_view line, bool copy) {
    std::vector<Record>& records = data_.records;
    std::vector<GlossSpan>& glosses = data_.glosses;
    if (records.size() >= std::numeric_limits<std::uint32_t>::max() ||
        glosses.size() + glosses_.size() >= std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("cedict: more than 2^32 entries or glosses");
    }
    // The entry's text runs from the traditional headword (the start of the line) to the
    // closing '/'; a copying load copies exactly that, once.
    const GlossSpan& last = glosses_.back();
    const std::string_view text = line.substr(0, std::size_t{last.offset} + last.size + 1);
    records.push_back(Record{copy ? data_.text.copy(text).data() : text.data(),
                             static_cast<std::uint32_t>(parsed_.traditional.size()),
                             static_cast<std::uint32_t>(parsed_.simplified.size()),
                             static_cast<std::uint32_t>(parsed_.pinyin.size()),
                             static_cast<std::uint32_t>(glosses.size()),
                             static_cast<std::uint32_t>(glosses_.size())});
    glosses.insert(glosses.end(), glosses_.begin(), glosses_.end());
    ++data_.stats.entries;
    data_.stats.glosses += glosses_.size();
  }

  void store_metadata() {
    Stats& stats = data_.stats;
    ++stats.metadata_lines;
    stats.metadata.emplace_back(std::string(parsed_.key), std::string(parsed_.value));
    if (parsed_.key == "entries") {
      std::uint64_t n = 0;
      const char* const end = parsed_.value.data() + parsed_.value.size();
      const auto [p, ec] = std::from_chars(parsed_.value.data(), end, n);
      if (ec == std::errc() && p == end && !parsed_.value.empty()) stats.declared_entries = n;
    }
  }

  void malformed(std::uint64_t line_offset) {
    Stats& stats = data_.stats;
    ParseError error({line_offset + parsed_.column - 1, stats.lines, parsed_.column}, parsed_.message,
                     options_.source_name);
    if (options_.errors == ErrorMode::strict) throw error;
    ++stats.malformed_lines;
    if (stats.malformed.size() < options_.max_reported_errors) stats.malformed.push_back(std::move(error));
  }

  detail::DictionaryData& data_;
  const LoadOptions& options_;
  ParsedLine parsed_;
  std::vector<GlossSpan> glosses_;
};

Dictionary::Dictionary() : data_(std::make_unique<detail::DictionaryData>()) {}
Dictionary::Dictionary(Dictionary&&) noexcept = default;
Dictionary& Dictionary::operator=(Dictionary&&) noexcept = default;
Dictionary::~Dictionary() = default;

Dictionary Dictionary::load(ReadStream& in, const LoadOptions& options) {
  return load(in, options, 0);
}

Dictionary Dictionary::load(ReadStream& in, const LoadOptions& options, std::uint64_t expected_bytes) {
  Dictionary dict;
  Loader loader(*dict.data_, options);
  if (expected_bytes != 0) loader.expect_bytes(expected_bytes, true);
  utf8::skip_bom(in);
  std::string spill;  // a line that straddles windows, gathered
  bool missing_final_newline = false;
  for (;;) {
    std::string_view window = in.fill(1);
    if (window.empty()) break;
    if (const std::size_t used = loader.entry_before_lf(window.data(), window.data() + window.size(), true)) {
      in.advance(used);
      continue;
    }
    const std::uint64_t start = in.position();
    if (const void* lf = std::memchr(window.data(), '\n', window.size())) {
      const auto n = static_cast<std::size_t>(static_cast<const char*>(lf) - window.data());
      loader.line(window.substr(0, n), start, true);
      in.advance(n + 1);
      continue;
    }
    spill.assign(window);
    in.advance(window.size());
    bool found_lf = false;
    while (!(window = in.fill(1)).empty()) {
      if (const void* lf = std::memchr(window.data(), '\n', window.size())) {
        const auto n = static_cast<std::size_t>(static_cast<const char*>(lf) - window.data());
        spill.append(window.data(), n);
        in.advance(n + 1);
        found_lf = true;
        break;
      }
      spill.append(window);
      in.advance(window.size());
    }
    loader.line(spill, start, true);
    if (!found_lf) {
      missing_final_newline = true;
      break;
    }
  }
  loader.finish(in.position(), missing_final_newline);
  return dict;
}

Dictionary Dictionary::load_file(const std::filesystem::path& path, LoadOptions options) {
  if (options.source_name.empty()) options.source_name = path.string();
  FdReadStream file(path);
  struct ::stat st {};
  const std::uint64_t size = ::fstat(file.fd(), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  BufferedReadStream in(file);
  return load(in, options, size);
}

Dictionary Dictionary::load_view(std::string_view text, const LoadOptions& options) {
  Dictionary dict;
  dict.data_->zero_copy = true;
  Loader loader(*dict.data_, options);
  loader.expect_bytes(text.size(), false);
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  if (text.starts_with("\xEF\xBB\xBF")) p += 3;
  bool missing_final_newline = false;
  while (p != end) {
    if (const std::size_t used = loader.entry_before_lf(p, end, false)) {
      p += used;
      continue;
    }
    const auto* lf = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* const line_end = lf != nullptr ? lf : end;
    loader.line({p, static_cast<std::size_t>(line_end - p)}, static_cast<std::uint64_t>(p - begin), false);
    if (lf == nullptr) {
      missing_final_newline = true;
      break;
    }
    p = lf + 1;
  }
  loader.finish(text.size(), missing_final_newline);
  return dict;
}

Dictionary Dictionary::load_mapped(std::unique_ptr<MappedFile> file, LoadOptions options) {
  if (options.source_name.empty()) options.source_name = file->path();
  Dictionary dict = load_view(file->buffered(), options);
  file->advance(file->buffered().size());
  dict.data_->mapping = std::move(file);
  return dict;
}

Dictionary Dictionary::map_file(const std::filesystem::path& path, LoadOptions options) {
  return load_mapped(std::make_unique<MappedFile>(path), std::move(options));
}

std::size_t Dictionary::size() const noexcept { return data_->records.size(); }

Entry Dictionary::operator[](std::size_t i) const noexcept { return data_->entry(i); }

Entry Dictionary::at(std::size_t i) const {
  if (i >= size()) throw std::out_of_range(fmt::format("cedict: entry {} of {}", i, size()));
  return data_->entry(i);
}

bool Dictionary::zero_copy() const noexcept { return data_->zero_copy; }

std::optional<std::string_view> Dictionary::metadata(std::string_view key) const {
  for (const auto& [k, v] : data_->stats.metadata) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

MemoryUsage Dictionary::memory_usage() const {
  const detail::DictionaryData& d = *data_;
  MemoryUsage m;
  m.text_bytes = d.text.capacity();
  m.mapped_bytes = d.mapping ? d.mapping->size() : 0;
  m.entry_bytes = d.records.capacity() * sizeof(Record) + d.glosses.capacity() * sizeof(GlossSpan);
  const auto u32 = [](const std::vector<std::uint32_t>& v) { return v.capacity() * sizeof(std::uint32_t); };
  if (d.traditional_built) m.index_bytes += u32(d.by_traditional);
  if (d.simplified_built) m.index_bytes += u32(d.by_simplified);
  if (d.pinyin_built) m.index_bytes += d.pinyin.keys.capacity() + u32(d.pinyin.ends) + u32(d.pinyin.order);
  if (d.english_built) {
    m.index_bytes += d.english.text.capacity() + d.english.words.capacity() * sizeof(std::string_view) +
                     u32(d.english.starts) + u32(d.english.postings);
  }
  return m;
}

Stats Dictionary::stats() const {
  Stats s = data_->stats;
  s.memory = memory_usage();
  return s;
}

}  // namespace bufstream::cedict
