// The JSON indexer: every form gives what a plain byte loop over the same rules gives, on
// random JSON-like texts cut into stretches of every size (so the carry crosses every kind of
// boundary: inside a string, after a backslash, inside a number), and on the cases by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <bufstream/kernels/json_index.hpp>
#include <split_mix64.hpp>

namespace bufstream::kernels::json_index {
namespace {

bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_op(char c) { return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','; }

struct Reference {
  std::vector<std::uint32_t> offsets;
  bool control_in_string = false;
};

// The rules of json_index.hpp, a byte at a time.
Reference reference(const std::string& text) {
  Reference r;
  bool in_string = false;
  bool escaped = false;  // the byte is escaped (the one before it escapes)
  bool in_run = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto at = static_cast<std::uint32_t>(i);
    const bool was_escaped = escaped;
    escaped = c == '\\' && !was_escaped;
    if (c == '"' && !was_escaped) {
      r.offsets.push_back(at);
      in_string = !in_string;
      in_run = false;
      continue;
    }
    if (in_string) {
      if (escaped) r.offsets.push_back(at);
      if (static_cast<unsigned char>(c) < 0x20) r.control_in_string = true;
      continue;
    }
    if (is_whitespace(c) || is_op(c)) {
      if (is_op(c)) r.offsets.push_back(at);
      in_run = false;
      continue;
    }
    if (!in_run) r.offsets.push_back(at);
    in_run = true;
  }
  return r;
}

// Every form, the text padded with spaces to whole blocks and indexed in stretches of
// `stretch` blocks.
void expect_forms_agree(std::string text, std::size_t stretch) {
  const Reference want = reference(text);
  const std::size_t blocks = (text.size() + 63) / 64;
  text.resize(64 * blocks, ' ');
  for (const InstructionSet set : available_sets()) {
    SCOPED_TRACE(name(set));
    Carry carry;
    std::vector<std::uint32_t> got;
    std::vector<std::uint32_t> out(64 * stretch);
    for (std::size_t w = 0; w < blocks; w += stretch) {
      const std::size_t n = std::min(stretch, blocks - w);
      const std::size_t count =
          form_for(index_forms(), set)(text.data() + 64 * w, n, carry, out.data());
      for (std::size_t i = 0; i < count; ++i)
        got.push_back(out[i] + static_cast<std::uint32_t>(64 * w));
    }
    ASSERT_EQ(got, want.offsets) << testing::PrintToString(text) << " stretch " << stretch;
    ASSERT_EQ(carry.control_in_string != 0, want.control_in_string) << testing::PrintToString(text);
  }
}

using Random = test::SplitMix64;

std::string random_text(Random& random, std::size_t length) {
  static const std::string bytes{' ', '\t', '\r', '\n',   '"',    '"',    '\\',   '\\',  '\\',
                                 '{', '}',  '[',  ']',    ':',    ',',    '1',    '-',   'e',
                                 'a', 't',  '\0', '\x1F', '\x7F', '\x80', '\xC3', '\xFF'};
  std::string text(length, ' ');
  for (char& c : text) c = bytes[random.below(bytes.size())];
  return text;
}

TEST(KernelJsonIndex, EveryFormAgreesWithTheRulesInEveryStretch) {
  Random random(18);
  for (int round = 0; round < 400; ++round) {
    const std::string text = random_text(random, random.below(600));
    for (const std::size_t stretch : {1u, 2u, 3u, 16u}) expect_forms_agree(text, stretch);
  }
}

TEST(KernelJsonIndex, EveryByteValueInEveryPosition) {
  for (unsigned c = 0; c < 256; ++c) {
    for (const std::size_t at : {0u, 1u, 15u, 16u, 62u, 63u, 64u, 100u}) {
      std::string outside(130, 'a');
      outside[at] = static_cast<char>(c);
      expect_forms_agree(outside, 1);
      std::string inside = "\"" + std::string(128, 'a') + "\"";
      inside[at + 1] = static_cast<char>(c);
      expect_forms_agree(inside, 1);
    }
  }
}

TEST(KernelJsonIndex, ByHand) {
  const std::string text = R"({"a\"b": [1, -2.5e3, true], "c\\": "\u00e9"})";
  const Reference r = reference(text);
  // { " \ " : [ 1 , -2.5e3 , true ] , " \ " : " \ " }
  const std::vector<std::uint32_t> want{0,  1,  3,  6,  7,  9,  10, 11, 13, 19, 21,
                                        25, 26, 28, 30, 32, 33, 35, 36, 42, 43};
  EXPECT_EQ(r.offsets, want);
  expect_forms_agree(text, 1);
  // Backslash runs across block ends: an even run escapes nothing after it.
  for (std::size_t before = 55; before <= 66; ++before) {
    for (std::size_t run = 1; run <= 5; ++run) {
      expect_forms_agree("\"" + std::string(before, 'x') + std::string(run, '\\') + "\"x\" 1", 1);
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels::json_index
