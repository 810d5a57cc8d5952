// How csv::Table infers: which values fit which column type, a column's type from a sample,
// the type a column widens to, and the separator and header sniffed from the input's first
// bytes. The rules are written out in docs/CSV_TABLES.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <bufstream/csv/field_converter.hpp>
#include <bufstream/csv/table.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::csv::detail {

// A leading zero before another digit ("007", "-01", "00.5"): such text is an identifier (a
// ZIP code, an account number), not a number, for inference.
inline bool has_leading_zero(std::string_view text) noexcept {
  const std::size_t i = !text.empty() && text.front() == '-' ? 1 : 0;
  return text.size() > i + 1 && text[i] == '0' && text[i + 1] >= '0' && text[i + 1] <= '9';
}

// An integer's text that a double does not hold exactly (beyond 2^53 in magnitude), which an
// inferred double column does not take: it would change the value.
bool is_inexact_in_double(std::string_view text) noexcept;

// The value of `text` for an inferred column of each type, or nullopt where it does not fit.
// `text` is not empty (an empty field fits every type, as no value).
inline std::optional<bool> inferred_boolean(std::string_view text) noexcept {
  if (text == "1" || text == "0") return std::nullopt;  // integers, on the ladder
  return bool_field_value(text);
}
inline std::optional<std::int64_t> inferred_integer(std::string_view text) noexcept {
  if (has_leading_zero(text)) return std::nullopt;
  return parse_integer<std::int64_t>(text);
}
inline std::optional<double> inferred_double(std::string_view text) noexcept {
  if (has_leading_zero(text)) return std::nullopt;
  const std::optional<double> value = double_field_value(text);
  // Only a value of 2^53 or more can come from an integer's text beyond 2^53.
  if (value && (*value >= 0x1p53 || *value <= -0x1p53) && text.size() >= 16 &&
      is_inexact_in_double(text)) {
    return std::nullopt;
  }
  return value;
}

// Whether non-empty `text` fits an inferred column of `type`.
bool fits(ColumnType type, std::string_view text) noexcept;

// The narrowest type of the ladder boolean, int64, double, text that non-empty `text` fits.
ColumnType narrowest_type(std::string_view text) noexcept;

// The type a column of `type` widens to for `value`, which does not fit it: double for an
// integer column and a value that fits double, else text.
ColumnType widened_type(ColumnType type, std::string_view value) noexcept;

// The separator and header, given or sniffed from `sample`, the input's first bytes (all of
// it when `whole_input`).
Dialect sniff_dialect(std::string_view sample, bool whole_input, const TableOptions& options);

}  // namespace bufstream::csv::detail
