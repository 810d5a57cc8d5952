#include <bufstream/errors.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace bufstream {

namespace {

std::string io_message(const std::string& operation, const std::string& path) {
  return path.empty() ? operation : operation + " " + path;
}

std::string parse_message(const SourcePosition& pos, const std::string& message,
                          const std::string& source_name) {
  const std::string_view name = source_name.empty() ? std::string_view("<input>") : source_name;
  if (pos.line == 0) return fmt::format("{}: {} (byte {})", name, message, pos.offset);
  return fmt::format("{}:{}:{}: {} (byte {})", name, pos.line, pos.column, message, pos.offset);
}

void default_lost_data_handler(std::string_view description) noexcept {
  std::fprintf(stderr, "bufstream: data lost: %.*s\n", static_cast<int>(description.size()),
               description.data());
  std::abort();
}

std::atomic<LostDataHandler> lost_data_handler{&default_lost_data_handler};

}  // namespace

IoError::IoError(std::error_code code, std::string operation, std::string path)
    : std::system_error(code, io_message(operation, path)),
      operation_(std::move(operation)),
      path_(std::move(path)) {}

IoError IoError::from_errno(int errno_value, std::string operation, std::string path) {
  return IoError(std::error_code(errno_value, std::generic_category()), std::move(operation),
                 std::move(path));
}

ParseError::ParseError(SourcePosition position, std::string message, std::string source_name)
    : std::runtime_error(parse_message(position, message, source_name)),
      position_(position),
      message_(std::move(message)),
      source_name_(std::move(source_name)) {}

ParseError ParseError::with_source_name(std::string source_name) const {
  return ParseError(position_, message_, std::move(source_name));
}

std::string describe_byte(int byte) {
  if (byte < 0) return "end of input";
  switch (byte) {
    case '\n': return "'\\n'";
    case '\r': return "'\\r'";
    case '\t': return "'\\t'";
    case '\0': return "'\\0'";
    default: break;
  }
  if (byte >= 0x20 && byte < 0x7F) return fmt::format("'{}'", static_cast<char>(byte));
  return fmt::format("byte 0x{:02x}", byte);
}

LostDataHandler set_lost_data_handler(LostDataHandler handler) noexcept {
  return lost_data_handler.exchange(handler ? handler : &default_lost_data_handler);
}

LostDataHandler get_lost_data_handler() noexcept { return lost_data_handler.load(); }

}  // namespace bufstream
