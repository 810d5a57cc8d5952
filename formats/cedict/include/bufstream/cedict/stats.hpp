// Stats: what a loaded dictionary holds and what its file contained (`bufstream cedict stats`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::cedict {

/// Bytes a dictionary holds, by purpose.
struct MemoryUsage {
  std::size_t text_bytes = 0;    ///< The arena of copied UTF-8 text (0 in zero-copy mode).
  std::size_t mapped_bytes = 0;  ///< The mapped file a zero-copy dictionary keeps (0 otherwise).
  std::size_t entry_bytes = 0;   ///< Entry records and the gloss table.
  std::size_t index_bytes = 0;   ///< Look-up indexes built so far (they are built on first use).

  /// The sum of the four.
  std::size_t total() const noexcept {
    return text_bytes + mapped_bytes + entry_bytes + index_bytes;
  }
};

/// Counts of one load. Every line is exactly one of: entry, comment, metadata, malformed.
struct Stats {
  std::uint64_t bytes = 0;             ///< Read from the source.
  std::uint64_t lines = 0;             ///< A last line without a newline counts.
  std::uint64_t entries = 0;           ///< Entry lines.
  std::uint64_t glosses = 0;           ///< Glosses of all entries.
  std::uint64_t comment_lines = 0;     ///< '#' lines, metadata excluded.
  std::uint64_t metadata_lines = 0;    ///< '#!' lines.
  std::uint64_t malformed_lines = 0;   ///< Skipped in lenient mode (strict throws at the first).
  bool missing_final_newline = false;  ///< The last line has no LF (as in the CC-CEDICT release).
  bool crlf_line_ends = false;         ///< At least one line ended with CR LF.
  std::vector<std::pair<std::string, std::string>> metadata;  ///< "#! key=value", in file order.
  std::optional<std::uint64_t> declared_entries;  ///< From "#! entries=N", if present and a number.
  std::vector<ParseError>
      malformed;       ///< The first few malformed lines (ReadOptions::max_reported_errors).
  MemoryUsage memory;  ///< The dictionary's memory use.
};

/// Writes the stats for a person, one "name: value" line each, then the reported malformed
/// lines. `source_name` heads the report (may be empty).
void print_stats(WriteStream& out, const Stats& stats, std::string_view source_name = {});

}  // namespace bufstream::cedict
