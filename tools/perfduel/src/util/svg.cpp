#include "util/svg.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel::svg {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (const std::string_view entity = util::markup_entity(c); !entity.empty()) {
      out += entity;
    } else if (c == '\t' || c == '\n' || c == '\r') {
      out += c;
    } else {
      // Not even a character reference may name these in XML 1.0.
      out += static_cast<unsigned char>(c) < 0x20U || c == '\x7f' ? '?' : c;
    }
  }
  return out;
}

std::string open_document(double width, double height) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
}

Range padded_range(double low, double high, double margin) {
  if (!std::isfinite(low) || !std::isfinite(high) || low > high) {
    return {};
  }
  if (high == low) {
    const double pad = low == 0.0 ? 1.0 : std::fabs(low) * 0.05;
    low -= pad;
    high += pad;
  }
  const double pad = (high - low) * margin;
  return {low - pad, high + pad};
}

Ticks nice_ticks(double low, double high, int count, double min_step) {
  Ticks ticks;
  if (!std::isfinite(low) || !std::isfinite(high) || !(high > low) || count < 1) {
    return ticks;
  }
  const double raw = (high - low) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  // The tolerance keeps 0.2 / 0.1 = 2.0000000000000004 a 2.
  constexpr double k_slack = 1 + 1e-9;
  const double nice = fraction <= k_slack       ? 1.0
                      : fraction <= 2 * k_slack ? 2.0
                      : fraction <= 5 * k_slack ? 5.0
                                                : 10.0;
  ticks.step = std::max(nice * magnitude, min_step);
  // Positions as integer multiples of the step, so that 0.1 + 0.2 never shows as 0.30000000000000004.
  const double first = std::ceil(low / ticks.step - 1e-9);
  const double last = std::floor(high / ticks.step + 1e-9);
  // The size limit guards against steps too small to move a huge value (k + 1 == k).
  const std::size_t limit = 4 * static_cast<std::size_t>(count) + 2;
  for (double k = first; k <= last && ticks.values.size() < limit; ++k) {
    ticks.values.push_back(k * ticks.step);
  }
  return ticks;
}

std::string format_tick(double value, double step, Sign sign) {
  const int decimals = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  if (std::fabs(value) < step * 1e-6) {
    value = 0.0;  // no "-0"
  }
  const bool plus = sign == Sign::explicit_plus && value > 0;
  return fmt::format("{}{:.{}f}", plus ? "+" : "", value, decimals);
}

}  // namespace perfduel::svg
