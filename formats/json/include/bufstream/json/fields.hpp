// How a user type describes itself to the JSON reader and writer, without writing a
// `read_json`/`write_json` pair by hand. Two shapes, both found by ADL next to the type:
//
// As an array of its fields, in order (compact, and the shape of the benchmark rows):
//
//     struct Row { std::int64_t a; std::int64_t b; double c; double d; std::string e; };
//     auto json_fields(Row& r) { return std::tie(r.a, r.b, r.c, r.d, r.e); }
//     // Row{1, -1, 1.0, 1.0, "one"}  <->  [1,-1,1.0,1.0,"one"]
//
// As an object of named members:
//
//     struct Person { std::string name; int born = 0; std::optional<std::string> note; };
//     auto json_members(Person& p) {
//       return std::make_tuple(json::member("name", p.name), json::member("born", p.born),
//                              json::member("note", p.note));
//     }
//     // {"name":"Ada","born":1815,"note":null}
//
// One non-const function serves both directions: the writer calls it on its const value
// through a const_cast and only ever reads through the references it returns.
// Reading an object: members may come in any order; unknown keys are skipped; a missing
// member is an error unless its type is std::optional (then it is reset); a repeated key
// overwrites the earlier value (last wins).
#pragma once

#include <string_view>

namespace bufstream::json {

/// One named member of an object-shaped type, made by `json::member(name, field)`.
template <class T>
struct Member {
  std::string_view name;  ///< The member's key.
  T& field;               ///< The field it is read into and written from.
};

/// A Member: one named member of a `json_members` tuple.
template <class T>
Member<T> member(std::string_view name, T& field) noexcept {
  return {name, field};
}

/// True when ADL finds `json_fields(T&)`.
template <class T>
concept HasJsonFields = requires(T& v) {
  json_fields(v);
};

/// True when ADL finds `json_members(T&)`.
template <class T>
concept HasJsonMembers = requires(T& v) {
  json_members(v);
};

}  // namespace bufstream::json
