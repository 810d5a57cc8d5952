// json::Pointer: RFC 6901's reference tokens, decoded once.
#include <bufstream/json/pointer.hpp>

#include <fmt/format.h>

#include <bufstream/errors.hpp>
#include <bufstream/numbers.hpp>

namespace bufstream::json {

namespace {

// A token as an array index: "0", or digits without a leading zero, that fit 64 bits.
std::optional<std::uint64_t> as_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token.front() == '0')) return std::nullopt;
  return parse_integer<std::uint64_t>(token);  // no sign: parse_integer<unsigned> takes none
}

}  // namespace

Pointer::Pointer(std::string_view text) : text_(text) {
  if (text.empty()) return;
  if (text.front() != '/') {
    throw bufstream::UsageError(
        fmt::format("invalid JSON Pointer \"{}\": it must be empty or start with '/'", text));
  }
  std::size_t at = 1;
  for (;;) {
    const std::size_t slash = text.find('/', at);
    const std::size_t end = slash == std::string_view::npos ? text.size() : slash;
    Token token{{}, std::nullopt, end};
    for (std::size_t i = at; i < end; ++i) {
      if (text[i] != '~') {
        token.name += text[i];
      } else if (i + 1 < end && (text[i + 1] == '0' || text[i + 1] == '1')) {
        token.name += text[++i] == '0' ? '~' : '/';
      } else {
        throw bufstream::UsageError(fmt::format(
            "invalid JSON Pointer \"{}\": '~' at byte {} must be followed by 0 or 1", text, i));
      }
    }
    token.index = as_index(token.name);
    wildcards_ = wildcards_ || token.name == "*";
    tokens_.push_back(std::move(token));
    if (slash == std::string_view::npos) return;
    at = slash + 1;
  }
}

std::string Pointer::prefix(std::size_t n) const {
  if (n == 0) return {};
  return text_.substr(0, tokens_.at(n - 1).end);
}

void Pointer::append_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (const char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

}  // namespace bufstream::json
