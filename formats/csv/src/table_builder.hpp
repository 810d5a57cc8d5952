// csv::Table's columns as they are read (table_read.cpp): each value converted as it comes, to
// the type given by hand or to the type inferred so far, a column widened where a value does
// not fit it; and the columns of a parallel read's chunk appended to the table's.
//
// An inferred column takes the type of its first value, and widens (integer to double, any type
// to text) where a later value does not fit. To widen it needs every earlier value as it was
// written, which the values give back exactly except where they are kept: an integer's text is
// its decimal form but for `-0`, a boolean's is "true"/"false" but for other spellings (kept as
// exceptions, by row), and a double's text is kept whole (a double rarely gives its text back),
// except where the input can be read again (a file): there a double column keeps nothing and
// asks for the read to start again, keeping its text (TextNeeded), if it must become text.
// Widening is rare; keeping a stream's doubles' text is what it costs on every row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <bufstream/csv/table.hpp>

namespace bufstream::csv::detail {

// The line each row starts on, as runs of rows on consecutive lines (a record over several
// lines, or a skipped empty line, starts a new run).
class RowLines {
 public:
  void add(std::uint64_t line) {
    if (line != next_line_) runs_.emplace_back(next_row_, line);
    ++next_row_;
    next_line_ = line + 1;
  }
  // Appends the rows of `chunk`, whose lines are numbered `line_offset` below the input's.
  void append(const RowLines& chunk, std::uint64_t line_offset);
  std::uint64_t line_of(std::uint64_t row) const;
  void clear() noexcept {
    runs_.clear();
    next_row_ = 0;
    next_line_ = 0;
  }

 private:
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs_;  // (first row, its line)
  std::uint64_t next_row_ = 0;
  std::uint64_t next_line_ = 0;
};

// Where the widenings of the table's columns are reported: the columns of a whole table have
// one, a chunk's columns none (the merge replays what they widened, see ColumnBuilder::append_all).
struct WideningReports {
  std::uint64_t sample_rows = 0;  // rows whose widenings are silent (the sample decides)
  const RowLines* lines = nullptr;
  std::vector<Widening>* widenings = nullptr;
};

// Thrown by a column that keeps no text (see ColumnBuilder's constructor) where its doubles
// must become text: the caller reads the input again, that column keeping its text.
struct TextNeeded {
  std::size_t column;
};

// One column as it is read.
class ColumnBuilder {
 public:
  // A column of a type given by hand (it never widens: a value that does not convert throws
  // ConversionError), or nullopt for one whose type is inferred. Without `keeps_text` an
  // inferred double column keeps no text, and throws TextNeeded where it would need it (for
  // an input that can be read again: a file).
  ColumnBuilder(std::size_t index, std::string name, std::optional<ColumnType> given,
                bool keeps_text = true);

  const std::string& name() const noexcept { return column_.name(); }
  // The number of values so far.
  std::size_t size() const noexcept { return decided_ ? column_.size() : undecided_rows_; }

  // Appends one field's text (empty: no value). Widenings are reported to `reports` (if any).
  void append(std::string_view text, WideningReports* reports) {
    if (!text.empty() && decided_ && try_append(text)) return;
    append_slowly(text, reports);
  }
  // Appends `chunk`'s values: those of the same column read from the chunk after these rows.
  // Copied as they are where they have this column's type (the chunk widened nothing that this
  // column had not); else appended text by text, as one reader of both would have.
  void append_all(const ColumnBuilder& chunk, WideningReports* reports);

  // Room for `rows` values in all.
  void reserve(std::size_t rows);
  // Empties the column, keeping its memory (a spare for the next chunk).
  void clear();
  // The finished column (text where no value decided a type). The builder is spent.
  TableColumn finish() &&;

 private:
  bool try_append(std::string_view text);
  // Marks the next value of `c` valid (TableColumn::push_validity, inline: it runs per value).
  static void push_valid(TableColumn& c);
  void append_slowly(std::string_view text, WideningReports* reports);
  void decide(ColumnType type);
  void widen(std::string_view value, WideningReports* reports);
  void to_double(WideningReports* reports);
  void to_text();
  void report(ColumnType from, ColumnType to, std::uint64_t row, std::string_view value,
              WideningReports* reports);
  void keep(std::string_view text) {
    if (!keeps_text_) return;
    if (kept_capacity_ - kept_size_ < text.size() + 9) grow_kept(text.size() + 9);
    char* out = kept_.get() + kept_size_;
    if (text.size() < 255) {
      *out++ = static_cast<char>(text.size());
    } else {
      *out++ = static_cast<char>(255);
      const std::uint64_t size = text.size();
      std::memcpy(out, &size, sizeof size);
      out += sizeof size;
    }
    if (!text.empty()) std::memcpy(out, text.data(), text.size());
    kept_size_ = static_cast<std::size_t>(out + text.size() - kept_.get());
  }
  // Room for `more` bytes after kept_size_ (at least doubling; not zeroed).
  void grow_kept(std::size_t more);
  // The kept text at `at` in kept_, and `at` moved past it.
  std::string_view next_kept(std::size_t& at) const noexcept;
  void append_bulk(const ColumnBuilder& chunk);

  // Calls `f(text)` with each value's text as it was written ("" for an empty field).
  template <class F>
  void for_each_text(F f) const;

  TableColumn column_;
  std::size_t index_;
  bool given_;
  bool keeps_text_;
  bool decided_;                    // a type given, or inferred from a value
  bool widened_ = false;            // the type is not the first value's
  bool reported_ = false;           // a widening of this column was reported
  std::size_t undecided_rows_ = 0;  // empty fields before the first value
  std::size_t first_value_row_ = 0;
  // float64: each row's text, one after the other, each after its length (one byte, or 255
  // and eight bytes); an empty field is length 0. Read in row order only.
  std::unique_ptr<char[]> kept_;
  std::size_t kept_size_ = 0;
  std::size_t kept_capacity_ = 0;
  // int64 and boolean: the texts their values do not give back, by row, in row order.
  std::vector<std::pair<std::uint64_t, std::string>> exceptions_;
};

}  // namespace bufstream::csv::detail
