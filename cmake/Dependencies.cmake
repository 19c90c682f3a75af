# Everything comes from Debian bookworm packages; see the README for the apt-get line.
# PERFDUEL_PORTABLE (cmake/Portable.cmake) takes their static archives where Debian ships them.
if(PERFDUEL_PORTABLE)
  set(Boost_USE_STATIC_LIBS ON)
  set(OPENSSL_USE_STATIC_LIBS ON)
  find_library(SQLite3_LIBRARY NAMES libsqlite3.a sqlite3)
endif()
find_package(Boost 1.81 REQUIRED CONFIG COMPONENTS headers filesystem)  # Boost.Process v2 (uses Boost.Filesystem), Boost.Math
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(PostgreSQL REQUIRED)  # libpq, for a history on a PostgreSQL server (libpq-dev)
find_package(pugixml REQUIRED)  # Catch2's XML reporter output (libpugixml-dev)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)  # SHA-256 of the programs a duel compares (libssl-dev)
find_package(Threads REQUIRED)
# Chart.js draws the charts of the HTML pages (`summary --html`, `trend --html`). Debian's
# libjs-chart.js is read at build time and compiled into the driver (cmake/EmbedAssets.cmake),
# so neither the installed program nor the pages it writes need it, or the network, later.
find_file(PERFDUEL_CHART_JS chart.min.js PATHS /usr/share/javascript/chart.js NO_DEFAULT_PATH
  DOC "Chart.js 3 (UMD build), compiled into perfduel's HTML pages")
if(NOT PERFDUEL_CHART_JS)
  message(FATAL_ERROR "Chart.js is missing: install Debian's libjs-chart.js (apt-get install "
    "libjs-chart.js), or point -DPERFDUEL_CHART_JS=FILE at a chart.min.js of Chart.js 3")
endif()

# The targets perfduel links, by name (cmake/Portable.cmake replaces them for the archive).
set(PERFDUEL_YAML_CPP yaml-cpp)
set(PERFDUEL_FMT fmt::fmt)
set(PERFDUEL_LIBPQ PostgreSQL::PostgreSQL)
set(PERFDUEL_PUGIXML pugixml::pugixml)
