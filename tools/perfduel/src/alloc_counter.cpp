// libperfduel-alloc.so: preloaded into a counted run (LD_PRELOAD), it forwards every allocation
// function to the allocator the program would have used (dlsym RTLD_NEXT) and tells callgrind
// what it allocated by the functions it calls, since callgrind counts calls but sees no
// arguments: one call of perfduel_allocation per allocation the program asked for (operator new
// reaches malloc through the PLT, so it is counted once, at malloc; an allocation made inside
// another one, by the allocator itself, is not counted), and for each set bit k of the size
// asked for, one call of perfduel_alloc_bit_<k>. Bytes = Σ calls(bit k)·2^k, exact, through the
// same slope between two windows as the instructions (run/benchmark_counts.hpp). libc only.
//
// Run natively with PERFDUEL_ALLOC_REPORT=<file> in its environment (count/heap_report.hpp), it
// calls no marker but counts itself, in atomics: the allocations the program asked for, the bytes
// they asked for, and its peak live heap, the largest sum at any moment of the usable sizes
// (malloc_usable_size) of the blocks it holds. At exit (a destructor: the end of main or exit(),
// not _exit, exec, or a signal) it appends one line to that file, written by the process that
// loaded it only (a forked child that exits without exec does not; a program it starts loads it
// anew and writes a line of its own).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

namespace {

// The markers: distinct bodies (a volatile store of their own number), never inlined, so that
// neither the compiler's identical-code folding nor the linker's merges two of them.
volatile std::uint64_t g_last_marker = 0;

template <int k_bit>
__attribute__((noinline)) void mark() {
  g_last_marker = k_bit;
}

}  // namespace

extern "C" {

// The names callgrind shows (count/allocation_counts.hpp reads them).
__attribute__((noinline, visibility("default"))) void perfduel_allocation() {
  g_last_marker = 1000;
}

#define PERFDUEL_BIT(k)                                                            \
  __attribute__((noinline, visibility("default"))) void perfduel_alloc_bit_##k() { \
    mark<k>();                                                                     \
  }
PERFDUEL_BIT(0)
PERFDUEL_BIT(1)
PERFDUEL_BIT(2)
PERFDUEL_BIT(3)
PERFDUEL_BIT(4)
PERFDUEL_BIT(5)
PERFDUEL_BIT(6)
PERFDUEL_BIT(7)
PERFDUEL_BIT(8)
PERFDUEL_BIT(9)
PERFDUEL_BIT(10)
PERFDUEL_BIT(11)
PERFDUEL_BIT(12)
PERFDUEL_BIT(13)
PERFDUEL_BIT(14)
PERFDUEL_BIT(15)
PERFDUEL_BIT(16)
PERFDUEL_BIT(17)
PERFDUEL_BIT(18)
PERFDUEL_BIT(19)
PERFDUEL_BIT(20)
PERFDUEL_BIT(21)
PERFDUEL_BIT(22)
PERFDUEL_BIT(23)
PERFDUEL_BIT(24)
PERFDUEL_BIT(25)
PERFDUEL_BIT(26)
PERFDUEL_BIT(27)
PERFDUEL_BIT(28)
PERFDUEL_BIT(29)
PERFDUEL_BIT(30)
PERFDUEL_BIT(31)
PERFDUEL_BIT(32)
PERFDUEL_BIT(33)
PERFDUEL_BIT(34)
PERFDUEL_BIT(35)
PERFDUEL_BIT(36)
PERFDUEL_BIT(37)
PERFDUEL_BIT(38)
PERFDUEL_BIT(39)
#undef PERFDUEL_BIT

}  // extern "C"

namespace {

using BitMarker = void (*)();
// Sizes up to 2^40 bytes (1 TiB); a larger request is counted as an allocation, its bytes not.
constexpr BitMarker k_bits[] = {
    perfduel_alloc_bit_0,  perfduel_alloc_bit_1,  perfduel_alloc_bit_2,  perfduel_alloc_bit_3,
    perfduel_alloc_bit_4,  perfduel_alloc_bit_5,  perfduel_alloc_bit_6,  perfduel_alloc_bit_7,
    perfduel_alloc_bit_8,  perfduel_alloc_bit_9,  perfduel_alloc_bit_10, perfduel_alloc_bit_11,
    perfduel_alloc_bit_12, perfduel_alloc_bit_13, perfduel_alloc_bit_14, perfduel_alloc_bit_15,
    perfduel_alloc_bit_16, perfduel_alloc_bit_17, perfduel_alloc_bit_18, perfduel_alloc_bit_19,
    perfduel_alloc_bit_20, perfduel_alloc_bit_21, perfduel_alloc_bit_22, perfduel_alloc_bit_23,
    perfduel_alloc_bit_24, perfduel_alloc_bit_25, perfduel_alloc_bit_26, perfduel_alloc_bit_27,
    perfduel_alloc_bit_28, perfduel_alloc_bit_29, perfduel_alloc_bit_30, perfduel_alloc_bit_31,
    perfduel_alloc_bit_32, perfduel_alloc_bit_33, perfduel_alloc_bit_34, perfduel_alloc_bit_35,
    perfduel_alloc_bit_36, perfduel_alloc_bit_37, perfduel_alloc_bit_38, perfduel_alloc_bit_39};
constexpr std::size_t k_bit_count = sizeof(k_bits) / sizeof(k_bits[0]);

// How deep this thread is inside the allocation functions: only the outermost call counts.
__thread int t_depth __attribute__((tls_model("initial-exec"))) = 0;

// dlsym may allocate (calloc) before the real functions are known: those few requests come
// from this buffer, never freed.
alignas(std::max_align_t) char g_bootstrap[4096];
std::size_t g_bootstrap_used = 0;

void* bootstrap_alloc(std::size_t size) {
  const std::size_t aligned = (size + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
  if (g_bootstrap_used + aligned > sizeof(g_bootstrap)) {
    return nullptr;
  }
  void* memory = g_bootstrap + g_bootstrap_used;
  g_bootstrap_used += aligned;
  return memory;
}

bool from_bootstrap(const void* memory) {
  const char* at = static_cast<const char*>(memory);
  return at >= g_bootstrap && at < g_bootstrap + sizeof(g_bootstrap);
}

struct Real {
  void* (*malloc)(std::size_t) = nullptr;
  std::size_t (*malloc_usable_size)(void*) = nullptr;
  void* (*calloc)(std::size_t, std::size_t) = nullptr;
  void* (*realloc)(void*, std::size_t) = nullptr;
  void (*free)(void*) = nullptr;
  void* (*aligned_alloc)(std::size_t, std::size_t) = nullptr;
  int (*posix_memalign)(void**, std::size_t, std::size_t) = nullptr;
  void* (*memalign)(std::size_t, std::size_t) = nullptr;
  void* (*valloc)(std::size_t) = nullptr;
};
Real g_real;
bool g_resolving = false;

// Native counting (PERFDUEL_ALLOC_REPORT set): the counts, the live and peak heap, and where to
// write them. The path is copied when the allocator is first used: the environment may change.
struct Native {
  char report[4096] = {};  // empty: not native (markers for callgrind)
  pid_t pid = 0;           // the process that read it: only it writes the report
  std::atomic<std::uint64_t> allocations{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::int64_t> live{0};
  std::atomic<std::int64_t> peak{0};
};
Native g_native;

void read_report_path() {
  const char* path = std::getenv("PERFDUEL_ALLOC_REPORT");
  if (path == nullptr || path[0] == '\0' || std::strlen(path) >= sizeof(g_native.report)) {
    return;
  }
  std::strcpy(g_native.report, path);  // NOLINT: length checked above
  g_native.pid = ::getpid();
}

template <typename Function>
void resolve(Function& function, const char* name) {
  function = reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));  // NOLINT: dlsym's type
}

const Real& real() {
  if (g_real.malloc == nullptr && !g_resolving) {
    g_resolving = true;
    resolve(g_real.malloc, "malloc");
    resolve(g_real.calloc, "calloc");
    resolve(g_real.realloc, "realloc");
    resolve(g_real.free, "free");
    resolve(g_real.aligned_alloc, "aligned_alloc");
    resolve(g_real.posix_memalign, "posix_memalign");
    resolve(g_real.memalign, "memalign");
    resolve(g_real.valloc, "valloc");
    resolve(g_real.malloc_usable_size, "malloc_usable_size");
    read_report_path();
    g_resolving = false;
  }
  return g_real;
}

// Counts one allocation of `size` bytes asked for by the program (outermost calls only): the
// markers under callgrind; natively, the counts of the report.
void count(std::size_t size) {
  if (t_depth != 1) {
    return;
  }
  if (g_native.report[0] != '\0') {
    g_native.allocations.fetch_add(1, std::memory_order_relaxed);
    g_native.bytes.fetch_add(size, std::memory_order_relaxed);
    return;
  }
  perfduel_allocation();
  for (std::size_t bit = 0; bit < k_bit_count; ++bit) {
    if (((size >> bit) & 1U) != 0) {
      k_bits[bit]();
    }
  }
}

bool native() {
  return g_native.report[0] != '\0';
}

// A block of the program's, `memory` (outermost calls only), now held: its usable size joins the
// live heap, whose largest value is the peak.
void add_live(void* memory) {
  if (!native() || memory == nullptr || t_depth != 1) {
    return;
  }
  const auto size = static_cast<std::int64_t>(g_real.malloc_usable_size(memory));
  const std::int64_t live = g_native.live.fetch_add(size, std::memory_order_relaxed) + size;
  std::int64_t peak = g_native.peak.load(std::memory_order_relaxed);
  while (live > peak && !g_native.peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

// The usable size of `memory`, about to be freed or moved, natively; 0 otherwise.
std::int64_t live_size(void* memory) {
  if (!native() || memory == nullptr || from_bootstrap(memory)) {
    return 0;
  }
  return static_cast<std::int64_t>(g_real.malloc_usable_size(memory));
}

// Writes `number` in decimal at `out[at]`, moving `at` past it.
void put_number(char* out, std::size_t& at, std::uint64_t number) {
  char digits[24];
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + number % 10);
    number /= 10;
  } while (number != 0);
  while (count > 0) {
    out[at++] = digits[--count];
  }
}

void put_text(char* out, std::size_t& at, const char* text) {
  while (*text != '\0') {
    out[at++] = *text++;
  }
}

// The allocator is resolved, and the report's path read, before main, so that a program that
// allocates nothing reports so too.
__attribute__((constructor)) void start() {
  (void)real();
}

// At exit: one line, "pid=<pid> allocations=<n> allocated_bytes=<n> peak=<bytes>", appended to the
// report by the process that read its path (count/heap_report.hpp reads it). No allocation here.
__attribute__((destructor)) void write_report() {
  if (!native() || ::getpid() != g_native.pid) {
    return;
  }
  char line[192];
  std::size_t at = 0;
  put_text(line, at, "pid=");
  put_number(line, at, static_cast<std::uint64_t>(g_native.pid));
  put_text(line, at, " allocations=");
  put_number(line, at, g_native.allocations.load());
  put_text(line, at, " allocated_bytes=");
  put_number(line, at, g_native.bytes.load());
  put_text(line, at, " peak=");
  put_number(line, at, static_cast<std::uint64_t>(g_native.peak.load()));
  line[at++] = '\n';
  const int file =
      ::open(g_native.report, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);  // NOLINT: vararg
  if (file < 0) {
    return;
  }
  const ssize_t written = ::write(file, line, at);
  (void)written;  // nothing to tell: a missing line fails the run in the driver
  ::close(file);
}

// Enters an allocation function for the length of a scope.
struct Depth {
  Depth() { ++t_depth; }
  ~Depth() { --t_depth; }
  Depth(const Depth&) = delete;
  Depth& operator=(const Depth&) = delete;
};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void* malloc(std::size_t size) {
  const Real& functions = real();
  if (functions.malloc == nullptr) {
    return bootstrap_alloc(size);
  }
  const Depth depth;
  count(size);
  void* memory = functions.malloc(size);
  add_live(memory);
  return memory;
}

__attribute__((visibility("default"))) void* calloc(std::size_t count_of, std::size_t size) {
  const Real& functions = real();
  if (functions.calloc == nullptr) {
    void* memory = bootstrap_alloc(count_of * size);  // static storage: zeroed
    return memory;
  }
  const Depth depth;
  count(count_of * size);
  void* memory = functions.calloc(count_of, size);
  add_live(memory);
  return memory;
}

__attribute__((visibility("default"))) void* realloc(void* memory, std::size_t size) {
  const Real& functions = real();
  if (from_bootstrap(memory)) {
    void* moved = malloc(size);
    if (moved != nullptr) {
      const auto left =
          static_cast<std::size_t>(g_bootstrap + sizeof(g_bootstrap) - static_cast<char*>(memory));
      std::memcpy(moved, memory, size < left ? size : left);
    }
    return moved;
  }
  const Depth depth;
  count(size);
  const std::int64_t before = t_depth == 1 ? live_size(memory) : 0;
  void* moved = functions.realloc(memory, size);
  if (native() && (moved != nullptr || size == 0)) {  // moved, or freed; a failed one leaves the block
    g_native.live.fetch_sub(before, std::memory_order_relaxed);
    add_live(moved);
  }
  return moved;
}

__attribute__((visibility("default"))) void free(void* memory) {
  if (memory == nullptr || from_bootstrap(memory)) {
    return;
  }
  if (native() && t_depth == 0) {
    g_native.live.fetch_sub(live_size(memory), std::memory_order_relaxed);
  }
  real().free(memory);
}

__attribute__((visibility("default"))) void* aligned_alloc(std::size_t alignment, std::size_t size) {
  const Real& functions = real();
  const Depth depth;
  count(size);
  void* memory = functions.aligned_alloc(alignment, size);
  add_live(memory);
  return memory;
}

__attribute__((visibility("default"))) int posix_memalign(void** memory, std::size_t alignment,
                                                          std::size_t size) {
  const Real& functions = real();
  const Depth depth;
  count(size);
  const int error = functions.posix_memalign(memory, alignment, size);
  if (error == 0) {
    add_live(*memory);
  }
  return error;
}

__attribute__((visibility("default"))) void* memalign(std::size_t alignment, std::size_t size) {
  const Real& functions = real();
  const Depth depth;
  count(size);
  void* memory = functions.memalign(alignment, size);
  add_live(memory);
  return memory;
}

__attribute__((visibility("default"))) void* valloc(std::size_t size) {
  const Real& functions = real();
  const Depth depth;
  count(size);
  void* memory = functions.valloc(size);
  add_live(memory);
  return memory;
}

}  // extern "C"
