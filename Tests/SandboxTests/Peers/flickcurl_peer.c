/* Drives the unmodified flickcurl C library against a Flickr-compatible
 * endpoint and prints what it understood, one record per line, for the
 * sandbox tests. Text fields are hex-encoded so any title survives.
 *
 * usage: flickcurl_peer SERVICE_URI API_KEY QUERY
 */
#include <stdlib.h>
#include "flickcurl_peer_support.h"

static const char *field(flickcurl_photo *photo, flickcurl_photo_field_type type) {
    return photo->fields[type].string ? photo->fields[type].string : "";
}

static void list(const char *name, flickcurl_photo **photos) {
    for (int i = 0; photos && photos[i]; i++) {
        printf("%s %s ", name, photos[i]->id);
        hex(field(photos[i], PHOTO_FIELD_title));
        printf("\n");
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SERVICE_URI API_KEY QUERY\n", argv[0]);
        return 2;
    }
    flickcurl *fc = peer_client(argv[1], argv[2]);

    flickcurl_search_params params;
    flickcurl_search_params_init(&params);
    params.text = argv[3];
    params.per_page = 10;
    flickcurl_photo **found = flickcurl_photos_search(fc, &params);
    list("search", found);

    flickcurl_photo **recent = flickcurl_photos_getRecent(fc, NULL, 5, 1);
    list("recent", recent);

    if (found && found[0]) {
        flickcurl_photo *photo = flickcurl_photos_getInfo2(fc, found[0]->id, NULL);
        if (photo) {
            printf("info %s ", photo->id);
            hex(field(photo, PHOTO_FIELD_title));
            printf(" %s ", field(photo, PHOTO_FIELD_owner_nsid));
            hex(field(photo, PHOTO_FIELD_owner_username));
            printf(" ");
            hex(field(photo, PHOTO_FIELD_dates_taken));
            printf("\n");
            flickcurl_free_photo(photo);
        }
        flickcurl_size **sizes = flickcurl_photos_getSizes(fc, found[0]->id);
        for (int i = 0; sizes && sizes[i]; i++) {
            printf("size ");
            hex(sizes[i]->label);
            printf(" %d %d %s\n", sizes[i]->width, sizes[i]->height, sizes[i]->source);
        }
        if (sizes) flickcurl_free_sizes(sizes);
    }
    printf("echo %d\n", flickcurl_test_echo(fc, "peer", "flickcurl"));

    if (found) flickcurl_free_photos(found);
    if (recent) flickcurl_free_photos(recent);
    flickcurl_free(fc);
    flickcurl_finish();
    return 0;
}
