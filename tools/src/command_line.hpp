// Argument parsing for the bufstream command, the way well-known Unix tools behave: long
// options with `--name value` or `--name=value`, short aliases, `--` to end options, `-` as
// a path meaning standard input or output.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bufstream::cli {

/// A mistake in how the command was called: exit status 2, with a hint to `--help`.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string_view name;  // long name without dashes: "format"
  char short_name = 0;    // 'f', or 0
  bool takes_value = false;
  bool repeatable = false;
};

/// The parsed arguments of one subcommand.
class ParsedArgs {
 public:
  bool has(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  /// The last value given for an option that takes one.
  std::optional<std::string> value(std::string_view name) const;
  /// Every value given for a repeatable option, in order.
  std::vector<std::string> values(std::string_view name) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  friend ParsedArgs parse_args(std::span<const std::string>, std::initializer_list<OptionSpec>);
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positional_;
};

/// Parses `args` (the words after the subcommand's name). `--help` is always accepted.
/// Throws UsageError for an unknown option, a missing value, or a value given to a flag.
ParsedArgs parse_args(std::span<const std::string> args, std::initializer_list<OptionSpec> specs);

}  // namespace bufstream::cli
