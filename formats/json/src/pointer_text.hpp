// How the JSON library's messages show a JSON Pointer (json::Document's access errors,
// json::Selection's misses). Private to the library.
#pragma once

#include <string>
#include <string_view>

namespace bufstream::json::detail {

/// "the root" for the pointer "", else the pointer in double quotes.
std::string shown_pointer(std::string_view pointer);

}  // namespace bufstream::json::detail
