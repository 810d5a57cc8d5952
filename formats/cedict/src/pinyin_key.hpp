// The keys pinyin look-ups compare: the same spelling whatever the case, the spacing and the
// way ü is written.
#pragma once

#include <string>
#include <string_view>

namespace bufstream::cedict {

/// Appends the normalised form of `pinyin` to `out`: ASCII letters lower-cased; "u:", "v",
/// "ü" and "Ü" all become 'v'; spaces, tabs and apostrophes dropped; tone digits kept only if
/// `keep_tones`; every other byte kept as it is. "Lu:4 Xun4" gives "lv4xun4" (or "lvxun").
/// Tone marks become the tone digit at the end of their syllable: "nǐhǎo" gives "ni3hao3",
/// "Xī'ān" "xi1an1", "lǜ" "lv4". Without spaces or apostrophes a syllable ends after the
/// marked vowel's vowels and a final n, ng or r, unless that letter is followed by a vowel
/// (so "Chángē" is "chan2ge1", as pinyin's apostrophe rule intends).
void append_pinyin_key(std::string_view pinyin, bool keep_tones, std::string& out);

/// True when `append_pinyin_key(pinyin, false, ...)` would give `key`, most often found without
/// making the key (a look-up that scans the entries calls this for each one; most differ from
/// `key` in their first letters). `scratch` is used when the pinyin is not ASCII.
bool toneless_key_is(std::string_view pinyin, std::string_view key, std::string& scratch);

namespace detail {
/// `append_pinyin_key` by its general path, whatever the bytes (the tests check that the
/// ASCII path gives the same keys).
void append_pinyin_key_by_units(std::string_view pinyin, bool keep_tones, std::string& out);
}  // namespace detail

/// True when `entry_key` (a key with tones) matches `query_key` (a key with tones, some of
/// them possibly missing): equal after dropping the entry's tone digits where the query has
/// none. "ni3hao3" matches "nihao", "ni3hao" and "ni3hao3", not "ni2hao".
bool tones_match(std::string_view query_key, std::string_view entry_key) noexcept;

}  // namespace bufstream::cedict
