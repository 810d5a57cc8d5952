// Splitting English glosses into the words that English look-ups match whole, and finding one
// such word in a text without splitting it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <bufstream/kernels/swar.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::cedict {

/// Part of a word: an ASCII letter or digit, or any byte of a non-ASCII character (so that
/// "café" and "拜拜" are words of their own).
constexpr bool is_word_byte(char c) noexcept {
  const auto b = static_cast<unsigned char>(c);
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b >= 0x80;
}

/// `c` with ASCII capitals lower-cased; every other byte as it is.
constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

namespace detail {

namespace swar = bufstream::kernels::swar;

// The top bit of each byte of `v` that lies in [lo, hi], for a `v` whose bytes are below 0x80
// (so that no sum carries into the next byte).
constexpr std::uint64_t bytes_in_range(std::uint64_t v, unsigned char lo,
                                       unsigned char hi) noexcept {
  return (v + swar::broadcast(static_cast<unsigned char>(0x80U - lo))) &
         ~(v + swar::broadcast(static_cast<unsigned char>(0x7FU - hi))) & swar::high_bits;
}

/// Which of eight bytes (the first in the lowest position) are word bytes: bit i for byte i.
constexpr unsigned word_byte_bits(std::uint64_t x) noexcept {
  const std::uint64_t ascii = x & ~swar::high_bits;
  const std::uint64_t word = (x & swar::high_bits) | bytes_in_range(ascii, '0', '9') |
                             bytes_in_range(ascii | swar::broadcast(0x20), 'a', 'z');
  return static_cast<unsigned>(swar::gather_flags(word));
}

/// Eight bytes with ASCII capitals lower-cased (`ascii_lower` on each).
constexpr std::uint64_t lower_eight(std::uint64_t x) noexcept {
  return x | ((bytes_in_range(x & ~swar::high_bits, 'A', 'Z') & ~x) >> 2);
}

}  // namespace detail

/// Calls `on_word(std::string_view)` with each word of `text` as it stands (not lower-cased),
/// in order. The word bytes are found eight at a time (`word_byte_bits`) into a mask of 64
/// bytes, whose runs of set bits are the words: a bit scan per word's start and end, not a
/// branch per byte (that mispredicted at every word's edges, and was most of building the
/// English index).
template <class OnWord>
void for_each_word_in(std::string_view text, OnWord on_word) {
  const char* const p = text.data();
  const std::size_t n = text.size();
  std::size_t start = 0;  // of the word under way, if `in_word`
  bool in_word = false;
  for (std::size_t base = 0; base < n; base += 64) {
    const std::size_t len = n - base < 64 ? n - base : 64;
    std::uint64_t mask = 0;  // bit i: byte base + i is a word byte (none past `len`)
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8)
      mask |= std::uint64_t{detail::word_byte_bits(detail::swar::load_memory_order(p + base + i))}
              << i;
    if (i < len) {
      mask |= std::uint64_t{detail::word_byte_bits(
                  detail::swar::load_memory_order_partial(p + base + i, len - i))}
              << i;
    }
    std::size_t pos = 0;  // the window's bytes before it are done
    for (;;) {
      if (in_word) {
        const std::uint64_t after = ~mask & (~std::uint64_t{0} << pos);
        const std::size_t end = after == 0 ? 64 : static_cast<std::size_t>(std::countr_zero(after));
        if (end >= len) break;  // the word goes on in the next window, or ends the text
        on_word(std::string_view(p + start, base + end - start));
        in_word = false;
        pos = end;
      }
      const std::uint64_t from = mask & (~std::uint64_t{0} << pos);
      if (from == 0) break;
      pos = static_cast<std::size_t>(std::countr_zero(from));
      start = base + pos;
      in_word = true;
    }
  }
  if (in_word) on_word(std::string_view(p + start, n - start));
}

/// Calls `on_word(std::string_view)` with each word of `text`, lower-cased (ASCII) into
/// `scratch`; the view is valid until the next call.
template <class OnWord>
void for_each_word(std::string_view text, std::string& scratch, OnWord on_word) {
  for_each_word_in(text, [&](std::string_view word) {
    scratch.assign(word);
    for (char& c : scratch) c = ascii_lower(c);
    on_word(std::string_view(scratch));
  });
}

/// True when `for_each_word(text, ...)` would give `word` (a word as it gives them: lower-case
/// word bytes, not empty), found without splitting `text`: an occurrence of `word`, ignoring
/// ASCII case, with no word byte just before or after it. Glosses joined by '/' (not a word
/// byte) can be searched at once: the words are those of each gloss.
///
/// A look-up that scans every entry's glosses (megabytes) calls this: the places where the
/// word's first two bytes stand are found eight at a time (for a letter, bytes ORed with 0x20,
/// which makes a capital its small letter and no other byte a letter), each checked in full.
/// Two bytes rather than one: on the shipped glosses a search for "ni", "to" or "calico" takes
/// 20-35% less time (a single common letter stands every few bytes, and each place cost a full
/// check), for "zebra" 30% more; the slowest words are the ones that count.
inline bool contains_word(std::string_view text, std::string_view word) noexcept {
  const std::size_t w = word.size();
  if (w == 0 || w > text.size()) return false;
  const char* const p = text.data();
  const std::size_t n = text.size();
  const std::size_t last = n - w;  // the last place a match can start
  const char first = word[0];
  const auto matches_at = [&](std::size_t i) {
    if (i > 0 && is_word_byte(p[i - 1])) return false;
    if (i < last && is_word_byte(p[i + w])) return false;
    for (std::size_t k = 0; k < w; ++k) {
      if (ascii_lower(p[i + k]) != word[k]) return false;
    }
    return true;
  };
  // (x | fold) ^ pattern has a zero byte where x holds the byte (in either case, for a letter);
  // a one-byte word's second probe matches every byte (all ones ORed, then cleared).
  struct Probe {
    std::uint64_t fold;
    std::uint64_t pattern;
  };
  const auto probe_for = [](char c) {
    return Probe{c >= 'a' && c <= 'z' ? detail::swar::broadcast(0x20) : 0,
                 detail::swar::broadcast(static_cast<unsigned char>(c))};
  };
  const Probe probe0 = probe_for(first);
  const Probe probe1 = w > 1 ? probe_for(word[1]) : Probe{~std::uint64_t{0}, ~std::uint64_t{0}};
  // The last bytes are loaded short, as zeros, which never match: a word byte is not zero, and
  // a letter's pattern has 0x20 in every byte.
  const auto load = [&](std::size_t at) {
    return n - at >= 8 ? detail::swar::load_memory_order(p + at)
                       : detail::swar::load_memory_order_partial(p + at, n - at);
  };
  // Every zero byte of y is flagged (and a borrow may flag some more above one: checked and
  // rejected like any other place).
  const auto zeros = [](std::uint64_t y) {
    return detail::swar::zero_bytes(y) & detail::swar::high_bits;
  };
  for (std::size_t i = 0; i <= last; i += 8) {
    const std::uint64_t here = zeros((load(i) | probe0.fold) ^ probe0.pattern);
    const std::uint64_t next = zeros((load(i + 1) | probe1.fold) ^ probe1.pattern);
    for (std::uint64_t found = here & next; found != 0; found &= found - 1) {
      const std::size_t k = i + static_cast<std::size_t>(std::countr_zero(found)) / 8;
      if (k > last) return false;
      if (matches_at(k)) return true;
    }
  }
  return false;
}

}  // namespace bufstream::cedict
