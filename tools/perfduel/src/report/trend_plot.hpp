#pragma once

#include <string>
#include <vector>

#include "trend/jumpavg.hpp"

// The trend plot of `perfduel trend --svg`: one series' runs and their groups.
namespace perfduel {

// What the trend plot shows: the `samples` of every run (one dot each, a run's dots share
// its x position), the `grouping` of those runs (group averages drawn as steps, the first
// run of a regression or progression circled), a `title` and a `value_label` for the y axis.
struct TrendPlot {
  std::string title;
  std::string value_label;
  std::vector<std::vector<double>> samples;
  trend::Grouping grouping;
};

// A self-contained SVG document of `plot`.
std::string render_trend_svg(const TrendPlot& plot);

}  // namespace perfduel
