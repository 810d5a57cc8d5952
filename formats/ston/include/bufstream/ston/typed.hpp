// Typed access: C++ values to STON values and back, the way nlohmann's to_json/from_json work.
//
// `ston::to_value(doc, x)` and `ston::from_value<T>(v)` know the built-in types (bool,
// integers, floating point, std::string, Symbol, Integer, Value, std::vector, std::optional,
// std::map with string keys) and the well-known tags (well_known.hpp). For your own type, write
// two functions in the type's namespace; they are found by argument-dependent lookup:
//
//     struct User { std::string name; int age; };
//
//     ston::Value to_ston(ston::Document& doc, const User& u) {
//       return doc.tagged_map("User", {{ston::Symbol{"name"}, u.name},
//                                      {ston::Symbol{"age"}, u.age}});
//     }
//     void from_ston(const ston::Value& v, User& u) {
//       ston::Tagged t = v.as_tagged("User");          // AccessError if it is not a User
//       u.name = ston::from_value<std::string>(t.at("name"));
//       u.age = ston::from_value<int>(t.at("age"));
//     }
//
//     ston::Document doc;
//     std::string text = ston::to_string(ston::to_value(doc, User{"ann", 7}));
//                                                   // User{#name:'ann',#age:7}
//     User back = ston::from_value<User>(ston::parse(text).root());
//
// Conversions that do not fit, and missing map keys, throw bufstream::AccessError.
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <bufstream/numbers.hpp>
#include <bufstream/ston/document.hpp>

namespace bufstream::ston {

// ---- Built-in conversions (found by ADL through Document and Value) -------------------------

/// @{
/// The built-in conversions of C++ values to STON values, found by ADL (see `to_value`).
inline Value to_ston(Document&, bool b) { return b; }
template <std::integral T>
requires(!std::same_as<T, bool>) Value to_ston(Document&, T i) { return Value(Integer(i)); }
template <std::floating_point T>
Value to_ston(Document&, T d) {
  return static_cast<double>(d);
}
inline Value to_ston(Document&, const std::string& s) { return s; }
inline Value to_ston(Document&, std::string_view s) { return s; }
inline Value to_ston(Document&, const char* s) { return s; }
inline Value to_ston(Document&, const Symbol& s) { return s; }
inline Value to_ston(Document&, const Integer& i) { return i; }
inline Value to_ston(Document&, const Value& v) { return v; }
/// @}

template <class T>
Value to_value(Document& doc, const T& x);

/// A list of the converted elements.
template <class T>
Value to_ston(Document& doc, const std::vector<T>& items) {
  std::vector<Value> values;
  values.reserve(items.size());
  for (const T& item : items) values.push_back(to_value(doc, item));
  return doc.list(std::move(values));
}
/// nil for an empty optional, else the converted value.
template <class T>
Value to_ston(Document& doc, const std::optional<T>& x) {
  return x ? to_value(doc, *x) : Value();
}
/// A map with string keys.
template <class T>
Value to_ston(Document& doc, const std::map<std::string, T>& entries) {
  Map m = doc.map();
  for (const auto& [k, v] : entries) m.append(k, to_value(doc, v));
  return m;
}

/// Reads a boolean.
inline void from_ston(const Value& v, bool& b) { b = v.as_bool(); }
/// Reads an integer; AccessError if it does not fit T.
template <std::integral T>
requires(!std::same_as<T, bool>) void from_ston(const Value& v, T& i) {
  const Integer n = v.as_integer();
  const auto small = n.to_int64();
  bool fits = small.has_value();
  if (fits) {
    if constexpr (std::is_unsigned_v<T>) {
      fits = *small >= 0 && static_cast<std::uint64_t>(*small) <= std::numeric_limits<T>::max();
    } else {
      fits = *small >= std::numeric_limits<T>::min() && *small <= std::numeric_limits<T>::max();
    }
  }
  if (!fits) {
    if constexpr (std::same_as<T, std::uint64_t> || std::same_as<T, unsigned long long>) {
      if (n.sign() > 0) {  // between 2^63 and 2^64?
        if (const auto u = parse_integer<std::uint64_t>(n.to_string())) {
          i = static_cast<T>(*u);
          return;
        }
      }
    }
    throw AccessError("the integer " + n.to_string() + " does not fit the C++ type");
  }
  i = static_cast<T>(*small);
}
/// Reads any number, as the nearest T.
template <std::floating_point T>
void from_ston(const Value& v, T& d) {
  d = static_cast<T>(v.as_double());
}
/// A string or a symbol (Pharo metadata names things with symbols).
inline void from_ston(const Value& v, std::string& s) { s = v.text(); }
/// Reads a symbol.
inline void from_ston(const Value& v, Symbol& s) { s = Symbol{v.as_symbol()}; }
/// Reads an integer of any size.
inline void from_ston(const Value& v, Integer& i) { i = v.as_integer(); }
/// Copies the value.
inline void from_ston(const Value& v, Value& out) { out = v; }

template <class T>
T from_value(const Value& v);

/// A list, element by element.
template <class T>
void from_ston(const Value& v, std::vector<T>& items) {
  const List list = v.as_list();
  items.clear();
  items.reserve(list.size());
  for (const Value& item : list) items.push_back(from_value<T>(item));
}
/// nil as an empty optional, anything else converted.
template <class T>
void from_ston(const Value& v, std::optional<T>& x) {
  if (v.is_nil()) {
    x.reset();
  } else {
    x = from_value<T>(v);
  }
}
/// A map with string or symbol keys.
template <class T>
void from_ston(const Value& v, std::map<std::string, T>& entries) {
  entries.clear();
  for (const MapEntry& e : v.as_map()) entries[e.key.text()] = from_value<T>(e.value);
}

// ---- Entry points ---------------------------------------------------------------------------

/// The STON value of `x`, made in `doc` when it needs containers: calls `to_ston(doc, x)`.
template <class T>
Value to_value(Document& doc, const T& x) {
  return to_ston(doc, x);
}

/// `v` as a T: calls `from_ston(v, t)` on a value-initialized T.
template <class T>
T from_value(const Value& v) {
  T out{};
  from_ston(v, out);
  return out;
}

}  // namespace bufstream::ston
