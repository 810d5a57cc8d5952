// JSON Pointers (RFC 6901), with `*` for "every element or member here": what json::Document's
// `at` looks up, and what json::Selection (select.hpp) picks out of a stream.
//
//     json::Pointer p("/rows/*/name");
//     p.size();            // 3 reference tokens
//     p.token(0);          // "rows"
//     p.is_wildcard(1);    // true
//     p.prefix(1);         // "/rows"
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::json {

/// A parsed JSON Pointer: "" (the whole value) or reference tokens each after a '/', with `~0`
/// standing for '~' and `~1` for '/'. A token that is exactly `*` is also a wildcard, which
/// json::Selection reads as "every element or member here" (json::Document's `at`, which looks
/// up one value, reads it as the member name "*"; a Selection selects a member named "*" only
/// through a wildcard).
class Pointer {
 public:
  /// The pointer "" (the whole value).
  Pointer() = default;
  /// Parses `text`; a text that is not empty and does not start with '/', or a '~' not
  /// followed by 0 or 1, is a UsageError naming the pointer.
  explicit Pointer(std::string_view text);

  /// The pointer's text, as given.
  const std::string& text() const noexcept { return text_; }
  /// How many reference tokens it has (0 for "").
  std::size_t size() const noexcept { return tokens_.size(); }
  /// True for the pointer "" (the whole value).
  bool empty() const noexcept { return tokens_.empty(); }
  /// Reference token `i`, decoded ("a~1b" is "a/b").
  const std::string& token(std::size_t i) const { return tokens_.at(i).name; }
  /// Token `i` as an array index, when it is one: "0", or digits without a leading zero, below
  /// 2^64 (RFC 6901, section 4); "-" and "01" are not.
  std::optional<std::uint64_t> index(std::size_t i) const { return tokens_.at(i).index; }
  /// Whether token `i` is `*`.
  bool is_wildcard(std::size_t i) const { return tokens_.at(i).name == "*"; }
  /// Whether any token is `*`.
  bool has_wildcards() const noexcept { return wildcards_; }
  /// The pointer of the first `n` tokens ("/rows" for prefix(1) of "/rows/*"), in the text's
  /// own escapes.
  std::string prefix(std::size_t n) const;

  /// Appends `/` and `token` with '~' and '/' escaped (as `~0` and `~1`) to `pointer`: how a
  /// pointer to a child is made from its parent's.
  static void append_token(std::string& pointer, std::string_view token);

 private:
  struct Token {
    std::string name;
    std::optional<std::uint64_t> index;
    std::size_t end;  // where the token ends in the text
  };
  std::string text_;
  std::vector<Token> tokens_;
  bool wildcards_ = false;
};

}  // namespace bufstream::json
