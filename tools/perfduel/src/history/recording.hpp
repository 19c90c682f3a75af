#pragma once

#include <optional>
#include <string>
#include <vector>

#include "history/store.hpp"
#include "stats/direction.hpp"

// What `perfduel record` appends: a record of plain measurements, and the provenance of any
// record (when, at which commit, on which machine) with its defaults filled in.
namespace perfduel::history {

// What the command line said of a record's provenance, each none when not given.
struct GivenProvenance {
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::optional<std::string> time;  // ISO 8601
  std::optional<std::string> machine;
  std::optional<std::string> run_id;
  std::optional<std::string> config_hash;
};

// A record of the plain measurements `values` of `metric` (source "values"), in `unit` when
// given, better in `direction` when given; its value the median, as for a report's candidate:
// one slow outlier does not move the trend.
Record record_of_values(const std::string& metric, const std::vector<double>& values,
                        const std::optional<std::string>& unit, std::optional<stats::Direction> direction);

// Fills `record`'s provenance: what `given` says, else the defaults: measured at the report's
// start (already in `record`) or now, at git's commit and branch of the current directory, on the
// report's machine or this one; a report's run key made one per commit (the same report recorded
// for another commit is another point of the series).
void fill_provenance(Record& record, const GivenProvenance& given);

}  // namespace perfduel::history
