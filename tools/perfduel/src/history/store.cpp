#include "history/store.hpp"

#include <algorithm>
#include <cstdlib>

#include "history/postgres_store.hpp"
#include "history/sqlite_store.hpp"

namespace perfduel::history {

namespace {

template <typename Store>
util::Expected<std::unique_ptr<HistoryStore>> boxed(util::Expected<Store> store) {
  if (!store) {
    return util::Expected<std::unique_ptr<HistoryStore>>::failure(store.error());
  }
  return std::unique_ptr<HistoryStore>(std::make_unique<Store>(std::move(store).value()));
}

}  // namespace

std::string history_location(const std::optional<std::string>& option) {
  if (option && !option->empty()) {
    return *option;
  }
  if (const char* env = std::getenv("PERFDUEL_HISTORY"); env != nullptr && *env != '\0') {
    return env;
  }
  return k_default_path;
}

bool is_postgres_location(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string redact_location(std::string_view location) {
  if (!is_postgres_location(location)) {
    return std::string(location);
  }
  std::string text(location);
  // A password follows the first ':' of the user part, which ends at an '@'. libpq takes the
  // first '@' before any '/', but a password with an unencoded '@' or '/' was meant whole, so
  // everything up to the last '@' before the query is hidden (at worst a little too much).
  const std::size_t start = text.find("://") + 3;
  const std::size_t at = text.rfind('@', text.find('?'));
  if (at != std::string::npos && at >= start) {
    const std::size_t colon = text.find(':', start);
    if (colon < at) {
      text.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // A `password=` query parameter.
  const std::size_t query = text.find('?');
  if (query != std::string::npos) {
    std::size_t position = query + 1;
    while (position < text.size()) {
      const std::size_t end = std::min(text.find('&', position), text.size());
      if (text.compare(position, 9, "password=") == 0 && position + 9 <= end) {
        text.replace(position + 9, end - position - 9, "***");
        position += 9 + 3 + 1;
      } else {
        position = end + 1;
      }
    }
  }
  return text;
}

util::Expected<std::unique_ptr<HistoryStore>> open_history_store(const std::string& location,
                                                                 CreateFile create) {
  if (is_postgres_location(location)) {
    return boxed(PostgresStore::open(location, create));
  }
  return boxed(SqliteStore::open(location, create));
}

}  // namespace perfduel::history
