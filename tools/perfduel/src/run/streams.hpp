#pragma once

#include <cstddef>

#include "run/executor.hpp"
#include "util/pipe.hpp"

// A run's stdout and stderr, read from their pipes as the run goes so that it never blocks on
// a full pipe, and capped: all of stdout up to k_max_stdout_mib (metrics come from it), the end
// of stderr (only its tail is ever shown).
namespace perfduel {

constexpr std::size_t k_max_stdout_bytes = k_max_stdout_mib << 20U;
constexpr std::size_t k_max_stderr_bytes = 64U << 10U;

// The pipes of one run and what is still open of them.
struct Streams {
  util::Pipe out;
  util::Pipe err;
  bool out_open = true;
  bool err_open = true;

  bool open() const { return out_open || err_open; }

  // Reads what poll() found ready (`out_events`, `err_events`) into `result`: its stdout up to
  // k_max_stdout_bytes (RunResult::out_truncated set beyond), the last k_max_stderr_bytes of
  // its stderr.
  void read(short out_events, short err_events, RunResult& result);
};

}  // namespace perfduel
