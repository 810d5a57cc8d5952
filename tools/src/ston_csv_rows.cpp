#include "ston_csv_rows.hpp"

#include <cmath>

#include <fmt/format.h>

#include <bufstream/numbers.hpp>
#include <bufstream/ston/writer.hpp>

#include "commands.hpp"
#include "ston_json.hpp"

namespace bufstream::cli {

namespace {

std::string format_float(double d) {
  char buf[max_double_chars];
  return std::string(buf, format_double(buf, d));
}

}  // namespace

void StonCsvRows::fail(const std::string& column, const std::string& message) const {
  const std::string where = column.empty() ? fmt::format("record {}", number_)
                                           : fmt::format("record {}, column {}", number_, column);
  throw ParseError(where_, fmt::format("{}: {}", where, message), source_name_);
}

StonCsvRows::StonCsvRows(csv::Writer& writer, std::string source_name)
    : source_name_(std::move(source_name)),
      records_(writer, {.a_list = "a list", .a_map = "a map", .map = "map", .record = "record"},
               [this](const ShapeProblem& p) {
                 if (p.key.empty()) fail({}, p.message);
                 fail(fmt::format("'{}'", p.key), "the key " + p.message);
               }) {}

void StonCsvRows::record(const ston::Value& record, const SourcePosition& where) {
  where_ = where;
  ++number_;
  if (record.is_list()) {
    const ston::List list = record.as_list();
    if (!seen_.insert(&list.items()).second)
      fail({}, "the same list is this record and an earlier one (JSON has no shared values)");
    list_record(list);
  } else if (record.is_map()) {
    const ston::Map map = record.as_map();
    if (!seen_.insert(&map.entries()).second)
      fail({}, "the same map is this record and an earlier one (JSON has no shared values)");
    map_record(map);
  } else {
    fail({},
         fmt::format("expected a list or a map (one CSV record) but found {}", describe(record)));
  }
}

void StonCsvRows::list_record(const ston::List& list) {
  records_.begin_list();
  std::size_t i = 0;
  for (const ston::Value& v : list) records_.list_field(field_text(v, std::to_string(++i)));
  records_.end_list();
}

void StonCsvRows::map_record(const ston::Map& map) {
  records_.begin_map();
  for (const ston::MapEntry& e : map) {
    if (!e.key.is_string() && !e.key.is_symbol()) {
      fail({}, fmt::format("the key {} cannot be a column name (JSON keys are strings)",
                           describe(e.key)));
    }
    const std::string& name = e.key.text();
    std::optional<std::string>& slot = records_.map_slot(name);
    slot = field_text(e.value, fmt::format("'{}'", name));
  }
  records_.end_map();
}

std::string StonCsvRows::field_text(const ston::Value& v, const std::string& column) {
  switch (v.kind()) {
    case ston::Kind::string: return v.as_string();
    case ston::Kind::symbol: return v.as_symbol();
    case ston::Kind::boolean: return v.as_bool() ? "true" : "false";
    case ston::Kind::integer: return v.as_integer().to_string();  // digit for digit, any size
    case ston::Kind::floating: {
      const double d = v.as_double();
      if (!std::isfinite(d)) fail(column, fmt::format("{} has no JSON or CSV form", describe(v)));
      return format_float(d);
    }
    case ston::Kind::fraction:  // as the JSON conversion writes them: the nearest double
      return format_float(v.as_fraction().to_double());
    case ston::Kind::scaled_decimal: return format_float(v.as_scaled_decimal().to_double());
    case ston::Kind::nil:
      fail(column,
           "nil cannot be written to CSV (it would be indistinguishable from an empty string)");
    case ston::Kind::list:
    case ston::Kind::map:
      fail(column, fmt::format("a nested {} cannot be a CSV field", describe(v)));
    case ston::Kind::association:
    case ston::Kind::tagged: fail(column, fmt::format("{} has no JSON or CSV form", describe(v)));
  }
  fail(column, fmt::format("{} has no CSV form", describe(v)));
}

void convert_ston_to_csv(ston::Reader& reader, csv::Writer& writer, const std::string& source_name,
                         const std::function<void()>& end_record) {
  StonCsvRows rows(writer, source_name);
  (void)reader.at_end();  // skips what comes before the first value, so `start` is where it is
  SourcePosition start = reader.position();
  ston::Document doc;
  const ston::Value first = reader.read(doc);  // none at all: "expected a value"
  if (reader.at_end()) {                       // one value: a list whose elements are the records
    if (!first.is_list()) {
      throw ParseError(
          start,
          fmt::format("expected a list (its elements are the CSV records) but found {}",
                      ston::kind_name(first.kind())),
          source_name);
    }
    for (const ston::Value& record : first.as_list()) {
      rows.record(record, start);
      end_record();
    }
    return;
  }
  rows.record(first, start);  // several values: each is a record
  end_record();
  while (!reader.at_end()) {
    start = reader.position();
    ston::Document next;
    rows.new_document();
    rows.record(reader.read(next), start);
    end_record();
  }
}

}  // namespace bufstream::cli
