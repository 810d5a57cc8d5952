// bufstream: check, convert and pretty-print CSV, JSON and STON files; look words up in the
// CC-CEDICT dictionary. The contract (exit codes, error lines) is in the README.
#include <csignal>
#include <cstdio>
#include <new>
#include <string_view>

#include <bufstream/errors.hpp>

#include "command_line.hpp"
#include "commands.hpp"

namespace {

bool lost_data = false;

// The library's default would abort; the command reports the loss and exits with status 2.
void report_lost_data(std::string_view description) noexcept {
  std::fprintf(stderr, "bufstream: error: %.*s\n", static_cast<int>(description.size()),
               description.data());
  lost_data = true;
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (`bufstream convert big.csv | head`) must give an I/O error
  // (EPIPE, exit 2), never death by signal. This is the program's own setting, not the
  // library's: the library never touches signal dispositions.
  std::signal(SIGPIPE, SIG_IGN);
  // An output beyond the file size limit (ulimit -f) must be a write error (EFBIG, exit 2),
  // after which the temporary file is removed, not death by signal, which would leave it.
  std::signal(SIGXFSZ, SIG_IGN);
  bufstream::set_lost_data_handler(&report_lost_data);

  int status = 2;
  try {
    status = bufstream::cli::run_command_line(argc, argv);
  } catch (const bufstream::ParseError& e) {
    bufstream::cli::print_parse_error(e, e.source_name().empty() ? "<input>" : e.source_name());
    status = 1;
  } catch (const bufstream::IoError& e) {
    std::fprintf(stderr, "bufstream: error: %s\n", e.what());
    status = 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bufstream: error: out of memory\n");
    status = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bufstream: error: %s\n", e.what());
    status = 2;
  }
  return lost_data ? 2 : status;
}
