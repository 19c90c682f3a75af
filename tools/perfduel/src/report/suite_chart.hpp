#pragma once

#include <string>
#include <vector>

#include "duel/analysis.hpp"

namespace perfduel {

// A compact chart of many metrics, one 18-pixel row each (a forest plot): the metric's name,
// its change as a dot, its interval as a bar in the verdict's colour, its tolerance band
// shaded, a shared percent axis with the zero line, and the verdict at the end of the row.
// It fits a suite of 30 benchmarks on one screen, where a panel per metric would need 30.
// `results` in the order to draw; `width` the page width. Drawn from its own top (translate it
// into place); suite_chart_height gives the height it takes. Pure.
std::string render_suite_chart(const std::vector<const MetricResult*>& results, double width);

// The height in pixels of render_suite_chart for `count` rows.
double suite_chart_height(std::size_t count);

}  // namespace perfduel
