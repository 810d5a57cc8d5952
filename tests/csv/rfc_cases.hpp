// The RFC 4180 cases (csv-spectrum's and sineemore's kinds: quoted separators and line ends,
// doubled quotes, empty fields, every line end, byte-order marks, other separators), each with
// the records a reader must give: read as records by reader_test.cpp and into tables by
// table_test.cpp, which must agree.
#pragma once

#include <string>
#include <vector>

#include <bufstream/csv/options.hpp>

namespace bufstream::csv::testing_cases {

using Records = std::vector<std::vector<std::string>>;

struct Case {
  std::string name;
  std::string input;
  Records expected;
  ReadOptions options = {};
};

inline const std::vector<Case>& rfc_cases() {
  static const std::vector<Case> cases{
      {"empty input", "", {}},
      {"one field without line end", "a", {{"a"}}},
      {"one field with LF", "a\n", {{"a"}}},
      {"CRLF records", "a,b,c\r\n1,2,3\r\n", {{"a", "b", "c"}, {"1", "2", "3"}}},
      {"LF records", "a,b\n1,2\n", {{"a", "b"}, {"1", "2"}}},
      {"CR records", "a,b\r1,2\r", {{"a", "b"}, {"1", "2"}}},
      {"mixed line ends", "a\nb\r\nc\rd", {{"a"}, {"b"}, {"c"}, {"d"}}},
      {"missing final line end", "a,b\n1,2", {{"a", "b"}, {"1", "2"}}},
      {"quoted separator", "\"a,b\",c\n", {{"a,b", "c"}}},
      {"quoted LF", "\"a\nb\",c\n", {{"a\nb", "c"}}},
      {"quoted CRLF", "\"a\r\nb\",c\r\n", {{"a\r\nb", "c"}}},
      {"quoted CR", "\"a\rb\",c\r", {{"a\rb", "c"}}},
      {"doubled quotes", "\"a\"\"b\",\"\"\"\"\n", {{"a\"b", "\""}}},
      {"only doubled quotes", "\"\"\"\"\"\"\"\"\n", {{"\"\"\""}}},
      {"empty fields", ",,\n", {{"", "", ""}}},
      {"empty quoted fields", "\"\",\"\"\n", {{"", ""}}},
      {"trailing separator", "a,b,\n", {{"a", "b", ""}}},
      {"trailing separator at end of input", "a,b,", {{"a", "b", ""}}},
      {"empty quoted field at end of input", "a,\"\"", {{"a", ""}}},
      {"quoted field at end of input", "\"a\"", {{"a"}}},
      {"quoted field then CR at end of input", "\"a\"\r", {{"a"}}},
      {"whitespace kept as is", " a , b \t\n", {{" a ", " b \t"}}},
      {"spaces inside quotes", "\" a \",\"\"\n", {{" a ", ""}}},
      {"UTF-8 content",
       "na\xC3\xAFve,\xE6\x97\xA5\xE6\x9C\xAC\n",
       {{"na\xC3\xAFve", "\xE6\x97\xA5\xE6\x9C\xAC"}}},
      {"bytes kept even if not UTF-8", "\xFF\xFE,x\n", {{"\xFF\xFE", "x"}}},
      {"empty line is a record of one empty field", "a\n\nb\n", {{"a"}, {""}, {"b"}}},
      {"only a line end", "\r\n", {{""}}},
      {"separator alone", ",", {{"", ""}}},
      {"byte-order mark skipped",
       "\xEF\xBB\xBF"
       "a,b\n",
       {{"a", "b"}}},
      {"byte-order mark only", "\xEF\xBB\xBF", {}},
      {"byte-order mark kept when asked",
       "\xEF\xBB\xBF"
       "a\n",
       {{"\xEF\xBB\xBF"
         "a"}},
       {.skip_bom = false}},
      {"two bytes of a byte-order mark are data", "\xEF\xBBx\n", {{"\xEF\xBBx"}}},
      {"quote inside a quoted field's line", "\"x\",\"a\"\"\nb\"\n", {{"x", "a\"\nb"}}},
      {"tab separator",
       "a\tb,c\n\"x\ty\"\tz\n",
       {{"a", "b,c"}, {"x\ty", "z"}},
       {.separator = '\t'}},
      {"semicolon separator", "1,5;2\n", {{"1,5", "2"}}, {.separator = ';'}},
      {"space separator", "a b  c\n", {{"a", "b", "", "c"}}, {.separator = ' '}},
      {"NUL byte as data", std::string("a\0b,c\n", 6), {{std::string("a\0b", 3), "c"}}},
      {"skip empty lines", "a\n\n\r\n\rb\n\n", {{"a"}, {"b"}}, {.skip_empty_lines = true}},
      {"skip empty lines keeps empty quoted field",
       "\"\"\n\nb\n",
       {{""}, {"b"}},
       {.skip_empty_lines = true}},
      // csv-spectrum's files, as that suite has them.
      {"spectrum comma_in_quotes",
       "first,last,address,city,zip\nJohn,Doe,120 any st.,\"Anytown, WW\",08123\n",
       {{"first", "last", "address", "city", "zip"},
        {"John", "Doe", "120 any st.", "Anytown, WW", "08123"}}},
      {"spectrum empty",
       "a,b,c\n1,\"\",\"\"\n2,3,4\n",
       {{"a", "b", "c"}, {"1", "", ""}, {"2", "3", "4"}}},
      {"spectrum empty_crlf",
       "a,b,c\r\n1,\"\",\"\"\r\n2,3,4\r\n",
       {{"a", "b", "c"}, {"1", "", ""}, {"2", "3", "4"}}},
      {"spectrum escaped_quotes",
       "a,b\n1,\"ha \"\"ha\"\" ha\"\n3,4\n",
       {{"a", "b"}, {"1", "ha \"ha\" ha"}, {"3", "4"}}},
      {"spectrum json",
       "key,val\n1,\"{\"\"type\"\": \"\"Point\"\", \"\"coordinates\"\": [102.0, 0.5]}\"\n",
       {{"key", "val"}, {"1", "{\"type\": \"Point\", \"coordinates\": [102.0, 0.5]}"}}},
      {"spectrum location_coordinates",
       "Location,Coordinates\nHelsinki,\"60.1699,24.9384\"\n",
       {{"Location", "Coordinates"}, {"Helsinki", "60.1699,24.9384"}}},
      {"spectrum newlines",
       "a,b,c\n1,2,3\n\"Once upon \na time\",5,6\n7,8,9\n",
       {{"a", "b", "c"}, {"1", "2", "3"}, {"Once upon \na time", "5", "6"}, {"7", "8", "9"}}},
      {"spectrum newlines_crlf",
       "a,b,c\r\n1,2,3\r\n\"Once upon \r\na time\",5,6\r\n7,8,9\r\n",
       {{"a", "b", "c"}, {"1", "2", "3"}, {"Once upon \r\na time", "5", "6"}, {"7", "8", "9"}}},
      {"spectrum quotes_and_newlines",
       "a,b\n1,\"ha \n\"\"ha\"\" \nha\"\n3,4\n",
       {{"a", "b"}, {"1", "ha \n\"ha\" \nha"}, {"3", "4"}}},
      {"spectrum simple", "a,b,c\n1,2,3\n", {{"a", "b", "c"}, {"1", "2", "3"}}},
      {"spectrum simple_crlf", "a,b,c\r\n1,2,3\r\n", {{"a", "b", "c"}, {"1", "2", "3"}}},
      {"spectrum utf8",
       "a,b,c\n1,2,3\n4,5,\xca\xa4\n",
       {{"a", "b", "c"}, {"1", "2", "3"}, {"4", "5", "\xca\xa4"}}},
  };
  return cases;
}

}  // namespace bufstream::csv::testing_cases
