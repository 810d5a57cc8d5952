#include "transcode.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include <bufstream/kernels/ascii_runs.hpp>

namespace bufstream::transcode {

namespace {

constexpr char32_t replacement_character = 0xFFFD;

constexpr std::size_t utf8_length(char32_t cp) noexcept {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/// Windows-1252's bytes 0x80..0x9F, from Unicode's CP1252.TXT; 0 where a byte is unassigned.
/// The other bytes are the code points of the same value.
constexpr char16_t windows_1252_c1[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 80..87
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,       // 88..8F
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 90..97
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,  // 98..9F
};

/// Writes the UTF-8 form of `cp` at `o` if it fits before `end`; says whether it did.
inline bool put_utf8(char*& o, char* end, char32_t cp) noexcept {
  if (static_cast<std::size_t>(end - o) < utf8_length(cp)) return false;
  o = utf8::encode(cp, o);
  return true;
}

inline std::size_t left(const char* p, const char* end) noexcept {
  return static_cast<std::size_t>(end - p);
}

/// The step's counts, from where its input and output started and stand.
inline Step finished(Step s, std::string_view in, const char* p, const char* out, const char* o) {
  s.read = static_cast<std::size_t>(p - in.data());
  s.written = static_cast<std::size_t>(o - out);
  return s;
}

inline Step stopped(Stop stop, std::size_t need = 0) noexcept {
  Step s;
  s.stop = stop;
  s.need = need;
  return s;
}

inline Step bad(Problem problem, std::uint32_t value) noexcept {
  Step s;
  s.stop = Stop::invalid;
  s.problem = problem;
  s.value = value;
  return s;
}

// Whether utf8::decode's verdict on the bytes at `p` may change when more input follows them: a
// sequence cut by the end, or C0/C1 alone (an overlong form of one byte, or of two with the
// continuation byte that may follow). Replacement must not depend on where a window ends.
inline bool undecided(const utf8::Decoded& d, const char* p, const char* end) noexcept {
  if (d.error == utf8::Error::truncated_sequence) return true;
  const auto lead = static_cast<unsigned char>(*p);
  return (lead == 0xC0 || lead == 0xC1) && end - p == 1;
}

// The bytes from `lead` that utf8::decode needs for its verdict.
inline std::size_t bytes_to_decide(unsigned char lead) noexcept {
  return std::max<std::size_t>(utf8::sequence_length(lead), 2);
}

// ---- UTF-8 to UTF-8: validation and replacement ---------------------------------------------

// Both directions: UTF-8 is checked by the validation kernel a window at a time and copied.
Step copy_utf8(std::string_view in, char* out, char* out_end, bool last, bool replace) noexcept {
  const char* p = in.data();
  const char* const end = p + in.size();
  char* o = out;
  Step s;
  for (;;) {
    const std::size_t n = std::min(left(p, end), left(o, out_end));
    const auto invalid = utf8::find_invalid(std::string_view(p, n));
    const std::size_t good = invalid ? invalid->offset : n;
    if (good > 0) std::memcpy(o, p, good);
    p += good;
    o += good;
    if (!invalid) {
      s = stopped(p == end ? Stop::input_used : Stop::output_full);
      break;
    }
    // The check saw only what fits in the room; the decoder sees the whole input.
    const auto lead = static_cast<unsigned char>(*p);
    const utf8::Decoded d = utf8::decode(p, end);
    if (d.error == utf8::Error::none) {
      s = stopped(Stop::output_full);  // a whole character that does not fit
      break;
    }
    if (!last && undecided(d, p, end)) {
      s = stopped(Stop::incomplete, bytes_to_decide(lead));
      break;
    }
    if (!replace) {
      s = bad(Problem::invalid_utf8, lead);
      s.utf8_error = d.error;
      break;
    }
    if (!put_utf8(o, out_end, replacement_character)) {
      s = stopped(Stop::output_full);
      break;
    }
    p += d.length;
  }
  return finished(s, in, p, out, o);
}

// ---- Decoding -------------------------------------------------------------------------------

// A code unit of the given byte order, on a host of either order.
template <bool Big>
inline std::uint32_t unit16(const char* p) noexcept {
  std::uint16_t u;
  std::memcpy(&u, p, 2);
  if constexpr ((std::endian::native == std::endian::big) != Big) u = __builtin_bswap16(u);
  return u;
}

template <bool Big>
inline std::uint32_t unit32(const char* p) noexcept {
  std::uint32_t u;
  std::memcpy(&u, p, 4);
  if constexpr ((std::endian::native == std::endian::big) != Big) u = __builtin_bswap32(u);
  return u;
}

template <bool Big>
inline void store_unit16(char* o, std::uint32_t unit) noexcept {
  auto u = static_cast<std::uint16_t>(unit);
  if constexpr ((std::endian::native == std::endian::big) != Big) u = __builtin_bswap16(u);
  std::memcpy(o, &u, 2);
}

template <bool Big>
inline void store_unit32(char* o, std::uint32_t u) noexcept {
  if constexpr ((std::endian::native == std::endian::big) != Big) u = __builtin_bswap32(u);
  std::memcpy(o, &u, 4);
}

// The end of the input inside a code unit of `width` bytes: more input, an error, or U+FFFD.
inline Step cut_unit(const char*& p, const char* end, char*& o, char* out_end, std::size_t width,
                     bool last, bool replace) noexcept {
  if (!last) return stopped(Stop::incomplete, width);
  if (!replace) return bad(Problem::truncated, static_cast<std::uint32_t>(left(p, end)));
  if (!put_utf8(o, out_end, replacement_character)) return stopped(Stop::output_full);
  p = end;
  return stopped(Stop::input_used);
}

template <bool Big>
Step decode_utf16(std::string_view in, char* out, char* out_end, bool last, bool replace) noexcept {
  constexpr std::endian order = Big ? std::endian::big : std::endian::little;
  const char* p = in.data();
  const char* const end = p + in.size();
  char* o = out;
  Step s;
  for (;;) {
    const std::size_t units = std::min(left(p, end) / 2, left(o, out_end));
    const std::size_t ascii = kernels::ascii::narrow_utf16(p, units, o, order);
    p += 2 * ascii;
    o += ascii;
    if (left(p, end) < 2) {
      s = p == end ? stopped(Stop::input_used) : cut_unit(p, end, o, out_end, 2, last, replace);
      break;
    }
    const std::uint32_t unit = unit16<Big>(p);
    char32_t cp = unit;
    std::size_t length = 2;
    Problem problem = Problem::none;
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (left(p, end) < 4) {
        if (!last) {
          s = stopped(Stop::incomplete, 4);
          break;
        }
        problem = Problem::unpaired_high;
      } else if (const std::uint32_t low = unit16<Big>(p + 2); low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
        length = 4;
      } else {
        problem = Problem::unpaired_high;
      }
    } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
      problem = Problem::lone_low;
    }
    if (problem != Problem::none) {
      if (!replace) {
        s = bad(problem, unit);
        break;
      }
      cp = replacement_character;  // for the one unit; what follows it is read on its own
    }
    if (!put_utf8(o, out_end, cp)) {
      s = stopped(Stop::output_full);
      break;
    }
    p += length;
  }
  return finished(s, in, p, out, o);
}

template <bool Big>
Step decode_utf32(std::string_view in, char* out, char* out_end, bool last, bool replace) noexcept {
  const char* p = in.data();
  const char* const end = p + in.size();
  char* o = out;
  Step s;
  for (;;) {
    if (left(p, end) < 4) {
      s = p == end ? stopped(Stop::input_used) : cut_unit(p, end, o, out_end, 4, last, replace);
      break;
    }
    const std::uint32_t unit = unit32<Big>(p);
    if (unit < 0x80 && o != out_end) {
      *o++ = static_cast<char>(unit);
      p += 4;
      continue;
    }
    char32_t cp = unit;
    if (unit > 0x10FFFF || (unit >= 0xD800 && unit <= 0xDFFF)) {
      if (!replace) {
        s = bad(unit > 0x10FFFF ? Problem::beyond_max : Problem::surrogate, unit);
        break;
      }
      cp = replacement_character;
    }
    if (!put_utf8(o, out_end, cp)) {
      s = stopped(Stop::output_full);
      break;
    }
    p += 4;
  }
  return finished(s, in, p, out, o);
}

template <bool Windows>
Step decode_8bit(std::string_view in, char* out, char* out_end, bool replace) noexcept {
  const char* p = in.data();
  const char* const end = p + in.size();
  char* o = out;
  Step s;
  for (;;) {
    const std::size_t ascii =
        kernels::ascii::prefix_length(p, std::min(left(p, end), left(o, out_end)));
    if (ascii > 0) std::memcpy(o, p, ascii);
    p += ascii;
    o += ascii;
    if (p == end) {
      s = stopped(Stop::input_used);
      break;
    }
    const auto byte = static_cast<unsigned char>(*p);
    char32_t cp = byte;
    if (Windows && byte >= 0x80 && byte < 0xA0) {
      cp = windows_1252_c1[byte - 0x80];
      if (cp == 0) {
        if (!replace) {
          s = bad(Problem::undefined_byte, byte);
          break;
        }
        cp = replacement_character;
      }
    }
    if (!put_utf8(o, out_end, cp)) {
      s = stopped(Stop::output_full);
      break;
    }
    ++p;
  }
  return finished(s, in, p, out, o);
}

// ---- Encoding -------------------------------------------------------------------------------

inline bool is_continuation(const char* p) noexcept {
  return (static_cast<unsigned char>(*p) & 0xC0) == 0x80;
}

// The well-formed multi-byte sequence at `p`, inline (text in another script is made of them);
// false for anything else, which utf8::decode then judges.
inline bool well_formed(const char* p, const char* end, char32_t& cp,
                        std::size_t& length) noexcept {
  const auto b0 = static_cast<unsigned char>(p[0]);
  const std::size_t n = left(p, end);
  if (b0 >= 0xC2 && b0 < 0xE0) {
    if (n < 2 || !is_continuation(p + 1)) return false;
    cp = char32_t{b0 & 0x1Fu} << 6 | (static_cast<unsigned char>(p[1]) & 0x3Fu);
    length = 2;
    return true;
  }
  if (b0 >= 0xE0 && b0 < 0xF0) {
    if (n < 3 || !is_continuation(p + 1) || !is_continuation(p + 2)) return false;
    const char32_t v = char32_t{b0 & 0x0Fu} << 12 |
                       char32_t{static_cast<unsigned char>(p[1]) & 0x3Fu} << 6 |
                       (static_cast<unsigned char>(p[2]) & 0x3Fu);
    if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF)) return false;
    cp = v;
    length = 3;
    return true;
  }
  if (b0 >= 0xF0 && b0 < 0xF5) {
    if (n < 4 || !is_continuation(p + 1) || !is_continuation(p + 2) || !is_continuation(p + 3)) {
      return false;
    }
    const char32_t v = char32_t{b0 & 0x07u} << 18 |
                       char32_t{static_cast<unsigned char>(p[1]) & 0x3Fu} << 12 |
                       char32_t{static_cast<unsigned char>(p[2]) & 0x3Fu} << 6 |
                       (static_cast<unsigned char>(p[3]) & 0x3Fu);
    if (v < 0x10000 || v > 0x10FFFF) return false;
    cp = v;
    length = 4;
    return true;
  }
  return false;
}

// A target encoding: `ascii` converts a run of ASCII input bytes (returning how many) into room
// for `room` output bytes, each taking `ascii_width`; `put` writes one code point and returns
// its length, 0 if it does not fit, -1 if the encoding lacks it.
template <bool Big>
struct Utf16Target {
  static constexpr std::size_t ascii_width = 2;
  static std::size_t ascii(const char* p, std::size_t n, char* o, std::size_t room) noexcept {
    return kernels::ascii::widen_to_utf16(p, std::min(n, room / 2), o,
                                          Big ? std::endian::big : std::endian::little);
  }
  static int put(char32_t cp, char* o, std::size_t room) noexcept {
    if (cp < 0x10000) {
      if (room < 2) return 0;
      store_unit16<Big>(o, cp);
      return 2;
    }
    if (room < 4) return 0;
    store_unit16<Big>(o, 0xD800 + ((cp - 0x10000) >> 10));
    store_unit16<Big>(o + 2, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    return 4;
  }
};

template <bool Big>
struct Utf32Target {
  static constexpr std::size_t ascii_width = 4;
  static std::size_t ascii(const char* p, std::size_t n, char* o, std::size_t room) noexcept {
    const std::size_t most = std::min(n, room / 4);
    std::size_t i = 0;
    for (; i < most && static_cast<unsigned char>(p[i]) < 0x80; ++i) {
      store_unit32<Big>(o + 4 * i, static_cast<unsigned char>(p[i]));
    }
    return i;
  }
  static int put(char32_t cp, char* o, std::size_t room) noexcept {
    if (room < 4) return 0;
    store_unit32<Big>(o, cp);
    return 4;
  }
};

template <bool Windows>
struct EightBitTarget {
  static constexpr std::size_t ascii_width = 1;
  static std::size_t ascii(const char* p, std::size_t n, char* o, std::size_t room) noexcept {
    const std::size_t k = kernels::ascii::prefix_length(p, std::min(n, room));
    if (k > 0) std::memcpy(o, p, k);
    return k;
  }
  static int byte_for(char32_t cp) noexcept {
    if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) return static_cast<int>(cp);
    if (!Windows) return cp <= 0xFF ? static_cast<int>(cp) : -1;
    for (int i = 0; i < 32; ++i) {
      if (windows_1252_c1[i] != 0 && windows_1252_c1[i] == cp) return 0x80 + i;
    }
    return -1;
  }
  static int put(char32_t cp, char* o, std::size_t room) noexcept {
    const int b = byte_for(cp);
    if (b < 0) return -1;
    if (room < 1) return 0;
    *o = static_cast<char>(b);
    return 1;
  }
};

template <class Target>
Step encode_to(std::string_view in, char* out, char* out_end, bool last, bool replace) noexcept {
  const char* p = in.data();
  const char* const end = p + in.size();
  char* o = out;
  Step s;
  for (;;) {
    const std::size_t ascii = Target::ascii(p, left(p, end), o, left(o, out_end));
    p += ascii;
    o += ascii * Target::ascii_width;
    if (p == end) {
      s = stopped(Stop::input_used);
      break;
    }
    const auto lead = static_cast<unsigned char>(*p);
    char32_t cp = lead;  // ASCII here only when the run stopped for room
    std::size_t length = 1;
    if (lead >= 0x80 && !well_formed(p, end, cp, length)) {
      const utf8::Decoded d = utf8::decode(p, end);
      cp = d.code_point;
      length = d.length;
      if (!last && undecided(d, p, end)) {
        s = stopped(Stop::incomplete, bytes_to_decide(lead));
        break;
      }
      if (d.error != utf8::Error::none) {
        if (!replace) {
          s = bad(Problem::invalid_utf8, lead);
          s.utf8_error = d.error;
          break;
        }
        cp = replacement_character;
      }
    }
    const int written = Target::put(cp, o, left(o, out_end));
    if (written < 0) {
      if (!replace) {
        s = bad(Problem::unrepresentable, static_cast<std::uint32_t>(cp));
        break;
      }
      if (o == out_end) {
        s = stopped(Stop::output_full);
        break;
      }
      *o++ = '?';
    } else if (written == 0) {
      s = stopped(Stop::output_full);
      break;
    } else {
      o += written;
    }
    p += length;
  }
  return finished(s, in, p, out, o);
}

}  // namespace

Step decode(Encoding encoding, std::string_view in, char* out, char* out_end, bool last,
            bool replace) noexcept {
  switch (encoding) {
    case Encoding::utf8: return copy_utf8(in, out, out_end, last, replace);
    case Encoding::utf16le: return decode_utf16<false>(in, out, out_end, last, replace);
    case Encoding::utf16be: return decode_utf16<true>(in, out, out_end, last, replace);
    case Encoding::utf32le: return decode_utf32<false>(in, out, out_end, last, replace);
    case Encoding::utf32be: return decode_utf32<true>(in, out, out_end, last, replace);
    case Encoding::iso_8859_1: return decode_8bit<false>(in, out, out_end, replace);
    case Encoding::windows_1252: return decode_8bit<true>(in, out, out_end, replace);
  }
  return {};
}

Step encode(Encoding encoding, std::string_view in, char* out, char* out_end, bool last,
            bool replace) noexcept {
  switch (encoding) {
    case Encoding::utf8: return copy_utf8(in, out, out_end, last, replace);
    case Encoding::utf16le: return encode_to<Utf16Target<false>>(in, out, out_end, last, replace);
    case Encoding::utf16be: return encode_to<Utf16Target<true>>(in, out, out_end, last, replace);
    case Encoding::utf32le: return encode_to<Utf32Target<false>>(in, out, out_end, last, replace);
    case Encoding::utf32be: return encode_to<Utf32Target<true>>(in, out, out_end, last, replace);
    case Encoding::iso_8859_1:
      return encode_to<EightBitTarget<false>>(in, out, out_end, last, replace);
    case Encoding::windows_1252:
      return encode_to<EightBitTarget<true>>(in, out, out_end, last, replace);
  }
  return {};
}

std::size_t decode_growth(Encoding encoding) noexcept {
  switch (encoding) {
    case Encoding::utf8: return 3;  // one invalid byte becomes U+FFFD
    case Encoding::utf16le:
    case Encoding::utf16be: return 2;
    case Encoding::utf32le:
    case Encoding::utf32be: return 1;
    case Encoding::iso_8859_1: return 2;
    case Encoding::windows_1252: return 3;  // 0x80 is U+20AC
  }
  return 4;
}

std::size_t encode_growth(Encoding encoding) noexcept {
  switch (encoding) {
    case Encoding::utf8: return 3;
    case Encoding::utf16le:
    case Encoding::utf16be: return 2;  // ASCII; U+FFFD for one invalid byte
    case Encoding::utf32le:
    case Encoding::utf32be: return 4;
    case Encoding::iso_8859_1:
    case Encoding::windows_1252: return 1;
  }
  return 4;
}

std::string describe(const Step& step, Encoding encoding, bool decoding) {
  const std::string_view name = encoding_name(encoding);
  const std::uint32_t v = step.value;
  switch (step.problem) {
    case Problem::none: break;
    case Problem::truncated:
      return fmt::format("invalid {}: the input ends inside a code unit ({} of {} bytes)", name, v,
                         encoding == Encoding::utf16le || encoding == Encoding::utf16be ? 2 : 4);
    case Problem::unpaired_high:
      return fmt::format("invalid {}: high surrogate 0x{:04X} not followed by a low surrogate",
                         name, v);
    case Problem::lone_low:
      return fmt::format("invalid {}: low surrogate 0x{:04X} without a high surrogate before it",
                         name, v);
    case Problem::beyond_max:
      return fmt::format("invalid {}: code unit 0x{:08X} is beyond U+10FFFF", name, v);
    case Problem::surrogate:
      return fmt::format("invalid {}: code unit 0x{:08X} is a surrogate, not a character", name, v);
    case Problem::undefined_byte:
      return fmt::format("invalid {}: byte 0x{:02x} is unassigned", name, v);
    case Problem::invalid_utf8:
      return utf8::describe_invalid_byte(static_cast<unsigned char>(v), step.utf8_error);
    case Problem::unrepresentable: return fmt::format("U+{:04X} cannot be written in {}", v, name);
  }
  return decoding ? fmt::format("invalid {}", name) : std::string("invalid UTF-8");
}

}  // namespace bufstream::transcode
