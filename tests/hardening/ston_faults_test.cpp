// Fault injection over ston::Reader, on a document with every kind of value and with shared
// and cyclic structure (see fault_harness.hpp). Run under LeakSanitizer, a failure half-way
// through a cyclic graph must leave nothing behind.
#include <string>

#include <gtest/gtest.h>

#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include "fault_harness.hpp"

namespace bufstream::ston {
namespace {

using testing::again_throws;
using testing::check_reader;
using testing::check_repeats;

// A tagged map that contains itself (@1), a list shared twice (@3), exact big integers,
// fractions, scaled decimals, floats, symbols, escapes, UTF-8, associations, a special float,
// then a second top-level value that is a cycle of two lists.
constexpr std::string_view document =
    "Person{#name:'Ada \\'\\u00e9\\' \xe4\xb8\xad',\r\n"
    "  #tags:[#a,#'b c',\"d\\n\"],\n"
    "  #again:@3, #self:@1,\n"
    "  #big:-123456789012345678901234567890, #ratio:-1/3, #cost:1/3s2, #f:2.5e-3, #e:1e3,\n"
    "  #pt:Point[1,2], #nan:Float[#nan], #nil:nil, 'k':true : false}\n"
    "[[@1],@2]\n";

std::string read_values_with_sharing_and_cycles(ReadStream& in) {
  Reader reader(in);
  std::string out;
  while (!again_throws([&] { return reader.at_end(); })) {
    Document doc;
    const Value v = again_throws([&] { return reader.read(doc); });
    out += to_string(v) + "\n";
  }
  return out;
}

TEST(StonFaults, ValuesWithSharingAndCycles) {
  check_reader("ston::Reader::read", document, read_values_with_sharing_and_cycles);
}
TEST(StonFaults, ValuesWithSharingAndCyclesRepeatedAfterIoError) {
  check_repeats("ston::Reader::read", document, read_values_with_sharing_and_cycles);
}

TEST(StonFaults, ParseOneValue) {
  check_reader("ston::parse", "[1,[2,@2],{#k:@1}]  ", [](ReadStream& in) {
    const Document doc = parse(in);
    return to_string(doc.root());
  });
}

TEST(StonFaults, Comments) {
  check_reader("ston::Reader with comments", "/* a */ [1, // b\n 2 /* c * / */]",
               [](ReadStream& in) {
                 Reader reader(in, {.allow_comments = true});
                 Document doc;
                 const Value v = again_throws([&] { return reader.read(doc); });
                 again_throws([&] { reader.expect_end(); });
                 return to_string(v);
               });
}

}  // namespace
}  // namespace bufstream::ston
