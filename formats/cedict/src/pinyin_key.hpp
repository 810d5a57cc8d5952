// The keys pinyin look-ups compare: the same spelling whatever the case, the spacing and the
// way ü is written.
#pragma once

#include <string>
#include <string_view>

namespace bufstream::cedict {

/// Appends the normalised form of `pinyin` to `out`: ASCII letters lower-cased; "u:", "v",
/// "ü" and "Ü" all become 'v'; spaces and tabs dropped; tone digits kept only if
/// `keep_tones`; every other byte kept as it is. "Lu:4 Xun4" gives "lv4xun4" (or "lvxun").
void append_pinyin_key(std::string_view pinyin, bool keep_tones, std::string& out);

/// True when `entry_key` (a key with tones) matches `query_key` (a key with tones, some of
/// them possibly missing): equal after dropping the entry's tone digits where the query has
/// none. "ni3hao3" matches "nihao", "ni3hao" and "ni3hao3", not "ni2hao".
bool tones_match(std::string_view query_key, std::string_view entry_key) noexcept;

}  // namespace bufstream::cedict
