#pragma once

namespace perfduel {

// Installs SIGINT, SIGTERM and SIGHUP handlers that record the request instead of ending the
// process, so the duel can kill its children and write the partial report. SIGKILL cannot be
// caught: then runs started directly die with perfduel (see ProcessExecutor).
void install_interrupt_handlers();

// Whether SIGINT, SIGTERM or SIGHUP arrived since the handlers were installed.
bool interrupt_requested();

// A file descriptor that becomes readable when an interrupt arrives (a self-pipe), for
// poll() loops that wait on a child; -1 before install_interrupt_handlers().
int interrupt_fd();

// The signal number that arrived (0 if none).
int interrupt_signal();

}  // namespace perfduel
