/// \namespace bufstream::cedict
/// bufstream::cedict: the CC-CEDICT Chinese/English dictionary, loaded from any ReadStream or
/// mapped file, with look-ups by headword, pinyin and English word.
///
///     #include <bufstream/cedict.hpp>
///     auto dict = bufstream::cedict::Dictionary::map_file("cedict_ts.u8");
///     for (const auto& e : dict.find_pinyin("ni hao")) ...
///
/// line_parser.hpp reads one line on its own; stats.hpp describes what a load found.
#pragma once

#include <bufstream/cedict/dictionary.hpp>
#include <bufstream/cedict/entry.hpp>
#include <bufstream/cedict/line_parser.hpp>
#include <bufstream/cedict/stats.hpp>
