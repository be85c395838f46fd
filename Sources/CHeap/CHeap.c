#include "CHeap.h"

#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int flickr_heap_usage(size_t *in_use, size_t *held_free) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *held_free = info.fordblks;
    return 1;
#else
    (void)in_use;
    (void)held_free;
    return 0;
#endif
}

void flickr_heap_release_free(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void flickr_heap_limit_arenas(int count) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, count);
#else
    (void)count;
#endif
}
