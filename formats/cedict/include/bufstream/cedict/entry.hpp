// Entry: one dictionary entry as the caller sees it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>

namespace bufstream::cedict {

/// Where one gloss lies in its entry's text (byte offset from the traditional headword). The
/// dictionary stores these rather than 16-byte views: half the memory for the gloss table.
struct GlossSpan {
  std::uint32_t offset;  ///< Byte offset of the gloss from the entry's traditional headword.
  std::uint32_t size;    ///< The gloss's length in bytes.
};

/// An entry's glosses, in file order: a random-access list of `std::string_view`s.
class GlossList {
 public:
  /// A forward iterator over the glosses, yielding `std::string_view`s.
  class iterator {
   public:
    /// @{
    /// The standard iterator types.
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using reference = std::string_view;
    using pointer = void;
    /// @}

    iterator() = default;
    /// The gloss.
    std::string_view operator*() const noexcept { return {base_ + span_->offset, span_->size}; }
    /// Moves to the next gloss.
    iterator& operator++() noexcept {
      ++span_;
      return *this;
    }
    /// Moves to the next gloss and returns where it was.
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++span_;
      return old;
    }
    /// True if both point at the same gloss.
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.span_ == b.span_;
    }

   private:
    friend class GlossList;
    iterator(const char* base, const GlossSpan* span) noexcept : base_(base), span_(span) {}
    const char* base_ = nullptr;
    const GlossSpan* span_ = nullptr;
  };

  GlossList() = default;
  /// The glosses at `spans`, offsets from `base`.
  GlossList(const char* base, std::span<const GlossSpan> spans) noexcept
      : base_(base), spans_(spans) {}

  /// The number of glosses.
  std::size_t size() const noexcept { return spans_.size(); }
  /// True if there is none (never for an entry's glosses).
  bool empty() const noexcept { return spans_.empty(); }
  /// Precondition: `i < size()`.
  std::string_view operator[](std::size_t i) const noexcept {
    return {base_ + spans_[i].offset, spans_[i].size};
  }
  /// The first gloss. Precondition: not empty.
  std::string_view front() const noexcept { return (*this)[0]; }
  /// The last gloss. Precondition: not empty.
  std::string_view back() const noexcept { return (*this)[size() - 1]; }
  /// The first gloss's position.
  iterator begin() const noexcept { return {base_, spans_.data()}; }
  /// The position after the last gloss.
  iterator end() const noexcept { return {base_, spans_.data() + spans_.size()}; }

 private:
  const char* base_ = nullptr;
  std::span<const GlossSpan> spans_;
};

/// One line `TRADITIONAL SIMPLIFIED [pin1 yin1] /gloss 1/gloss 2/` of a CC-CEDICT file. The
/// views point into the dictionary's text (its arena, or the mapped file in zero-copy mode)
/// and stay valid as long as the dictionary that returned the entry; the text is UTF-8,
/// exactly as in the file.
struct Entry {
  std::size_t index = 0;  ///< Position among the dictionary's entries, from 0.
  /// The headword in traditional characters.
  std::string_view traditional;
  /// The headword in simplified characters.
  std::string_view simplified;
  std::string_view pinyin;  ///< Between the brackets: "ni3 hao3", "lu:4", "san1 C".
  GlossList glosses;        ///< In file order; never empty, and no gloss is empty.

  /// All glosses as they stand in the file, between the first and the last '/':
  /// "gloss 1/gloss 2".
  std::string_view english() const noexcept {
    if (glosses.empty()) return {};
    const std::string_view first = glosses.front();
    const std::string_view last = glosses.back();
    return {first.data(), static_cast<std::size_t>(last.data() + last.size() - first.data())};
  }
};

}  // namespace bufstream::cedict
