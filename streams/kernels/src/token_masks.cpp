// The token masks of a text (bufstream/kernels/token_masks.hpp), one block of 64 bytes at a
// time; the text's last bytes are padded with zeros (a zero is a control byte, so its
// string_stop bit is cleared after the block is classified).
#include <bufstream/kernels/token_masks.hpp>

#include <cstring>

#include <bufstream/kernels/swar.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>
#endif

namespace bufstream::kernels::tokens {

namespace {

// Classifies the whole blocks of `text` with `block` (the masks of the 64 bytes at a pointer),
// then the bytes after them, copied into a block of zeros.
template <class Block>
void scan_with(const char* text, std::size_t size, BlockMasks* out, Block block) noexcept {
  std::size_t w = 0;
  for (; (w + 1) * 64 <= size; ++w) out[w] = block(text + 64 * w);
  if (w * 64 < size) {
    const std::size_t left = size - 64 * w;
    alignas(64) char padded[64] = {};
    std::memcpy(padded, text + 64 * w, left);
    const BlockMasks m = block(padded);
    const std::uint64_t in_text = (std::uint64_t{1} << left) - 1;
    out[w] = {m.whitespace, m.line_feed, m.string_stop & in_text, m.non_ascii};
  }
}

BlockMasks block_portable(const char* p) noexcept {
  constexpr std::uint64_t space = swar::broadcast(' ');
  constexpr std::uint64_t tab = swar::broadcast('\t');
  constexpr std::uint64_t cr = swar::broadcast('\r');
  constexpr std::uint64_t lf = swar::broadcast('\n');
  constexpr std::uint64_t quote = swar::broadcast('"');
  constexpr std::uint64_t backslash = swar::broadcast('\\');
  BlockMasks m{0, 0, 0, 0};
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint64_t v = swar::load_memory_order(p + 8 * i);
    const std::uint64_t line_feed = swar::equal_bytes_exact(v, lf);
    const std::uint64_t white = swar::equal_bytes_exact(v, space) |
                                swar::equal_bytes_exact(v, tab) | swar::equal_bytes_exact(v, cr) |
                                line_feed;
    const std::uint64_t stop = swar::equal_bytes_exact(v, quote) |
                               swar::equal_bytes_exact(v, backslash) |
                               swar::below_bytes_exact(v, 0x20);
    m.whitespace |= swar::gather_flags(white) << (8 * i);
    m.line_feed |= swar::gather_flags(line_feed) << (8 * i);
    m.string_stop |= swar::gather_flags(stop) << (8 * i);
    m.non_ascii |= swar::gather_flags(v & swar::high_bits) << (8 * i);
  }
  return m;
}

void scan_portable(const char* text, std::size_t size, BlockMasks* out) noexcept {
  scan_with(text, size, out, block_portable);
}

#if BUFSTREAM_KERNELS_X86_64
BlockMasks block_sse2(const char* p) noexcept {
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1F);
  BlockMasks m{0, 0, 0, 0};
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    const __m128i line_feed = _mm_cmpeq_epi8(v, lf);
    const __m128i white =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, cr), line_feed));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, last_control), last_control);
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
    const auto bits = [](__m128i x) {
      return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(x))};
    };
    m.whitespace |= bits(white) << at;
    m.line_feed |= bits(line_feed) << at;
    m.string_stop |= bits(stop) << at;
    m.non_ascii |= bits(v) << at;
  }
  return m;
}

void scan_sse2(const char* text, std::size_t size, BlockMasks* out) noexcept {
  scan_with(text, size, out, block_sse2);
}

// The last bytes are loaded under a mask, zeros beyond them.
__attribute__((target("avx512f,avx512bw"))) void scan_avx512(const char* text, std::size_t size,
                                                             BlockMasks* out) noexcept {
  const __m512i space = _mm512_set1_epi8(' ');
  const __m512i tab = _mm512_set1_epi8('\t');
  const __m512i cr = _mm512_set1_epi8('\r');
  const __m512i lf = _mm512_set1_epi8('\n');
  const __m512i quote = _mm512_set1_epi8('"');
  const __m512i backslash = _mm512_set1_epi8('\\');
  const __m512i first_printable = _mm512_set1_epi8(0x20);
  for (std::size_t w = 0; 64 * w < size; ++w) {
    const std::size_t left = size - 64 * w;
    const std::uint64_t in_text = left >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(_cvtu64_mask64(in_text), text + 64 * w);
    const std::uint64_t line_feed = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, lf));
    out[w].line_feed = line_feed;
    out[w].whitespace = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, space)) |
                        _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, tab)) |
                        _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, cr)) | line_feed;
    out[w].string_stop = (_cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, quote)) |
                          _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, backslash)) |
                          _cvtmask64_u64(_mm512_cmplt_epu8_mask(v, first_printable))) &
                         in_text;
    out[w].non_ascii = _cvtmask64_u64(_mm512_movepi8_mask(v));
  }
}
#endif

}  // namespace

const Forms<Scan>& scan_forms() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  // No AVX2 form: on citm_catalog and twitter it read 0-4% faster than the SSE2 form (the
  // blocks are short-lived, a 1 KiB stretch at a time), under the 5% a form must win;
  // AVX-512 won 6-12% on the event reads, and its masked loads take the tail.
  static constexpr Forms<Scan> forms{scan_portable, scan_sse2, nullptr, scan_avx512};
#else
  static constexpr Forms<Scan> forms{scan_portable};
#endif
  return forms;
}

}  // namespace bufstream::kernels::tokens
