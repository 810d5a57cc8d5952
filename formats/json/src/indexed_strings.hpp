// A JSON string with escapes, read by walking the structural index (json_index.hpp), which
// gives a string's escaping backslashes and its closing quote: shared by json::Document's
// parser (document_parser.cpp) and json::Reader's indexed runs (reader_index.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include <bufstream/kernels/escapes.hpp>
#include <bufstream/utf8.hpp>

namespace bufstream::json::detail {

/// Decodes the string whose bytes start at `from` and whose first indexed byte, a backslash,
/// is at `q`, appending it to `out`; `next()` gives the following indexed bytes (nullptr, or a
/// byte that is neither a quote nor a backslash, when there are none), and no escape may reach
/// `end`. Returns the closing quote, or nullptr when the string is not one JSON allows (an
/// escape that is none, or no closing quote before the bytes end): the caller's reader then
/// says what is wrong. `out` must not reallocate while `from` points into it.
template <class Next>
const char* decode_indexed_string(const char* from, const char* q, const char* const end,
                                  Next&& next, std::string& out) {
  for (;;) {
    out.append(from, static_cast<std::size_t>(q - from));
    if (*q == '"') return q;
    if (*q != '\\' || end - q < 2) return nullptr;
    if (q[1] == 'u') {
      const kernels::escapes::Decoded u = kernels::escapes::decode_u(std::string_view(
          q, std::min(kernels::escapes::max_u_length, static_cast<std::size_t>(end - q))));
      if (u.error != kernels::escapes::Decoded::Error::none) return nullptr;
      char utf8[4];
      out.append(utf8, utf8::encode(u.code_point, utf8));
      from = q + u.at;
      // A surrogate pair's second escape is indexed too: it is read.
      if (u.at == 2 * 6 && next() != q + 6) return nullptr;
    } else {
      const int b = kernels::escapes::short_unescape(static_cast<unsigned char>(q[1]),
                                                     kernels::escapes::json);
      if (b < 0) return nullptr;
      out.push_back(static_cast<char>(b));
      from = q + 2;
    }
    q = next();
    if (q == nullptr) return nullptr;
  }
}

}  // namespace bufstream::json::detail
