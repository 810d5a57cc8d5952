// The README's STON example, compiled and checked.
#include <gtest/gtest.h>

#include <bufstream/memory_read_stream.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/typed.hpp>
#include <bufstream/ston/well_known.hpp>
#include <bufstream/ston/writer.hpp>
#include <bufstream/string_write_stream.hpp>

namespace {

// ---- README example begins ----
namespace ston = bufstream::ston;

struct User {
  std::string name;
  int age = 0;
};
ston::Value to_ston(ston::Document& doc, const User& u) {
  return doc.tagged_map("User", {{ston::Symbol{"name"}, u.name}, {ston::Symbol{"age"}, u.age}});
}
void from_ston(const ston::Value& v, User& u) {
  const ston::Tagged t = v.as_tagged("User");
  u.name = ston::from_value<std::string>(t.at("name"));
  u.age = ston::from_value<int>(t.at("age"));
}

std::string readme_example() {
  // Read a Tonel class header (any ReadStream works: files, sockets, memory).
  bufstream::MemoryReadStream in(
      "Class { #name : #Foo, #superclass : #Object, #category : 'Bar' }");
  ston::Document doc = ston::parse(in);
  ston::Tagged header = doc.root().as_tagged("Class");
  std::string name = header.at("name").as_symbol();  // "Foo"

  // Build a graph with sharing and a cycle, and write it.
  ston::List list = doc.list({1, "two", ston::Symbol{"three"}, 1.5, ston::Value::fraction(1, 3)});
  list.push_back(list);                                 // [1,'two',#three,1.5,1/3,@1]
  list.push_back(ston::to_value(doc, User{"ann", 7}));  // User{#name:'ann',#age:7}
  std::string text = ston::to_string(list);
  std::string pretty = ston::to_string(header, {.indent = 1});

  // Read it back: the cycle is restored, the user is typed again.
  ston::Document back = ston::parse(text);
  User ann = ston::from_value<User>(back.root().as_list()[6]);
  return name + "\n" + text + "\n" + pretty + "\n" + ann.name;
}
// ---- README example ends ----

TEST(StonReadme, ExampleRunsAsDocumented) {
  EXPECT_EQ(readme_example(),
            "Foo\n"
            "[1,'two',#three,1.5,1/3,@1,User{#name:'ann',#age:7}]\n"
            "Class {\n\t#name : #Foo,\n\t#superclass : #Object,\n\t#category : 'Bar'\n}\n"
            "ann");
}

}  // namespace
