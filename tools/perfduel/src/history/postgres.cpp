#include "history/postgres.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "history/libpq_loader.hpp"

namespace perfduel::history {

namespace {

// libpq ends its messages with a newline, sometimes two lines; one line reads better after
// the database name.
std::string one_line(std::string_view message) {
  std::string text(message);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  for (char& c : text) {
    if (c == '\n') {
      c = ' ';
    }
  }
  return text;
}

// NOTICEs ("schema already exists, skipping") would otherwise go to stderr.
void ignore_notice(void* /*unused*/, const char* /*message*/) {}

}  // namespace

std::optional<std::string> PgResult::optional_text(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return std::string(text(row, column));
}

double PgResult::number(int row, int column) const {
  const std::string_view value = text(row, column);
  // PostgreSQL writes the special values its own way; from_chars does not read them.
  if (value == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (value == "Infinity" || value == "-Infinity") {
    return value.front() == '-' ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity();
  }
  double result = 0.0;
  std::from_chars(value.data(), value.data() + value.size(), result);
  return result;
}

std::optional<double> PgResult::optional_number(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return number(row, column);
}

std::int64_t PgResult::integer(int row, int column) const {
  const std::string_view value = text(row, column);
  std::int64_t result = 0;
  std::from_chars(value.data(), value.data() + value.size(), result);
  return result;
}

util::Expected<PgConnection> PgConnection::connect(const std::string& uri) {
  if (std::string missing = libpq_missing(); !missing.empty()) {
    return util::Expected<PgConnection>::failure(std::move(missing));
  }
  // Keywords are applied in order, so the URI (expanded from "dbname") overrides the
  // defaults before it; libpq's environment fills in what neither sets.
  std::vector<const char*> keys;
  std::vector<const char*> values;
  keys.push_back("fallback_application_name");
  values.push_back("perfduel");
  if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    // A server that does not answer should not hang a CI job forever.
    keys.push_back("connect_timeout");
    values.push_back("30");
  }
  keys.push_back("dbname");
  values.push_back(uri.c_str());
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* connection = PQconnectdbParams(keys.data(), values.data(), 1);
  if (connection == nullptr) {
    return util::Expected<PgConnection>::failure("out of memory");
  }
  PgConnection result(connection);
  if (PQstatus(connection) != CONNECTION_OK) {
    return util::Expected<PgConnection>::failure(one_line(PQerrorMessage(connection)));
  }
  PQsetNoticeProcessor(connection, ignore_notice, nullptr);
  return result;
}

util::Expected<PgResult> PgConnection::checked(PGresult* result) {
  PgResult owned(result);
  const auto status = result == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return util::Expected<PgResult>::failure(
        one_line(result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(m_connection.get())));
  }
  return owned;
}

util::Expected<PgResult> PgConnection::execute(std::string_view sql) {
  return checked(PQexec(m_connection.get(), std::string(sql).c_str()));
}

util::Expected<PgResult> PgConnection::execute(std::string_view sql,
                                               std::span<const std::optional<std::string>> params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& param : params) {
    values.push_back(param ? param->c_str() : nullptr);
  }
  return checked(PQexecParams(m_connection.get(), std::string(sql).c_str(), static_cast<int>(values.size()),
                              nullptr, values.data(), nullptr, nullptr, 0));
}

util::Expected<Done> PgConnection::begin_transaction() {
  auto begun = execute("BEGIN");
  return begun ? util::Expected<Done>(Done{}) : util::Expected<Done>::failure(begun.error());
}

util::Expected<Done> PgConnection::commit_transaction() {
  auto committed = execute("COMMIT");
  return committed ? util::Expected<Done>(Done{}) : util::Expected<Done>::failure(committed.error());
}

void PgConnection::rollback_transaction() {
  (void)execute("ROLLBACK");
}

bool PgConnection::in_transaction() const {
  const auto status = PQtransactionStatus(m_connection.get());
  return status == PQTRANS_INTRANS || status == PQTRANS_INERROR;
}

std::string pg_number(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-Infinity" : "Infinity";
  }
  return fmt::format("{}", value);  // the shortest text that reads back as `value`
}

std::optional<std::string> pg_number(const std::optional<double>& value) {
  if (!value) {
    return std::nullopt;
  }
  return pg_number(*value);
}

}  // namespace perfduel::history
