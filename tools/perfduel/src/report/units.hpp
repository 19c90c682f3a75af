#pragma once

#include <string>

#include "config/metric_units.hpp"

namespace perfduel {

// How the reports show a metric's values: scaled to their magnitude with the prefixes of the
// metric's unit, the same in the table, the Markdown and the SVG axes.

// A scale to show values in: shown value = value × `factor`, followed by `name`.
struct DisplayUnit {
  double factor = 1;
  std::string name;
};

// The scale for values of about `magnitude` in `unit`: seconds as ns, µs, ms or s; bytes and
// bytes per second with binary prefixes (KiB, MiB/s); items per second and plain numbers
// (`unit` empty: counts, counters) with decimal ones (k, M, G, T) from 1000 up; any other
// unit unscaled.
DisplayUnit display_unit(const std::string& unit, double magnitude);

// `value` in `unit` as the reports print it: "38.5 ns", "2.50 ms", "1.2 GiB", "475.4 MiB/s",
// "12.35 M items/s", "42", "1.5 k"; other units as "1234.5 ops" (six significant digits).
std::string format_value(double value, const std::string& unit);

}  // namespace perfduel
