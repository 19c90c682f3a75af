#include "history/statements.hpp"

#include <fmt/core.h>

namespace perfduel::history {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// `sql` with each $N parameter written ?N. Text in quotes (a literal, a quoted name) is left
// as it is; a doubled quote inside it closes and reopens it, which comes to the same.
std::string sqlite_parameters(std::string_view sql) {
  std::string text;
  text.reserve(sql.size());
  char quote = 0;  // the quote of the literal or name being read, or 0 outside one
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '$' && i + 1 < sql.size() && is_digit(sql[i + 1])) {
      text += '?';
      continue;
    }
    text += c;
  }
  return text;
}

}  // namespace

std::string render_statement(std::string_view sql, Dialect dialect) {
  // Byte order, as SQLite sorts by default, whatever the PostgreSQL database's locale; SQLite
  // has no collation "C" and PostgreSQL none named BINARY.
  const bool sqlite = dialect == Dialect::sqlite;
  const std::string text =
      fmt::format(fmt::runtime(sql), fmt::arg("byte_order", sqlite ? "COLLATE BINARY" : "COLLATE \"C\""));
  return sqlite ? sqlite_parameters(text) : text;
}

SeriesPoint decode_series_row(const ResultRow& row, const std::string& metric) {
  SeriesPoint point;
  point.record_id = row.integer(0);
  point.recorded_at = row.text(1);
  point.commit = row.optional_text(2);
  point.branch = row.optional_text(3);
  point.machine_id = row.text(4);
  point.measurement.metric = metric;
  point.measurement.unit = row.optional_text(5);
  point.measurement.direction = row.optional_text(6);
  point.measurement.value = row.number(7);
  point.measurement.samples = decode_samples(row.text(8));
  point.measurement.baseline = row.optional_number(9);
  point.measurement.change = row.optional_number(10);
  point.measurement.ci_low = row.optional_number(11);
  point.measurement.ci_high = row.optional_number(12);
  point.measurement.verdict = row.optional_text(13);
  point.config_hash = row.optional_text(14);
  return point;
}

void encode_record_row(RowParameters& parameters, const Record& record) {
  parameters.text(1, record.recorded_at);
  parameters.text(2, record.commit);
  parameters.text(3, record.branch);
  parameters.text(4, record.machine);
  parameters.text(5, record.machine_id);
  parameters.text(6, record.source);
  parameters.text(7, record.verdict);
  parameters.text(8, record.perfduel_version);
  parameters.text(9, record.run_key);
  parameters.text(10, record.config_hash);
}

void encode_measurement_row(RowParameters& parameters, std::int64_t record_id,
                            const Measurement& measurement) {
  parameters.integer(1, record_id);
  parameters.text(2, measurement.metric);
  parameters.text(3, measurement.unit);
  parameters.text(4, measurement.direction);
  parameters.number(5, measurement.value);
  parameters.text(6, encode_samples(measurement.samples));
  parameters.number(7, measurement.baseline);
  parameters.number(8, measurement.change);
  parameters.number(9, measurement.ci_low);
  parameters.number(10, measurement.ci_high);
  parameters.text(11, measurement.verdict);
}

}  // namespace perfduel::history
