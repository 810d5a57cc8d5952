// The numbers suite: the two conversions every text format spends its number time in, by
// bufstream and by the libraries a user (or bufstream itself) could call instead.
//
//   - op `parse`: decimal text to the nearest double. bufstream's `parse_double`, fast_float's
//     `from_chars` and the standard library's `std::from_chars`.
//   - op `format`: a double to the shortest text that reads back as it. bufstream's
//     `format_double`, `std::to_chars` and {fmt}'s shortest output (Dragonbox, `{}` compiled).
//
// Data: `rows`, the two number columns of the floats data set (`1.0 / i` and `sqrt(i)` for the
// `--rows` rows, as shortest text), and `canada`, every number of canada.json as the file
// writes it (in the json-files folder; skipped when it is not there). Every parse is checked
// against std::from_chars bit for bit, and every text written is read back to the same double
// (both untimed).
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fast_float/fast_float.h>
#include <fmt/compile.h>
#include <fmt/format.h>

#include <bufstream/numbers.hpp>

#include "data_sets/data_set.hpp"
#include "harness/file_utils.hpp"
#include "suites/json_files.hpp"
#include "suites/suites.hpp"

namespace bufstream::bench {
namespace {

// The numbers of one data set: their texts, one after another, and their values.
struct NumberList {
  std::string text;
  std::vector<std::string_view> texts;
  std::vector<double> values;
};

double from_chars_or_throw(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw ValidationError(fmt::format("'{}' is not a number std::from_chars reads", text));
  return value;
}

// Lays out the texts, then takes the views (the string no longer moves).
void index_texts(NumberList& list, const std::vector<std::size_t>& ends) {
  std::size_t start = 0;
  for (const std::size_t end : ends) {
    list.texts.emplace_back(list.text.data() + start, end - start);
    list.values.push_back(from_chars_or_throw(list.texts.back()));
    start = end;
  }
}

NumberList row_numbers(std::size_t rows) {
  const DataSet set = make_data_set(DataKind::floats, rows);
  NumberList list;
  std::vector<std::size_t> ends;
  for (const Row& row : set.rows) {
    for (const double value : {row.x, row.y}) {
      char buffer[64];
      const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
      list.text.append(buffer, r.ptr);
      ends.push_back(list.text.size());
    }
  }
  index_texts(list, ends);
  return list;
}

// Every number of a JSON text, as written there: the runs of number bytes outside strings.
NumberList json_numbers(std::string_view json) {
  NumberList list;
  std::vector<std::size_t> ends;
  const auto is_number_byte = [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  for (std::size_t i = 0; i < json.size();) {
    const char c = json[i];
    if (c == '"') {
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i;
      while (end < json.size() && is_number_byte(json[end])) ++end;
      list.text.append(json.substr(i, end - i));
      ends.push_back(list.text.size());
      i = end;
    } else {
      ++i;
    }
  }
  index_texts(list, ends);
  return list;
}

// ---- parse: text to double ------------------------------------------------------------------

using ParseAll = void (*)(const NumberList& list, std::vector<double>& out);

void parse_bufstream(const NumberList& list, std::vector<double>& out) {
  for (std::size_t i = 0; i < list.texts.size(); ++i) {
    out[i] = parse_double(list.texts[i]).value_or(0.0);
  }
}

void parse_fast_float(const NumberList& list, std::vector<double>& out) {
  for (std::size_t i = 0; i < list.texts.size(); ++i) {
    const std::string_view t = list.texts[i];
    fast_float::from_chars(t.data(), t.data() + t.size(), out[i]);
  }
}

void parse_std(const NumberList& list, std::vector<double>& out) {
  for (std::size_t i = 0; i < list.texts.size(); ++i) {
    const std::string_view t = list.texts[i];
    std::from_chars(t.data(), t.data() + t.size(), out[i]);
  }
}

void check_parsed(std::string_view who, const NumberList& list, const std::vector<double>& out) {
  for (std::size_t i = 0; i < list.values.size(); ++i) {
    if (std::memcmp(&out[i], &list.values[i], sizeof(double)) != 0) {
      throw ValidationError(
          fmt::format("{} read '{}' as {}, not {}", who, list.texts[i], out[i], list.values[i]));
    }
  }
}

// ---- format: double to shortest text --------------------------------------------------------

// Writes every value into `out` (room for 32 bytes each), its end offsets into `ends`.
using FormatAll = void (*)(const NumberList& list, std::string& out,
                           std::vector<std::uint32_t>& ends);

template <class Write>
void format_each(const NumberList& list, std::string& out, std::vector<std::uint32_t>& ends,
                 Write write) {
  char* const first = out.data();
  char* p = first;
  for (std::size_t i = 0; i < list.values.size(); ++i) {
    p = write(p, list.values[i]);
    ends[i] = static_cast<std::uint32_t>(p - first);
  }
}

void format_bufstream(const NumberList& list, std::string& out, std::vector<std::uint32_t>& ends) {
  format_each(list, out, ends, [](char* p, double v) { return format_double(p, v); });
}

void format_std(const NumberList& list, std::string& out, std::vector<std::uint32_t>& ends) {
  format_each(list, out, ends,
              [](char* p, double v) { return std::to_chars(p, p + max_double_chars, v).ptr; });
}

void format_fmt(const NumberList& list, std::string& out, std::vector<std::uint32_t>& ends) {
  format_each(list, out, ends,
              [](char* p, double v) { return fmt::format_to(p, FMT_COMPILE("{}"), v); });
}

void check_formatted(std::string_view who, const NumberList& list, const std::string& out,
                     const std::vector<std::uint32_t>& ends) {
  std::uint32_t start = 0;
  for (std::size_t i = 0; i < list.values.size(); ++i) {
    const std::string_view text(out.data() + start, ends[i] - start);
    const double back = from_chars_or_throw(text);
    if (std::memcmp(&back, &list.values[i], sizeof(double)) != 0) {
      throw ValidationError(fmt::format("{} wrote {} as '{}', which reads back as {}", who,
                                        list.values[i], text, back));
    }
    start = ends[i];
  }
}

Measurement of_size(Timing timing, std::uint64_t bytes) {
  return {.timing = std::move(timing), .cost = Cost::normal, .bytes = bytes, .entries = {}};
}

void run_parses(SuiteContext& context, const std::string& data, const NumberList& list) {
  struct Variant {
    const char* name;
    ParseAll parse;
  };
  static constexpr Variant parsers[] = {
      {"bufstream", parse_bufstream}, {"fast_float", parse_fast_float}, {"from_chars", parse_std}};
  std::vector<InterleavedSuiteVariant> variants;
  for (const Variant& v : parsers) {
    variants.push_back(
        {.id = {"numbers", "parse", data, v.name},
         .cost = Cost::normal,
         .run =
             [&list, v](Stopwatch& watch) {
               std::vector<double> out(list.texts.size());
               watch.start();
               v.parse(list, out);
               watch.stop();
               check_parsed(v.name, list, out);
             },
         .skip_reason = {},
         .finish =
             [&list](Timing timing) { return of_size(std::move(timing), list.text.size()); }});
  }
  run_variants_interleaved(context, variants);
}

void run_formats(SuiteContext& context, const std::string& data, const NumberList& list) {
  struct Variant {
    const char* name;
    FormatAll format;
  };
  static constexpr Variant formatters[] = {
      {"bufstream", format_bufstream}, {"to_chars", format_std}, {"fmt", format_fmt}};
  std::vector<InterleavedSuiteVariant> variants;
  for (const Variant& v : formatters) {
    variants.push_back(
        {.id = {"numbers", "format", data, v.name},
         .cost = Cost::normal,
         .run =
             [&list, v](Stopwatch& watch) {
               std::string out(max_double_chars * list.values.size(), '\0');
               std::vector<std::uint32_t> ends(list.values.size());
               watch.start();
               v.format(list, out, ends);
               watch.stop();
               check_formatted(v.name, list, out, ends);
             },
         .skip_reason = {},
         .finish =
             [&list](Timing timing) { return of_size(std::move(timing), list.text.size()); }});
  }
  run_variants_interleaved(context, variants);
}

void skip_all(SuiteContext& context, const std::string& data, const std::string& reason) {
  for (const char* v : {"bufstream", "fast_float", "from_chars"})
    skip_variant(context, {"numbers", "parse", data, v}, reason);
  for (const char* v : {"bufstream", "to_chars", "fmt"})
    skip_variant(context, {"numbers", "format", data, v}, reason);
}

}  // namespace

void run_numbers_suite(SuiteContext& context) {
  const std::filesystem::path folder = json_files_folder(context.options);
  const NumberList rows = row_numbers(context.options.rows);
  run_parses(context, "rows", rows);
  run_formats(context, "rows", rows);
  const std::filesystem::path canada = folder / "canada.json";
  if (!std::filesystem::is_regular_file(canada)) {
    skip_all(context, "canada", fmt::format("no canada.json in {}", folder.string()));
    return;
  }
  const NumberList numbers = json_numbers(read_file(canada));
  run_parses(context, "canada", numbers);
  run_formats(context, "canada", numbers);
}

}  // namespace bufstream::bench
