#include <bufstream/encoding.hpp>

#include <algorithm>
#include <array>
#include <utility>

#include <bufstream/errors.hpp>

#include "transcode.hpp"

namespace bufstream {

std::string_view encoding_name(Encoding encoding) noexcept {
  switch (encoding) {
    case Encoding::utf8: return "UTF-8";
    case Encoding::utf16le: return "UTF-16LE";
    case Encoding::utf16be: return "UTF-16BE";
    case Encoding::utf32le: return "UTF-32LE";
    case Encoding::utf32be: return "UTF-32BE";
    case Encoding::iso_8859_1: return "ISO-8859-1";
    case Encoding::windows_1252: return "Windows-1252";
  }
  return "unknown encoding";
}

std::optional<Encoding> parse_encoding(std::string_view label) noexcept {
  std::string key;
  for (const char c : label) {
    if (c == '-' || c == '_') continue;
    key += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  static constexpr std::array<std::pair<std::string_view, Encoding>, 10> labels{{
      {"utf8", Encoding::utf8},
      {"utf16le", Encoding::utf16le},
      {"utf16be", Encoding::utf16be},
      {"utf32le", Encoding::utf32le},
      {"utf32be", Encoding::utf32be},
      {"iso88591", Encoding::iso_8859_1},
      {"latin1", Encoding::iso_8859_1},
      {"windows1252", Encoding::windows_1252},
      {"cp1252", Encoding::windows_1252},
      {"win1252", Encoding::windows_1252},
  }};
  for (const auto& [name, encoding] : labels) {
    if (key == name) return encoding;
  }
  return std::nullopt;
}

std::string_view byte_order_mark(Encoding encoding) noexcept {
  using namespace std::string_view_literals;
  switch (encoding) {
    case Encoding::utf8: return "\xEF\xBB\xBF"sv;
    case Encoding::utf16le: return "\xFF\xFE"sv;
    case Encoding::utf16be: return "\xFE\xFF"sv;
    case Encoding::utf32le: return "\xFF\xFE\0\0"sv;
    case Encoding::utf32be: return "\0\0\xFE\xFF"sv;
    case Encoding::iso_8859_1:
    case Encoding::windows_1252: break;
  }
  return {};
}

std::optional<DetectedBom> detect_bom(std::string_view start) noexcept {
  // The longest marks first: UTF-32LE's begins with UTF-16LE's.
  for (const Encoding e : {Encoding::utf32le, Encoding::utf32be, Encoding::utf8, Encoding::utf16le,
                           Encoding::utf16be}) {
    const std::string_view mark = byte_order_mark(e);
    if (start.substr(0, mark.size()) == mark) return DetectedBom{e, mark.size()};
  }
  return std::nullopt;
}

namespace {

// Converts a whole buffer: each step into the room its input can need at most.
template <class Convert>
std::string convert_all(std::string_view in, Encoding encoding, std::size_t growth, bool decoding,
                        Convert convert, OnInvalid on_invalid) {
  std::string out;
  out.resize(in.size() * growth + 4);
  const transcode::Step s = convert(encoding, in, out.data(), out.data() + out.size(), true,
                                    on_invalid == OnInvalid::replace);
  if (s.stop == transcode::Stop::invalid) {
    throw ParseError({s.read, 0, 0}, transcode::describe(s, encoding, decoding));
  }
  out.resize(s.written);
  return out;
}

}  // namespace

std::string decode_to_utf8(std::string_view bytes, Encoding encoding, OnInvalid on_invalid) {
  return convert_all(bytes, encoding, transcode::decode_growth(encoding), true, transcode::decode,
                     on_invalid);
}

std::string encode_from_utf8(std::string_view text, Encoding encoding, OnInvalid on_invalid) {
  return convert_all(text, encoding, transcode::encode_growth(encoding), false, transcode::encode,
                     on_invalid);
}

}  // namespace bufstream
