// csv::Record: a zero-copy view of one record, valid until the reader reads the next one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::csv {

/// The fields of one record as views. A field that lay in the stream's window (the usual case)
/// is viewed there; one that crossed a window edge or held doubled quotes is viewed in the
/// reader's own storage. Either way the views end when the reader reads the next record or is
/// destroyed: copy what you keep (`to_strings()`).
class Record {
 public:
  /// The number of fields.
  std::size_t size() const noexcept { return fields_.size(); }
  /// Field `i`. Precondition: `i < size()`.
  std::string_view operator[](std::size_t i) const noexcept { return fields_[i]; }
  /// Like `[]`, but throws `AccessError` naming the record when `i >= size()`.
  std::string_view at(std::size_t i) const;

  /// The fields, in order.
  std::span<const std::string_view> fields() const noexcept { return fields_; }
  /// The first field's position.
  auto begin() const noexcept { return fields_.begin(); }
  /// The position after the last field.
  auto end() const noexcept { return fields_.end(); }

  /// Which record of the input this is, counting from 1 (a header is record 1).
  std::uint64_t number() const noexcept { return number_; }
  /// The line the record starts on, counting from 1.
  std::uint64_t line() const noexcept { return line_; }

  /// The fields, copied.
  std::vector<std::string> to_strings() const { return {fields_.begin(), fields_.end()}; }

 private:
  friend class Reader;

  std::vector<std::string_view> fields_;
  std::uint64_t number_ = 0;
  std::uint64_t line_ = 0;
};

}  // namespace bufstream::csv
