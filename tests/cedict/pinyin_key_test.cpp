// The normalisation behind pinyin look-ups (a private header of the library).
#include "pinyin_key.hpp"

#include <string>

#include <gtest/gtest.h>

namespace bufstream::cedict {
namespace {

std::string key(std::string_view pinyin, bool tones) {
  std::string out;
  append_pinyin_key(pinyin, tones, out);
  return out;
}

TEST(PinyinKey, Normalises) {
  EXPECT_EQ(key("Ni3 Hao3", true), "ni3hao3");
  EXPECT_EQ(key("Ni3 Hao3", false), "nihao");
  EXPECT_EQ(key("Lu:4 Xun4", true), "lv4xun4");
  EXPECT_EQ(key("LÜ4", true), "lv4");
  EXPECT_EQ(key("lü", false), "lv");
  EXPECT_EQ(key("lv5", false), "lv");
  EXPECT_EQ(key("U:", false), "v");
  EXPECT_EQ(key("san1 C", false), "sanc");
  EXPECT_EQ(key("yi1 , er4", false), "yi,er");  // punctuation is kept
  EXPECT_EQ(key("\tu", false), "u");
  EXPECT_EQ(key("u:", true), "v");
  EXPECT_EQ(key("u", true), "u");
}

TEST(PinyinKey, TonesMatch) {
  EXPECT_TRUE(tones_match("ni3hao3", "ni3hao3"));
  EXPECT_TRUE(tones_match("nihao", "ni3hao3"));
  EXPECT_TRUE(tones_match("ni3hao", "ni3hao3"));
  EXPECT_TRUE(tones_match("nihao3", "ni3hao3"));
  EXPECT_FALSE(tones_match("ni2hao", "ni3hao3"));
  EXPECT_FALSE(tones_match("nihao4", "ni3hao3"));
  EXPECT_FALSE(tones_match("ni3", "ni"));  // the entry has no tone there
  EXPECT_FALSE(tones_match("ni3hao3", "ni3"));
  EXPECT_FALSE(tones_match("ni3", "ni3hao3"));
  EXPECT_TRUE(tones_match("", ""));
}

}  // namespace
}  // namespace bufstream::cedict
