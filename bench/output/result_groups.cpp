#include "output/result_groups.hpp"

#include <algorithm>

namespace bufstream::bench {
namespace {

template <class Field, class Keep>
std::vector<std::string> distinct(const Results& results, Field field, Keep keep) {
  std::vector<std::string> out;
  for (const Entry& e : results.entries()) {
    if (!keep(e)) continue;
    const std::string& value = field(e);
    if (std::find(out.begin(), out.end(), value) == out.end()) out.push_back(value);
  }
  return out;
}

}  // namespace

std::vector<std::string> suites_in(const Results& results) {
  return distinct(
      results, [](const Entry& e) -> const std::string& { return e.suite; },
      [](const Entry&) { return true; });
}

std::vector<std::string> ops_in(const Results& results, std::string_view suite) {
  return distinct(
      results, [](const Entry& e) -> const std::string& { return e.op; },
      [&](const Entry& e) { return e.suite == suite; });
}

std::vector<std::string> data_in(const Results& results, std::string_view suite) {
  return distinct(
      results, [](const Entry& e) -> const std::string& { return e.data; },
      [&](const Entry& e) { return e.suite == suite; });
}

std::vector<std::string> variants_in(const Results& results, std::string_view suite,
                                     std::string_view op) {
  return distinct(
      results, [](const Entry& e) -> const std::string& { return e.variant; },
      [&](const Entry& e) { return e.suite == suite && e.op == op; });
}

const Entry* find_entry(const Results& results, std::string_view suite, std::string_view op,
                        std::string_view data, std::string_view variant) {
  for (const Entry& e : results.entries()) {
    if (e.suite == suite && e.op == op && e.data == data && e.variant == variant) return &e;
  }
  return nullptr;
}

const Measurement* find_measured(const Results& results, std::string_view suite,
                                 std::string_view op, std::string_view data,
                                 std::string_view variant) {
  const Entry* e = find_entry(results, suite, op, data, variant);
  return e != nullptr && e->measured ? &*e->measured : nullptr;
}

bool is_bufstream_variant(std::string_view variant) noexcept {
  return variant == "unbuffered" || variant == "buffered" || variant == "buffered-typed" ||
         variant == "mapped" || variant == "index" || variant.starts_with("lines-") ||
         variant.starts_with("bulk-") || variant == "headword" || variant == "pinyin" ||
         variant == "pinyin-tones" || variant == "english" || variant == "gzip" ||
         variant == "zstd";
}

bool is_limit_variant(std::string_view variant) noexcept {
  return variant == "write-once" || variant == "read-once" || variant == "scan-lines" ||
         variant == "stats";
}

}  // namespace bufstream::bench
