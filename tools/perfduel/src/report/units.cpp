#include "report/units.hpp"

#include <cmath>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

// The largest prefix of `prefixes` (each `base` times the one before) that keeps `magnitude`
// at 1 or more, appended to `unit`.
template <std::size_t N>
DisplayUnit prefixed(double magnitude, double base, const char* const (&prefixes)[N],
                     const std::string& unit) {
  DisplayUnit shown{1, prefixes[0] + unit};
  for (std::size_t i = 1; i < N && std::abs(magnitude) * shown.factor >= base; ++i) {
    shown = {shown.factor / base, prefixes[i] + unit};
  }
  return shown;
}

}  // namespace

DisplayUnit display_unit(const std::string& unit, double magnitude) {
  static constexpr const char* k_binary[] = {"", "Ki", "Mi", "Gi", "Ti"};
  static constexpr const char* k_decimal[] = {"", "k", "M", "G", "T"};
  static constexpr const char* k_decimal_spaced[] = {"", "k ", "M ", "G ", "T "};
  const double size = std::abs(magnitude);
  if (unit == k_unit_seconds) {
    if (size < 1e-6) {
      return {1e9, "ns"};
    }
    if (size < 1e-3) {
      return {1e6, "µs"};
    }
    if (size < 1.0) {
      return {1e3, "ms"};
    }
    return {1, "s"};
  }
  if (unit == k_unit_bytes || unit == k_unit_bytes_per_second) {
    return prefixed(size, 1024.0, k_binary, unit);
  }
  if (unit == k_unit_items_per_second) {
    return prefixed(size, 1000.0, k_decimal_spaced, unit);
  }
  if (unit.empty()) {
    return prefixed(size, 1000.0, k_decimal, unit);
  }
  return {1, unit};
}

std::string format_value(double value, const std::string& unit) {
  if (unit == k_unit_seconds) {
    return util::format_seconds(value);  // also minutes, past two of them
  }
  if (unit == k_unit_bytes) {
    return util::format_bytes(value);
  }
  const DisplayUnit shown = display_unit(unit, value);
  if (unit == k_unit_bytes_per_second) {
    return shown.factor == 1 ? fmt::format("{:.0f} {}", value, shown.name)
                             : fmt::format("{:.1f} {}", value * shown.factor, shown.name);
  }
  if (unit.empty() || unit == k_unit_items_per_second) {
    // Four significant digits: 42, 475.4, 12.35 k; unscaled small numbers keep theirs (0.0123).
    const std::string number = fmt::format("{:.4g}", value * shown.factor);
    return shown.name.empty() ? number : fmt::format("{} {}", number, shown.name);
  }
  // Six significant digits, but whole numbers from a million on rather than an exponent (a count
  // per iteration: 3724180 insn/iter, not 3.72418e+06).
  if (std::abs(value) >= 1e6 && std::abs(value) < 1e15) {
    return fmt::format("{:.0f} {}", value, unit);
  }
  return fmt::format("{:.6g} {}", value, unit);
}

}  // namespace perfduel
