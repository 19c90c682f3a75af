#pragma once

#include <cstdint>
#include <span>

namespace sortlib {

// Sorts `values` ascending: quicksort (median-of-three pivot) down to small ranges, which
// insertion sort finishes, where it beats quicksort's overhead.
void hybrid_sort(std::span<std::uint32_t> values);

}  // namespace sortlib
