// STON to JSON through json::Writer, so that the command writes the same bytes for the same
// data whatever the input format (a STON 1.0e100 and a JSON 1e100 both become 1e+100).
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/ston/document.hpp>

namespace bufstream::cli {

/// The value as STON text, cut short, and its kind: for messages ("Point[1,2] (tagged object)").
std::string describe(const ston::Value& v);

/// Writes STON values with a json::Writer by STON's JSON rules: lists become arrays, maps
/// whose keys are strings or symbols objects, symbols strings, nil null; integers exactly when
/// they fit 64 bits and otherwise, as a JSON reader reads them, as the nearest double;
/// fractions and scaled decimals as the nearest double. A value that JSON cannot hold (a tagged
/// object, an association, NaN or an infinity, a map key that is not text, a container met a
/// second time, within a value or in an earlier one of the same Document) is a ParseError at
/// `where` (the start of the top-level value) naming it. Iterative: any depth.
class StonJsonWriter {
 public:
  StonJsonWriter(json::Writer& out, std::string source_name)
      : out_(out), source_name_(std::move(source_name)) {}

  void write(const ston::Value& value, const SourcePosition& where);
  /// The next values belong to another Document (sharing cannot reach across Documents).
  void new_document() { seen_.clear(); }

 private:
  struct Frame {
    const std::vector<ston::Value>* list;  // one of the two
    const std::vector<ston::MapEntry>* map;
    std::size_t next;
  };
  void value(const ston::Value& v);
  void integer(const ston::Value& v);
  void floating(double d, const ston::Value& v);
  void enter(const void* container, const ston::Value& v);
  [[noreturn]] void fail(const std::string& message) const;

  json::Writer& out_;
  std::string source_name_;
  SourcePosition where_;
  std::vector<Frame> open_;
  std::unordered_set<const void*> seen_;  // the containers written so far
};

}  // namespace bufstream::cli
