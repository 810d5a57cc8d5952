// Loading a Dictionary: reading the text into place (or using the mapped text where it is),
// taking its plain entries by bit scans, and the other lines through the line parser.
#include <bufstream/cedict/dictionary.hpp>

#include <algorithm>
#include <bit>
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
#include "plain_entries.hpp"
#include "structure_masks.hpp"
#include "text_arena.hpp"

namespace bufstream::cedict {

/// Takes the lines of one load, in order, and stores what they hold. The text it is given
/// stays where it is for the dictionary's lifetime (the mapping, the caller's view, or the
/// arena a stream was read into), so entries are views into it and nothing is copied.
class Dictionary::Loader {
 public:
  Loader(detail::DictionaryData& data, const ReadOptions& options)
      : data_(data),
        options_(options),
        scan_(kernels::form_for(detail::plain_entry_scanners(), set_)),
        index_(kernels::form_for(detail::chunk_indexers(), set_)),
        classify_(kernels::form_for(kernels::structure::classify_forms(), set_)) {}

  /// Sizes the tables for an input of `bytes` bytes, so that they do not grow (and copy
  /// themselves) during the load. CC-CEDICT averages 76 bytes and 1.7 glosses per entry
  /// (44 bytes per gloss); the estimates err on the large side.
  void expect_bytes(std::uint64_t bytes) {
    // Beyond 64 GiB the tables would pass their 2^32-element limits anyway.
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, std::uint64_t{1} << 36));
    data_.records.reserve(n / 64 + 16);
    data_.glosses.reserve(n / 40 + 16);
  }

  /// Takes the whole lines of `text[0, size)`, which starts a line at byte `offset` of the
  /// source, and returns the bytes taken (up to the last LF). With `at_end`, a last line
  /// without LF is taken too. Plain entries are read from the structure masks of a chunk of
  /// lines at a time, whose UTF-8 is validated in one call; every other line (comments,
  /// metadata, errors, lines longer than a chunk) goes to `parse_line`.
  std::size_t take_lines(const char* text, std::size_t size, std::uint64_t offset, bool at_end) {
    constexpr std::size_t chunk_bytes = detail::StructureMasks::max_bytes;
    // A plain entry takes at least 11 bytes ("a b [] /c/" and LF) and a gloss at least 2, so a
    // chunk adds fewer than chunk_bytes / 11 records and chunk_bytes / 2 glosses; the scanner
    // writes one record and up to seven glosses of scratch beyond the last.
    constexpr std::size_t max_records = chunk_bytes / 8;
    constexpr std::size_t max_glosses = chunk_bytes / 2 + 7;
    auto& records = data_.records;
    auto& glosses = data_.glosses;
    Stats& stats = data_.stats;
    std::size_t pos = 0;
    while (pos < size) {
      const char* const chunk = text + pos;
      const std::size_t chunk_size = std::min(size - pos, chunk_bytes);
      std::size_t valid_end = masks_.classify(classify_, chunk, chunk_size);
      index_(masks_, chunk_size, *positions_);
      if (records.size() > max_count - max_records || glosses.size() > max_count - max_glosses) {
        throw std::length_error("cedict: more than 2^32 - 2^11 entries or glosses");
      }
      records.reserve_more(max_records);
      glosses.reserve_more(max_glosses);
      const std::size_t records_before = records.size();
      const std::size_t glosses_before = glosses.size();
      const std::uint64_t parsed_entries_before = stats.entries;  // counted by `line`
      const std::uint64_t parsed_glosses_before = stats.glosses;
      // The scanner counts the lines it takes; `line` counts the others, for its line numbers.
      detail::PlainScan scan{0, stats.lines, out_at_end(), stats.crlf_line_ends};
      for (;;) {
        const std::size_t lf =
            scan_(masks_, *positions_, chunk, chunk_size, size - pos, valid_end, scan);
        if (lf == detail::StructureMasks::none) break;
        records.set_end(scan.out.record);
        glosses.set_end(scan.out.gloss);
        stats.lines = scan.lines;
        stats.crlf_line_ends = scan.crlf;
        line({chunk + scan.line_start, lf - scan.line_start}, offset + pos + scan.line_start);
        if (lf > valid_end) valid_end = lf + 1 + valid_prefix(chunk + lf + 1, chunk_size - lf - 1);
        records.reserve_more(max_records);
        glosses.reserve_more(max_glosses);
        scan = detail::PlainScan{lf + 1, stats.lines, out_at_end(), stats.crlf_line_ends};
      }
      records.set_end(scan.out.record);
      glosses.set_end(scan.out.gloss);
      // The scanner counts no entry: its entries are those `line` did not count.
      stats.lines = scan.lines;
      stats.crlf_line_ends = scan.crlf;
      stats.entries += (records.size() - records_before) - (stats.entries - parsed_entries_before);
      stats.glosses += (glosses.size() - glosses_before) - (stats.glosses - parsed_glosses_before);
      std::size_t line_start = scan.line_start;
      if (line_start == 0) {  // no line ends in this chunk: a line longer than a chunk
        const auto* lf = static_cast<const char*>(std::memchr(chunk, '\n', size - pos));
        if (lf == nullptr) break;
        line({chunk, static_cast<std::size_t>(lf - chunk)}, offset + pos);
        line_start = static_cast<std::size_t>(lf - chunk) + 1;
      }
      pos += line_start;
    }
    if (at_end && pos < size) {
      line({text + pos, size - pos}, offset + pos);
      stats.missing_final_newline = true;
      pos = size;
    }
    return pos;
  }

  void finish(std::uint64_t bytes) { data_.stats.bytes = bytes; }

 private:
  // How many bytes of `text` are valid UTF-8 before the first invalid sequence.
  static std::size_t valid_prefix(const char* text, std::size_t size) noexcept {
    const auto bad = utf8::find_invalid({text, size});
    return bad ? bad->offset : size;
  }

  // Where the scanner writes next: the ends of the tables, with room made for a chunk.
  detail::EntryOut out_at_end() noexcept {
    return {data_.records.end(), data_.glosses.end(), data_.glosses.data()};
  }

  // Any line, by the line parser: `line` without its LF, at byte `offset` of the source. With
  // `copy_to`, the line's text does not stay where it is, and an entry's line is copied there.
  void line(std::string_view line, std::uint64_t offset, TextArena* copy_to = nullptr) {
    Stats& stats = data_.stats;
    ++stats.lines;
    parse_line(line, parsed_, glosses_);
    switch (parsed_.kind) {
      case LineKind::entry: store_entry(copy_to != nullptr ? copy_to->copy(line) : line); break;
      case LineKind::comment: ++stats.comment_lines; break;
      case LineKind::metadata: store_metadata(); break;
      case LineKind::malformed: malformed(offset); break;
    }
    if (!line.empty() && line.back() == '\r') stats.crlf_line_ends = true;
  }

 public:
  /// One line as `ReadStream::next_line` returns it (without its line end, which was
  /// `line_end_size` bytes: 0 for a last line without one, 2 for CRLF), at byte `offset` of the
  /// source; an entry's line is copied into the arena.
  void next_line(std::string_view text, std::uint64_t offset, std::uint64_t line_end_size) {
    line(text, offset, &data_.text);
    if (line_end_size == 2) data_.stats.crlf_line_ends = true;
    if (line_end_size == 0) data_.stats.missing_final_newline = true;
  }

 private:
  void store_entry(std::string_view line) {
    auto& records = data_.records;
    auto& glosses = data_.glosses;
    if (records.size() >= std::numeric_limits<std::uint32_t>::max() ||
        glosses.size() + glosses_.size() >= std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("cedict: more than 2^32 entries or glosses");
    }
    records.push_back(Record{line.data(), static_cast<std::uint32_t>(parsed_.traditional.size()),
                             static_cast<std::uint32_t>(parsed_.simplified.size()),
                             static_cast<std::uint32_t>(parsed_.pinyin.size()),
                             static_cast<std::uint32_t>(glosses.size())});
    glosses.append(glosses_.data(), glosses_.data() + glosses_.size());
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
    ParseError error({line_offset + parsed_.column - 1, stats.lines, parsed_.column},
                     parsed_.message, options_.source_name);
    if (options_.errors == ErrorMode::strict) throw error;
    ++stats.malformed_lines;
    if (stats.malformed.size() < options_.max_reported_errors)
      stats.malformed.push_back(std::move(error));
  }

  static constexpr std::size_t max_count = std::numeric_limits<std::uint32_t>::max();

  detail::DictionaryData& data_;
  const ReadOptions& options_;
  ParsedLine parsed_;
  std::vector<GlossSpan> glosses_;
  detail::StructureMasks masks_;
  // 16 KiB: on the heap, for threads with small stacks.
  const std::unique_ptr<detail::ChunkPositions> positions_ =
      std::make_unique<detail::ChunkPositions>();
  // The forms of the kernels and of the hot loop this load runs, chosen once.
  const kernels::InstructionSet set_ = kernels::best();
  const detail::PlainEntryScanner scan_;
  const detail::ChunkIndexer index_;
  const kernels::structure::Classify classify_;
};

Dictionary::Dictionary() : data_(std::make_unique<detail::DictionaryData>()) {}
Dictionary::Dictionary(Dictionary&&) noexcept = default;
Dictionary& Dictionary::operator=(Dictionary&&) noexcept = default;
Dictionary::~Dictionary() = default;

Dictionary Dictionary::load(ReadStream& in, const ReadOptions& options) {
  return load(in, options, 0);
}

Dictionary Dictionary::load(ReadStream& in, const ReadOptions& options,
                            std::uint64_t expected_bytes) {
  Dictionary dict;
  Loader loader(*dict.data_, options);
  utf8::skip_bom(in);
  // A regular file, a mapping or memory tells its size (directly or through a buffered
  // stream), so that the tables and the arena are sized up front.
  if (expected_bytes == 0) expected_bytes = in.remaining_hint().value_or(0);
  if (expected_bytes != 0) loader.expect_bytes(expected_bytes);
  // The input is read straight into arena blocks, and its lines are taken where they lie. A
  // line that a block cannot finish moves to the next block, which is at least twice its
  // size: the text is copied once, plus at most one line per block. Each read asks for at
  // most `read_chunk` bytes, and the lines it finishes are parsed before the next read, while
  // they are still in the cache: reading the whole file first and then parsing it was 12%
  // slower (bulk-buffered in bufstream-bench's cedict suite; 64 KiB to 512 KiB measured alike,
  // 1 MiB and more lost the gain).
  TextArena& arena = dict.data_->text;
  constexpr std::size_t min_block = 64 * 1024;
  constexpr std::size_t max_block = 4 * 1024 * 1024;
  constexpr std::size_t read_chunk = 256 * 1024;
  // With a known size, one block holds it all (one byte more, to see the end without another).
  std::size_t next_block = expected_bytes != 0 && expected_bytes < (std::uint64_t{1} << 36)
                               ? static_cast<std::size_t>(expected_bytes) + 1
                               : min_block;
  char* block = nullptr;
  std::size_t capacity = 0;
  std::size_t filled = 0;
  std::size_t taken = 0;                       // block[0, taken) holds whole lines, taken
  std::uint64_t block_offset = in.position();  // where block[0] lies in the source
  for (;;) {
    if (filled == capacity) {
      const std::size_t unfinished = filled - taken;
      const std::size_t size = std::max(next_block, 2 * unfinished);
      char* const fresh = arena.allocate_block(size);
      if (unfinished != 0) std::memcpy(fresh, block + taken, unfinished);
      block_offset += taken;
      block = fresh;
      capacity = size;
      filled = unfinished;
      taken = 0;
      next_block = std::min(std::max(size, min_block) * 2, max_block);
    }
    const std::size_t n = in.read_some({block + filled, std::min(capacity - filled, read_chunk)});
    if (n == 0) break;
    filled += n;
    // Only bytes with a line end among them finish a line (so that a long line read in small
    // pieces is not scanned again and again).
    if (std::memchr(block + filled - n, '\n', n) != nullptr) {
      taken += loader.take_lines(block + taken, filled - taken, block_offset + taken, false);
    }
  }
  loader.take_lines(block + taken, filled - taken, block_offset + taken, true);
  loader.finish(in.position());
  return dict;
}

Dictionary Dictionary::load_lines(ReadStream& in, const ReadOptions& options) {
  Dictionary dict;
  Loader loader(*dict.data_, options);
  utf8::skip_bom(in);
  if (const std::optional<std::uint64_t> bytes = in.remaining_hint(); bytes && *bytes != 0)
    loader.expect_bytes(*bytes);
  // [stream atEnd] whileFalse: [dict add: (parse: stream nextLine)]
  while (!in.at_end()) {
    const std::uint64_t offset = in.position();
    const std::optional<std::string> line = in.next_line();
    loader.next_line(*line, offset, in.position() - offset - line->size());
  }
  loader.finish(in.position());
  return dict;
}

Dictionary Dictionary::load_file(const std::filesystem::path& path, ReadOptions options) {
  if (options.source_name.empty()) options.source_name = path.string();
  FdReadStream file(path);
  BufferedReadStream in(file);
  return load(in, options);  // sized from the file's size, through `remaining_hint`
}

Dictionary Dictionary::load_view(std::string_view text, const ReadOptions& options) {
  Dictionary dict;
  dict.data_->zero_copy = true;
  Loader loader(*dict.data_, options);
  loader.expect_bytes(text.size());
  const std::size_t bom = utf8::bom_length(text);
  loader.take_lines(text.data() + bom, text.size() - bom, bom, true);
  loader.finish(text.size());
  return dict;
}

Dictionary Dictionary::load_mapped(std::unique_ptr<MappedFile> file, ReadOptions options) {
  if (options.source_name.empty()) options.source_name = file->path();
  Dictionary dict = load_view(file->buffered(), options);
  file->advance(file->buffered().size());
  dict.data_->mapping = std::move(file);
  return dict;
}

Dictionary Dictionary::map_file(const std::filesystem::path& path, ReadOptions options) {
  return load_mapped(std::make_unique<MappedFile>(path), std::move(options));
}

std::size_t Dictionary::size() const noexcept { return data_->records.size(); }

Entry Dictionary::operator[](std::size_t i) const noexcept { return data_->entry(i); }

Entry Dictionary::at(std::size_t i) const {
  if (i >= size()) throw AccessError(fmt::format("cedict: entry {} of {}", i, size()));
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
  if (d.traditional_built) m.index_bytes += d.traditional.memory_bytes();
  if (d.simplified_built) m.index_bytes += d.simplified.memory_bytes();
  if (d.pinyin_built) m.index_bytes += d.pinyin.memory_bytes();
  if (d.english_built) m.index_bytes += d.english.memory_bytes();
  return m;
}

Stats Dictionary::stats() const {
  Stats s = data_->stats;
  s.memory = memory_usage();
  return s;
}

}  // namespace bufstream::cedict
