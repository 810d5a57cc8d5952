// json::Pointer, json::Selection and json::seek: values picked out of a stream by pointer,
// through every reader setup (tiny buffers, one-byte reads), against what nlohmann makes of
// the whole text.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "json_test_support.hpp"

namespace bufstream::json {
namespace {

using testing_support::for_each_reader;

// ---- Pointer --------------------------------------------------------------------------------

TEST(JsonPointer, DecodesTokensAndTellsIndexes) {
  const Pointer p("/a~1b/m~0n/0/12/01/-/*/");
  ASSERT_EQ(p.size(), 8U);
  EXPECT_EQ(p.token(0), "a/b");
  EXPECT_EQ(p.token(1), "m~n");
  EXPECT_EQ(p.index(2), 0U);
  EXPECT_EQ(p.index(3), 12U);
  EXPECT_EQ(p.index(4), std::nullopt);  // a leading zero
  EXPECT_EQ(p.index(5), std::nullopt);  // past the end: never an element
  EXPECT_TRUE(p.is_wildcard(6));
  EXPECT_FALSE(p.is_wildcard(0));
  EXPECT_EQ(p.token(7), "");
  EXPECT_TRUE(p.has_wildcards());
  EXPECT_EQ(p.prefix(0), "");
  EXPECT_EQ(p.prefix(2), "/a~1b/m~0n");
  EXPECT_EQ(p.text(), "/a~1b/m~0n/0/12/01/-/*/");
}

TEST(JsonPointer, EmptyIsTheWholeValueAndSlashIsTheEmptyKey) {
  EXPECT_TRUE(Pointer("").empty());
  EXPECT_FALSE(Pointer("").has_wildcards());
  const Pointer slash("/");
  ASSERT_EQ(slash.size(), 1U);
  EXPECT_EQ(slash.token(0), "");
  EXPECT_EQ(Pointer("/~01").token(0), "~1");  // ~0 first, then a plain 1
  EXPECT_EQ(Pointer("/18446744073709551615").index(0), UINT64_MAX);
  EXPECT_EQ(Pointer("/18446744073709551616").index(0), std::nullopt);
}

TEST(JsonPointer, MalformedPointersNameThemselves) {
  try {
    Pointer p("rows");
    FAIL() << "no error";
  } catch (const bufstream::UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid JSON Pointer \"rows\": it must be empty or start with '/'");
  }
  try {
    Pointer p("/a~2");
    FAIL() << "no error";
  } catch (const bufstream::UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "invalid JSON Pointer \"/a~2\": '~' at byte 2 must be followed by 0 or 1");
  }
  EXPECT_THROW(Pointer("/a~"), bufstream::UsageError);
}

TEST(JsonPointer, AppendTokenEscapes) {
  std::string p;
  Pointer::append_token(p, "a/b~c");
  Pointer::append_token(p, "");
  EXPECT_EQ(p, "/a~1b~0c/");
  EXPECT_EQ(Pointer(p).token(0), "a/b~c");
}

// ---- Selection ------------------------------------------------------------------------------

struct Selected {
  std::string path;
  std::optional<std::string> key;
  nlohmann::json value;
  friend bool operator==(const Selected&, const Selected&) = default;
};

std::ostream& operator<<(std::ostream& os, const Selected& s) {
  return os << s.path << " " << (s.key ? *s.key : "-") << " " << s.value.dump();
}

// Every value `pointer` selects in `text`, each read into nlohmann; the reader must then be
// at the end of the input.
std::vector<Selected> select_all(ReadStream& in, const std::string& pointer) {
  Reader reader(in);
  Selection selection(reader, Pointer(pointer));
  std::vector<Selected> out;
  while (selection.next()) {
    Selected s{selection.path(), std::nullopt, {}};
    if (auto k = selection.key()) s.key = std::string(*k);
    s.value = reader.read();
    out.push_back(std::move(s));
  }
  EXPECT_FALSE(selection.next());  // and it stays so
  if (selection.pointer().has_wildcards()) reader.finish();
  return out;
}

// The selected values as Selection::parse hands them over: each value's events written out
// as JSON text, which nlohmann then reads; its path and key from the `selected` call before.
struct SelectedAsEvents {
  std::vector<Selected> values;
  std::vector<std::string> texts;
  std::vector<bool> opened;  // per open container: whether an item came yet
  bool after_key = false;

  void selected(const Selection& selection) {
    EXPECT_TRUE(opened.empty()) << "a value selected inside another";
    Selected s{selection.path(), std::nullopt, {}};
    if (auto k = selection.key()) s.key = std::string(*k);
    values.push_back(std::move(s));
    texts.emplace_back();
  }
  std::string& text() { return texts.back(); }
  void item() {  // a value's separator
    if (!opened.empty() && !after_key) {
      if (opened.back()) text() += ',';
      opened.back() = true;
    }
    after_key = false;
  }
  void scalar(const nlohmann::json& v) {
    item();
    text() += v.dump();
  }
  void null() { scalar(nullptr); }
  void boolean(bool b) { scalar(b); }
  void integer(std::int64_t i) { scalar(i); }
  void unsigned_integer(std::uint64_t u) { scalar(u); }
  void floating(double d) { scalar(d); }
  void string(std::string_view s) { scalar(std::string(s)); }
  void key(std::string_view k) {
    item();
    text() += nlohmann::json(std::string(k)).dump() + ':';
    after_key = true;
  }
  void open(char c) {
    item();
    text() += c;
    opened.push_back(false);
  }
  void close(char c) {
    ASSERT_FALSE(opened.empty()) << "an end event of no container the value opened";
    text() += c;
    opened.pop_back();
  }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void begin_object() { open('{'); }
  void end_object() { close('}'); }

  std::vector<Selected> result() {
    EXPECT_TRUE(opened.empty());
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i].value = nlohmann::json::parse(texts[i]);
    }
    return values;
  }
};

// Every value `pointer` selects, through Selection::parse; after `first` values taken with
// next() and read whole (so that parse goes on from the middle of a container).
std::vector<Selected> select_all_as_events(ReadStream& in, const std::string& pointer,
                                           std::size_t first = 0) {
  Reader reader(in);
  Selection selection(reader, Pointer(pointer));
  SelectedAsEvents events;
  for (std::size_t i = 0; i < first && selection.next(); ++i) {
    events.selected(selection);
    reader.parse(events);
  }
  selection.parse(events);
  EXPECT_FALSE(selection.next());
  if (selection.pointer().has_wildcards()) reader.finish();
  return events.result();
}

// What the selection must give, from nlohmann's reading of the whole text: value by value
// with next(), and as events with parse() (from the start, and after one or two values).
void expect_selection(const std::string& text, const std::string& pointer,
                      const std::vector<Selected>& expected) {
  for_each_reader(text, [&](ReadStream& in) { EXPECT_EQ(select_all(in, pointer), expected); });
  for (const std::size_t first : {0U, 1U, 2U}) {
    SCOPED_TRACE("Selection::parse after " + std::to_string(first) + " values");
    for_each_reader(text, [&](ReadStream& in) {
      EXPECT_EQ(select_all_as_events(in, pointer, first), expected);
    });
  }
}

const std::string rows_document = R"({"meta": {"version": 3, "rows": "not these", "list": [1, 2]},
  "rows": [
    {"id": 1, "name": "one", "tags": ["a", "b"]},
    {"id": 2, "name": "two", "tags": []},
    7,
    {"name": "no id", "tags": {"x": 1, "y": [2, 3]}}
  ],
  "after": [{"id": 99}]
})";

TEST(JsonSelection, EveryElementOfANestedArray) {
  const auto doc = nlohmann::json::parse(rows_document);
  std::vector<Selected> expected;
  for (std::size_t i = 0; i < doc["rows"].size(); ++i)
    expected.push_back({"/rows/" + std::to_string(i), std::nullopt, doc["rows"][i]});
  expect_selection(rows_document, "/rows/*", expected);
}

TEST(JsonSelection, MembersOfObjectsUnderAWildcardAndTheirKeys) {
  expect_selection(rows_document, "/rows/*/id", {{"/rows/0/id", "id", 1}, {"/rows/1/id", "id", 2}});
  expect_selection(rows_document, "/*",
                   {{"/meta", "meta", nlohmann::json::parse(rows_document)["meta"]},
                    {"/rows", "rows", nlohmann::json::parse(rows_document)["rows"]},
                    {"/after", "after", nlohmann::json::parse(R"([{"id": 99}])")}});
  expect_selection(rows_document, "/*/version", {{"/meta/version", "version", 3}});
}

TEST(JsonSelection, WildcardsAtSeveralDepths) {
  expect_selection(rows_document, "/rows/*/tags/*",
                   {{"/rows/0/tags/0", std::nullopt, "a"},
                    {"/rows/0/tags/1", std::nullopt, "b"},
                    {"/rows/3/tags/x", "x", 1},
                    {"/rows/3/tags/y", "y", nlohmann::json::parse("[2, 3]")}});
  expect_selection(rows_document, "/*/*/id",
                   {{"/rows/0/id", "id", 1}, {"/rows/1/id", "id", 2}, {"/after/0/id", "id", 99}});
  expect_selection(rows_document, "/*/*/*/*",
                   {{"/rows/0/tags/0", std::nullopt, "a"},
                    {"/rows/0/tags/1", std::nullopt, "b"},
                    {"/rows/3/tags/x", "x", 1},
                    {"/rows/3/tags/y", "y", nlohmann::json::parse("[2, 3]")}});
}

TEST(JsonSelection, IndexesSelectOneElement) {
  expect_selection(rows_document, "/rows/1/name", {{"/rows/1/name", "name", "two"}});
  expect_selection(rows_document, "/rows/*/tags/1", {{"/rows/0/tags/1", std::nullopt, "b"}});
  expect_selection(R"({"a": [1, 2]})", "/a/01", {});
  expect_selection(R"({"a": [1, 2]})", "/a/-", {});
  expect_selection(R"({"a": {"01": 5}})", "/a/01", {{"/a/01", "01", 5}});
}

TEST(JsonSelection, EmptyContainersAndScalarsUnderAWildcardSelectNothing) {
  expect_selection(R"({"rows": []})", "/rows/*", {});
  expect_selection(R"({"rows": {}})", "/rows/*", {});
  expect_selection(R"({"rows": 5})", "/rows/*", {});
  expect_selection(R"([[], {}, [[]], 1, "s", null])", "/*/*",
                   {{"/2/0", std::nullopt, nlohmann::json::array()}});
  expect_selection("17", "/*", {});
}

TEST(JsonSelection, TheEmptyPointerSelectsTheWholeValue) {
  expect_selection(R"( {"a": [1]} )", "",
                   {{"", std::nullopt, nlohmann::json::parse(R"({"a":[1]})")}});
  expect_selection(R"("text")", "", {{"", std::nullopt, "text"}});
}

TEST(JsonSelection, EscapedKeysAndAMemberNamedLikeNothingElse) {
  const std::string text = R"({"a/b": {"m~n": 1, "": 2, "*": 3}})";
  expect_selection(text, "/a~1b/m~0n", {{"/a~1b/m~0n", "m~n", 1}});
  expect_selection(text, "/a~1b/", {{"/a~1b/", "", 2}});
  // `*` is a wildcard: it selects the member named "*" among the others.
  expect_selection(text, "/a~1b/*",
                   {{"/a~1b/m~0n", "m~n", 1}, {"/a~1b/", "", 2}, {"/a~1b/*", "*", 3}});
}

TEST(JsonSelection, KeysWithEscapesAreDecoded) {
  expect_selection(R"({"r": {"\u00e9\n": 1, "a\"b": 2}})", "/r/*",
                   {{"/r/\u00e9\n", "\u00e9\n", 1}, {"/r/a\"b", "a\"b", 2}});
}

TEST(JsonSelection, DuplicateNamesSelectTheFirstOnly) {
  expect_selection(R"([{"a": 1, "a": 2}, {"a": 3}])", "/*/a", {{"/0/a", "a", 1}, {"/1/a", "a", 3}});
}

TEST(JsonSelection, ValuesLeftUnreadAreSkipped) {
  for_each_reader(rows_document, [](ReadStream& in) {
    Reader reader(in);
    Selection selection(reader, Pointer("/rows/*"));
    std::vector<std::string> paths;
    while (selection.next()) {
      paths.push_back(selection.path());
      if (paths.size() == 2) {
        EXPECT_EQ(reader.peek(), ValueType::object);  // a peek reads nothing
      }
    }
    reader.finish();
    EXPECT_EQ(paths, (std::vector<std::string>{"/rows/0", "/rows/1", "/rows/2", "/rows/3"}));
  });
}

TEST(JsonSelection, AValueReadInPartIsAUsageError) {
  MemoryReadStream in(rows_document);
  Reader reader(in);
  Selection selection(reader, Pointer("/rows/*"));
  ASSERT_TRUE(selection.next());
  reader.begin_object();
  EXPECT_THROW(selection.next(), bufstream::UsageError);
}

// Every way a selected value can be read.
struct CountNumbers {
  std::int64_t sum = 0;
  void null() {}
  void boolean(bool) {}
  void integer(std::int64_t v) { sum += v; }
  void unsigned_integer(std::uint64_t v) { sum += static_cast<std::int64_t>(v); }
  void floating(double) {}
  void string(std::string_view) {}
  void key(std::string_view) {}
  void begin_array() {}
  void end_array() {}
  void begin_object() {}
  void end_object() {}
};

struct Row {
  std::int64_t id = 0;
  std::string name;
  std::vector<std::string> tags;
};
void read_json(Reader& r, Row& row) {
  r.begin_object();
  while (auto key = r.next_key()) {
    if (*key == "id") {
      row.id = r.read_integer<std::int64_t>();
    } else if (*key == "name") {
      row.name = std::string(r.read_string());
    } else if (*key == "tags") {
      r.read(row.tags);
    } else {
      r.skip_value();
    }
  }
}

TEST(JsonSelection, SelectedValuesAsEventsDocumentsAndTypes) {
  const std::string text = R"({"meta": {"n": 2}, "rows": [{"id": 5, "name": "a", "tags": ["x"]},
                              {"id": -3, "name": "b", "tags": []}]})";
  for_each_reader(text, [](ReadStream& in) {
    Reader reader(in);
    Selection selection(reader, Pointer("/rows/*"));
    ASSERT_TRUE(selection.next());
    CountNumbers events;
    reader.parse(events);
    EXPECT_EQ(events.sum, 5);
    ASSERT_TRUE(selection.next());
    const Document d = Document::parse_next(reader);
    EXPECT_EQ(d.at("/id").as_int64(), -3);
    EXPECT_FALSE(selection.next());
    reader.finish();
  });
  for_each_reader(text, [](ReadStream& in) {
    Reader reader(in);
    Selection selection(reader, Pointer("/rows/*"));
    std::vector<Row> rows;
    while (selection.next()) rows.push_back(reader.read<Row>());
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[1].name, "b");
    EXPECT_EQ(rows[0].tags, std::vector<std::string>{"x"});
  });
}

TEST(JsonSelection, ASelectedValueLongerThanTheBuffer) {
  std::string big(200000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 97) big[i] = ' ';
  std::string numbers = "[0";
  for (int i = 1; i < 30000; ++i) numbers += "," + std::to_string(i * 7);
  numbers += "]";
  const std::string text =
      R"({"a": 1, "rows": [")" + big + R"(", )" + numbers + R"(, 2], "z": [")" + big + R"("]})";
  const std::vector<Selected> expected{{"/rows/0", std::nullopt, big},
                                       {"/rows/1", std::nullopt, nlohmann::json::parse(numbers)},
                                       {"/rows/2", std::nullopt, 2}};
  for (const std::size_t size : {std::size_t{7}, std::size_t{4096}, std::size_t{65536}}) {
    MemoryReadStream source(text);
    BufferedReadStream in(source, BufferOptions{.buffer_size = size});
    EXPECT_EQ(select_all(in, "/rows/*"), expected) << "buffer size " << size;
    MemoryReadStream again(text);
    BufferedReadStream in_again(again, BufferOptions{.buffer_size = size});
    EXPECT_EQ(select_all_as_events(in_again, "/rows/*"), expected) << "buffer size " << size;
  }
}

TEST(JsonSelection, ParseHandsEveryValueLeftToAHandlerWithoutASelectedCall) {
  const std::string text = R"({"rows": [[1, 2], {"a": 3, "b": [4]}, 5], "more": [[100]],
                              "rows2": {"x": 6, "y": -7}})";
  const std::vector<std::pair<std::string, std::int64_t>> cases{
      {"/rows/*", 15}, {"/*/*", 114}, {"/rows2/*", -1}, {"/rows/1", 7}, {"/nothing/*", 0}};
  for (const auto& [pointer, sum] : cases) {
    SCOPED_TRACE(pointer);
    for_each_reader(text, [&](ReadStream& in) {
      Reader reader(in);
      Selection selection(reader, Pointer(pointer));
      CountNumbers numbers;
      selection.parse(numbers);
      EXPECT_EQ(numbers.sum, sum);
      EXPECT_FALSE(selection.next());
      selection.skip_rest();
      reader.finish();
    });
  }
}

TEST(JsonSelection, AFewSelectionsFromOneReaderInTurn) {
  for_each_reader(R"({"a": [1, 2]} {"a": [3]})", [](ReadStream& in) {
    Reader reader(in);
    std::vector<nlohmann::json> values;
    for (int i = 0; i < 2; ++i) {
      Selection selection(reader, Pointer("/a/*"));
      while (selection.next()) values.push_back(reader.read());
    }
    reader.finish();
    EXPECT_EQ(values, (std::vector<nlohmann::json>{1, 2, 3}));
  });
}

// ---- Errors in the document: the plain reader's, at its positions -----------------------

// The ParseError of reading `text` whole, and of selecting with `pointer` (reading every
// selected value): the same message and position.
void expect_same_error(const std::string& text, const std::string& pointer) {
  SCOPED_TRACE(text);
  std::string plain;
  SourcePosition plain_at;
  {
    MemoryReadStream in(text);
    Reader reader(in);
    try {
      reader.skip_value();
      reader.finish();
      FAIL() << "the plain reader found no error";
    } catch (const ParseError& e) {
      plain = e.message();
      plain_at = e.position();
    }
  }
  enum class Way { read_each, skip_each, parse };
  for (const Way way : {Way::read_each, Way::skip_each, Way::parse}) {
    for_each_reader(text, [&](ReadStream& in) {
      Reader reader(in);
      try {
        Selection selection(reader, Pointer(pointer));
        if (way == Way::parse) {
          CountNumbers events;
          selection.parse(events);
        }
        while (selection.next()) {
          if (way == Way::read_each) reader.read();
        }
        reader.finish();
        ADD_FAILURE() << "the selection found no error";
      } catch (const ParseError& e) {
        EXPECT_EQ(e.message(), plain);
        EXPECT_EQ(e.position(), plain_at) << e.what();
      }
    });
  }
}

TEST(JsonSelection, MalformedTextBeforeInsideAndAfterASelectedValue) {
  expect_same_error(R"({"meta": {"v": 1,}, "rows": [1, 2]})", "/rows/*");             // before
  expect_same_error(R"({"meta": {"v": 1}, "rows": [1, {"a": tru}, 3]})", "/rows/*");  // inside
  expect_same_error(R"({"meta": {"v": 1}, "rows": [1, 2] "x": 3})", "/rows/*");       // after
  expect_same_error(R"({"rows": [1, 2], "x": [1 2]})", "/rows/*");  // after, in what is skipped
  expect_same_error(R"({"rows": [1, 2)", "/rows/*");                // the input ends
  expect_same_error(R"({"rows": [1, "a)", "/rows/*");
  expect_same_error("{\"rows\": [1, 1e999]}", "/rows/*");
  expect_same_error(R"({"rows": [[[[1]]]], "x": })", "/rows/*/*");
}

// ---- seek -----------------------------------------------------------------------------------

TEST(JsonSeek, MovesToTheValueAndReadsNoFurther) {
  const std::string text = R"({"meta": {"version": "1.2", "n": 3}, "rows": [1, 2, 3, oops]})";
  for_each_reader(text, [&](ReadStream& in) {
    Reader reader(in);
    seek(reader, Pointer("/meta/version"));
    EXPECT_EQ(reader.read<std::string>(), "1.2");
    EXPECT_LT(in.position(), text.find("rows"));  // the malformed rest is never read
  });
  MemoryReadStream in(text);
  Reader reader(in);
  seek(reader, Pointer("/rows/2"));
  EXPECT_EQ(reader.read<int>(), 3);
}

// The NotFoundError of seeking `pointer` in `text`: message, position, matched tokens.
void expect_not_found(const std::string& text, const std::string& pointer,
                      const std::string& message, std::uint64_t offset, std::size_t matched) {
  SCOPED_TRACE(pointer);
  for_each_reader(text, [&](ReadStream& in) {
    Reader reader(in, {.source_name = "doc.json"});
    try {
      seek(reader, Pointer(pointer));
      ADD_FAILURE() << "found";
    } catch (const NotFoundError& e) {
      EXPECT_EQ(e.message(), message);
      EXPECT_EQ(e.offset(), offset);
      EXPECT_EQ(e.line(), 1U);
      EXPECT_EQ(e.column(), offset + 1);
      EXPECT_EQ(e.source_name(), "doc.json");
      EXPECT_EQ(e.pointer(), pointer);
      EXPECT_EQ(e.matched(), matched);
    }
  });
}

TEST(JsonSeek, APointerThatIsNotThereSaysHowFarItMatched) {
  const std::string text = R"({"meta": {"version": "1.2"}, "rows": [10, 20], "n": 5})";
  expect_not_found(text, "/meta/name",
                   "JSON Pointer \"/meta/name\" not found: the object at \"/meta\" has no member "
                   "\"name\"",
                   text.find('}'), 1);
  expect_not_found(text, "/rows/2",
                   "JSON Pointer \"/rows/2\" not found: the array at \"/rows\" has 2 elements, "
                   "none at index 2",
                   text.find(']'), 1);
  expect_not_found(text, "/rows/x",
                   "JSON Pointer \"/rows/x\" not found: the value at \"/rows\" is an array, and "
                   "\"x\" is not an index",
                   text.find(']'), 1);
  expect_not_found(text, "/n/a/b",
                   "JSON Pointer \"/n/a/b\" not found: \"/n\" is a number, which has no \"a\"",
                   text.find('5'), 1);
  expect_not_found(text, "/absent",
                   "JSON Pointer \"/absent\" not found: the object at the root has no member "
                   "\"absent\"",
                   text.size() - 1, 0);
  expect_not_found(R"("s")", "/a",
                   "JSON Pointer \"/a\" not found: the root is a string, which "
                   "has no \"a\"",
                   0, 0);
}

TEST(JsonSeek, SkipRestReadsOnToTheValuesEnd) {
  const std::string text =
      "{\"a\": {\"b\": [1, 2], \"c\": {\"d\": 3}}, \"z\": 4}\n{\"a\": {\"b\": 5}}\n[7]";
  for_each_reader(text, [](ReadStream& in) {
    Reader reader(in);
    Selection first = seek(reader, Pointer("/a/b/1"));
    EXPECT_EQ(reader.read<int>(), 2);
    first.skip_rest();
    EXPECT_FALSE(first.next());
    Selection second = seek(reader, Pointer("/a/b"));  // the next value's
    second.skip_rest();                                // left unread: skipped
    Selection third(reader, Pointer("/0"));
    third.skip_rest();  // not started: the whole value is skipped
    reader.finish();
  });
}

TEST(JsonSeek, WildcardsAreForSelections) {
  MemoryReadStream in("[1]");
  Reader reader(in);
  EXPECT_THROW(seek(reader, Pointer("/*")), bufstream::UsageError);
}

TEST(JsonSeek, AMalformedDocumentIsAParseErrorNotANotFoundError) {
  MemoryReadStream in(R"({"a": 1, "b" 2})");
  Reader reader(in);
  try {
    seek(reader, Pointer("/c"));
    FAIL() << "no error";
  } catch (const NotFoundError&) {
    FAIL() << "a NotFoundError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.message(), "expected ':' after the key but found '2'");
  }
}

}  // namespace
}  // namespace bufstream::json
