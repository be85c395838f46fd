#ifndef FLICKR_CHEAP_H
#define FLICKR_CHEAP_H

#include <stddef.h>

/// The C heap as glibc's allocator sees it: bytes handed out (small blocks
/// and mmapped ones) and bytes it holds free for reuse. Returns 0 when the
/// allocator cannot say (not glibc).
int flickr_heap_usage(size_t *in_use, size_t *held_free);

/// Gives the free memory the allocator holds back to the system (glibc's
/// malloc_trim); does nothing elsewhere.
void flickr_heap_release_free(void);

/// Caps the allocator's arenas (glibc's M_ARENA_MAX); does nothing elsewhere.
void flickr_heap_limit_arenas(int count);

#endif
