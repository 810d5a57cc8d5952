#include "pinyin_key.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include <bufstream/utf8.hpp>

namespace bufstream::cedict {

namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

}  // namespace

namespace {

// One letter (or other byte) of a pinyin text, its case and the spelling of ü normalised.
struct Unit {
  char c;                  // 'a'..'z' ('v' for ü), a tone digit, or any other byte kept as is
  std::uint8_t tone = 0;   // 1..4 for a vowel written with a tone mark
  bool separator = false;  // a space, tab or apostrophe: ends a syllable, not kept
};

constexpr bool is_vowel(char c) noexcept {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'v';
}

// The letter and tone of a vowel (or syllabic n) written with a tone mark, e.g. U+01CE ǎ is
// {'a', 3}; {0, 0} for any other code point. Capitals are included.
struct Marked {
  char letter;
  std::uint8_t tone;
};
Marked marked_vowel(char32_t cp) noexcept {
  struct Mark {
    char32_t small, capital;
    Marked marked;
  };
  static constexpr Mark marks[] = {
      {0x0101, 0x0100, {'a', 1}}, {0x00E1, 0x00C1, {'a', 2}}, {0x01CE, 0x01CD, {'a', 3}},
      {0x00E0, 0x00C0, {'a', 4}}, {0x0113, 0x0112, {'e', 1}}, {0x00E9, 0x00C9, {'e', 2}},
      {0x011B, 0x011A, {'e', 3}}, {0x00E8, 0x00C8, {'e', 4}}, {0x012B, 0x012A, {'i', 1}},
      {0x00ED, 0x00CD, {'i', 2}}, {0x01D0, 0x01CF, {'i', 3}}, {0x00EC, 0x00CC, {'i', 4}},
      {0x014D, 0x014C, {'o', 1}}, {0x00F3, 0x00D3, {'o', 2}}, {0x01D2, 0x01D1, {'o', 3}},
      {0x00F2, 0x00D2, {'o', 4}}, {0x016B, 0x016A, {'u', 1}}, {0x00FA, 0x00DA, {'u', 2}},
      {0x01D4, 0x01D3, {'u', 3}}, {0x00F9, 0x00D9, {'u', 4}}, {0x01D6, 0x01D5, {'v', 1}},
      {0x01D8, 0x01D7, {'v', 2}}, {0x01DA, 0x01D9, {'v', 3}}, {0x01DC, 0x01DB, {'v', 4}},
      {0x00FC, 0x00DC, {'v', 0}},  // ü without a tone mark
      {0x0144, 0x0143, {'n', 2}}, {0x0148, 0x0147, {'n', 3}}, {0x01F9, 0x01F8, {'n', 4}},
  };
  for (const Mark& m : marks) {
    if (cp == m.small || cp == m.capital) return m.marked;
  }
  return {0, 0};
}

std::vector<Unit> units_of(std::string_view pinyin) {
  std::vector<Unit> units;
  const char* p = pinyin.data();
  const char* const end = p + pinyin.size();
  while (p != end) {
    const char c = *p;
    if (c == ' ' || c == '\t' || c == '\'') {
      units.push_back({' ', 0, true});
      ++p;
    } else if ((c == 'u' || c == 'U') && end - p >= 2 && p[1] == ':') {
      units.push_back({'v'});
      p += 2;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      const utf8::Decoded d = utf8::decode(p, end);
      const Marked m = d.error == utf8::Error::none ? marked_vowel(d.code_point) : Marked{0, 0};
      if (m.letter != 0) {
        units.push_back({m.letter, m.tone});
        p += d.length;
      } else {
        units.push_back({c});  // kept byte by byte
        ++p;
      }
    } else {
      units.push_back({c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c});
      ++p;
    }
  }
  return units;
}

// Whether a syllable whose toned vowel came before `units[i]` goes on with it: more vowels,
// then a final n, ng or r unless that letter starts the next syllable (a vowel follows).
bool continues_syllable(const std::vector<Unit>& units, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) {
    return k < units.size() && !units[k].separator ? units[k].c : '\0';
  };
  const char c = at(i);
  if (is_vowel(c)) return units[i].tone == 0;
  if (c == 'r') return !is_vowel(at(i + 1));
  if (c == 'n') return !is_vowel(at(i + 1));
  if (c == 'g') return i > 0 && at(i - 1) == 'n' && !is_vowel(at(i + 1));  // the g of a final ng
  return false;
}

// The key of a pinyin byte by byte while its bytes are ASCII (every CC-CEDICT entry's pinyin
// but a few hundred): with no tone mark there is no pending tone, so each byte maps alone (but
// for "u:"), and up to the first non-ASCII byte the key is exactly what the units give. Index
// builds and scans do this once per entry, so it is a table look-up per byte, never allocating.
//
// What each byte becomes: itself lower-cased; `drop` (a separator, or a tone digit in a key
// without tones); or `special`: ':' (which makes a 'u' before it a 'v') and non-ASCII bytes.
constexpr unsigned char drop = 0;
constexpr unsigned char special = 0xFF;

struct KeyBytes {
  std::array<unsigned char, 256> toned{};
  std::array<unsigned char, 256> toneless{};
};

constexpr KeyBytes key_bytes = [] {
  KeyBytes t;
  for (unsigned b = 0; b < 256; ++b) {
    const auto c = static_cast<char>(b);
    unsigned char m = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (b >= 0x80 || c == ':') m = special;
    if (c == ' ' || c == '\t' || c == '\'') m = drop;
    t.toned[b] = m;
    t.toneless[b] = is_digit(c) ? drop : m;
  }
  return t;
}();

constexpr bool is_u(char c) noexcept { return c == 'u' || c == 'U'; }

// Writes the key of an ASCII `pinyin` at `out`, which has room for `pinyin.size()` bytes (a key
// is never longer), and returns its end; nullptr at a non-ASCII byte. Every byte is written and
// the end moves on by one unless it is dropped, so that spaces and digits cost no branch.
char* write_ascii_key(std::string_view pinyin, bool keep_tones, char* out) noexcept {
  const std::array<unsigned char, 256>& map = keep_tones ? key_bytes.toned : key_bytes.toneless;
  for (std::size_t i = 0; i < pinyin.size(); ++i) {
    unsigned char m = map[static_cast<unsigned char>(pinyin[i])];
    if (m == special) [[unlikely]] {
      if (static_cast<unsigned char>(pinyin[i]) >= 0x80) return nullptr;
      if (i > 0 && is_u(pinyin[i - 1])) {  // "u:" is 'v': the 'u' was the last byte written
        out[-1] = 'v';
        continue;
      }
      m = ':';
    }
    *out = static_cast<char>(m);
    out += m != drop ? 1 : 0;
  }
  return out;
}

}  // namespace

void append_pinyin_key(std::string_view pinyin, bool keep_tones, std::string& out) {
  const std::size_t start = out.size();
  out.resize(start + pinyin.size());
  if (char* const end = write_ascii_key(pinyin, keep_tones, out.data() + start)) {
    out.resize(static_cast<std::size_t>(end - out.data()));
    return;
  }
  out.resize(start);
  detail::append_pinyin_key_by_units(pinyin, keep_tones, out);
}

bool toneless_key_is(std::string_view pinyin, std::string_view key, std::string& scratch) {
  // Compared as the key is made, so that most entries are rejected at their first letters.
  std::size_t j = 0;
  for (std::size_t i = 0; i < pinyin.size(); ++i) {
    unsigned char m = key_bytes.toneless[static_cast<unsigned char>(pinyin[i])];
    if (m == drop) continue;
    if (m == special) {
      if (static_cast<unsigned char>(pinyin[i]) >= 0x80) {  // the general path decides
        scratch.clear();
        detail::append_pinyin_key_by_units(pinyin, /*keep_tones=*/false, scratch);
        return scratch == key;
      }
      m = ':';  // not after a 'u': that pair is read at the 'u'
    } else if (m == 'u' && i + 1 < pinyin.size() && pinyin[i + 1] == ':') {
      m = 'v';
      ++i;
    }
    if (j == key.size() || static_cast<unsigned char>(key[j]) != m) return false;
    ++j;
  }
  return j == key.size();
}

void detail::append_pinyin_key_by_units(std::string_view pinyin, bool keep_tones,
                                        std::string& out) {
  const std::vector<Unit> units = units_of(pinyin);
  std::uint8_t pending = 0;  // the tone of a marked vowel, written where its syllable ends
  const auto end_syllable = [&] {
    if (pending != 0 && keep_tones) out.push_back(static_cast<char>('0' + pending));
    pending = 0;
  };
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Unit& u = units[i];
    if (pending != 0 && !continues_syllable(units, i)) end_syllable();
    if (u.separator) continue;
    if (is_digit(u.c)) {
      if (keep_tones) out.push_back(u.c);
      continue;
    }
    out.push_back(u.c);
    if (u.tone != 0) pending = u.tone;
  }
  end_syllable();
}

bool tones_match(std::string_view query_key, std::string_view entry_key) noexcept {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < query_key.size() || j < entry_key.size()) {
    if (i < query_key.size() && j < entry_key.size() && query_key[i] == entry_key[j]) {
      ++i;
      ++j;
    } else if (j < entry_key.size() && is_digit(entry_key[j]) &&
               (i == query_key.size() || !is_digit(query_key[i]))) {
      ++j;  // the query leaves this syllable's tone open
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace bufstream::cedict
