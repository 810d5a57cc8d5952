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

TEST(PinyinKey, ToneMarksBecomeDigitsAtTheSyllableEnd) {
  EXPECT_EQ(key("nǐ hǎo", true), "ni3hao3");
  EXPECT_EQ(key("nǐhǎo", true), "ni3hao3");
  EXPECT_EQ(key("Nǐ Hǎo", true), "ni3hao3");
  EXPECT_EQ(key("nǐhǎo", false), "nihao");
  EXPECT_EQ(key("lǜ", true), "lv4");
  EXPECT_EQ(key("LǛ", true), "lv4");
  EXPECT_EQ(key("nǚ'ér", true), "nv3er2");
  EXPECT_EQ(key("Xī'ān", true), "xi1an1");
  EXPECT_EQ(key("xiān", true), "xian1");
  EXPECT_EQ(key("Zhōngguó", true), "zhong1guo2");
  EXPECT_EQ(key("Chángē", true), "chan2ge1");  // n then g and a vowel: the g starts a syllable
  EXPECT_EQ(key("fāngàn", true), "fan1gan4");  // the same rule: pinyin writes 方案 fāng'àn
  EXPECT_EQ(key("fāng'àn", true), "fang1an4");
  EXPECT_EQ(key("nǎr", true), "nar3");
  EXPECT_EQ(key("èrshí", true), "er4shi2");
  EXPECT_EQ(key("hěnhǎo", true), "hen3hao3");
  EXPECT_EQ(key("ǹg", true), "ng4");  // syllabic n and ng (嗯 [ng4])
  EXPECT_EQ(key("ā á ǎ à ē é ě è ī í ǐ ì ō ó ǒ ò ū ú ǔ ù ǖ ǘ ǚ ǜ", true),
            "a1a2a3a4e1e2e3e4i1i2i3i4o1o2o3o4u1u2u3u4v1v2v3v4");
  EXPECT_EQ(key("Ā Á Ǎ À Ē É Ě È Ī Í Ǐ Ì Ō Ó Ǒ Ò Ū Ú Ǔ Ù Ǖ Ǘ Ǚ Ǜ", true),
            "a1a2a3a4e1e2e3e4i1i2i3i4o1o2o3o4u1u2u3u4v1v2v3v4");
  EXPECT_EQ(key("好 hǎo", true), "好hao3");  // other characters are kept
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
