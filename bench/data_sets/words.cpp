#include "data_sets/words.hpp"

#include <array>
#include <string_view>

namespace bufstream::bench {
namespace {

constexpr std::array<std::string_view, 20> units{
    "",         "one",     "two",     "three",     "four",     "five",    "six",
    "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",  "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};

constexpr std::array<std::string_view, 10> tens{"",      "",      "twenty",  "thirty", "forty",
                                                "fifty", "sixty", "seventy", "eighty", "ninety"};

// Scale words of successive groups of three digits; 2^64 needs seven groups.
constexpr std::array<std::string_view, 7> scales{
    "", " thousand", " million", " billion", " trillion", " quadrillion", " quintillion"};

// Pharo's threeDigitName: 1..999 spelled, without "and".
void append_below_thousand(std::string& out, unsigned n) {
  if (n > 99) {
    out += units[n / 100];
    out += " hundred";
    n %= 100;
    if (n == 0) return;
    out += ' ';
  }
  if (n < 20) {
    out += units[n];
    return;
  }
  out += tens[n / 10];
  if (n % 10 != 0) {
    out += '-';
    out += units[n % 10];
  }
}

}  // namespace

std::string words(std::int64_t value) {
  if (value == 0) return "zero";
  // The magnitude as unsigned, so that INT64_MIN has one too.
  std::uint64_t magnitude =
      value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  std::array<unsigned, scales.size()> groups{};
  std::size_t count = 0;
  while (magnitude != 0) {
    groups[count++] = static_cast<unsigned>(magnitude % 1000);
    magnitude /= 1000;
  }
  std::string out = value < 0 ? "negative " : "";
  bool first = true;
  for (std::size_t g = count; g-- > 0;) {
    if (groups[g] == 0) continue;
    if (!first) out += ", ";
    first = false;
    append_below_thousand(out, groups[g]);
    out += scales[g];
  }
  return out;
}

}  // namespace bufstream::bench
