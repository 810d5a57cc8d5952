// read_json: how the Reader reads values of standard and user types, with no DOM in between.
//
// `Reader::read<T>()` calls `read_json(reader, value)` found by argument-dependent lookup.
// This header provides it for bool, every integer type (exact, range-checked), float (via
// double, so rounded twice) and double (correctly rounded), std::string, std::vector, std::array,
// std::tuple and std::pair (from arrays of exactly that many elements), std::optional (null or a
// value), std::map and std::unordered_map with std::string keys (from objects; a repeated key: last
// wins), nlohmann::json, and types that describe themselves with `json_fields` or `json_members`
// (see fields.hpp). For anything else, declare in the type's namespace
//
//     void read_json(bufstream::json::Reader& r, MyType& v);
//
// which must read exactly one JSON value with the Reader's pull API and replace all of `v`
// (a read into a container that already holds elements starts by clearing it). A value of
// the wrong shape is reported with `r.fail_at_token("expected ... but found ...")`.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bufstream/json/fields.hpp>
#include <bufstream/json/reader_core.hpp>

namespace bufstream::json {

// Declared first so that each can read the others as elements.
/// Reads `true` or `false`.
inline void read_json(Reader& r, bool& v) { v = r.read_bool(); }
template <class T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) void read_json(Reader& r, T& v);
/// Reads a string, replacing `v`'s content.
inline void read_json(Reader& r, std::string& v) { r.read_string(v); }
/// Builds the DOM (iteratively; duplicate keys: last wins). Defined in dom_reader.cpp.
void read_json(Reader& r, nlohmann::json& v);
template <class T, class A>
void read_json(Reader& r, std::vector<T, A>& v);
template <class T, std::size_t N>
void read_json(Reader& r, std::array<T, N>& v);
template <class... T>
void read_json(Reader& r, std::tuple<T...>& v);
template <class A, class B>
void read_json(Reader& r, std::pair<A, B>& v);
template <class T>
void read_json(Reader& r, std::optional<T>& v);
template <class T, class C, class A>
void read_json(Reader& r, std::map<std::string, T, C, A>& v);
template <class T, class H, class E, class A>
void read_json(Reader& r, std::unordered_map<std::string, T, H, E, A>& v);
template <HasJsonFields T>
void read_json(Reader& r, T& v);
template <HasJsonMembers T>
requires(!HasJsonFields<T>) void read_json(Reader& r, T& v);

template <class T>
void read_value(Reader& r, T& value) {
  read_json(r, value);
}

namespace detail {

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

void fail_element_count(Reader& r, std::size_t expected, std::size_t found, bool more);

// Reads an array of exactly as many elements as `elements` (a tuple of references) holds.
template <class Tuple>
void read_array_into(Reader& r, Tuple&& elements) {
  constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<Tuple>>;
  r.begin_array();
  std::size_t i = 0;
  std::apply(
      [&](auto&... e) {
        ((r.next_element() ? read_value(r, e) : fail_element_count(r, n, i, false), ++i), ...);
      },
      elements);
  if (r.next_element()) fail_element_count(r, n, n, true);
}

template <class Map>
void read_object_into(Reader& r, Map& v) {
  v.clear();
  r.begin_object();
  while (auto key = r.next_key()) read_value(r, v[std::string(*key)]);
}

void fail_missing_member(Reader& r, std::string_view name);

}  // namespace detail

/// Reads a number as an arithmetic type: an integer exactly (range-checked), a double
/// correctly rounded, a float through a double.
template <class T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) void read_json(Reader& r, T& v) {
  if constexpr (std::is_integral_v<T>) {
    v = r.read_integer<T>();
  } else if constexpr (std::is_same_v<T, float>) {
    const double d = r.read_double();
    if (std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) {
      r.fail_at_token("expected a number within the range of float but found one beyond it");
    }
    // Two roundings (text to double, double to float): in rare halfway cases the result is
    // one float ulp away from the float nearest to the text.
    v = static_cast<float>(d);
  } else {
    v = static_cast<T>(r.read_double());
  }
}

// Large arrays: once enough of the input has been read, the vector is sized once from
// Reader::estimated_elements_left instead of growing by doubling (see there). Only asked when
// the vector is full, at most once per doubling, until it answers.
/// Reads an array into a vector, replacing its elements.
template <class T, class A>
void read_json(Reader& r, std::vector<T, A>& v) {
  v.clear();
  r.begin_array();
  const std::uint64_t start = r.stream().position();
  bool sized = false;
  while (r.next_element()) {
    if (v.size() == v.capacity() && !sized && !v.empty()) [[unlikely]] {
      if (const std::optional<std::uint64_t> left = r.estimated_elements_left(start, v.size())) {
        sized = true;
        const std::uint64_t room = v.max_size() - v.size();
        v.reserve(v.size() + static_cast<std::size_t>(*left < room ? *left : room));
      }
    }
    if constexpr (std::is_same_v<T, bool>) {
      v.push_back(r.read_bool());  // std::vector<bool> has no bool& to read into
    } else {
      read_value(r, v.emplace_back());
    }
  }
}

/// Reads an array of exactly N elements.
template <class T, std::size_t N>
void read_json(Reader& r, std::array<T, N>& v) {
  detail::read_array_into(r, std::apply([](auto&... e) { return std::tie(e...); }, v));
}

/// Reads an array of exactly as many elements as the tuple has.
template <class... T>
void read_json(Reader& r, std::tuple<T...>& v) {
  detail::read_array_into(r, std::apply([](auto&... e) { return std::tie(e...); }, v));
}

/// Reads an array of exactly two elements.
template <class A, class B>
void read_json(Reader& r, std::pair<A, B>& v) {
  detail::read_array_into(r, std::tie(v.first, v.second));
}

/// Reads `null` as an empty optional, anything else as its value.
template <class T>
void read_json(Reader& r, std::optional<T>& v) {
  if (r.skip_null()) {
    v.reset();
  } else {
    read_value(r, v.emplace());
  }
}

/// Reads an object into a map, replacing its entries (a repeated key: the last wins).
template <class T, class C, class A>
void read_json(Reader& r, std::map<std::string, T, C, A>& v) {
  detail::read_object_into(r, v);
}

/// Reads an object into an unordered map, replacing its entries (a repeated key: the last wins).
template <class T, class H, class E, class A>
void read_json(Reader& r, std::unordered_map<std::string, T, H, E, A>& v) {
  detail::read_object_into(r, v);
}

/// Reads a type that has `json_fields` from an array of its fields, in order.
template <HasJsonFields T>
void read_json(Reader& r, T& v) {
  detail::read_array_into(r, json_fields(v));
}

// Keys are matched against the member expected next first (the one after the last key
// matched): documents written from the same type list their members in declaration order, so
// most keys take one comparison. Any other order still works, by a search of all names (the
// first member of that name; names are expected to be distinct).
/// Reads a type that has `json_members` from an object of its members, in any order.
template <HasJsonMembers T>
requires(!HasJsonFields<T>) void read_json(Reader& r, T& v) {
  auto members = json_members(v);
  constexpr std::size_t n = std::tuple_size_v<decltype(members)>;
  const std::array<std::string_view, n> names = std::apply(
      [](const auto&... m) { return std::array<std::string_view, n>{m.name...}; }, members);
  std::array<bool, n> seen{};
  std::size_t expected = 0;
  r.begin_object();
  while (auto key = r.next_key()) {
    const std::string_view name = *key;  // compared before the value is read
    std::size_t found = expected;
    if (found >= n || names[found] != name) {
      found = 0;
      while (found < n && names[found] != name) ++found;
    }
    if (found == n) {
      r.skip_value();  // unknown keys are skipped
      continue;
    }
    seen[found] = true;
    expected = found + 1;
    std::size_t index = 0;
    std::apply([&](auto&... m) { ((index++ == found ? read_value(r, m.field) : void()), ...); },
               members);
  }
  std::size_t i = 0;
  std::apply(
      [&](auto&... m) {
        (
            [&](auto& member) {
              if (!seen[i]) {
                if constexpr (detail::is_optional<std::remove_cvref_t<decltype(member.field)>>) {
                  member.field.reset();
                } else {
                  detail::fail_missing_member(r, member.name);
                }
              }
              ++i;
            }(m),
            ...);
      },
      members);
}

}  // namespace bufstream::json
