// The command line of the bufstream command, parsed by CLI11: long options with `--name value`
// or `--name=value`, short aliases, `--` to end options, `-` as a path meaning standard input or
// output, `--help` on every subcommand.
#pragma once

namespace bufstream::cli {

/// Reads the command line (`argv[1..]`), runs the command it names and returns the exit
/// status. A usage error, CLI11's (an unknown option, a missing or bad value: its message names
/// the option) or a command's CLI::ValidationError, is printed here as "bufstream COMMAND:
/// MESSAGE" with a hint to --help, and gives status 2; other errors propagate to main().
int run_command_line(int argc, const char* const* argv);

}  // namespace bufstream::cli
