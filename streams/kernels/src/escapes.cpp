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

std::optional<BadEscape> read_escape(ReadStream& in, std::string& out, const Dialect& d) {
  std::string_view w = in.fill(2);
  const int letter = detail::byte_at(w, 1);
  if (letter != 'u') {
    const int decoded = short_unescape(letter, d);
    if (decoded < 0) return BadEscape{1, describe_bad_escape(letter, d)};
    out.push_back(static_cast<char>(decoded));
    in.advance(2);
    return std::nullopt;
  }
  w = in.fill(max_u_length);
  const Decoded u = decode_u(w);
  if (u.error != Decoded::Error::none) return BadEscape{u.at, describe(u, w)};
  char bytes[4];
  out.append(bytes, static_cast<std::size_t>(bufstream::utf8::encode(u.code_point, bytes) - bytes));
  in.advance(u.at);
  return std::nullopt;
}

}  // namespace bufstream::kernels::escapes
