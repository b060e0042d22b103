/*
 * metrics_http.h - the HTTP endpoint of `gpudoctor metrics --listen`: GET
 * (or HEAD) /metrics answers the latest exposition published, from a
 * thread of libmicrohttpd's, so a scrape never waits for the driver; any
 * other path is 404, any other method 405.
 */
#ifndef GD_CMD_METRICS_HTTP_H
#define GD_CMD_METRICS_HTTP_H

#include <stddef.h>

struct metrics_http;

/*
 * Listen on spec, "ADDR:PORT": an IPv4 address ("127.0.0.1:9835", "0.0.0.0:9835"), an IPv6 one in
 * brackets ("[::1]:9835"), or only ":PORT" for 127.0.0.1; port 0 takes a free one. No name is looked
 * up. Returns NULL with err set (a sentence) when spec is not one of those or it cannot listen there;
 * *usage tells which (true: spec itself is wrong). Until the first metrics_http_publish, /metrics
 * answers 503.
 */
struct metrics_http *metrics_http_start(const char *spec, char *err, size_t errsz, int *usage);

/* The address and port it listens on, "127.0.0.1:9835" or "[::1]:9835", into out. */
void metrics_http_address(const struct metrics_http *h, char *out, size_t outsz);

/* Serve body (len bytes, copied) from now on. Returns -1 when out of memory (the last one stays). */
int metrics_http_publish(struct metrics_http *h, const char *body, size_t len);

/* Stop listening, wait for the thread and free h; NULL is fine. */
void metrics_http_stop(struct metrics_http *h);

#endif
