#include "history/libpq_loader.hpp"

#ifndef PERFDUEL_LIBPQ_DLOPEN

namespace perfduel::history {

std::string libpq_missing() {
  return "";  // linked: the dynamic loader has found it before main
}

}  // namespace perfduel::history

#else

#include <mutex>

#include <dlfcn.h>
#include <fmt/core.h>
#include <libpq-fe.h>

// The portable driver defines libpq's functions itself, each forwarding to libpq.so.5's, found
// with dlsym once libpq_missing() has loaded it. The executable exports none of them (no
// -rdynamic), so libpq's own calls stay inside libpq.
namespace perfduel::history {
namespace {

// The functions of libpq that history/postgres.cpp calls.
#define PERFDUEL_LIBPQ_FUNCTIONS(X) \
  X(PQclear)                        \
  X(PQconnectdbParams)              \
  X(PQerrorMessage)                 \
  X(PQexec)                         \
  X(PQexecParams)                   \
  X(PQfinish)                       \
  X(PQgetisnull)                    \
  X(PQgetlength)                    \
  X(PQgetvalue)                     \
  X(PQntuples)                      \
  X(PQresultErrorMessage)           \
  X(PQresultStatus)                 \
  X(PQserverVersion)                \
  X(PQsetNoticeProcessor)           \
  X(PQstatus)                       \
  X(PQtransactionStatus)

struct Libpq {
#define PERFDUEL_LIBPQ_POINTER(name) decltype(&::name) name = nullptr;
  PERFDUEL_LIBPQ_FUNCTIONS(PERFDUEL_LIBPQ_POINTER)
#undef PERFDUEL_LIBPQ_POINTER
  std::string missing;
};

Libpq load() {
  Libpq libpq;
  void* handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    libpq.missing = fmt::format(
        "the PostgreSQL client library libpq.so.5 cannot be loaded ({}): a postgresql:// history "
        "needs it; install it (Debian, Ubuntu: apt-get install libpq5; Fedora, RHEL: dnf install "
        "libpq; Alpine: apk add libpq), or use a SQLite history file",
        why != nullptr ? why : "not found");
    return libpq;
  }
#define PERFDUEL_LIBPQ_SYMBOL(name)                                            \
  libpq.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));      \
  if (libpq.name == nullptr) {                                                 \
    libpq.missing = fmt::format(                                               \
        "libpq.so.5 has no function {}: a libpq of PostgreSQL 10 or newer is " \
        "needed (apt-get install libpq5)",                                     \
        #name);                                                                \
    return libpq;                                                              \
  }
  PERFDUEL_LIBPQ_FUNCTIONS(PERFDUEL_LIBPQ_SYMBOL)
#undef PERFDUEL_LIBPQ_SYMBOL
  return libpq;
}

const Libpq& libpq() {
  static const Libpq loaded = load();
  return loaded;
}

}  // namespace

std::string libpq_missing() {
  return libpq().missing;
}

}  // namespace perfduel::history

// Called only after libpq_missing() said "" (PgConnection::connect asks first).
using perfduel::history::libpq;

extern "C" {

void PQclear(PGresult* res) {
  libpq().PQclear(res);
}
PGconn* PQconnectdbParams(const char* const* keywords, const char* const* values, int expand_dbname) {
  return libpq().PQconnectdbParams(keywords, values, expand_dbname);
}
char* PQerrorMessage(const PGconn* conn) {
  return libpq().PQerrorMessage(conn);
}
PGresult* PQexec(PGconn* conn, const char* query) {
  return libpq().PQexec(conn, query);
}
PGresult* PQexecParams(PGconn* conn, const char* command, int nParams, const Oid* paramTypes,
                       const char* const* paramValues, const int* paramLengths, const int* paramFormats,
                       int resultFormat) {
  return libpq().PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                              resultFormat);
}
void PQfinish(PGconn* conn) {
  libpq().PQfinish(conn);
}
int PQgetisnull(const PGresult* res, int tup_num, int field_num) {
  return libpq().PQgetisnull(res, tup_num, field_num);
}
int PQgetlength(const PGresult* res, int tup_num, int field_num) {
  return libpq().PQgetlength(res, tup_num, field_num);
}
char* PQgetvalue(const PGresult* res, int tup_num, int field_num) {
  return libpq().PQgetvalue(res, tup_num, field_num);
}
int PQntuples(const PGresult* res) {
  return libpq().PQntuples(res);
}
char* PQresultErrorMessage(const PGresult* res) {
  return libpq().PQresultErrorMessage(res);
}
ExecStatusType PQresultStatus(const PGresult* res) {
  return libpq().PQresultStatus(res);
}
int PQserverVersion(const PGconn* conn) {
  return libpq().PQserverVersion(conn);
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn* conn, PQnoticeProcessor proc, void* arg) {
  return libpq().PQsetNoticeProcessor(conn, proc, arg);
}
ConnStatusType PQstatus(const PGconn* conn) {
  return libpq().PQstatus(conn);
}
PGTransactionStatusType PQtransactionStatus(const PGconn* conn) {
  return libpq().PQtransactionStatus(conn);
}

}  // extern "C"

#endif
