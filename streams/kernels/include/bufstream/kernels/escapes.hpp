// Backslash escapes of quoted strings, as JSON (RFC 8259, section 7) and STON write and read
// them: the two-byte escapes (`\n`, `\"`, ...) and `\uXXXX`, a UTF-16 code unit in four hex
// digits, with surrogate pairs (`\uD83D\uDE00`) for code points above U+FFFF.
//
// The formats differ only in what the table below parameterises: the string's delimiter (which
// is escaped by itself), the case of the hex digits they write, and whether `\'` is accepted.
// Everything else, and every error message, is shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <bufstream/kernels/byte_set.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::kernels::escapes {

/// What a format's strings escape and accept.
struct Dialect {
  char quote;                ///< the delimiter: `"` for JSON, `'` for STON
  bool upper_hex;            ///< `\u00E9` (STON, as Pharo writes it) rather than `\u00e9` (JSON)
  bool single_quote_escape;  ///< `\'` is read (STON reads both `\'` and `\"`)
};

inline constexpr Dialect json{'"', false, false};
inline constexpr Dialect ston{'\'', true, true};

/// The letter of the two-byte escape that writes `c` (`'\n'` -> `'n'`, the dialect's quote ->
/// the quote, `'\\'` -> `'\\'`), or 0 when `c` has none (another control byte: it is written
/// as `\u00XX`; anything else is written as it is).
constexpr char short_escape(char c, const Dialect& d) noexcept {
  switch (c) {
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\f': return 'f';
    case '\r': return 'r';
    case '\\': return '\\';
    default: return c == d.quote ? c : '\0';
  }
}

/// The byte a two-byte escape's letter stands for (`'n'` -> `'\n'`), or -1 when `letter` does
/// not make an escape (`u` is not a two-byte escape: see decode_u).
constexpr int short_unescape(int letter, const Dialect& d) noexcept {
  switch (letter) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '\'': return d.single_quote_escape ? '\'' : -1;
    default: return -1;
  }
}

/// Writes `\uXXXX` for one UTF-16 code unit into `out[0, 6)`.
constexpr void put_unit(char* out, unsigned unit, const Dialect& d) noexcept {
  const char* digits = d.upper_hex ? "0123456789ABCDEF" : "0123456789abcdef";
  out[0] = '\\';
  out[1] = 'u';
  out[2] = digits[(unit >> 12) & 0xF];
  out[3] = digits[(unit >> 8) & 0xF];
  out[4] = digits[(unit >> 4) & 0xF];
  out[5] = digits[unit & 0xF];
}

/// The longest `\u` escape of one code point: a surrogate pair.
inline constexpr std::size_t max_u_length = 12;

/// Writes code point `cp` (at most U+10FFFF, not a surrogate) as `\uXXXX`, or as a surrogate
/// pair above U+FFFF, into `out` (room for max_u_length bytes); returns the end.
constexpr char* encode_u(char32_t cp, char* out, const Dialect& d) noexcept {
  if (cp > 0xFFFF) {
    const auto v = static_cast<unsigned>(cp) - 0x10000;
    put_unit(out, 0xD800 + (v >> 10), d);
    put_unit(out + 6, 0xDC00 + (v & 0x3FF), d);
    return out + 12;
  }
  put_unit(out, static_cast<unsigned>(cp), d);
  return out + 6;
}

/// Writes the escape of ASCII byte `c`, one that a string cannot hold as it is (a control
/// byte, the quote, the backslash, or DEL for ASCII-only output): its two-byte escape if it has
/// one, else `\u00XX`; into `out` (room for 6 bytes). Returns the end.
constexpr char* escape_ascii(char c, char* out, const Dialect& d) noexcept {
  if (const char letter = short_escape(c, d)) {
    out[0] = '\\';
    out[1] = letter;
    return out + 2;
  }
  put_unit(out, static_cast<unsigned char>(c), d);
  return out + 6;
}

/// How a quoted string's characters are written: the escapes of `dialect`, and which
/// non-ASCII characters are escaped rather than written as they are.
struct OutputStyle {
  const Dialect* dialect;
  bool ascii_only;       ///< every non-ASCII character as `\u` (JSON's and STON's option)
  char32_t plain_from;   ///< non-ASCII characters below this are escaped too (STON: U+00A0)
  const ByteSet* stops;  ///< the bytes a run of plain bytes ends at (see write_escaped)
};

/// The one escaper of the formats' writers: writes the text of `s` (valid UTF-8; the caller
/// checked it) escaped as `style` says, without its quotes, into `out` (a WriteStream: write,
/// reserve, commit). Runs of bytes that need nothing are copied with one write each; a run
/// ends at a byte of `style.stops`: an ASCII byte (a control byte, the quote, the backslash,
/// DEL for ASCII-only output) is written as its two-byte or `\u00XX` escape, a non-ASCII
/// character as `\u` (a surrogate pair above U+FFFF) when the style escapes it, else as it is.
/// `style.stops` must hold every byte the style escapes.
template <class Out>
void write_escaped(Out& out, std::string_view s, const OutputStyle& style) {
  const char* p = s.data();
  const char* const end = p + s.size();
  for (;;) {
    const char* const stop = style.stops->find(p, end);
    out.write(p, static_cast<std::size_t>(stop - p));
    p = stop;
    if (p == end) return;
    if (static_cast<unsigned char>(*p) < 0x80) {
      char* o = out.reserve(6);
      out.commit(static_cast<std::size_t>(escape_ascii(*p, o, *style.dialect) - o));
      ++p;
      continue;
    }
    const bufstream::utf8::Decoded d = bufstream::utf8::decode(p, end);
    if (style.ascii_only || d.code_point < style.plain_from) {
      char* o = out.reserve(max_u_length);
      out.commit(static_cast<std::size_t>(encode_u(d.code_point, o, *style.dialect) - o));
    } else {
      out.write(p, d.length);
    }
    p += d.length;
  }
}

/// What decode_u found.
struct Decoded {
  enum class Error : std::uint8_t {
    none,
    bad_hex,      ///< a byte that is not a hex digit (or the end) where one of four must be
    lone_low,     ///< `\uDC00`-`\uDFFF` first: a low surrogate with no high one before it
    missing_low,  ///< a high surrogate not followed by `\u` (the byte at `at` is the culprit)
    bad_low,      ///< a high surrogate followed by a `\u` unit that is not a low surrogate
  };
  Error error = Error::none;
  char32_t code_point = 0;  ///< none: the character
  /// none: the bytes the escape takes (6, or 12 for a pair); otherwise the offset from the
  /// backslash of the byte the error is about (for bad_low and lone_low, its `\`).
  std::size_t at = 0;
  unsigned unit = 0;  ///< the first code unit (unless the error is in its digits)
  unsigned low = 0;   ///< bad_low: the unit found where a low surrogate should be
};

namespace detail {
constexpr int hex_value(int c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
constexpr int byte_at(std::string_view w, std::size_t i) noexcept {
  return i < w.size() ? static_cast<unsigned char>(w[i]) : -1;
}
/// The four hex digits at w[i, i + 4) into `unit`; the offset of the first bad byte, or 0.
constexpr std::size_t hex4(std::string_view w, std::size_t i, unsigned& unit) noexcept {
  unit = 0;
  for (std::size_t k = i; k < i + 4; ++k) {
    const int h = hex_value(byte_at(w, k));
    if (h < 0) return k;
    unit = unit * 16 + static_cast<unsigned>(h);
  }
  return 0;
}
}  // namespace detail

/// Decodes the `\u` escape at the start of `w` (`w[0]` is the backslash, `w[1]` is `u`), with
/// its low surrogate when the first unit is a high one. `w` holds max_u_length bytes, or fewer
/// only where the input ends.
constexpr Decoded decode_u(std::string_view w) noexcept {
  Decoded r;
  if (const std::size_t bad = detail::hex4(w, 2, r.unit)) {
    r.error = Decoded::Error::bad_hex;
    r.at = bad;
    return r;
  }
  if (r.unit >= 0xDC00 && r.unit <= 0xDFFF) {
    r.error = Decoded::Error::lone_low;
    return r;
  }
  if (r.unit < 0xD800 || r.unit > 0xDBFF) {
    r.code_point = r.unit;
    r.at = 6;
    return r;
  }
  if (detail::byte_at(w, 6) != '\\' || detail::byte_at(w, 7) != 'u') {
    r.error = Decoded::Error::missing_low;
    r.at = detail::byte_at(w, 6) != '\\' ? 6 : 7;
    return r;
  }
  if (const std::size_t bad = detail::hex4(w, 8, r.low)) {
    r.error = Decoded::Error::bad_hex;
    r.at = bad;
    return r;
  }
  if (r.low < 0xDC00 || r.low > 0xDFFF) {
    r.error = Decoded::Error::bad_low;
    r.at = 6;
    return r;
  }
  r.code_point = 0x10000 + ((r.unit - 0xD800) << 10) + (r.low - 0xDC00);
  r.at = 12;
  return r;
}

/// The message for a failed decode_u of `w` ("expected 4 hex digits after '\u' but found 'G'").
std::string describe(const Decoded& failure, std::string_view w);

/// The message for a backslash followed by `letter`, which makes no escape in dialect `d`
/// (-1: the input ended).
std::string describe_bad_escape(int letter, const Dialect& d);

/// A malformed escape: the offset from its backslash of the byte the error is about, and what
/// is wrong.
struct BadEscape {
  std::size_t at;
  std::string message;
};

/// The one reader of an escape in a stream, for JSON's and STON's token readers: the escape at
/// the cursor of `in` (its backslash first; the window is filled as it needs, so an escape
/// may straddle two windows), appended to `out` as UTF-8 and consumed. A malformed escape is
/// consumed not at all and returned, for the reader to throw at its own position.
std::optional<BadEscape> read_escape(ReadStream& in, std::string& out, const Dialect& d);

}  // namespace bufstream::kernels::escapes
