/* Drives the unmodified flickcurl C library through a person's photostream
 * and albums on a Flickr-compatible endpoint and prints what it understood,
 * one record per line, for the sandbox tests. Text is hex-encoded.
 *
 * usage: flickcurl_albums_peer SERVICE_URI API_KEY PROFILE_URL ALBUM_ID
 */
#include <stdlib.h>
#include "flickcurl_peer_support.h"

/* Prints "NAME ID" per photo; returns how many there were. */
static int list(const char *name, flickcurl_photo **photos) {
    int count = 0;
    for (; photos && photos[count]; count++) printf("%s %s\n", name, photos[count]->id);
    if (photos) flickcurl_free_photos(photos);
    return count;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s SERVICE_URI API_KEY PROFILE_URL ALBUM_ID\n", argv[0]);
        return 2;
    }
    flickcurl *fc = peer_client(argv[1], argv[2]);

    char *nsid = flickcurl_urls_lookupUser(fc, argv[3]);
    printf("user %s\n", nsid ? nsid : "-");
    if (!nsid) return 1;

    /* The photostream, two pages of 60. */
    for (int page = 1; page <= 2; page++)
        list("public", flickcurl_people_getPublicPhotos(fc, nsid, NULL, 60, page));

    flickcurl_photoset **sets = flickcurl_photosets_getList(fc, nsid);
    for (int i = 0; sets && sets[i]; i++) {
        printf("set %s %s %d ", sets[i]->id, sets[i]->primary ? sets[i]->primary : "-", sets[i]->photos_count);
        hex(sets[i]->title);
        printf("\n");
    }
    if (sets) flickcurl_free_photosets(sets);

    /* The album, 50 at a time until a short page. */
    for (int page = 1; page < 40; page++) {
        if (list("album", flickcurl_photosets_getPhotos(fc, argv[4], NULL, -1, 50, page)) < 50) break;
    }

    free(nsid);
    flickcurl_free(fc);
    flickcurl_finish();
    return 0;
}
