#include "run/signals.hpp"

#include <csignal>
#include <initializer_list>

#include <fcntl.h>
#include <unistd.h>

namespace perfduel {

namespace {

volatile std::sig_atomic_t g_signal = 0;
int g_pipe[2] = {-1, -1};

extern "C" void on_interrupt(int signal_number) {
  g_signal = signal_number;
  if (g_pipe[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_pipe[1], &byte, 1);
  }
}

}  // namespace

void install_interrupt_handlers() {
  if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    g_pipe[0] = g_pipe[1] = -1;
  }
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking poll() returns EINTR at once
  // SIGHUP: the terminal or the CI runner's session went away.
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    ::sigaction(signal_number, &action, nullptr);
  }
}

bool interrupt_requested() {
  return g_signal != 0;
}

int interrupt_fd() {
  return g_pipe[0];
}

int interrupt_signal() {
  return g_signal;
}

}  // namespace perfduel
