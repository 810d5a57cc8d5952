// Dictionary: a CC-CEDICT Chinese/English dictionary, loaded from any ReadStream, with
// look-ups by headword, pinyin and English word.
//
//     auto dict = bufstream::cedict::Dictionary::load_file("cedict_ts.u8");
//     for (const auto& e : dict.find_pinyin("ni hao"))        // tones optional
//       fmt::print("{} [{}] {}\n", e.simplified, e.pinyin, e.english());
//
// Text stays UTF-8. `load` copies each entry's text into an arena; the zero-copy loads
// (`map_file`, `load_mapped`, `load_view`) keep views into the file's bytes instead.
//
// Limits: a line is bounded only by memory below 4 GiB (longer is `LineError::line_too_long`),
// whatever the stream's buffer size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/cedict/entry.hpp>
#include <bufstream/cedict/stats.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::cedict {

/// What a load does with a malformed line.
enum class ErrorMode : unsigned char {
  strict,   ///< throw a ParseError (line, column, byte offset) at the first one
  lenient,  ///< skip it, count it in `Stats::malformed_lines`, keep the first few as ParseErrors
};

namespace detail {
struct DictionaryData;  // the entries, text and indexes (private to the library)
}  // namespace detail

/// Options of every load (named as every format's reader options are).
struct ReadOptions {
  /// What is done with a malformed line.
  ErrorMode errors = ErrorMode::strict;
  /// Lenient: how many malformed lines are kept in Stats::malformed.
  std::size_t max_reported_errors = 20;
  std::string source_name = {};  ///< Named in ParseErrors; the file loads set the path.
};

/// Deprecated name of one version ago.
using LoadOptions [[deprecated("use cedict::ReadOptions")]] = ReadOptions;

/// A loaded CC-CEDICT dictionary: its entries in file order, and look-ups by headword, pinyin
/// and English word (see the file comment).
class Dictionary {
 public:
  /// An empty dictionary. A dictionary moved from may only be destroyed or assigned to.
  Dictionary();
  /// Takes over `other`'s entries; `other` may then only be destroyed or assigned to.
  Dictionary(Dictionary&&) noexcept;
  /// The same, as an assignment.
  Dictionary& operator=(Dictionary&&) noexcept;
  Dictionary(const Dictionary&) = delete;
  Dictionary& operator=(const Dictionary&) = delete;
  ~Dictionary();

  // ---- Loading ---------------------------------------------------------------------------

  /// Reads `in` to its end into the dictionary's arena, in large reads (`read_some` of up to
  /// 256 KiB, which a BufferedReadStream serves straight from the source once its window is
  /// used up), parsing each read's lines while they are in the cache, and
  /// takes the entries where the text lies: it is copied once, never field by field. Works on
  /// any stream (unbuffered, buffered, memory, mapped). When `in` can tell how many bytes it
  /// has left (`ReadStream::remaining_hint`: a regular file, a mapping or memory, directly or
  /// through a BufferedReadStream), the arena and tables are sized from that up front. A leading
  /// UTF-8 BOM is skipped. Throws `ParseError` for a malformed line in strict mode, `IoError` from
  /// the stream.
  static Dictionary load(ReadStream& in, const ReadOptions& options = {});

  /// The same entries, read the way a Smalltalk program reads a file, one line at a time:
  /// `[stream atEnd] whileFalse: [dict add: (parse: stream nextLine)]`, with `next_line()` and
  /// `parse_line`, each entry's line copied into the dictionary's arena. `load` asks the stream
  /// for its bytes in reads of 256 KiB, so that a buffer under it changes little; this one asks
  /// for a line at a time, which over an unbuffered FdReadStream is a `read(2)` per byte (the
  /// benchmark's measure of what a buffer does). Lines end as `next_line` ends them: at LF,
  /// CRLF or CR (`load` ends lines at LF and ignores a CR before it: the two differ only for a
  /// CR alone, which `load` keeps in its line). Errors and stats as for `load`.
  static Dictionary load_lines(ReadStream& in, const ReadOptions& options = {});

  /// Opens `path` and loads it through a 64 KiB BufferedReadStream.
  static Dictionary load_file(const std::filesystem::path& path, ReadOptions options = {});

  /// Zero-copy: maps `path` and keeps the mapping; entries are views into it.
  static Dictionary map_file(const std::filesystem::path& path, ReadOptions options = {});

  /// Zero-copy over a mapped file, which the dictionary keeps (from its current position).
  static Dictionary load_mapped(std::unique_ptr<MappedFile> file, ReadOptions options = {});

  /// Zero-copy over `text`, which the caller keeps alive and unchanged as long as the dictionary.
  static Dictionary load_view(std::string_view text, const ReadOptions& options = {});

  // ---- Entries ---------------------------------------------------------------------------

  /// The number of entries.
  std::size_t size() const noexcept;
  /// True if the dictionary has no entry.
  bool empty() const noexcept { return size() == 0; }
  /// The i-th entry in file order. Precondition: `i < size()`.
  Entry operator[](std::size_t i) const noexcept;
  /// The i-th entry; throws `AccessError` past the end.
  Entry at(std::size_t i) const;
  /// True when the entries are views into a mapping or the caller's text.
  bool zero_copy() const noexcept;

  // ---- Look-ups (results in file order; several readings of a headword are all returned) --
  //
  // The first few look-ups of each kind scan the entries (a millisecond or a few on the
  // 116,937 entries of CC-CEDICT); after that, the kind's index is built (a few milliseconds),
  // and look-ups take microseconds. Both give the same entries.

  /// Entries whose traditional headword is exactly `headword`.
  std::vector<Entry> find_traditional(std::string_view headword) const;
  /// Entries whose simplified headword is exactly `headword`.
  std::vector<Entry> find_simplified(std::string_view headword) const;
  /// Entries whose traditional or simplified headword is exactly `headword` (each once).
  std::vector<Entry> find_headword(std::string_view headword) const;
  /// Entries whose pinyin matches `query`: case and spaces are ignored, "u:", "v" and "ü" are
  /// the same letter, and tone numbers are optional: a syllable given without a tone matches
  /// every tone ("ni hao", "nihao", "ni3 hao3", "ni hao3" all find 你好 [ni3 hao3]). Tone
  /// marks stand for the digit at the end of their syllable: "nǐ hǎo" and "nǐhǎo" are
  /// "ni3 hao3", "lǜ" is "lu:4"; write syllables that pinyin would separate with an apostrophe
  /// apart ("Xī'ān" or "Xī ān" for 西安 [Xi1 an1]; "xiān" is [xian1] or [xi an1]).
  std::vector<Entry> find_pinyin(std::string_view query) const;
  /// Entries whose glosses contain every word of `query` as a whole word, ignoring ASCII case:
  /// "cat" finds "a cat" and "cat's", not "catch"; "go dutch" finds "to go Dutch". Words are
  /// runs of ASCII letters and digits and of non-ASCII characters.
  std::vector<Entry> find_english(std::string_view query) const;

  /// Builds every look-up index now. Otherwise each index is built when its kind of look-up
  /// has been asked about as often as a scan of the entries costs the index, so a load costs
  /// only the entries and a handful of questions costs no index; the benchmark's "index"
  /// variant measures a load plus this call. Safe to call from several threads, as are the
  /// const look-ups.
  void build_indexes() const;

  // ---- What was loaded -------------------------------------------------------------------

  /// Counts of the load, metadata, reported malformed lines, and current memory use.
  Stats stats() const;
  /// The value of a "#! key=value" metadata line, if the file had one.
  std::optional<std::string_view> metadata(std::string_view key) const;
  /// The bytes the dictionary holds now, by purpose (the indexes grow as they are first used).
  MemoryUsage memory_usage() const;

 private:
  class Loader;
  // `expected_bytes` (0 if unknown) sizes the tables up front.
  static Dictionary load(ReadStream& in, const ReadOptions& options, std::uint64_t expected_bytes);
  std::unique_ptr<detail::DictionaryData> data_;
};

}  // namespace bufstream::cedict
