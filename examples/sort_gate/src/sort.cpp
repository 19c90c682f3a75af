#include "sortlib/sort.hpp"

#include <utility>

namespace sortlib {

namespace {

// Ranges up to this size are left to insertion sort: quadratic, but with no overhead, so it
// wins on a few dozen elements. Much larger values make the sort dramatically slower.
constexpr std::size_t k_insertion_sort_cutoff = 16;

void insertion_sort(std::span<std::uint32_t> values) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    const std::uint32_t value = values[i];
    std::size_t j = i;
    for (; j > 0 && values[j - 1] > value; --j) {
      values[j] = values[j - 1];
    }
    values[j] = value;
  }
}

std::uint32_t median_of_three(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  if (a > b) {
    std::swap(a, b);
  }
  if (b > c) {
    std::swap(b, c);
  }
  return a > b ? a : b;
}

void quick_sort(std::span<std::uint32_t> values) {
  while (values.size() > k_insertion_sort_cutoff) {
    const std::uint32_t pivot = median_of_three(values.front(), values[values.size() / 2], values.back());
    // Hoare partition: [0, j] <= pivot <= [j + 1, n).
    std::size_t i = 0;
    std::size_t j = values.size() - 1;
    while (true) {
      while (values[i] < pivot) {
        ++i;
      }
      while (values[j] > pivot) {
        --j;
      }
      if (i >= j) {
        break;
      }
      std::swap(values[i++], values[j--]);
    }
    // Recurse into the smaller part, loop on the larger: O(log n) stack.
    auto left = values.first(j + 1);
    auto right = values.subspan(j + 1);
    if (left.size() < right.size()) {
      quick_sort(left);
      values = right;
    } else {
      quick_sort(right);
      values = left;
    }
  }
  insertion_sort(values);
}

}  // namespace

void hybrid_sort(std::span<std::uint32_t> values) {
  quick_sort(values);
}

}  // namespace sortlib
