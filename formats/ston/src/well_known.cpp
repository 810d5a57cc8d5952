#include <bufstream/ston/well_known.hpp>

#include <charconv>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <bufstream/utf8.hpp>

namespace bufstream::ston {

namespace {

// The one string inside `Tag['text']`.
const std::string& singleton_text(const Value& v, std::string_view tag) {
  const Tagged t = v.as_tagged(tag);
  if (!t.has_list_body() || t.size() != 1 || !t.at(0).is_string()) {
    throw AccessError(fmt::format("expected {}['...'] with one string", tag));
  }
  return t.at(0).as_string();
}

[[noreturn]] void bad_text(std::string_view tag, std::string_view text, std::string_view why) {
  throw AccessError(fmt::format("invalid {}['{}']: {}", tag, text, why));
}

// A small cursor over the text of a date or time.
struct Scanner {
  std::string_view text;
  std::string_view tag;
  std::size_t pos = 0;

  unsigned digits(std::size_t count, std::string_view what) {
    unsigned value = 0;
    for (std::size_t i = 0; i < count; ++i, ++pos) {
      if (pos >= text.size() || text[pos] < '0' || text[pos] > '9') {
        bad_text(tag, text, fmt::format("expected {} digits of the {}", count, what));
      }
      value = value * 10 + static_cast<unsigned>(text[pos] - '0');
    }
    return value;
  }
  void expect(char c) {
    if (pos >= text.size() || text[pos] != c) {
      bad_text(tag, text, fmt::format("expected '{}' at character {}", c, pos + 1));
    }
    ++pos;
  }
  bool take(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool done() const { return pos == text.size(); }
};

bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

unsigned days_in_month(int year, unsigned month) {
  static constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : days[month - 1];
}

void read_date(Scanner& s, int& year, unsigned& month, unsigned& day) {
  const bool negative = s.take('-');
  year = static_cast<int>(s.digits(4, "year"));
  while (s.pos < s.text.size() && s.text[s.pos] >= '0' && s.text[s.pos] <= '9') {
    year = year * 10 + (s.text[s.pos++] - '0');  // years beyond 9999
    if (year > 99999999) bad_text(s.tag, s.text, "year out of range");
  }
  if (negative) year = -year;
  s.expect('-');
  month = s.digits(2, "month");
  s.expect('-');
  day = s.digits(2, "day");
  if (month < 1 || month > 12) bad_text(s.tag, s.text, "month out of range");
  if (day < 1 || day > days_in_month(year, month)) bad_text(s.tag, s.text, "day out of range");
}

void read_time(Scanner& s, Time& t) {
  t.hour = s.digits(2, "hour");
  s.expect(':');
  t.minute = s.digits(2, "minute");
  s.expect(':');
  t.second = s.digits(2, "second");
  t.nanosecond = 0;
  if (s.take('.')) {
    std::size_t count = 0;
    std::uint32_t scale = 100000000;
    while (s.pos < s.text.size() && s.text[s.pos] >= '0' && s.text[s.pos] <= '9') {
      if (count++ < 9) {
        t.nanosecond += static_cast<std::uint32_t>(s.text[s.pos] - '0') * scale;
        scale /= 10;
      }
      ++s.pos;
    }
    if (count == 0) bad_text(s.tag, s.text, "expected digits after '.'");
  }
  if (t.hour > 23 || t.minute > 59 || t.second > 59) bad_text(s.tag, s.text, "time out of range");
}

// Z, +hh:mm or -hh:mm.
int read_offset(Scanner& s) {
  if (s.take('Z')) return 0;
  const bool negative = s.take('-');
  if (!negative) s.expect('+');
  const unsigned hours = s.digits(2, "offset hours");
  s.expect(':');
  const unsigned minutes = s.digits(2, "offset minutes");
  if (hours > 23 || minutes > 59) bad_text(s.tag, s.text, "offset out of range");
  const int total = static_cast<int>(hours * 60 + minutes);
  return negative ? -total : total;
}

std::string format_offset(int minutes) {
  const char sign = minutes < 0 ? '-' : '+';
  const int m = minutes < 0 ? -minutes : minutes;
  return fmt::format("{}{:02}:{:02}", sign, m / 60, m % 60);
}

std::string format_date(int year, unsigned month, unsigned day) {
  return year < 0 ? fmt::format("-{:04}-{:02}-{:02}", -year, month, day)
                  : fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

// Pharo prints as many fraction digits as needed; trailing zeros are dropped.
std::string format_time(const Time& t) {
  std::string s = fmt::format("{:02}:{:02}:{:02}", t.hour, t.minute, t.second);
  if (t.nanosecond != 0) {
    std::string fraction = fmt::format("{:09}", t.nanosecond);
    while (fraction.back() == '0') fraction.pop_back();
    s += '.';
    s += fraction;
  }
  return s;
}

}  // namespace

// ---- ByteArray ------------------------------------------------------------------------------

Value to_ston(Document& doc, const std::vector<std::byte>& bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * bytes.size());
  for (std::byte b : bytes) {
    const auto u = static_cast<unsigned>(b);
    text.push_back(hex[u >> 4]);
    text.push_back(hex[u & 15]);
  }
  return doc.tagged_list("ByteArray", {Value(std::move(text))});
}

void from_ston(const Value& v, std::vector<std::byte>& bytes) {
  const std::string& text = singleton_text(v, "ByteArray");
  if (text.size() % 2 != 0) bad_text("ByteArray", text, "odd number of hex digits");
  bytes.clear();
  bytes.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 2, value, 16);
    if (ec != std::errc() || end != text.data() + i + 2) {
      bad_text("ByteArray", text, fmt::format("not a hex digit pair at character {}", i + 1));
    }
    bytes.push_back(static_cast<std::byte>(value));
  }
}

// ---- Character ------------------------------------------------------------------------------

Value to_ston(Document& doc, const Character& c) {
  if (!utf8::is_scalar_value(c.code_point)) {
    throw UsageError(fmt::format("not a Unicode scalar value: U+{:04X}",
                                 static_cast<std::uint32_t>(c.code_point)));
  }
  char buffer[4];
  const char* end = utf8::encode(c.code_point, buffer);
  return doc.tagged_list("Character",
                         {Value(std::string(buffer, static_cast<std::size_t>(end - buffer)))});
}

void from_ston(const Value& v, Character& c) {
  const std::string& text = singleton_text(v, "Character");
  if (text.empty()) bad_text("Character", text, "empty");
  const utf8::Decoded d = utf8::decode(text.data(), text.data() + text.size());
  if (d.error != utf8::Error::none || d.length != text.size()) {
    bad_text("Character", text, "expected exactly one character");
  }
  c.code_point = d.code_point;
}

// ---- Point ----------------------------------------------------------------------------------

Value to_ston(Document& doc, const Point& p) { return doc.tagged_list("Point", {p.x, p.y}); }

void from_ston(const Value& v, Point& p) {
  const Tagged t = v.as_tagged("Point");
  if (!t.has_list_body() || t.size() != 2 || !t.at(0).is_number() || !t.at(1).is_number()) {
    throw AccessError("expected Point[x,y] with two numbers");
  }
  p.x = t.at(0);
  p.y = t.at(1);
}

// ---- Date, Time, DateAndTime ----------------------------------------------------------------

Value to_ston(Document& doc, const Date& d) {
  std::string text = format_date(d.year, d.month, d.day);
  if (d.offset_minutes) text += *d.offset_minutes == 0 ? "Z" : format_offset(*d.offset_minutes);
  return doc.tagged_list("Date", {Value(std::move(text))});
}

void from_ston(const Value& v, Date& d) {
  const std::string& text = singleton_text(v, "Date");
  Scanner s{text, "Date"};
  read_date(s, d.year, d.month, d.day);
  d.offset_minutes.reset();
  if (!s.done()) d.offset_minutes = read_offset(s);
  if (!s.done()) bad_text("Date", text, "unexpected text after the date");
}

Value to_ston(Document& doc, const Time& t) {
  return doc.tagged_list("Time", {Value(format_time(t))});
}

void from_ston(const Value& v, Time& t) {
  const std::string& text = singleton_text(v, "Time");
  Scanner s{text, "Time"};
  read_time(s, t);
  if (!s.done()) bad_text("Time", text, "unexpected text after the time");
}

Value to_ston(Document& doc, const DateAndTime& t) {
  std::string text = format_date(t.year, t.month, t.day);
  text += 'T';
  text += format_time(t.time);
  text += format_offset(t.offset_minutes);
  return doc.tagged_list("DateAndTime", {Value(std::move(text))});
}

void from_ston(const Value& v, DateAndTime& t) {
  const std::string& text = singleton_text(v, "DateAndTime");
  Scanner s{text, "DateAndTime"};
  read_date(s, t.year, t.month, t.day);
  s.expect('T');
  read_time(s, t.time);
  t.offset_minutes = s.done() ? 0 : read_offset(s);
  if (!s.done()) bad_text("DateAndTime", text, "unexpected text after the offset");
}

}  // namespace bufstream::ston
