// How the JSON library's messages show a JSON Pointer (json::Document's access errors,
// json::Selection's misses). Private to the library.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace bufstream::json::detail {

/// "the root" for the pointer "", else the pointer in double quotes. (Inline, as a private
/// helper: it adds nothing to the shared library's ABI.)
inline std::string shown_pointer(std::string_view pointer) {
  return pointer.empty() ? std::string("the root") : fmt::format("\"{}\"", pointer);
}

}  // namespace bufstream::json::detail
