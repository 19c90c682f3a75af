#pragma once

#include <string>

// libpq, the PostgreSQL client library, where the driver does not link it: the portable release
// archive (PERFDUEL_PORTABLE, cmake/Portable.cmake) loads it with dlopen when a postgresql://
// history is first opened, so that the archive runs where it is not installed. Elsewhere libpq
// is linked and this says it is there.
namespace perfduel::history {

// Empty when libpq's functions can be called; else why not, naming what to install.
std::string libpq_missing();

}  // namespace perfduel::history
