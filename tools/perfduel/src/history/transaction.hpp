#pragma once

#include <concepts>

#include "history/store.hpp"
#include "util/expected.hpp"

// One transaction guard for both stores: a transaction begun through it and not committed is
// rolled back when the guard goes out of scope, so a write that fails half way (an early
// return with the error) leaves neither its first rows nor a lock behind.
namespace perfduel::history {

// What the guard needs of a connection: beginning, committing and rolling back a
// transaction, and whether one is open. After a failed commit that depends on the library:
// SQLite keeps the transaction open when COMMIT cannot get its lock (SQLITE_BUSY), PostgreSQL
// ends it whatever happened, so the guard asks instead of assuming.
template <typename Connection>
concept TransactionalConnection = requires(Connection& connection) {
  { connection.begin_transaction() } -> std::same_as<util::Expected<Done>>;
  { connection.commit_transaction() } -> std::same_as<util::Expected<Done>>;
  connection.rollback_transaction();
  { connection.in_transaction() } -> std::same_as<bool>;
};

// Rolls back an open transaction unless committed.
template <TransactionalConnection Connection>
class Transaction {
 public:
  explicit Transaction(Connection& connection) : m_connection(connection) {}
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() {
    if (m_open) {
      m_connection.rollback_transaction();
    }
  }

  // Begins the transaction on the connection.
  util::Expected<Done> begin() {
    auto begun = m_connection.begin_transaction();
    m_open = begun.ok();
    return begun;
  }

  // Commits it; when that fails and the transaction is still open, the guard rolls it back.
  util::Expected<Done> commit() {
    auto committed = m_connection.commit_transaction();
    m_open = !committed.ok() && m_connection.in_transaction();
    return committed;
  }

 private:
  Connection& m_connection;
  bool m_open = false;
};

}  // namespace perfduel::history
