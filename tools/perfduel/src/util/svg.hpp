#pragma once

#include <string>
#include <string_view>
#include <vector>

// Small helpers shared by the SVG plots (`perfduel trend --svg`, `compare --svg`): escaping,
// a linear scale, round axis ticks and their labels. They know nothing of benchmarks.
namespace perfduel::svg {

// `text` made safe for element content and double-quoted attribute values: &, <, > and "
// become entities, and control characters that XML 1.0 forbids (all below U+0020 except tab,
// newline and carriage return) become '?'.
std::string escape(std::string_view text);

// The opening <svg> tag of a `width` × `height` document (sans-serif, 12 px) and a white
// background. The caller appends the content and "</svg>\n".
std::string open_document(double width, double height);

// Maps the data interval [`low`, `high`] linearly onto the pixel interval [`from`, `to`]
// (`to` < `from` for a y axis, whose pixels grow downwards). A flat interval (`high` <= `low`)
// maps everything to the middle of the pixel interval.
class LinearScale {
 public:
  LinearScale(double low, double high, double from, double to)
      : m_low(low), m_high(high), m_from(from), m_to(to) {}

  double operator()(double value) const {
    if (!(m_high > m_low)) {
      return (m_from + m_to) / 2;
    }
    return m_from + (m_to - m_from) * (value - m_low) / (m_high - m_low);
  }

  double low() const { return m_low; }
  double high() const { return m_high; }

 private:
  double m_low;
  double m_high;
  double m_from;
  double m_to;
};

// [`low`, `high`] widened so that a plot of it has some height: a flat interval gets ±5 % of
// its value (±1 at zero), and every interval a `margin` fraction of its span on both sides.
// Non-finite bounds give [0, 1].
struct Range {
  double low = 0;
  double high = 1;
};
Range padded_range(double low, double high, double margin);

// Round tick positions inside [`low`, `high`]: about `count` of them, 1, 2 or 5 × 10^k apart
// (after Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990), the step at least
// `min_step` (1 for round numbers).
struct Ticks {
  std::vector<double> values;
  double step = 1;
};
Ticks nice_ticks(double low, double high, int count, double min_step = 0);

// A tick label for `value` with exactly as many decimals as `step` needs: "0.25" for step
// 0.05, "1500" for step 500; never "-0". With `sign`, positive values get a '+'.
enum class Sign { plain, explicit_plus };
std::string format_tick(double value, double step, Sign sign = Sign::plain);

}  // namespace perfduel::svg
