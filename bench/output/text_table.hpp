// TextTable: columns of text aligned for a terminal.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace bufstream::bench {

class TextTable {
 public:
  enum class Align { left, right };

  /// Adds a column; `group` is printed on a line above the headers, centred over the run of
  /// adjacent columns that share it (empty: none).
  void add_column(std::string header, Align align, std::string group = {});
  /// Adds a row; missing cells are blank.
  void add_row(std::vector<std::string> cells);
  /// A rule between groups of rows.
  void add_separator();

  void print(std::FILE* out) const;

 private:
  struct Column {
    std::string header;
    Align align;
    std::string group;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a separator
};

/// `25000` as `25,000`.
std::string group_digits(std::uint64_t n);

/// Text width of UTF-8 text (code points; the tables use no wide characters).
std::size_t display_width(const std::string& text) noexcept;

}  // namespace bufstream::bench
