// write_json: how the Writer writes values of standard and user types.
//
// `Writer::value(v)` calls `write_json(writer, v)` found by argument-dependent lookup. This
// header provides it for std::vector, std::array, std::tuple, std::pair (arrays),
// std::optional (null when empty), std::map and std::unordered_map with std::string keys
// (objects), and types that describe themselves with `json_fields` or `json_members` (see
// fields.hpp). For anything else, declare in the type's namespace
//
//     void write_json(bufstream::json::Writer& w, const MyType& v);
//
// that writes exactly one JSON value with the Writer's calls.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <bufstream/json/fields.hpp>
#include <bufstream/json/writer_core.hpp>

namespace bufstream::json {

// Declared first so that each can write the others as elements.
template <class T, class A>
void write_json(Writer& w, const std::vector<T, A>& v);
template <class T, std::size_t N>
void write_json(Writer& w, const std::array<T, N>& v);
template <class... T>
void write_json(Writer& w, const std::tuple<T...>& v);
template <class A, class B>
void write_json(Writer& w, const std::pair<A, B>& v);
template <class T>
void write_json(Writer& w, const std::optional<T>& v);
template <class T, class C, class A>
void write_json(Writer& w, const std::map<std::string, T, C, A>& v);
template <class T, class H, class E, class A>
void write_json(Writer& w, const std::unordered_map<std::string, T, H, E, A>& v);
template <HasJsonFields T>
void write_json(Writer& w, const T& v);
template <HasJsonMembers T>
requires(!HasJsonFields<T>) void write_json(Writer& w, const T& v);

template <class T>
void write_value(Writer& w, const T& value) {
  write_json(w, value);
}

namespace detail {
template <class Tuple>
void write_tuple_elements(Writer& w, const Tuple& t) {
  std::apply([&w](const auto&... e) { (w.value(e), ...); }, t);
}
}  // namespace detail

/// Writes a vector as an array.
template <class T, class A>
void write_json(Writer& w, const std::vector<T, A>& v) {
  w.begin_array();
  // static_cast: std::vector<bool> hands out proxies, not bools.
  for (const auto& e : v) w.value(static_cast<const T&>(e));
  w.end_array();
}

/// Writes a std::array as an array.
template <class T, std::size_t N>
void write_json(Writer& w, const std::array<T, N>& v) {
  w.begin_array();
  for (const T& e : v) w.value(e);
  w.end_array();
}

/// Writes a tuple as an array.
template <class... T>
void write_json(Writer& w, const std::tuple<T...>& v) {
  w.begin_array();
  detail::write_tuple_elements(w, v);
  w.end_array();
}

/// Writes a pair as an array of two elements.
template <class A, class B>
void write_json(Writer& w, const std::pair<A, B>& v) {
  w.begin_array().value(v.first).value(v.second).end_array();
}

/// Writes an empty optional as `null`, another as its value.
template <class T>
void write_json(Writer& w, const std::optional<T>& v) {
  if (v) {
    w.value(*v);
  } else {
    w.null();
  }
}

/// Writes a map as an object.
template <class T, class C, class A>
void write_json(Writer& w, const std::map<std::string, T, C, A>& v) {
  w.begin_object();
  for (const auto& [k, e] : v) w.key(k).value(e);
  w.end_object();
}

/// Writes an unordered map as an object, in its iteration order.
template <class T, class H, class E, class A>
void write_json(Writer& w, const std::unordered_map<std::string, T, H, E, A>& v) {
  w.begin_object();
  for (const auto& [k, e] : v) w.key(k).value(e);
  w.end_object();
}

/// Writes a type that has `json_fields` as an array of its fields, in order.
template <HasJsonFields T>
void write_json(Writer& w, const T& v) {
  // json_fields takes T&: it is only read through here (see fields.hpp).
  const auto fields = json_fields(const_cast<T&>(v));
  w.begin_array();
  detail::write_tuple_elements(w, fields);
  w.end_array();
}

/// Writes a type that has `json_members` as an object of its members, in order.
template <HasJsonMembers T>
requires(!HasJsonFields<T>) void write_json(Writer& w, const T& v) {
  const auto members = json_members(const_cast<T&>(v));
  w.begin_object();
  std::apply([&w](const auto&... m) { (w.key(m.name).value(std::as_const(m.field)), ...); },
             members);
  w.end_object();
}

}  // namespace bufstream::json
