#include <bufstream/ston/document.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include <bufstream/numbers.hpp>

#include "access.hpp"
#include "exact_arithmetic.hpp"
#include "natural.hpp"

namespace bufstream::ston {

std::string_view kind_name(Kind kind) noexcept {
  switch (kind) {
    case Kind::nil: return "nil";
    case Kind::boolean: return "boolean";
    case Kind::integer: return "integer";
    case Kind::floating: return "float";
    case Kind::fraction: return "fraction";
    case Kind::scaled_decimal: return "scaled decimal";
    case Kind::string: return "string";
    case Kind::symbol: return "symbol";
    case Kind::list: return "list";
    case Kind::map: return "map";
    case Kind::association: return "association";
    case Kind::tagged: return "tagged object";
  }
  return "value";
}

// ---- Integer --------------------------------------------------------------------------------

Integer Integer::from_decimal(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    throw UsageError(fmt::format("not a decimal integer: '{}'", text));
  }
  const std::size_t first = digits.find_first_not_of('0');
  digits = first == std::string_view::npos ? std::string_view("0") : digits.substr(first);
  return detail::integer_from_digits(negative, digits);
}

std::string Integer::to_string() const { return big_.empty() ? std::to_string(small_) : big_; }

double Integer::to_double() const noexcept {
  if (big_.empty()) return static_cast<double>(small_);
  if (auto d = parse_double(big_)) return *d;
  return big_[0] == '-' ? -HUGE_VAL : HUGE_VAL;
}

Integer Integer::negated() const {
  if (big_.empty()) {
    if (small_ != INT64_MIN) return Integer(-small_);
    Integer i;
    i.big_ = "9223372036854775808";
    return i;
  }
  if (big_[0] == '-') return from_decimal(std::string_view(big_).substr(1));
  return from_decimal("-" + big_);
}

namespace detail {

Integer integer_from_digits(bool negative, std::string_view digits) {
  // Up to 19 digits (all fit in 64 bits): an int64 unless beyond 9223372036854775807 (or
  // ...808 when negative).
  if (digits.size() <= 19) {
    const std::optional<std::uint64_t> magnitude = parse_integer<std::uint64_t>(digits);
    const std::uint64_t limit = static_cast<std::uint64_t>(INT64_MAX) + (negative ? 1 : 0);
    if (magnitude && *magnitude <= limit) {
      Integer i;
      i.small_ = static_cast<std::int64_t>(negative ? 0 - *magnitude : *magnitude);
      return i;
    }
  }
  Integer i;
  if (negative && digits != "0") i.big_ = "-";
  i.big_.append(digits);
  return i;
}

Magnitude magnitude_of(const Integer& i) {
  if (auto small = i.to_int64()) {
    const bool negative = *small < 0;
    const std::uint64_t m =
        negative ? 0 - static_cast<std::uint64_t>(*small) : static_cast<std::uint64_t>(*small);
    return {negative, Natural(m)};
  }
  const std::string text = i.to_string();
  const bool negative = text[0] == '-';
  return {negative, Natural::from_decimal(std::string_view(text).substr(negative ? 1 : 0))};
}

Integer integer_from_magnitude(bool negative, const Natural& magnitude) {
  if (magnitude.fits_u64()) {
    const std::uint64_t m = magnitude.to_u64();
    if (m <= static_cast<std::uint64_t>(INT64_MAX)) {
      const auto s = static_cast<std::int64_t>(m);
      return Integer(negative ? -s : s);
    }
  }
  return integer_from_digits(negative, magnitude.to_decimal());
}

}  // namespace detail

// ---- Fractions ------------------------------------------------------------------------------

double Fraction::to_double() const {
  auto n = detail::magnitude_of(numerator_);
  auto d = detail::magnitude_of(denominator_);
  return detail::quotient_to_double(n.magnitude, d.magnitude, n.negative);
}

double ScaledDecimal::to_double() const {
  auto n = detail::magnitude_of(numerator_);
  auto d = detail::magnitude_of(denominator_);
  return detail::quotient_to_double(n.magnitude, d.magnitude, n.negative);
}

namespace {

// Reduces numerator/denominator and moves the sign to the numerator. Throws for a zero
// denominator.
std::pair<Integer, Integer> reduce(const Integer& numerator, const Integer& denominator) {
  if (denominator.sign() == 0) throw UsageError("fraction with a zero denominator");
  auto a = numerator.to_int64(), b = denominator.to_int64();
  if (a && b && *a != INT64_MIN && *b != INT64_MIN) {
    std::int64_t n = *a, d = *b;
    if (d < 0) {
      n = -n;
      d = -d;
    }
    const std::int64_t g = std::gcd(n, d);
    return {Integer(n / g), Integer(d / g)};
  }
  auto n = detail::magnitude_of(numerator);
  auto d = detail::magnitude_of(denominator);
  const bool negative = n.negative != d.negative && !n.magnitude.is_zero();
  const detail::Natural g = gcd(n.magnitude, d.magnitude);
  detail::Natural nq, dq, r;
  divide(n.magnitude, g, nq, r);
  divide(d.magnitude, g, dq, r);
  return {detail::integer_from_magnitude(negative, nq), detail::integer_from_magnitude(false, dq)};
}

}  // namespace

Value Value::fraction(const Integer& numerator, const Integer& denominator) {
  auto [n, d] = reduce(numerator, denominator);
  if (d == Integer(1)) return Value(std::move(n));
  Value v;
  v.data_ = detail::Box<Fraction>(Fraction(std::move(n), std::move(d)));
  return v;
}

Value Value::scaled_decimal(const Integer& numerator, const Integer& denominator,
                            std::uint32_t scale) {
  auto [n, d] = reduce(numerator, denominator);
  Value v;
  v.data_ = detail::Box<ScaledDecimal>(ScaledDecimal(std::move(n), std::move(d), scale));
  return v;
}

// ---- Value accessors ------------------------------------------------------------------------

void Value::type_error(std::string_view expected) const {
  throw AccessError(fmt::format("expected {} but the value is {} {}", expected,
                                kind() == Kind::integer || kind() == Kind::association ? "an" : "a",
                                kind_name(kind())));
}

bool Value::is_number() const noexcept {
  const Kind k = kind();
  return k == Kind::integer || k == Kind::floating || k == Kind::fraction ||
         k == Kind::scaled_decimal;
}

bool Value::is_container() const noexcept { return std::holds_alternative<detail::Node*>(data_); }

bool Value::as_bool() const {
  if (auto* b = std::get_if<bool>(&data_)) return *b;
  type_error("a boolean");
}

std::int64_t Value::as_int64() const {
  if (auto* i = std::get_if<std::int64_t>(&data_)) return *i;
  if (kind() == Kind::integer) throw AccessError("the integer does not fit in 64 bits");
  type_error("an integer");
}

Integer Value::as_integer() const {
  if (auto* i = std::get_if<std::int64_t>(&data_)) return Integer(*i);
  if (auto* b = std::get_if<detail::Box<Integer>>(&data_)) return **b;
  type_error("an integer");
}

double Value::as_double() const {
  switch (data_.index()) {
    case 2: return static_cast<double>(std::get<2>(data_));
    case 3: return std::get<3>(data_);
    case 4: return std::get<4>(data_)->to_double();
    case 5: return std::get<5>(data_)->to_double();
    case 6: return std::get<6>(data_)->to_double();
    default: type_error("a number");
  }
}

const Fraction& Value::as_fraction() const {
  if (auto* f = std::get_if<detail::Box<Fraction>>(&data_)) return **f;
  type_error("a fraction");
}

const ScaledDecimal& Value::as_scaled_decimal() const {
  if (auto* s = std::get_if<detail::Box<ScaledDecimal>>(&data_)) return **s;
  type_error("a scaled decimal");
}

const std::string& Value::as_string() const {
  if (auto* s = std::get_if<std::string>(&data_)) return *s;
  type_error("a string");
}

const std::string& Value::as_symbol() const {
  if (auto* s = std::get_if<Symbol>(&data_)) return s->name;
  type_error("a symbol");
}

const std::string& Value::text() const {
  if (auto* s = std::get_if<std::string>(&data_)) return *s;
  if (auto* s = std::get_if<Symbol>(&data_)) return s->name;
  type_error("a string or a symbol");
}

const Association& Value::as_association() const {
  if (auto* a = std::get_if<detail::Box<Association>>(&data_)) return **a;
  type_error("an association");
}

Association& Value::as_association() {
  if (auto* a = std::get_if<detail::Box<Association>>(&data_)) return **a;
  type_error("an association");
}

List Value::as_list() const {
  if (kind() != Kind::list) type_error("a list");
  return List(std::get<detail::Node*>(data_));
}

Map Value::as_map() const {
  if (kind() != Kind::map) type_error("a map");
  return Map(std::get<detail::Node*>(data_));
}

Tagged Value::as_tagged() const {
  if (kind() != Kind::tagged) type_error("a tagged object");
  return Tagged(std::get<detail::Node*>(data_));
}

Tagged Value::as_tagged(std::string_view tag) const {
  if (kind() != Kind::tagged) type_error(fmt::format("a tagged object {}", tag));
  Tagged t(std::get<detail::Node*>(data_));
  if (t.tag() != tag) {
    throw AccessError(fmt::format("expected a tagged object {} but found {}", tag, t.tag()));
  }
  return t;
}

bool Value::same_object(const Value& other) const noexcept {
  auto* a = std::get_if<detail::Node*>(&data_);
  auto* b = std::get_if<detail::Node*>(&other.data_);
  return a && b && *a == *b;
}

// ---- Association chains ---------------------------------------------------------------------

namespace detail {

template <>
Box<Association>::Box(const Box& other) {
  if (!other.p_) return;
  p_ = std::make_unique<Association>(other.p_->key(), Value());
  Association* to = p_.get();
  const Association* from = other.p_.get();
  for (;;) {
    const auto* next = std::get_if<Box<Association>>(&Access::data(from->value()));
    if (next == nullptr || !next->p_) {
      to->value() = from->value();
      return;
    }
    from = next->p_.get();
    to->value() = Value(Association(from->key(), Value()));
    to = std::get<Box<Association>>(Access::data(to->value())).p_.get();
  }
}

template <>
Box<Association>& Box<Association>::operator=(const Box& other) {
  if (this != &other) {
    Box copy(other);
    p_ = std::move(copy.p_);
  }
  return *this;
}

template <>
Box<Association>::~Box() {
  // Each association of the chain is detached from its predecessor before that one is freed,
  // so freeing one never frees the rest of the chain recursively.
  std::unique_ptr<Association> current = std::move(p_);
  while (current) {
    auto* next = std::get_if<Box<Association>>(&Access::data(current->value()));
    std::unique_ptr<Association> rest = next != nullptr ? std::move(next->p_) : nullptr;
    current = std::move(rest);
  }
}

}  // namespace detail

// ---- Structural equality --------------------------------------------------------------------

namespace {

bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

}  // namespace

bool operator==(const Value& a, const Value& b) {
  // Lockstep walk of both graphs with an explicit stack; `paired` maps each container of `a`
  // to its partner in `b` and back, which both ends cycles and checks that sharing matches.
  std::vector<std::pair<const Value*, const Value*>> stack{{&a, &b}};
  std::unordered_map<const detail::Node*, const detail::Node*> a_to_b, b_to_a;
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    const auto& dx = detail::Access::data(*x);
    const auto& dy = detail::Access::data(*y);
    if (dx.index() != dy.index()) return false;
    switch (dx.index()) {
      case 0: break;
      case 1:
        if (std::get<1>(dx) != std::get<1>(dy)) return false;
        break;
      case 2:
        if (std::get<2>(dx) != std::get<2>(dy)) return false;
        break;
      case 3:
        if (!same_double(std::get<3>(dx), std::get<3>(dy))) return false;
        break;
      case 4:
        if (*std::get<4>(dx) != *std::get<4>(dy)) return false;
        break;
      case 5:
        if (*std::get<5>(dx) != *std::get<5>(dy)) return false;
        break;
      case 6:
        if (*std::get<6>(dx) != *std::get<6>(dy)) return false;
        break;
      case 7:
        if (std::get<7>(dx) != std::get<7>(dy)) return false;
        break;
      case 8:
        if (std::get<8>(dx) != std::get<8>(dy)) return false;
        break;
      case 9:
        stack.emplace_back(&std::get<9>(dx)->key(), &std::get<9>(dy)->key());
        stack.emplace_back(&std::get<9>(dx)->value(), &std::get<9>(dy)->value());
        break;
      case 10: {
        const detail::Node* nx = std::get<10>(dx);
        const detail::Node* ny = std::get<10>(dy);
        auto ia = a_to_b.find(nx);
        auto ib = b_to_a.find(ny);
        if (ia != a_to_b.end() || ib != b_to_a.end()) {
          if (ia == a_to_b.end() || ib == b_to_a.end() || ia->second != ny || ib->second != nx) {
            return false;
          }
          break;  // already compared (or being compared further up a cycle)
        }
        a_to_b.emplace(nx, ny);
        b_to_a.emplace(ny, nx);
        if (nx->tag != ny->tag || nx->is_map != ny->is_map ||
            nx->items.size() != ny->items.size() || nx->entries.size() != ny->entries.size()) {
          return false;
        }
        // Pushed in reverse so that elements are compared in order (first difference first).
        for (std::size_t i = nx->items.size(); i-- > 0;) {
          stack.emplace_back(&nx->items[i], &ny->items[i]);
        }
        for (std::size_t i = nx->entries.size(); i-- > 0;) {
          stack.emplace_back(&nx->entries[i].value, &ny->entries[i].value);
          stack.emplace_back(&nx->entries[i].key, &ny->entries[i].key);
        }
        break;
      }
      default:
        if (std::get<11>(dx).number != std::get<11>(dy).number) return false;
        break;
    }
  }
  return true;
}

// ---- Containers -----------------------------------------------------------------------------

namespace {

bool key_has_text(const Value& key, std::string_view name) {
  return (key.is_string() || key.is_symbol()) && key.text() == name;
}

// The last entry that `matches`, or nullptr.
template <class Matches>
Value* last_entry(std::vector<MapEntry>& entries, Matches matches) {
  const auto it = std::find_if(entries.rbegin(), entries.rend(), matches);
  return it == entries.rend() ? nullptr : &it->value;
}

}  // namespace

Value* Map::find(const Value& key) const {
  return last_entry(node_->entries, [&](const MapEntry& e) { return e.key == key; });
}

Value* Map::find(std::string_view name) const {
  return last_entry(node_->entries, [&](const MapEntry& e) { return key_has_text(e.key, name); });
}

Value& List::at(std::size_t i) const {
  if (i < node_->items.size()) return node_->items[i];
  throw AccessError(fmt::format("no element {} in a list of {}", i, node_->items.size()));
}

Value& Map::at(std::string_view name) const {
  if (Value* v = find(name)) return *v;
  throw AccessError(fmt::format("no key '{}' in the map", name));
}

Value& Map::set(Value key, Value value) const {
  if (Value* v = find(key)) {
    *v = std::move(value);
    return *v;
  }
  node_->entries.push_back({std::move(key), std::move(value)});
  return node_->entries.back().value;
}

List Tagged::list() const {
  if (node_->is_map) throw AccessError(fmt::format("{} has a map body, not a list", node_->tag));
  return List(node_);
}

Map Tagged::map() const {
  if (!node_->is_map) throw AccessError(fmt::format("{} has a list body, not a map", node_->tag));
  return Map(node_);
}

bool is_valid_tag(std::string_view tag) noexcept {
  if (tag.empty() || tag[0] < 'A' || tag[0] > 'Z') return false;
  for (char c : tag) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

Document::Document() : nodes_(std::make_unique<std::deque<detail::Node>>()) {}
Document::~Document() = default;
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;

std::size_t Document::container_count() const noexcept { return nodes_ ? nodes_->size() : 0; }

detail::Node* Document::new_node(std::string_view tag, bool is_map) {
  if (!nodes_) nodes_ = std::make_unique<std::deque<detail::Node>>();  // after a move
  detail::Node& node = nodes_->emplace_back();
  node.tag.assign(tag);
  node.is_map = is_map;
  return &node;
}

List Document::list(std::initializer_list<Value> items) {
  detail::Node* node = new_node({}, false);
  node->items.assign(items.begin(), items.end());
  return List(node);
}

List Document::list(std::vector<Value> items) {
  detail::Node* node = new_node({}, false);
  node->items = std::move(items);
  return List(node);
}

Map Document::map(std::initializer_list<std::pair<Value, Value>> entries) {
  detail::Node* node = new_node({}, true);
  node->entries.reserve(entries.size());
  for (const auto& [k, v] : entries) node->entries.push_back({k, v});
  return Map(node);
}

Tagged Document::tagged_list(std::string_view tag, std::initializer_list<Value> items) {
  if (!is_valid_tag(tag)) throw UsageError(fmt::format("not a STON tag: '{}'", tag));
  detail::Node* node = new_node(tag, false);
  node->items.assign(items.begin(), items.end());
  return Tagged(node);
}

Tagged Document::tagged_map(std::string_view tag,
                            std::initializer_list<std::pair<Value, Value>> entries) {
  if (!is_valid_tag(tag)) throw UsageError(fmt::format("not a STON tag: '{}'", tag));
  detail::Node* node = new_node(tag, true);
  for (const auto& [k, v] : entries) node->entries.push_back({k, v});
  return Tagged(node);
}

}  // namespace bufstream::ston
