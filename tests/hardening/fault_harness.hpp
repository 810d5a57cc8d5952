// The fault-injection harness every reader is run through.
//
// A reader under test is a function that reads a whole document from a ReadStream and returns
// a canonical text of what it read (a DOM dump, an event log, the fields of the records).
// `check_reader` then checks, over every faulty setup (the source read directly one byte per
// read, and through buffers of 1, 2, 3 and 7 bytes):
//   - without faults, with EINTR on every second or third read, and with one-byte reads, the
//     result is exactly the one read from memory;
//   - with the n-th read failing, for every n up to the number of reads the fault-free run
//     made, the failure surfaces as an IoError carrying that errno: never a ParseError, never
//     a value, never another exception.
// Readers wrap each step in `again_throws`, so that `check_repeats` can check that a step
// repeated after an IoError throws it again (errors are sticky) rather than parsing on from
// the middle of a token.
#pragma once

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <typeinfo>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "faulty_read_stream.hpp"

namespace bufstream::testing {

using ReadDocument = std::function<std::string(ReadStream&)>;

/// The errnos the failing reads report, in turn.
inline int fault_errno(std::size_t position) {
  static constexpr int errnos[] = {EIO, ECONNRESET, EISDIR, ENOMEM};
  return errnos[position % std::size(errnos)];
}

/// While `check_repeats` runs, `again_throws` repeats a step that threw IoError and notes here
/// what the repeat did when it did not throw the same IoError.
inline thread_local bool repeat_failed_steps = false;
inline thread_local std::string repeat_verdict;

/// Runs `step` (one call on a reader) and returns what it returns. Under `check_repeats`, a
/// step that throws IoError is run once more, and the repeat must throw the same IoError
/// (errors are sticky), not parse on from the middle of a token; the first error is rethrown.
template <class Step>
auto again_throws(Step step) -> decltype(step()) {
  try {
    return step();
  } catch (const IoError& first) {
    if (!repeat_failed_steps) throw;
    try {
      (void)step();
      repeat_verdict = std::string("the repeated step succeeded after '") + first.what() + "'";
    } catch (const IoError& second) {
      if (second.code() != first.code())
        repeat_verdict = std::string("the repeat threw another IoError: ") + second.what();
    } catch (const std::exception& e) {
      repeat_verdict = std::string("the repeat threw ") + typeid(e).name() + " after '" +
                       first.what() + "': " + e.what();
    }
    throw;
  }
}

/// What one faulty run gave, as text for a failure message; empty when it was right.
inline std::string judge_faulty_run(const ReadDocument& read, ReadStream& in, int expected_errno) {
  try {
    const std::string value = read(in);
    return "returned a value instead of failing: " + value.substr(0, 200);
  } catch (const IoError& e) {
    if (e.code() != std::error_code(expected_errno, std::generic_category()) &&
        e.code() != std::error_code(expected_errno, std::system_category())) {
      return std::string("IoError with the wrong code: ") + e.what();
    }
    return {};
  } catch (const ParseError& e) {
    return std::string("ParseError instead of IoError: ") + e.what();
  } catch (const std::exception& e) {
    return std::string(typeid(e).name()) + " instead of IoError: " + e.what();
  }
}

/// Checks `read` over every faulty setup as the header describes. `name` labels failures.
inline void check_reader(const std::string& name, std::string_view document,
                         const ReadDocument& read) {
  SCOPED_TRACE(name);
  MemoryReadStream memory(document);
  const std::string expected = read(memory);
  ASSERT_FALSE(expected.empty()) << "the reader gave nothing to compare";

  for (const FaultySetupKind& kind : fault_setups()) {
    SCOPED_TRACE(kind.name);
    const std::size_t per_read = kind.buffer_size == 0 ? 1 : 0;

    // Fault-free, interrupted and short reads give exactly the memory result.
    std::size_t reads = 0;
    {
      FaultySetup s = kind.make(document, {.max_per_read = per_read});
      EXPECT_EQ(read(s.stream()), expected);
      reads = s.source->reads();
    }
    for (std::size_t every : {2u, 3u}) {
      FaultySetup s = kind.make(document, {.max_per_read = per_read, .interrupt_every = every});
      EXPECT_EQ(read(s.stream()), expected) << "EINTR on every " << every << "th read";
      EXPECT_GT(s.source->interrupts(), 0u);
    }
    {
      FaultySetup s = kind.make(document, {.max_per_read = 1});
      EXPECT_EQ(read(s.stream()), expected) << "one byte per read";
    }
    ASSERT_GT(reads, 0u);

    // A failure at every read surfaces as that IoError.
    std::size_t wrong = 0;
    std::string first_wrong;
    for (std::size_t n = 1; n <= reads; ++n) {
      const int error_number = fault_errno(n);
      FaultySetup s = kind.make(
          document, {.fail_at = n, .error_number = error_number, .max_per_read = per_read});
      const std::string verdict = judge_faulty_run(read, s.stream(), error_number);
      if (!verdict.empty() && wrong++ == 0)
        first_wrong = "read " + std::to_string(n) + ": " + verdict;
    }
    EXPECT_EQ(wrong, 0u) << wrong << " of " << reads
                         << " fault positions went wrong; the first: " << first_wrong;
  }
}

}  // namespace bufstream::testing

namespace bufstream::testing {

/// Fails the read at every position, over every faulty setup, and checks that a step of the
/// reader repeated after the IoError (see `again_throws`) throws it again.
inline void check_repeats(const std::string& name, std::string_view document,
                          const ReadDocument& read) {
  SCOPED_TRACE(name);
  for (const FaultySetupKind& kind : fault_setups()) {
    SCOPED_TRACE(kind.name);
    const std::size_t per_read = kind.buffer_size == 0 ? 1 : 0;
    std::size_t reads = 0;
    {
      FaultySetup s = kind.make(document, {.max_per_read = per_read});
      (void)read(s.stream());
      reads = s.source->reads();
    }
    std::size_t wrong = 0;
    std::string first_wrong;
    repeat_failed_steps = true;
    for (std::size_t n = 1; n <= reads; ++n) {
      FaultySetup s = kind.make(
          document, {.fail_at = n, .error_number = fault_errno(n), .max_per_read = per_read});
      repeat_verdict.clear();
      try {
        (void)read(s.stream());
      } catch (const std::exception&) {
      }
      if (!repeat_verdict.empty() && wrong++ == 0)
        first_wrong = "read " + std::to_string(n) + ": " + repeat_verdict;
    }
    repeat_failed_steps = false;
    EXPECT_EQ(wrong, 0u) << wrong << " of " << reads
                         << " fault positions: a repeated step did not throw the "
                         << "IoError again; the first: " << first_wrong;
  }
}

}  // namespace bufstream::testing
