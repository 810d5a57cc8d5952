#include "ston_json.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include <bufstream/ston/writer.hpp>

namespace bufstream::cli {

std::string describe(const ston::Value& v) {
  std::string text = ston::to_string(v);
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  return fmt::format("{} ({})", text, ston::kind_name(v.kind()));
}

void StonJsonWriter::write(const ston::Value& root, const SourcePosition& where) {
  where_ = where;
  open_.clear();
  value(root);
  while (!open_.empty()) {
    Frame& f = open_.back();
    if (f.map != nullptr) {
      if (f.next == f.map->size()) {
        out_.end_object();
        open_.pop_back();
        continue;
      }
      const ston::MapEntry& e = (*f.map)[f.next++];
      if (!e.key.is_string() && !e.key.is_symbol()) {
        fail(fmt::format("the map key {} has no JSON form (JSON keys are strings)",
                         describe(e.key)));
      }
      out_.key(e.key.text());
      value(e.value);  // may push a frame: `f` is not used after this
    } else {
      if (f.next == f.list->size()) {
        out_.end_array();
        open_.pop_back();
        continue;
      }
      value((*f.list)[f.next++]);
    }
  }
}

// Writes a scalar, or opens a container (its elements follow from write's loop).
void StonJsonWriter::value(const ston::Value& v) {
  switch (v.kind()) {
    case ston::Kind::nil: out_.null(); return;
    case ston::Kind::boolean: out_.value(v.as_bool()); return;
    case ston::Kind::integer: integer(v); return;
    case ston::Kind::floating: floating(v.as_double(), v); return;
    case ston::Kind::fraction: floating(v.as_fraction().to_double(), v); return;
    case ston::Kind::scaled_decimal: floating(v.as_scaled_decimal().to_double(), v); return;
    case ston::Kind::string: out_.value(v.as_string()); return;
    case ston::Kind::symbol: out_.value(v.as_symbol()); return;
    case ston::Kind::list: {
      const ston::List list = v.as_list();
      enter(&list.items(), v);
      out_.begin_array();
      open_.push_back({&list.items(), nullptr, 0});
      return;
    }
    case ston::Kind::map: {
      const ston::Map map = v.as_map();
      enter(&map.entries(), v);
      out_.begin_object();
      open_.push_back({nullptr, &map.entries(), 0});
      return;
    }
    case ston::Kind::association:
    case ston::Kind::tagged: break;
  }
  fail(fmt::format("{} has no JSON form", describe(v)));
}

void StonJsonWriter::integer(const ston::Value& v) {
  const ston::Integer& i = v.as_integer();
  if (const auto small = i.to_int64()) {
    out_.value(*small);
    return;
  }
  const std::string digits = i.to_string();
  std::uint64_t u = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), u);
  if (error == std::errc() && end == digits.data() + digits.size()) {
    out_.value(u);
    return;
  }
  double d = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), d);  // correctly rounded
  floating(d, v);
}

void StonJsonWriter::floating(double d, const ston::Value& v) {
  if (!std::isfinite(d))
    fail(fmt::format("{} has no JSON form (JSON has no NaN or infinity)", describe(v)));
  out_.value(d);
}

// JSON has no shared values: a container met twice (a STON reference) is an error.
void StonJsonWriter::enter(const void* container, const ston::Value& v) {
  if (!seen_.insert(container).second) {
    fail(fmt::format("{} occurs more than once (JSON has no shared values)", describe(v)));
  }
}

void StonJsonWriter::fail(const std::string& message) const {
  throw ParseError(where_, "cannot convert this value: " + message, source_name_);
}

}  // namespace bufstream::cli
