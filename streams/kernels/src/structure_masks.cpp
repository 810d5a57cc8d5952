// The structure masks of a text (bufstream/kernels/structure_masks.hpp): byte-pair masks of
// each 64-byte block and the text's UTF-8 check.
//
// The portable and SSE2 forms make the masks, then run the UTF-8 validator of the same
// instruction set over the text. The AVX2 and AVX-512 forms do both on the same loads: the
// masks are two compares per 32 or 64 bytes, and the UTF-8 check is the nibble-table kernel
// of x86/utf8_lookup.hpp, whose errors are gathered over the whole text and looked at once at
// the end; only a text with an error is decoded again, to say where.
#include <bufstream/kernels/structure_masks.hpp>

#include <cstring>

#include <bufstream/kernels/utf8.hpp>
#include <bufstream/kernels/x86/byte_pair.hpp>
#include <bufstream/kernels/x86/utf8_lookup.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::kernels::structure {

std::size_t complete_prefix(const char* text, std::size_t size) noexcept {
  // The last byte that is not a continuation byte, among the last three.
  for (std::size_t back = 1; back <= 3 && back <= size; ++back) {
    const auto b = static_cast<unsigned char>(text[size - back]);
    if ((b & 0xC0) == 0x80) continue;
    // ASCII asks for one byte; bytes that never lead (C0, C1, F5..FF) for none: an error of
    // their own, which stays in the text.
    return bufstream::utf8::sequence_length(b) > back ? size - back : size;
  }
  return size;
}

namespace {

// The classifiers' answer, from a validator's verdict on the text's complete prefix.
std::size_t first_invalid(utf8::Validate validate, const char* text, std::size_t complete,
                          std::size_t size) noexcept {
  const utf8::Result bad = validate({text, complete});
  return bad ? bad->offset : size;
}

// The masks of `text`'s blocks from block `w` on, by `masks` (a form of BytePair::mask64); the
// last bytes padded with zeros, and the bits past the text cleared.
template <class Masks>
void masks_from(std::size_t w, const char* text, std::size_t size, std::uint64_t* first,
                std::uint64_t* second, Masks masks) noexcept {
  for (; (w + 1) * 64 <= size; ++w) {
    const PairMasks m = masks(text + 64 * w);
    first[w] = m.first;
    second[w] = m.second;
  }
  if (w * 64 < size) {
    const std::size_t left = size - 64 * w;
    char padded[64] = {};
    std::memcpy(padded, text + 64 * w, left);
    const PairMasks m = masks(padded);
    const std::uint64_t in_text = (std::uint64_t{1} << left) - 1;
    first[w] = m.first & in_text;
    second[w] = m.second & in_text;
  }
}

std::size_t classify_portable(const char* text, std::size_t size, BytePair pair,
                              std::uint64_t* first, std::uint64_t* second) noexcept {
  masks_from(0, text, size, first, second,
             [&pair](const char* p) { return pair.mask64_portable(p); });
  return first_invalid(utf8::validate_forms().portable, text, complete_prefix(text, size), size);
}

#if BUFSTREAM_KERNELS_X86_64
std::size_t classify_sse2(const char* text, std::size_t size, BytePair pair, std::uint64_t* first,
                          std::uint64_t* second) noexcept {
  masks_from(0, text, size, first, second, [&pair](const char* p) { return pair.mask64_sse2(p); });
  return first_invalid(utf8::validate_forms().sse2, text, complete_prefix(text, size), size);
}

namespace lookup = utf8_lookup;

// A length the complete prefix of a text of `size` bytes has at least, whatever its last bytes
// are. The AVX2 and AVX-512 forms run their blocks up to it before they read the text's end
// for `complete_prefix`: read first, the end of a chunk that is not in the cache yet costs a
// miss ahead of the stream of loads (and of the hardware prefetcher that follows it).
constexpr std::size_t complete_bound(std::size_t size) noexcept { return size >= 3 ? size - 3 : 0; }

// The blocks of the complete prefix, 64 bytes at a time; then its last bytes, padded with
// zeros, which end any sequence (so that one left unfinished there is an error); then the
// masks of the bytes after the last whole block (at most two blocks), by SSE2.
__attribute__((target("avx2"))) std::size_t classify_avx2(const char* text, std::size_t size,
                                                          BytePair pair, std::uint64_t* first,
                                                          std::uint64_t* second) noexcept {
  const lookup::Tables tables = lookup::tables();
  __m256i prev = _mm256_setzero_si256();
  __m256i errors = _mm256_setzero_si256();
  std::size_t w = 0;
  std::size_t complete = complete_bound(size);
  for (bool final = false;; ++w) {
    if ((w + 1) * 64 > complete) {
      if (final) break;
      complete = complete_prefix(text, size);
      final = true;
      --w;
      continue;
    }
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + 64 * w));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + 64 * w + 32));
    const PairMasks m = x86::pair_masks_avx2(pair, lo, hi);
    first[w] = m.first;
    second[w] = m.second;
    errors = _mm256_or_si256(
        errors, _mm256_or_si256(lookup::errors(tables, lo, prev), lookup::errors(tables, hi, lo)));
    prev = hi;
  }
  alignas(32) char padded[64] = {};
  if (complete != 64 * w) std::memcpy(padded, text + 64 * w, complete - 64 * w);
  const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded));
  const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded + 32));
  errors = _mm256_or_si256(
      errors, _mm256_or_si256(lookup::errors(tables, lo, prev), lookup::errors(tables, hi, lo)));
  masks_from(w, text, size, first, second, [&pair](const char* p) { return pair.mask64_sse2(p); });
  if (_mm256_testz_si256(errors, errors) == 0)
    return first_invalid(utf8::validate_forms().portable, text, complete, size);
  return size;
}

// As the AVX2 form, 64 bytes per step (AVX-512 F and BW); the last bytes are loaded under a
// mask, with zeros beyond them.
__attribute__((target("avx512f,avx512bw"))) std::size_t classify_avx512(
    const char* text, std::size_t size, BytePair pair, std::uint64_t* first,
    std::uint64_t* second) noexcept {
  const lookup::Tables512 tables = lookup::tables512();
  __m512i prev = _mm512_setzero_si512();
  __m512i errors = _mm512_setzero_si512();
  std::size_t w = 0;
  std::size_t complete = complete_bound(size);
  for (bool final = false;; ++w) {
    if ((w + 1) * 64 > complete) {
      if (final) break;
      complete = complete_prefix(text, size);
      final = true;
      --w;
      continue;
    }
    const __m512i in = _mm512_loadu_si512(text + 64 * w);
    const PairMasks m = x86::pair_masks_avx512(pair, in);
    first[w] = m.first;
    second[w] = m.second;
    errors = _mm512_or_si512(errors, lookup::errors512(tables, in, prev));
    prev = in;
  }
  const __mmask64 rest = _cvtu64_mask64((std::uint64_t{1} << (complete - 64 * w)) - 1);
  errors = _mm512_or_si512(
      errors, lookup::errors512(tables, _mm512_maskz_loadu_epi8(rest, text + 64 * w), prev));
  for (; 64 * w < size; ++w) {
    const std::size_t left = size - 64 * w;
    const std::uint64_t in_text = left >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
    const PairMasks m = x86::pair_masks_avx512(
        pair, _mm512_maskz_loadu_epi8(_cvtu64_mask64(in_text), text + 64 * w));
    first[w] = m.first & in_text;
    second[w] = m.second & in_text;
  }
  if (_mm512_test_epi8_mask(errors, errors) != 0)
    return first_invalid(utf8::validate_forms().portable, text, complete, size);
  return size;
}
#endif

}  // namespace

const Forms<Classify>& classify_forms() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  static constexpr Forms<Classify> forms{classify_portable, classify_sse2, classify_avx2,
                                         classify_avx512};
#else
  static constexpr Forms<Classify> forms{classify_portable};
#endif
  return forms;
}

}  // namespace bufstream::kernels::structure
