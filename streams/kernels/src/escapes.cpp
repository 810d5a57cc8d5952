#include <bufstream/kernels/escapes.hpp>

#include <fmt/format.h>

#include <bufstream/errors.hpp>

namespace bufstream::kernels::escapes {

std::string describe(const Decoded& failure, std::string_view w) {
  switch (failure.error) {
    case Decoded::Error::none: break;
    case Decoded::Error::bad_hex:
      return fmt::format("expected 4 hex digits after '\\u' but found {}",
                         describe_byte(detail::byte_at(w, failure.at)));
    case Decoded::Error::lone_low:
      return fmt::format(
          "expected a character escape but found the lone low surrogate "
          "\\u{:04X} (a low surrogate must follow a high one)",
          failure.unit);
    case Decoded::Error::missing_low:
      return fmt::format(
          "expected a low surrogate escape \\uDC00-\\uDFFF after \\u{:04X} but "
          "found {}",
          failure.unit, describe_byte(detail::byte_at(w, failure.at)));
    case Decoded::Error::bad_low:
      return fmt::format(
          "expected a low surrogate escape \\uDC00-\\uDFFF after \\u{:04X} but "
          "found \\u{:04X}",
          failure.unit, failure.low);
  }
  return "no error";
}

std::string describe_bad_escape(int letter, const Dialect& d) {
  return fmt::format(
      "expected an escape ({}'\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') "
      "after '\\' but found {}",
      d.single_quote_escape ? "''', " : "", describe_byte(letter));
}

}  // namespace bufstream::kernels::escapes
