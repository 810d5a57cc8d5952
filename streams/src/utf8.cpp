#include <bufstream/utf8.hpp>

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include <bufstream/errors.hpp>
#include <bufstream/kernels/utf8.hpp>

namespace bufstream::utf8 {

std::string_view describe(Error error) noexcept {
  switch (error) {
    case Error::none: return "valid UTF-8";
    case Error::invalid_lead_byte: return "invalid UTF-8: invalid lead byte";
    case Error::invalid_continuation_byte: return "invalid UTF-8: invalid continuation byte";
    case Error::overlong_encoding: return "invalid UTF-8: overlong encoding";
    case Error::surrogate: return "invalid UTF-8: encoded surrogate";
    case Error::beyond_max_code_point: return "invalid UTF-8: code point beyond U+10FFFF";
    case Error::truncated_sequence: return "invalid UTF-8: truncated sequence";
  }
  return "invalid UTF-8";
}

std::string describe_invalid_byte(unsigned char lead, Error error) {
  return "expected UTF-8 text but found " + describe_byte(lead) + " (" +
         std::string(describe(error)) + ")";
}

namespace {

constexpr bool is_continuation(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

}  // namespace

Decoded decode(const char* p, const char* end) noexcept {
  const auto b0 = static_cast<unsigned char>(p[0]);
  if (b0 < 0x80) return {b0, 1, Error::none};
  if (b0 < 0xC0) return {0, 1, Error::invalid_lead_byte};
  if (b0 == 0xC0 || b0 == 0xC1) {
    // C0/C1 can only start an overlong form of U+0000..U+007F.
    if (end - p >= 2 && is_continuation(static_cast<unsigned char>(p[1])))
      return {0, 2, Error::overlong_encoding};
    return {0, 1, Error::overlong_encoding};
  }
  // F5..F7 would start a code point beyond U+10FFFF; like F8..FF they never occur in UTF-8,
  // and classifying them by the lead byte alone gives the same answer however the bytes are
  // split across windows.
  if (b0 >= 0xF5) return {0, 1, Error::invalid_lead_byte};
  const std::size_t length = b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  char32_t cp = b0 & (0x7F >> length);
  std::size_t i = 1;
  for (; i < length; ++i) {
    if (p + i == end) return {0, static_cast<std::uint8_t>(i), Error::truncated_sequence};
    const auto b = static_cast<unsigned char>(p[i]);
    if (!is_continuation(b))
      return {0, static_cast<std::uint8_t>(i), Error::invalid_continuation_byte};
    cp = (cp << 6) | (b & 0x3F);
  }
  const auto len = static_cast<std::uint8_t>(length);
  if ((length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000))
    return {0, len, Error::overlong_encoding};
  if (cp >= 0xD800 && cp <= 0xDFFF) return {0, len, Error::surrogate};
  if (cp > 0x10FFFF) return {0, len, Error::beyond_max_code_point};
  return {cp, len, Error::none};
}

char* encode(char32_t cp, char* out) noexcept {
  if (cp < 0x80) {
    *out++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out++ = static_cast<char>(0xC0 | (cp >> 6));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (cp >> 12));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (cp >> 18));
    *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

void put(WriteStream& out, char32_t cp) {
  if (!is_scalar_value(cp)) {
    throw UsageError(fmt::format("utf8::put: U+{:04X} is not a Unicode scalar value",
                                 static_cast<std::uint32_t>(cp)));
  }
  char* p = out.reserve(4);
  out.commit(static_cast<std::size_t>(encode(cp, p) - p));
}

std::optional<char32_t> next(ReadStream& in) {
  std::string_view w = in.fill(1);
  if (w.empty()) return std::nullopt;
  const auto lead = static_cast<unsigned char>(w[0]);
  if (lead < 0x80) {
    in.advance(1);
    return lead;
  }
  const std::size_t want = sequence_length(lead);
  if (want > 1 && w.size() < want) w = in.fill(want);  // a sequence straddling two windows
  const Decoded d = decode(w.data(), w.data() + w.size());
  if (d.error != Error::none)
    throw ParseError({in.position(), 0, 0}, std::string(describe(d.error)));
  in.advance(d.length);
  return d.code_point;
}

bool skip_bom(ReadStream& in) {
  // Decide on the first byte when it cannot start a mark, so that a descriptor with only one or
  // two bytes available so far (a terminal, a pipe) is not waited on.
  const std::string_view first = in.fill(1);
  if (first.empty() || first[0] != '\xEF') return false;
  const std::size_t n = bom_length(in.fill(bom.size()));
  in.advance(n);
  return n != 0;
}

void append_utf16(std::string_view text, std::u16string& out) {
  const char* const begin = text.data();
  const char* p = begin;
  const char* const end = begin + text.size();
  while (p != end) {
    const auto b = static_cast<unsigned char>(*p);
    if (b < 0x80) {
      out.push_back(b);
      ++p;
      continue;
    }
    const Decoded d = decode(p, end);
    if (d.error != Error::none) {
      throw ParseError({static_cast<std::uint64_t>(p - begin), 0, 0},
                       std::string(describe(d.error)));
    }
    if (d.code_point < 0x10000) {
      out.push_back(static_cast<char16_t>(d.code_point));
    } else {
      const char32_t v = d.code_point - 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (v >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (v & 0x3FF)));
    }
    p += d.length;
  }
}

std::u16string to_utf16(std::string_view text) {
  std::u16string out;
  out.reserve(text.size());
  append_utf16(text, out);
  return out;
}

std::string from_utf16(std::u16string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  char buf[4];
  for (std::size_t i = 0; i < text.size(); ++i) {
    char32_t cp = text[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 &&
        text[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      throw ParseError({i, 0, 0},
                       fmt::format("lone UTF-16 surrogate 0x{:04X}", static_cast<unsigned>(cp)));
    }
    out.append(buf, encode(cp, buf));
  }
  return out;
}

std::optional<Invalid> find_invalid(std::string_view text) noexcept {
  static const kernels::utf8::Validate best = kernels::select(kernels::utf8::validate_forms());
  return best(text);
}

}  // namespace bufstream::utf8
