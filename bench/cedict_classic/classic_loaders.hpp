// The classic CEDICT loaders: the optimisation steps of a famous C++ performance story, one
// file each, for the benchmark (BENCHMARKS.md, section 2) to measure against bufstream's own
// loader (`bufstream::cedict::Dictionary`).
//
// Every step reads the same CC-CEDICT file and keeps, for each entry line
// `TRADITIONAL SIMPLIFIED [pin1 yin1] /gloss 1/gloss 2/`, the same four fields as UTF-16
// (`char16_t`) text: traditional, simplified, pinyin (between the brackets), and english (one
// string: everything between the first and the last '/'). Unlike the originals, every step
// fills the simplified field and frees everything it allocates.
//
// Lines starting with '#' (comments and `#!` metadata) are skipped, as the originals did. The
// loaders are reproductions, not validators: a line that does not have the entry shape is
// skipped (never read out of bounds), and invalid UTF-8 makes `load` throw. bufstream's loader
// is the one that reports malformed lines.
//
// How the benchmark uses them: for each variant, time `load(path)` (the object is alive at the
// end: "excluding destructors"), then the destruction of the returned object, and add both
// ("including destructors"). `entry_count()` is the number of entries kept.
//
//     auto t0 = clock::now();
//     {
//       auto dict = bufstream::cedict::classic::v4_pool::load(path);
//       auto t1 = clock::now();             // load, excluding destructors: t1 - t0
//       entries = dict.entry_count();
//     }                                     // the destructor frees every entry
//     auto t2 = clock::now();               // including destructors: t2 - t0
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/mapped_file.hpp>

namespace bufstream::cedict::classic {

/// One entry's fields, viewed; valid as long as the dictionary that returned it.
struct EntryView {
  std::u16string_view traditional;
  std::u16string_view simplified;
  std::u16string_view pinyin;
  std::u16string_view english;
};

// ---- #1: iostreams ------------------------------------------------------------------------
namespace v1_iostream {

/// A wide file stream with a UTF-8 to UTF-16 conversion facet (the deprecated
/// `std::codecvt_utf8_utf16`), `std::getline` per line, `std::u16string` fields.
struct Entry {
  std::u16string traditional;
  std::u16string simplified;
  std::u16string pinyin;
  std::u16string english;
};

class Dictionary {
 public:
  std::size_t entry_count() const noexcept { return entries_.size(); }
  EntryView entry(std::size_t i) const;

 private:
  friend Dictionary load(const std::filesystem::path& path);
  std::vector<Entry> entries_;
};

/// Reads the file through `std::wifstream`. Throws `IoError` if it cannot be opened or read.
Dictionary load(const std::filesystem::path& path);

}  // namespace v1_iostream

// ---- #2: a mapped file, one conversion per line, string fields ---------------------------
namespace v2_mmap_wstring {

/// Maps the file (bufstream::MappedFile), splits lines itself, converts each line from UTF-8
/// to UTF-16 once, and copies the fields into `std::u16string`s.
using Entry = v1_iostream::Entry;

class Dictionary {
 public:
  std::size_t entry_count() const noexcept { return entries_.size(); }
  EntryView entry(std::size_t i) const;

 private:
  friend Dictionary load(const std::filesystem::path& path);
  std::vector<Entry> entries_;
};

/// Throws `IoError` if the file cannot be mapped, `ParseError` for invalid UTF-8.
Dictionary load(const std::filesystem::path& path);

}  // namespace v2_mmap_wstring

// ---- #3: raw strings from new[] -----------------------------------------------------------
namespace v3_raw_strings {

/// As #2, but each field is a NUL-terminated `char16_t` array from `new[]`, freed by the
/// dictionary's destructor.
struct Entry {
  char16_t* traditional = nullptr;
  char16_t* simplified = nullptr;
  char16_t* pinyin = nullptr;
  char16_t* english = nullptr;
};

class Dictionary {
 public:
  Dictionary() = default;
  Dictionary(Dictionary&& other) noexcept;
  Dictionary& operator=(Dictionary&& other) noexcept;
  Dictionary(const Dictionary&) = delete;
  Dictionary& operator=(const Dictionary&) = delete;
  ~Dictionary();  // delete[]s every field

  std::size_t entry_count() const noexcept { return entries_.size(); }
  EntryView entry(std::size_t i) const;

 private:
  friend Dictionary load(const std::filesystem::path& path);
  void free_all() noexcept;
  std::vector<Entry> entries_;
};

Dictionary load(const std::filesystem::path& path);

}  // namespace v3_raw_strings

// ---- #4: a bump-pointer string pool -------------------------------------------------------
namespace v4_pool {

/// Hands out NUL-terminated `char16_t` strings from large chunks: one allocation per chunk, a
/// pointer bump per string, everything freed at once with the pool. A string longer than a
/// chunk gets a chunk of its own.
class StringPool {
 public:
  static constexpr std::size_t chunk_units = 32 * 1024;  // char16_t units per chunk (64 KiB)

  /// Copies `s` into the pool, adds a NUL, and returns the copy.
  const char16_t* add(std::u16string_view s);

 private:
  std::vector<std::unique_ptr<char16_t[]>> chunks_;
  char16_t* next_ = nullptr;
  char16_t* end_ = nullptr;
};

struct Entry {
  const char16_t* traditional;
  const char16_t* simplified;
  const char16_t* pinyin;
  const char16_t* english;
};

class Dictionary {
 public:
  std::size_t entry_count() const noexcept { return entries_.size(); }
  EntryView entry(std::size_t i) const;

 private:
  friend Dictionary load(const std::filesystem::path& path);
  StringPool pool_;  // owns the text; freed with the dictionary
  std::vector<Entry> entries_;
};

Dictionary load(const std::filesystem::path& path);

}  // namespace v4_pool

// ---- The floor: find every line end -------------------------------------------------------
namespace scan_lines {

/// Maps the file and finds every line end (`memchr`), nothing else; the mapping lives as long
/// as the result. No loader can be faster than this.
class LineScan {
 public:
  /// Lines in the file (a last line without a newline counts).
  std::size_t line_count() const noexcept { return lines_; }
  /// Lines that do not start with '#' (one byte looked at per line): what a loader would keep.
  std::size_t entry_count() const noexcept { return entries_; }

 private:
  friend LineScan load(const std::filesystem::path& path);
  explicit LineScan(const std::filesystem::path& path)
      : file_(std::make_unique<MappedFile>(path)) {}
  std::unique_ptr<MappedFile> file_;  // unmapped by the destructor
  std::size_t lines_ = 0;
  std::size_t entries_ = 0;
};

LineScan load(const std::filesystem::path& path);

}  // namespace scan_lines

}  // namespace bufstream::cedict::classic
