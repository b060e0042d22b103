/*
 * metrics_http.c - `metrics --listen` (metrics_http.h), on libmicrohttpd
 * with its own polling thread: at most METRICS_CONNECTIONS connections at a
 * time, each closed after METRICS_IDLE_S seconds without traffic, so a
 * slow or stuck client cannot hold the exporter.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/metrics_http.h"
#include "report/report_metrics.h"

#define METRICS_CONNECTIONS 8
#define METRICS_IDLE_S 5

struct metrics_http {
	struct MHD_Daemon *daemon;
	bool v6;
	char host[INET6_ADDRSTRLEN];
	unsigned port;
	pthread_mutex_t lock;	/* body and len: the sampler publishes while the server's thread answers */
	char *body;
	size_t len;
};

/* "ADDR:PORT" into an address; false with err set when it is not one. */
static bool parse_spec(const char *spec, struct sockaddr_storage *sa, struct metrics_http *h, char *err,
		       size_t errsz)
{
	char host[INET6_ADDRSTRLEN + 2] = "";
	const char *port;
	char *end;
	long n;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host))
			goto bad;
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		port = close + 2;
		h->v6 = true;
	} else {
		const char *colon = strrchr(spec, ':');

		if (!colon || (size_t)(colon - spec) >= sizeof(host))
			goto bad;
		memcpy(host, spec, (size_t)(colon - spec));
		port = colon + 1;
		if (!host[0])
			strcpy(host, "127.0.0.1");	/* only on this machine unless told otherwise */
	}
	errno = 0;
	n = strtol(port, &end, 10);
	if (!port[0] || *end || errno || n < 0 || n > 65535 || port[0] == '-' || port[0] == '+')
		goto bad;
	memset(sa, 0, sizeof(*sa));
	if (h->v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)sa;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)n);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			goto bad;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)sa;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)n);
		if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			goto bad;
	}
	snprintf(h->host, sizeof(h->host), "%s", host);
	h->port = (unsigned)n;
	return true;
bad:
	snprintf(err, errsz, "--listen wants ADDR:PORT with a numeric address (127.0.0.1:9835, [::1]:9835, "
		 "0.0.0.0:9835) or :PORT, not '%s'", spec);
	return false;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *text, size_t len,
			     const char *type, bool allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload, size_t *upload_size, void **req)
{
	static const char not_found[] = "Not found: gpudoctor serves /metrics\n";
	static const char not_allowed[] = "Method not allowed: /metrics takes GET and HEAD\n";
	static const char no_sample[] = "No sample yet\n";
	struct metrics_http *h = cls;
	enum MHD_Result ret;

	(void)version, (void)upload, (void)upload_size, (void)req;
	if (strcmp(url, "/metrics") != 0)
		return reply(c, MHD_HTTP_NOT_FOUND, not_found, sizeof(not_found) - 1, "text/plain; charset=utf-8",
			     false);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed, sizeof(not_allowed) - 1,
			     "text/plain; charset=utf-8", true);
	pthread_mutex_lock(&h->lock);
	ret = h->body ? reply(c, MHD_HTTP_OK, h->body, h->len, METRICS_CONTENT_TYPE, false)
		      : reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, no_sample, sizeof(no_sample) - 1,
			      "text/plain; charset=utf-8", false);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

/* See metrics_http.h. */
struct metrics_http *metrics_http_start(const char *spec, char *err, size_t errsz, int *usage)
{
	struct metrics_http *h = calloc(1, sizeof(*h));
	struct sockaddr_storage sa;
	const union MHD_DaemonInfo *info;

	*usage = 0;
	if (!h) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if (!parse_spec(spec, &sa, h, err, errsz)) {
		*usage = 1;
		free(h);
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	errno = 0;
	h->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | (h->v6 ? MHD_USE_IPv6 : 0),
				     (uint16_t)h->port, NULL, NULL, answer, h, MHD_OPTION_SOCK_ADDR,
				     (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, (unsigned)METRICS_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)METRICS_IDLE_S, MHD_OPTION_END);
	if (!h->daemon) {
		snprintf(err, errsz, "cannot listen on %s%s%s", spec, errno ? ": " : "", errno ? strerror(errno) : "");
		pthread_mutex_destroy(&h->lock);
		free(h);
		return NULL;
	}
	if ((info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT)))
		h->port = info->port;
	return h;
}

/* See metrics_http.h. */
void metrics_http_address(const struct metrics_http *h, char *out, size_t outsz)
{
	snprintf(out, outsz, h->v6 ? "[%s]:%u" : "%s:%u", h->host, h->port);
}

/* See metrics_http.h. */
int metrics_http_publish(struct metrics_http *h, const char *body, size_t len)
{
	char *copy = malloc(len ? len : 1);

	if (!copy)
		return -1;
	memcpy(copy, body, len);
	pthread_mutex_lock(&h->lock);
	free(h->body);
	h->body = copy;
	h->len = len;
	pthread_mutex_unlock(&h->lock);
	return 0;
}

/* See metrics_http.h. */
void metrics_http_stop(struct metrics_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->daemon);
	pthread_mutex_destroy(&h->lock);
	free(h->body);
	free(h);
}
