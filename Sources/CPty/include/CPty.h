#ifndef CPTY_H
#define CPTY_H

#include <sys/types.h>

/// Opens a pseudo-terminal pair sized rows x cols. On success returns the
/// controller fd (close-on-exec) and writes the device path of the child end
/// into `name`. Returns -1 and sets errno on failure.
int cpty_open(unsigned short rows, unsigned short cols, char *name, int nameLength);

/// Resizes the terminal behind `fd` (sends SIGWINCH to its foreground group).
int cpty_resize(int fd, unsigned short rows, unsigned short cols);

/// Starts `path` with `argv`/`envp` in a new session whose controlling
/// terminal is the pty at `childName` (fds 0-2). Returns the pid or -1.
///
/// The child starts clean whatever the parent did: no inherited fds above 2,
/// no blocked signals, default dispositions (so Ctrl-C raises a real SIGINT).
pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], const char *childName);

/// Starts `path` in a new session without a controlling terminal, with
/// `stdinFd`, `stdoutFd` and `stderrFd` as its fds 0-2 (for example pipe
/// ends). Same clean start as `cpty_spawn`. Returns the pid or -1.
pid_t cpty_spawn_fds(const char *path, char *const argv[], char *const envp[],
                     int stdinFd, int stdoutFd, int stderrFd);

/// Creates a pipe whose both ends are close-on-exec (Glibc's Swift module
/// hides pipe2). Returns 0, or -1 with errno set.
int cpty_pipe(int fds[2]);

#endif
