# Everything comes from Debian bookworm packages; see the README for the apt-get line.
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
