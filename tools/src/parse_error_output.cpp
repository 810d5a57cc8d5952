#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"

namespace bufstream::cli {

void print_parse_error(const ParseError& error, const std::string& path) {
  std::string line;
  if (error.line() > 0) {
    line =
        fmt::format("{}:{}:{}: error: {}\n", path, error.line(), error.column(), error.message());
  } else {
    line = fmt::format("{}: error: {} (at byte {})\n", path, error.message(), error.offset());
  }
  std::fputs(line.c_str(), stderr);
}

}  // namespace bufstream::cli
