#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace perfduel::util {

// Calls `work(i)` for every i in [0, `count`) on up to `threads` threads (0: one per CPU),
// each taking the next index when it is done. An exception thrown by `work` is rethrown here
// after all threads end: the one of the lowest index, so the error a user sees does not
// depend on timing.
template <typename Work>
void parallel_for(std::size_t count, std::size_t threads, Work&& work) {
  if (threads == 0) {
    threads = std::max(1U, std::thread::hardware_concurrency());
  }
  threads = std::min(threads, count);
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  const auto drain = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        work(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) {
    pool.emplace_back(drain);
  }
  drain();
  for (std::thread& thread : pool) {
    thread.join();
  }
  for (const std::exception_ptr& error : errors) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

}  // namespace perfduel::util
