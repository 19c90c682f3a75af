// A program whose heap is counted by hand, for the whole-program heap metrics (`heap:
// allocations | allocated_bytes | peak`, tests/cli heap_counts_a_whole_program): libc only (no
// stdio, no C++ runtime, which would allocate buffers of their own), it allocates --blocks N
// blocks of --size S bytes, holds them all, then frees them: N allocations, N·S bytes, and a peak
// heap of N·S when S is a size glibc's malloc hands out unrounded (16k + 8 from 24 on: 24, 40,
// ..., 120). --extra makes one more allocation of S bytes after the others are freed (N + 1
// allocations, (N + 1)·S bytes, the same peak); --label TEXT changes nothing; --work MS spins
// for MS milliseconds first (a run long enough that the duel judges every round).
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {
// Each block escapes through here, so that the compiler cannot elide a malloc and its free.
void* volatile g_escaped = nullptr;

double now_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}
}  // namespace

int main(int argc, char** argv) {
  long blocks = 1000;
  long size = 120;
  bool extra = false;
  long work_ms = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--blocks") == 0 && i + 1 < argc) {
      blocks = std::strtol(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      size = std::strtol(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--extra") == 0) {
      extra = true;
    } else if (std::strcmp(argv[i], "--work") == 0 && i + 1 < argc) {
      work_ms = std::strtol(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--label") == 0 && i + 1 < argc) {
      ++i;
    } else {
      return 2;
    }
  }
  if (blocks < 0 || blocks > 1000 || size < 1) {
    return 2;  // at most 1000 blocks: the list of them lives on the stack, not on the heap
  }
  const double start = now_ms();
  while (now_ms() - start < static_cast<double>(work_ms)) {
  }
  void* all[1000];
  for (long i = 0; i < blocks; ++i) {
    all[i] = std::malloc(static_cast<std::size_t>(size));
    g_escaped = all[i];
  }
  for (long i = 0; i < blocks; ++i) {
    std::free(all[i]);
  }
  if (extra) {
    void* one = std::malloc(static_cast<std::size_t>(size));
    g_escaped = one;
    std::free(one);
  }
  return 0;
}
