// CEDICT loader: strict and lenient loads through any buffer size agree with the zero-copy
// load of the same bytes (entries, their fields, the counts, the error line), and so does the
// zero-copy load with the kernels' forms for every instruction set the processor runs.
#include <cstdlib>
#include <optional>

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/kernels/cpu.hpp>  // force_instruction_set

#include "fuzz_support.hpp"

namespace {

struct Outcome {
  std::optional<bufstream::cedict::Dictionary> dict;
  std::uint64_t error_line = 0;
};

// Whether two outcomes hold the same entries (fields and glosses), counts and error line.
bool same(const Outcome& a, const Outcome& b) {
  if (a.dict.has_value() != b.dict.has_value()) return false;
  if (!a.dict) return a.error_line == b.error_line;
  if (a.dict->size() != b.dict->size()) return false;
  for (std::size_t i = 0; i < a.dict->size(); ++i) {
    const auto x = a.dict->at(i), y = b.dict->at(i);
    if (x.traditional != y.traditional || x.simplified != y.simplified || x.pinyin != y.pinyin ||
        x.glosses.size() != y.glosses.size()) {
      return false;
    }
    for (std::size_t g = 0; g < x.glosses.size(); ++g) {
      if (x.glosses[g] != y.glosses[g]) return false;
    }
  }
  return a.dict->stats().malformed_lines == b.dict->stats().malformed_lines &&
         a.dict->stats().lines == b.dict->stats().lines;
}

template <class Load>
Outcome attempt(Load load) {
  Outcome outcome;
  try {
    outcome.dict.emplace(load());
  } catch (const bufstream::ParseError& e) {
    outcome.error_line = e.line();
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  const bool lenient = size > 0 && (data[0] & 1) != 0;
  cedict::ReadOptions options;
  options.errors = lenient ? cedict::ErrorMode::lenient : cedict::ErrorMode::strict;
  fuzz::FuzzStream buffered(input);
  const Outcome a = attempt([&] { return cedict::Dictionary::load(buffered.stream(), options); });
  const Outcome b = attempt([&] { return cedict::Dictionary::load_view(input.document, options); });
  // The forms for every instruction set find what the default ones found.
  for (const kernels::InstructionSet set : kernels::available_sets()) {
    if (set == kernels::best()) continue;
    kernels::detail::force_instruction_set(set);
    const Outcome forced =
        attempt([&] { return cedict::Dictionary::load_view(input.document, options); });
    kernels::detail::force_instruction_set(std::nullopt);
    if (!same(forced, b)) std::abort();
  }
  if (!same(a, b)) std::abort();
  if (!a.dict) {
    if (lenient) std::abort();  // a lenient load fails on no line
    return 0;
  }
  // Look-ups must not crash on whatever was loaded.
  if (a.dict->size() > 0) {
    const auto e = a.dict->at(0);
    (void)a.dict->find_headword(e.traditional);
    (void)a.dict->find_pinyin(e.pinyin);
    (void)a.dict->find_english(e.english());
  }
  return 0;
}
