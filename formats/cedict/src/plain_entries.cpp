#include "plain_entries.hpp"

#include <algorithm>
#include <bit>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#endif

namespace bufstream::cedict::detail {

namespace {

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define BUFSTREAM_CEDICT_SCAN_AVX2 1
#endif

// `take_entry` for any line, whose headwords or pinyin may lie past its first 64 bytes.
[[gnu::always_inline]] inline bool take_entry_general(const StructureMasks& masks, const char* chunk, std::size_t start,
                                              std::size_t lf, EntryOut& out, bool& crlf) noexcept {
  if (lf == start || chunk[start] == '#') return false;
  std::size_t end = lf;  // the line without its line end
  const bool cr = chunk[end - 1] == '\r';
  if (cr && --end == start) return false;
  const char* const line = chunk + start;
  const std::size_t last = end - 1 - start;  // the closing '/', from the line's start
  if (line[last] != '/') return false;
  // TRADITIONAL ' ' SIMPLIFIED ' ' '[' PINYIN ']' ' ' '/'. Positions are from the line's
  // start; a byte read below lies at or before the LF, which is in the chunk.
  // The first byte of a class at or after `from` (and at least 64, past the window), up to
  // `last`; beyond `last` if there is none.
  using Next = std::size_t (StructureMasks::*)(std::size_t, std::size_t) const noexcept;
  const auto beyond_window = [&](Next next, std::size_t from) {
    from = std::max<std::size_t>(from, 64);
    return from > last ? StructureMasks::none : (masks.*next)(start + from, start + last) - start;
  };
  std::uint64_t spaces = masks.space_window(start);
  const std::size_t t = spaces != 0 ? static_cast<std::size_t>(std::countr_zero(spaces))
                                    : beyond_window(&StructureMasks::next_space, 64);
  if (t == 0 || t >= last) return false;
  spaces &= spaces - 1;
  const std::size_t s = spaces != 0 ? static_cast<std::size_t>(std::countr_zero(spaces))
                                    : beyond_window(&StructureMasks::next_space, t + 1);
  if (s == t + 1 || s >= last || line[s + 1] != '[') return false;
  const std::size_t pinyin = s + 2;
  const std::uint64_t closes = pinyin < 64 ? masks.close_window(start) >> pinyin : 0;
  const std::size_t close = closes != 0 ? pinyin + static_cast<std::size_t>(std::countr_zero(closes))
                                        : beyond_window(&StructureMasks::next_close, pinyin);
  if (close >= last || line[close + 1] != ' ' || line[close + 2] != '/' || close + 3 >= last) return false;
  // GLOSS ('/' GLOSS)* '/': the glosses lie between the slashes from the one at `close + 2`
  // to the last, at `last`.
  GlossSpan* gloss = out.gloss;
  std::size_t g = close + 3;
  std::uint64_t slashes = g < 64 ? masks.slash_window(start) & (~std::uint64_t{0} << g) : 0;
  for (;;) {
    std::size_t slash;
    if (slashes != 0) {
      slash = static_cast<std::size_t>(std::countr_zero(slashes));
      slashes &= slashes - 1;
    } else {
      slash = beyond_window(&StructureMasks::next_slash, g);  // at most `last`
    }
    if (slash == g) return false;  // an empty gloss
    *gloss++ = {static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(slash - g)};
    if (slash == last) break;
    g = slash + 1;
  }
  *out.record++ = Record{line, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(s - t - 1),
                         static_cast<std::uint32_t>(close - pinyin), out.gloss_index};
  out.gloss_index += static_cast<std::uint32_t>(gloss - out.gloss);
  out.gloss = gloss;
  crlf |= cr;
  return true;
}

// The glosses of a plain entry: GLOSS ('/' GLOSS)* '/' between the slash before line byte
// `g` and the one at `last`, the line's last byte. Writes them from `gloss` and returns the
// end, or nullptr for an empty gloss. The slashes are read 64 bytes of the line at a time.
[[gnu::always_inline]] inline GlossSpan* take_glosses(const StructureMasks& masks, std::size_t start, std::size_t g,
                                                     std::size_t last, GlossSpan* gloss) noexcept {
  std::size_t base = g & ~std::size_t{63};  // the window's first byte, from the line's start
  std::uint64_t slashes = masks.slash_window(start + base) & (~std::uint64_t{0} << (g - base));
  for (;;) {
    while (slashes == 0) {  // ends: the slash at `last` is in some window up to `last`'s
      base += 64;
      slashes = masks.slash_window(start + base);
    }
    const std::size_t slash = base + static_cast<std::size_t>(std::countr_zero(slashes));
    slashes &= slashes - 1;
    if (slash == g) return nullptr;  // an empty gloss
    *gloss++ = {static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(slash - g)};
    if (slash == last) return gloss;
    g = slash + 1;
  }
}

// The line `chunk[start, lf)`, whose bytes are valid UTF-8, if it is a plain entry (CR LF
// allowed): writes it at `out` and returns true. Otherwise returns false, leaving `out` as it
// was and the line to `parse_line`, which finds exactly what `parse_line` would find here.
// A typical line has its headwords and pinyin in its first 64 bytes: they are found in one
// window of each mask, and the checks are combined so that a plain entry takes few branches;
// other lines go to `take_entry_general`.
[[gnu::always_inline]] inline bool take_entry(const StructureMasks& masks, const char* chunk, std::size_t start,
                                              std::size_t lf, EntryOut& out, bool& crlf) noexcept {
  // An empty line, a line "\r" and a comment all go to the parser, which knows them; after
  // this, the line has a byte before its LF (or CR LF).
  const char first = chunk[start];
  if ((first == '#') | (first == '\n') | (first == '\r')) return false;
  const bool cr = chunk[lf - 1] == '\r';
  const char* const line = chunk + start;
  const std::size_t last = lf - static_cast<std::size_t>(cr) - 1 - start;  // the closing '/'
  if (line[last] != '/') return false;
  // TRADITIONAL ' ' SIMPLIFIED ' ' '[' PINYIN ']' ' ' '/': the first two spaces and the
  // first ']' after them.
  const std::uint64_t spaces = masks.space_window(start);
  const std::uint64_t second_space = spaces & (spaces - 1);
  if (second_space == 0) return take_entry_general(masks, chunk, start, lf, out, crlf);
  const auto t = static_cast<std::size_t>(std::countr_zero(spaces));
  const auto s = static_cast<std::size_t>(std::countr_zero(second_space));
  const std::uint64_t closes = masks.close_window(start) >> s;
  if (closes == 0) return take_entry_general(masks, chunk, start, lf, out, crlf);
  const std::size_t close = s + static_cast<std::size_t>(std::countr_zero(closes));
  // After this check every byte read lies in the line, before `last`.
  if ((t == 0) | (s == t + 1) | (close + 3 >= last)) return false;
  if ((line[s + 1] != '[') | (line[close + 1] != ' ') | (line[close + 2] != '/')) return false;
  GlossSpan* const gloss_end = take_glosses(masks, start, close + 3, last, out.gloss);
  if (gloss_end == nullptr) return false;
  *out.record++ = Record{line, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(s - t - 1),
                         static_cast<std::uint32_t>(close - s - 2), out.gloss_index};
  out.gloss_index += static_cast<std::uint32_t>(gloss_end - out.gloss);
  out.gloss = gloss_end;
  crlf |= cr;
  return true;
}

// The scan, inlined into each compiled version (see `PlainEntryScanner`).
[[gnu::always_inline]] inline std::size_t scan_plain_entries(const StructureMasks& masks, const char* chunk,
                                                             std::size_t chunk_size, std::size_t valid_end,
                                                             PlainScan& scan) noexcept {
  EntryOut out = scan.out;
  std::uint64_t lines = scan.lines;
  bool crlf = scan.crlf;
  std::size_t start = scan.line_start;
  std::size_t stop = StructureMasks::none;
  if (start < chunk_size) {
    // The line ends, taken one by one from the words of their mask. (The `goto` leaves both
    // loops; the forms without it measured 3% to 10% more instructions.)
    const std::size_t last_word = (chunk_size - 1) / 64;
    std::size_t w = start / 64;
    std::uint64_t ends = masks.newline_word(w) & (~std::uint64_t{0} << (start % 64));
    for (;;) {
      while (ends == 0) {
        if (++w > last_word) goto no_more_lines;
        ends = masks.newline_word(w);
      }
      const std::size_t lf = w * 64 + static_cast<std::size_t>(std::countr_zero(ends));
      ends &= ends - 1;
      if (lf > valid_end || !take_entry(masks, chunk, start, lf, out, crlf)) {
        stop = lf;
        break;
      }
      ++lines;
      start = lf + 1;
    }
  }
no_more_lines:
  scan.out = out;
  scan.lines = lines;
  scan.crlf = crlf;
  scan.line_start = start;
  return stop;
}

std::size_t scan_baseline(const StructureMasks& masks, const char* chunk, std::size_t chunk_size,
                          std::size_t valid_end, PlainScan& scan) noexcept {
  return scan_plain_entries(masks, chunk, chunk_size, valid_end, scan);
}

#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
// The same body, compiled with the bit instructions (TZCNT for the scans, BLSR, SHLX/SHRX for
// the windows), which baseline x86-64 lacks.
__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))) std::size_t scan_avx2(const StructureMasks& masks,
                                                                           const char* chunk,
                                                                           std::size_t chunk_size,
                                                                           std::size_t valid_end,
                                                                           PlainScan& scan) noexcept {
  return scan_plain_entries(masks, chunk, chunk_size, valid_end, scan);
}

// LZCNT is asked of CPUID directly: Clang's __builtin_cpu_supports does not know "lzcnt".
bool cpu_has_lzcnt() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000001U, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (ecx & (1U << 5)) != 0;  // CPUID.80000001H:ECX.LZCNT[bit 5]
}

bool cpu_runs_avx2_path() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt") && cpu_has_lzcnt() &&
         StructureMasks::available(StructureMasks::Classifier::avx2);
}
#endif

thread_local std::optional<ScanPath> forced_path;

}  // namespace

bool scan_path_available(ScanPath path) noexcept {
  switch (path) {
    case ScanPath::baseline: return true;
    case ScanPath::avx2: {
#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
      static const bool runs = cpu_runs_avx2_path();
      return runs;
#else
      return false;
#endif
    }
  }
  return false;
}

ScanPath chosen_scan_path() noexcept {
  if (forced_path) return *forced_path;
  return scan_path_available(ScanPath::avx2) ? ScanPath::avx2 : ScanPath::baseline;
}

void force_scan_path(std::optional<ScanPath> path) noexcept { forced_path = path; }

PlainEntryScanner plain_entry_scanner(ScanPath path) noexcept {
#if defined(BUFSTREAM_CEDICT_SCAN_AVX2)
  if (path == ScanPath::avx2) return scan_avx2;
#endif
  static_cast<void>(path);
  return scan_baseline;
}

StructureMasks::Classifier scan_classifier(ScanPath path) noexcept {
  if (path == ScanPath::avx2) return StructureMasks::Classifier::avx2;
  return StructureMasks::available(StructureMasks::Classifier::sse2) ? StructureMasks::Classifier::sse2
                                                                      : StructureMasks::Classifier::portable;
}

}  // namespace bufstream::cedict::detail
