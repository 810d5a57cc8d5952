#include <bufstream/csv/row_reader.hpp>

#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bufstream::csv::detail {

namespace {

constexpr std::size_t not_read = std::numeric_limits<std::size_t>::max();

std::string describe_field(std::size_t field, std::string_view column_name) {
  if (column_name.empty()) return fmt::format("field {}", field + 1);
  return fmt::format("field {} ('{}')", field + 1, column_name);
}

}  // namespace

void bind_positional(RowBinding& binding, const std::vector<bool>& reads) {
  binding.field_of_column.assign(reads.size(), not_read);
  for (std::size_t c = 0; c < reads.size(); ++c) {
    if (reads[c]) binding.field_of_column[c] = c;
  }
  binding.fields_allowed = reads.size();
  binding.bound = true;
}

void bind_named(RowBinding& binding, Reader& reader, const std::vector<std::string>& names,
                const std::vector<bool>& reads) {
  if (!reader.has_header()) reader.read_header();
  const Header& header = reader.header();
  const std::string& source = reader.options().source_name;
  binding.field_of_column.assign(names.size(), not_read);
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (!reads[c]) continue;
    if (names[c].empty()) {
      throw UsageError(fmt::format(
          "csv::RowReader: column {} of the schema has no name, but the others are mapped by name",
          c + 1));
    }
    const std::optional<std::size_t> field = header.find(names[c]);
    if (!field) {
      throw ParseError(reader.header_position(),
                       fmt::format("the header has no column '{}' (it has: {})", names[c],
                                   fmt::join(header.names(), ", ")),
                       source);
    }
    for (std::size_t later = *field + 1; later < header.size(); ++later) {
      if (header.names()[later] == names[c]) {
        throw ParseError(reader.header_position(),
                         fmt::format("the header has column '{}' twice (fields {} and {})",
                                     names[c], *field + 1, later + 1),
                         source);
      }
    }
    binding.field_of_column[c] = *field;
  }
  binding.fields_allowed = header.size();
  binding.bound = true;
}

void check_record_size(const Reader& reader, const Record& record, const RowBinding& binding) {
  const std::size_t n = record.size();
  const std::size_t allowed = binding.fields_allowed;
  if (n > allowed) {
    // No column reads this field: dropping it silently would lose data.
    throw reader.field_error(
        allowed, fmt::format("no column reads this field: the row has {} column{}", allowed,
                             allowed == 1 ? "" : "s"));
  }
  if (n < allowed && !reader.options().variable_field_count) {
    throw ParseError(reader.record_position(),
                     fmt::format("record {}: expected {} field{} for the row but found {}",
                                 record.number(), allowed, allowed == 1 ? "" : "s", n),
                     reader.options().source_name);
  }
}

void throw_conversion_error(const Reader& reader, const Record& record, std::size_t field,
                            std::string_view column_name, std::string_view message) {
  // A field missing from a short record (lenient mode) is placed at the record's start.
  const SourcePosition where =
      field < record.size() ? reader.field_position(field) : reader.record_position();
  throw ParseError(where,
                   fmt::format("record {}, {}: {}", record.number(),
                               describe_field(field, column_name), message),
                   reader.options().source_name);
}

}  // namespace bufstream::csv::detail
