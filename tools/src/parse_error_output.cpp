#include <algorithm>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "commands.hpp"
#include "io.hpp"

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

int read_each_input(const std::vector<std::string>& paths,
                    const std::function<void(Input&, std::size_t)>& read) {
  const std::vector<std::string> standard_input{"-"};
  const std::vector<std::string>& all = paths.empty() ? standard_input : paths;
  int status = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    try {
      std::optional<ParseError> invalid;
      std::string name;
      {
        Input input(all[i]);
        name = input.name();
        try {
          read(input, i);
        } catch (const ParseError& e) {
          invalid = e;
        }
      }  // closing the input erases its progress line, which the error line must not follow
      if (invalid) {
        print_parse_error(*invalid, name);
        status = std::max(status, 1);
      }
    } catch (const IoError& e) {
      std::fprintf(stderr, "bufstream: error: %s\n", e.what());
      status = 2;
    }
  }
  return status;
}

}  // namespace bufstream::cli
