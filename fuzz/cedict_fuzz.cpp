// CEDICT loader: strict and lenient loads through any buffer size agree with the zero-copy
// load of the same bytes (entries, their fields, the counts, the error line).
#include <cstdlib>
#include <optional>

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/errors.hpp>

#include "fuzz_support.hpp"

namespace {

struct Outcome {
  std::optional<bufstream::cedict::Dictionary> dict;
  std::uint64_t error_line = 0;
};

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
  cedict::LoadOptions options;
  options.errors = lenient ? cedict::ErrorMode::lenient : cedict::ErrorMode::strict;
  fuzz::FuzzStream buffered(input);
  const Outcome a = attempt([&] { return cedict::Dictionary::load(buffered.stream(), options); });
  const Outcome b = attempt([&] { return cedict::Dictionary::load_view(input.document, options); });
  if (a.dict.has_value() != b.dict.has_value()) std::abort();
  if (!a.dict) {
    if (a.error_line != b.error_line || lenient) std::abort();
    return 0;
  }
  if (a.dict->size() != b.dict->size()) std::abort();
  for (std::size_t i = 0; i < a.dict->size(); ++i) {
    const auto x = a.dict->at(i), y = b.dict->at(i);
    if (x.traditional != y.traditional || x.simplified != y.simplified || x.pinyin != y.pinyin ||
        x.english() != y.english() || x.glosses.size() != y.glosses.size()) {
      std::abort();
    }
  }
  if (a.dict->stats().malformed_lines != b.dict->stats().malformed_lines) std::abort();
  // Look-ups must not crash on whatever was loaded.
  if (a.dict->size() > 0) {
    const auto e = a.dict->at(0);
    (void)a.dict->find_headword(e.traditional);
    (void)a.dict->find_pinyin(e.pinyin);
    (void)a.dict->find_english(e.english());
  }
  return 0;
}
