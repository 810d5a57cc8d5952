#include "command_line.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bufstream::cli {

std::optional<std::string> ParsedArgs::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::values(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

ParsedArgs parse_args(std::span<const std::string> args, std::initializer_list<OptionSpec> specs) {
  static constexpr OptionSpec help{"help", 'h', false, false};
  auto find_long = [&](std::string_view name) -> const OptionSpec* {
    if (name == help.name) return &help;
    auto it = std::find_if(specs.begin(), specs.end(),
                           [&](const OptionSpec& s) { return s.name == name; });
    return it == specs.end() ? nullptr : &*it;
  };
  auto find_short = [&](char c) -> const OptionSpec* {
    if (c == help.short_name) return &help;
    auto it = std::find_if(specs.begin(), specs.end(),
                           [&](const OptionSpec& s) { return s.short_name == c; });
    return it == specs.end() ? nullptr : &*it;
  };

  ParsedArgs parsed;
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg == "-" || arg.empty() || arg[0] != '-') {
      parsed.positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    const OptionSpec* spec = nullptr;
    std::optional<std::string> inline_value;
    std::string shown;
    if (arg.starts_with("--")) {
      std::string_view body = std::string_view(arg).substr(2);
      if (auto eq = body.find('='); eq != std::string_view::npos) {
        inline_value = std::string(body.substr(eq + 1));
        body = body.substr(0, eq);
      }
      shown = "--" + std::string(body);
      spec = find_long(body);
    } else {
      if (arg.size() != 2) throw UsageError(fmt::format("unknown option '{}'", arg));
      shown = arg;
      spec = find_short(arg[1]);
    }
    if (spec == nullptr) throw UsageError(fmt::format("unknown option '{}'", shown));
    std::string value;
    if (spec->takes_value) {
      if (inline_value) {
        value = *inline_value;
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw UsageError(fmt::format("option '{}' needs a value", shown));
      }
    } else if (inline_value) {
      throw UsageError(fmt::format("option '{}' takes no value", shown));
    }
    auto& slot = parsed.values_[std::string(spec->name)];
    if (!spec->repeatable) slot.clear();
    slot.push_back(std::move(value));
  }
  return parsed;
}

}  // namespace bufstream::cli
