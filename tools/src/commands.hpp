// The subcommands of the bufstream command. Each takes the words after its name and returns
// the exit status (0 success, 1 invalid input, 2 usage or I/O error); errors it does not
// handle itself propagate to main(), which prints them and chooses the status.
#pragma once

#include <span>
#include <string>

#include <bufstream/errors.hpp>

namespace bufstream::cli {

int run_check(std::span<const std::string> args);
int run_convert(std::span<const std::string> args);
int run_fmt(std::span<const std::string> args);
int run_cedict(std::span<const std::string> args);

/// Prints a ParseError as compilers do: "PATH:LINE:COLUMN: error: MESSAGE".
void print_parse_error(const ParseError& error, const std::string& path);

}  // namespace bufstream::cli
