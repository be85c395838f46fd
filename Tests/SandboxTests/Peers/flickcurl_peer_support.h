/* What the flickcurl peer programs share: hex-encoded text, errors on
 * stderr, and a client on the given endpoint. */
#include <stdio.h>
#include <flickcurl.h>

static void hex(const char *text) {
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) printf("%02x", *p);
}

static void print_error(void *data, const char *message) {
    (void)data;
    fprintf(stderr, "flickcurl: %s\n", message);
}

static flickcurl *peer_client(const char *service_uri, const char *api_key) {
    flickcurl_init();
    flickcurl *fc = flickcurl_new();
    flickcurl_set_error_handler(fc, print_error, NULL);
    flickcurl_set_service_uri(fc, service_uri);
    flickcurl_set_api_key(fc, api_key);
    flickcurl_set_shared_secret(fc, "sandbox-secret");
    flickcurl_set_request_delay(fc, 0);
    return fc;
}
