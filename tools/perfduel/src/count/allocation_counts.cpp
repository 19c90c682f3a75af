#include "count/allocation_counts.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace perfduel {

void add_allocation_counts(const Profile& profile, std::map<CountedEvent, double>& counts) {
  double allocations = 0;
  double bytes = 0;
  bool marked = false;
  for (const auto& [name, cost] : profile.functions) {
    if (name == k_allocation_marker) {
      allocations += cost.calls;
      marked = true;
      continue;
    }
    if (!name.starts_with(k_allocated_bit_marker)) {
      continue;
    }
    const std::string_view digits = std::string_view(name).substr(k_allocated_bit_marker.size());
    int bit = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bit);
    if (error == std::errc() && end == digits.data() + digits.size() && bit >= 0 && bit < 64) {
      bytes += cost.calls * std::ldexp(1.0, bit);
    }
  }
  if (!marked) {
    return;  // no allocation, or no counter preloaded: the metric reads none (metric_extractor.cpp)
  }
  counts[CountedEvent::allocations] = allocations;
  counts[CountedEvent::allocated_bytes] = bytes;
}

}  // namespace perfduel
