#include "count/benchmark_filter.hpp"

#include <string_view>

namespace perfduel {

std::string exact_benchmark_filter(std::span<const std::string> names) {
  std::string alternatives;
  for (const std::string& name : names) {
    if (!alternatives.empty()) {
      alternatives += '|';
    }
    for (const char c : name) {
      if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) {
        alternatives += '\\';
      }
      alternatives += c;
    }
  }
  return names.size() == 1 ? "^" + alternatives + "$" : "^(" + alternatives + ")$";
}

}  // namespace perfduel
