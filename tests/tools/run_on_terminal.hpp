// Runs a program with its standard error on a pseudo-terminal, as a person at a terminal would
// see it: for tests of what the bufstream command shows only on terminals (progress).
#pragma once

#include <string>
#include <vector>

#include "run_program.hpp"

namespace bufstream::testing {

/// Runs `program` with `args`, standard input from /dev/null, standard output collected from a
/// pipe (`out`) and standard error on the slave side of a new pseudo-terminal; `err` is
/// everything the terminal received (with the terminal's LF to CRLF translation).
ProgramResult run_program_with_terminal_stderr(const std::string& program,
                                               const std::vector<std::string>& args);

}  // namespace bufstream::testing
