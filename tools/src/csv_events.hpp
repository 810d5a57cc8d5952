// CSV records as JSON or STON events, for convert (one reader) and its parallel form (a reader
// per chunk): one place that says how a record becomes a value.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/record.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/memory_read_stream.hpp>

namespace bufstream::cli {

/// The first of `names` that repeats an earlier one, if any: rows become objects keyed by the
/// names, and an object cannot hold both.
inline std::optional<std::size_t> repeated_name(const std::vector<std::string>& names) {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!seen.insert(names[i]).second) return i;
  }
  return std::nullopt;
}
/// What a repeated name is reported as.
inline std::string repeated_name_message(std::string_view name) {
  return fmt::format("duplicate column name '{}' (an object cannot hold both)", name);
}

/// Reads the first record as the column names (none if the input is empty); a repeated name
/// is an error at its field.
inline std::vector<std::string> read_names(csv::Reader& reader) {
  std::vector<std::string> names;
  if (const csv::Record* first = reader.next()) {
    names = first->to_strings();
    if (const auto i = repeated_name(names)) {
      throw reader.field_error(*i, repeated_name_message(names[*i]));
    }
  }
  return names;
}

/// A field as a JSON/STON value: its text, or with --infer a number or boolean when the whole
/// field is one by JSON's grammar (so "007", "1." and " 1" stay strings). The JSON reader
/// decides, so the grammar lives in one place.
template <class Events>
void emit_field(Events& events, std::string_view field, bool infer) {
  if (infer) {
    if (field == "true" || field == "false") {
      events.boolean(field == "true");
      return;
    }
    if (!field.empty() && (field[0] == '-' || (field[0] >= '0' && field[0] <= '9'))) {
      MemoryReadStream text(field);
      json::Reader number_reader(text);
      std::optional<json::Number> n;
      try {
        n = number_reader.read_number();
        number_reader.finish();
      } catch (const ParseError&) {
        n.reset();
      }
      if (n) {
        switch (n->kind) {
          case json::Number::Kind::signed_integer: events.integer(n->i); return;
          case json::Number::Kind::unsigned_integer: events.unsigned_integer(n->u); return;
          case json::Number::Kind::floating: events.floating(n->d); return;
        }
      }
    }
  }
  events.string(field);
}

/// A record as an object keyed by `names` (the header's), or as an array when `names` is null.
template <class Events>
void emit_record(Events& events, const csv::Record& record, const std::vector<std::string>* names,
                 bool infer) {
  if (names != nullptr) {
    events.begin_object();
    for (std::size_t i = 0; i < record.size(); ++i) {
      events.key((*names)[i]);
      emit_field(events, record[i], infer);
    }
    events.end_object();
  } else {
    events.begin_array();
    for (std::string_view field : record) emit_field(events, field, infer);
    events.end_array();
  }
}

}  // namespace bufstream::cli
