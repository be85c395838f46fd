#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/* The process's stdout stream. Swift 6 sees the C global `stdout` as shared
   mutable state; readline and the app share this one stream on purpose. */
static inline FILE *flickr_stdout_stream(void) { return stdout; }
static inline FILE *flickr_stdin_stream(void) { return stdin; }
