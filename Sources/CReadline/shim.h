#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/* The process's stdout stream. Swift 6 sees the C global `stdout` as shared
   mutable state; readline and the app share this one stream on purpose. */
static inline FILE *flickr_stdout_stream(void) { return stdout; }
static inline FILE *flickr_stdin_stream(void) { return stdin; }

/* Readline's own record of the line on screen: the last row the edited line
   occupies and the row the cursor is on, counted from the prompt's first row.
   Exported by libreadline though declared only in its private header; the
   live line is drawn on the row below the line's last one. */
extern int _rl_vis_botlin;
extern int _rl_last_v_pos;
