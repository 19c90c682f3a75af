#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "history/schema.hpp"
#include "history/store.hpp"

// The statements both stores run, each written once, as schema.cpp writes the schema once.
// Parameters are numbered the PostgreSQL way, $1, $2, ...; render_statement turns them into
// SQLite's ?1, ?2, ... SQLite reads $1 too, but as a parameter named "$1", numbered by where it
// first appears, and `$1::bigint` as one such name (a Tcl variable), so casts are written
// CAST(... AS ...), which both read alike. {byte_order} marks where text is sorted.
namespace perfduel::history {

// The id of the record with the run key $1.
constexpr std::string_view k_find_record = "SELECT id FROM records WHERE run_key = $1";

// Adds a record, the parameters in the order of its columns.
constexpr std::string_view k_insert_record =
    "INSERT INTO records (recorded_at, commit_sha, branch, machine, machine_id, source, verdict, "
    "perfduel_version, run_key, config_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

// Adds a measurement of the record $1, the parameters in the order of its columns. Numbers
// travel to PostgreSQL as text; the casts say how to read them.
constexpr std::string_view k_insert_measurement =
    "INSERT INTO measurements (record_id, metric, unit, direction, value, samples, baseline, change, "
    "ci_low, ci_high, verdict) VALUES (CAST($1 AS BIGINT), $2, $3, $4, CAST($5 AS DOUBLE PRECISION), $6, "
    "CAST($7 AS DOUBLE PRECISION), CAST($8 AS DOUBLE PRECISION), CAST($9 AS DOUBLE PRECISION), "
    "CAST($10 AS DOUBLE PRECISION), $11)";

// The names of the metrics recorded on the branch $1 (NULL: on any branch), in byte order.
// The cast gives PostgreSQL the parameter's type, which `$1 IS NULL` alone does not. GROUP BY,
// not DISTINCT: PostgreSQL wants a DISTINCT query's ORDER BY terms in its select list, and
// `m.metric COLLATE "C"` is not there.
constexpr std::string_view k_metrics =
    "SELECT m.metric FROM measurements m JOIN records r ON r.id = m.record_id "
    "WHERE CAST($1 AS TEXT) IS NULL OR r.branch = $1 GROUP BY m.metric ORDER BY m.metric {byte_order}";

// Every measurement of the metric $1 on the branch $2 (NULL: on any branch) with its record,
// oldest first; the columns in the order of SeriesPoint.
constexpr std::string_view k_series =
    "SELECT r.id, r.recorded_at, r.commit_sha, r.branch, r.machine_id, m.unit, m.direction, m.value, "
    "m.samples, m.baseline, m.change, m.ci_low, m.ci_high, m.verdict, r.config_hash "
    "FROM measurements m JOIN records r ON r.id = m.record_id "
    "WHERE m.metric = $1 AND (CAST($2 AS TEXT) IS NULL OR r.branch = $2) "
    "ORDER BY r.recorded_at {byte_order}, r.id";

// One row of a result as both stores read it (a SQLite statement's current row, a row of a
// PostgreSQL result), by column number from 0, so that a row is decoded once for both.
class ResultRow {
 public:
  ResultRow() = default;
  ResultRow(const ResultRow&) = delete;
  ResultRow& operator=(const ResultRow&) = delete;
  virtual ~ResultRow() = default;

  // The text of `column` (empty for NULL).
  virtual std::string text(int column) const = 0;
  // The text of `column`; nothing for NULL.
  virtual std::optional<std::string> optional_text(int column) const = 0;
  // The number in `column`.
  virtual double number(int column) const = 0;
  // The number in `column`; nothing for NULL.
  virtual std::optional<double> optional_number(int column) const = 0;
  // The integer in `column`.
  virtual std::int64_t integer(int column) const = 0;

 protected:
  ResultRow(ResultRow&&) = default;
  ResultRow& operator=(ResultRow&&) = default;
};

// The point of `metric`'s series in `row`, a row of k_series.
SeriesPoint decode_series_row(const ResultRow& row, const std::string& metric);

// The parameters of a statement as both stores bind them (a SQLite statement's bindings, a
// PostgreSQL parameter list), by number from 1, so that a row is encoded once for both.
class RowParameters {
 public:
  RowParameters() = default;
  RowParameters(const RowParameters&) = delete;
  RowParameters& operator=(const RowParameters&) = delete;
  virtual ~RowParameters() = default;

  // Sets parameter `index` to the text `value`; none is NULL.
  virtual void text(int index, const std::optional<std::string>& value) = 0;
  // Sets parameter `index` to the number `value`; none is NULL.
  virtual void number(int index, const std::optional<double>& value) = 0;
  // Sets parameter `index` to the integer `value`.
  virtual void integer(int index, std::int64_t value) = 0;

 protected:
  RowParameters(RowParameters&&) = default;
  RowParameters& operator=(RowParameters&&) = default;
};

// Sets `parameters` to `record`'s columns, for k_insert_record.
void encode_record_row(RowParameters& parameters, const Record& record);

// Sets `parameters` to the columns of `measurement` of the record `record_id`, for
// k_insert_measurement.
void encode_measurement_row(RowParameters& parameters, std::int64_t record_id,
                            const Measurement& measurement);

// How many records there are.
constexpr std::string_view k_record_count = "SELECT count(*) FROM records";

// Schema 1 to 2: the id and machine description of every record made from a report.
constexpr std::string_view k_report_machines = "SELECT id, machine FROM records WHERE source = 'report'";

// Schema 1 to 2: gives the record $3 the machine description $1 and id $2.
constexpr std::string_view k_rekey_machine =
    "UPDATE records SET machine = $1, machine_id = $2 WHERE id = CAST($3 AS BIGINT)";

// `sql`, one of the statements above, as the library of `dialect` takes it: {byte_order}
// filled in, and for SQLite every $N outside quotes written ?N, which is parameter N.
std::string render_statement(std::string_view sql, Dialect dialect);

}  // namespace perfduel::history
