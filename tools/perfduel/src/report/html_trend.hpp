#pragma once

#include <string>
#include <vector>

#include "report/html_page.hpp"
#include "report/trend_output.hpp"

// The history dashboard (`perfduel trend --html DIR`): one page of every series with its trend
// groups, regressions and progressions marked, each point's commit, branch, machine and time on
// hover, under each change of group the commit range it came in by and the `perfduel bisect`
// command for it; filters for branch, machine and gate configuration. Charts are drawn when
// scrolled to, each thinned to about the points its width can show (Chart.js decimation), so
// 200 series of 10,000 points stay usable. src/report/html/trend_page.js draws it.
namespace perfduel {

// What the dashboard shows of `results`, from the history `source` (its display name):
// per series its values (six significant digits), the run each came from (an index into one
// table of commits and times, delta-coded), its groups, compliance and how many of its groups
// are regressions and progressions; what NAME is in the bisect commands when a gate is unknown.
nlohmann::json trend_page_data(const std::vector<trend::TrendResult>& results,
                               const trend::TrendWindows& windows, const std::string& source);

// The dashboard page of `results` (trend_page_data).
HtmlPage trend_page(const std::vector<trend::TrendResult>& results, const trend::TrendWindows& windows,
                    const std::string& source);

}  // namespace perfduel
