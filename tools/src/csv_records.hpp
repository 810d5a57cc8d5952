// The rule every conversion to CSV follows, whatever the input format: each record has the
// shape of the first. Records are all lists (arrays) of one width, or all maps (objects) with
// the same keys, whose first one's keys, in its order, are the header written before it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/csv/writer.hpp>

namespace bufstream::cli {

/// A broken shape rule, for the input's reader to report at its own position.
struct ShapeProblem {
  std::string message;
  /// The key the problem is about ("" when it is about the record as a whole).
  std::string key;
  /// The problem is the record's kind, found before any of it was read.
  bool at_record_start = false;
};

/// Writes records through a csv::Writer, checking that each has the shape of the first. Every
/// broken rule goes to `fail`, which must throw (a ParseError at the input's position).
class CsvRecords {
 public:
  /// How the input format names its containers in messages.
  struct Words {
    std::string_view a_list;  // "an array", "a list"
    std::string_view a_map;   // "an object", "a map"
    std::string_view map;     // "object", "map"
    std::string_view record;  // "row", "record"
  };
  using Fail = std::function<void(const ShapeProblem&)>;

  CsvRecords(csv::Writer& writer, Words words, Fail fail)
      : writer_(writer), words_(words), fail_(std::move(fail)) {}

  /// A list record: `begin_list`, one `list_field` per element, `end_list`.
  void begin_list();
  void list_field(std::string_view text);
  void end_list();

  /// A map record: `begin_map`, then for each key its slot (checked against the first map's
  /// keys, which it defines) to fill with the field's text, then `end_map`.
  void begin_map();
  std::optional<std::string>& map_slot(std::string_view key);
  void end_map();

 private:
  enum class Shape { unknown, lists, maps };

  void start(Shape shape);
  [[noreturn]] void fail(const ShapeProblem& problem) const;

  csv::Writer& writer_;
  Words words_;
  Fail fail_;
  Shape shape_ = Shape::unknown;
  std::optional<std::size_t> width_;  // of the first list record
  std::size_t count_ = 0;             // fields of the list record being written
  std::vector<std::string> names_;    // the first map record's keys: the header
  bool header_written_ = false;
  std::vector<std::optional<std::string>> values_;  // of the map record being read, by column
};

}  // namespace bufstream::cli
