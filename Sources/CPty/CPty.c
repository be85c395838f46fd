#define _GNU_SOURCE
#include "CPty.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

int cpty_open(unsigned short rows, unsigned short cols, char *name, int nameLength) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, (size_t)nameLength) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    struct winsize size = { .ws_row = rows, .ws_col = cols };
    ioctl(fd, TIOCSWINSZ, &size);
    return fd;
}

int cpty_resize(int fd, unsigned short rows, unsigned short cols) {
    struct winsize size = { .ws_row = rows, .ws_col = cols };
    return ioctl(fd, TIOCSWINSZ, &size);
}

/// Runs in the forked child only (async-signal-safe calls): makes the child
/// independent of whatever the multi-threaded parent had set up.
static void cpty_reset_child(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        sigaction(sig, &dfl, NULL);
    }
    // Other tests' pipes and sockets must not stay open in this child, or a
    // reader waiting for their EOF would wait for this child too.
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (max > 0 ? max : 1024); fd++) close((int)fd);
    }
}

pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], const char *childName) {
    // fork + exec rather than posix_spawn: the child must call setsid() and
    // then open the pty so that it becomes the controlling terminal.
    pid_t pid = fork();
    if (pid != 0) return pid;

    setsid();
    int child = open(childName, O_RDWR);
    if (child < 0) _exit(126);
    ioctl(child, TIOCSCTTY, 0);
    dup2(child, 0);
    dup2(child, 1);
    dup2(child, 2);
    cpty_reset_child();
    execve(path, argv, envp);
    _exit(127);
}

pid_t cpty_spawn_fds(const char *path, char *const argv[], char *const envp[],
                     int stdinFd, int stdoutFd, int stderrFd) {
    pid_t pid = fork();
    if (pid != 0) return pid;

    setsid();
    // Move the three fds out of the 0-2 range first, so that one dup2 cannot
    // overwrite another's source.
    int in = fcntl(stdinFd, F_DUPFD, 10);
    int out = fcntl(stdoutFd, F_DUPFD, 10);
    int err = fcntl(stderrFd, F_DUPFD, 10);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    cpty_reset_child();
    execve(path, argv, envp);
    _exit(127);
}

int cpty_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
