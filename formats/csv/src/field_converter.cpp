#include <bufstream/csv/field_converter.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

namespace bufstream::csv::detail {

namespace {

// What was found, for a message: the text in quotes (long text cut), or "an empty field".
std::string describe_text(std::string_view text) {
  if (text.empty()) return "an empty field";
  constexpr std::size_t shown = 40;
  if (text.size() <= shown) return fmt::format("'{}'", text);
  return fmt::format("'{}...' ({} bytes)", text.substr(0, shown), text.size());
}

[[noreturn]] void throw_expected(std::string_view expected, std::string_view text) {
  throw ConversionError(fmt::format("expected {} but found {}", expected, describe_text(text)));
}

}  // namespace

void throw_not_integer(std::string_view text, bool is_signed, std::size_t bytes) {
  const unsigned bits = static_cast<unsigned>(bytes * 8);
  std::string range;
  if (is_signed) {
    const std::uint64_t magnitude = std::uint64_t{1} << (bits - 1);  // |min|
    range = fmt::format("from -{} to {}", magnitude, magnitude - 1);
  } else {
    const std::uint64_t max =
        bits >= 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
    range = fmt::format("from 0 to {}", max);
  }
  throw_expected(fmt::format("an integer {}", range), text);
}

std::optional<double> double_field_value(std::string_view text) noexcept {
  if (const std::optional<double> value = parse_double(text)) return *value;
  // The writer's spellings of the values decimal text cannot hold.
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "-nan") return -std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

double parse_double_field(std::string_view text) {
  if (const std::optional<double> value = double_field_value(text)) return *value;
  // parse_double gives no value for a number beyond the double range: say so, rather than
  // call "1e999" not a number.
  double ignored = 0;
  const char* const end = text.data() + text.size();
  if (const auto [ptr, ec] = std::from_chars(text.data(), end, ignored);
      ec == std::errc::result_out_of_range && ptr == end) {
    throw_expected("a number within the range of double", text);
  }
  throw_expected("a number", text);
}

float parse_float_field(std::string_view text) {
  const double checked = parse_double_field(text);  // the grammar, and inf and nan
  if (!std::isfinite(checked)) return static_cast<float>(checked);
  if (std::fabs(checked) > static_cast<double>(std::numeric_limits<float>::max())) {
    throw_expected("a number in the range of float", text);
  }
  // Rounded once, straight from the text (a double rounded again to float can be off by one).
  float value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ec == std::errc() && ptr == end) return value;
  return static_cast<float>(checked);  // underflow: the nearest float to a tiny double
}

std::optional<bool> bool_field_value(std::string_view text) noexcept {
  if (text == "true" || text == "TRUE" || text == "True" || text == "1") return true;
  if (text == "false" || text == "FALSE" || text == "False" || text == "0") return false;
  return std::nullopt;
}

bool parse_bool_field(std::string_view text) {
  if (const std::optional<bool> value = bool_field_value(text)) return *value;
  throw_expected("true or false (or 1 or 0)", text);
}

}  // namespace bufstream::csv::detail
