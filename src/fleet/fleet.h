/*
 * fleet.h - many machines' doctor reports merged into one view.
 *
 * Reports are read one at a time (fleet_report_read), each reduced to the
 * few values the view needs, and added to a fleet (fleet_add), which keeps
 * every text once however many nodes share it: ten thousand nodes cost
 * little more than their names. fleet_view_build then groups the nodes by
 * verdict, by root cause and, for each version or GPU trait, by value
 * (drift). Renderers (report/report_fleet.h) read a view only.
 */
#ifndef GD_FLEET_FLEET_H
#define GD_FLEET_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* The report schema fleet reads, and the one it writes. */
#define FLEET_REPORT_SCHEMA "gpudoctor.report/1"
#define FLEET_SCHEMA "gpudoctor.fleet/1"

/* A node's verdict, the report's verdict.status; unreadable for an input that gave no report. */
enum fleet_verdict { FLEET_READY, FLEET_DEGRADED, FLEET_BROKEN, FLEET_NO_GPU, FLEET_UNREADABLE, FLEET_NVERDICTS };

/* What the drift section compares across nodes. */
enum fleet_trait { FLEET_DRIVER, FLEET_CUDA, FLEET_CUDNN, FLEET_TORCH, FLEET_GPU_COUNT, FLEET_GPU_MODEL, FLEET_NTRAITS };

/* "ready", "degraded", "broken", "no-gpu", "unreadable" (the report's words). */
const char *fleet_verdict_name(enum fleet_verdict v);
/* The trait as a person names it: "driver", "CUDA toolkit", "cuDNN", "torch", "GPU count", "GPU model". */
const char *fleet_trait_label(enum fleet_trait t);
/* The trait as a JSON key: "driver", "cuda", "cudnn", "torch", "gpu_count", "gpu_model". */
const char *fleet_trait_key(enum fleet_trait t);

/* One report reduced to what the view needs. Texts are cut to their buffers; "" means none. */
struct fleet_report {
	char hostname[72];		/* facts.system.hostname */
	enum fleet_verdict verdict;	/* verdict.status; an unknown status counts as broken */
	char root_cause[64];		/* verdict.root_cause */
	char summary[256];		/* verdict.summary: the root cause's title when there is one */
	char trait[FLEET_NTRAITS][128];	/* see fleet_trait; "" when the report names none */
};

/*
 * Reduce the JSON text buf[0..len) to r. The text must be one JSON object of schema
 * FLEET_REPORT_SCHEMA with a verdict; members it does not know are skipped. Returns 0, or -1 with
 * why it is no report in err ("not JSON: expected ',' or '}' at byte 1200", "schema
 * 'gpudoctor.info/1', not a doctor report", ...). Nothing of buf is kept.
 */
int fleet_report_read(const char *buf, size_t len, struct fleet_report *r, struct error *err);

/* The nodes so far; opaque. */
struct fleet;

/* One node as the fleet keeps it: every text an id for fleet_text. */
struct fleet_node {
	uint32_t name;			/* the hostname, else what the input was called */
	uint32_t source;		/* the input it came from (a file name, "stdin:LINE") */
	enum fleet_verdict verdict;
	uint32_t root_cause, summary;	/* 0 when none */
	uint32_t why;			/* unreadable: why */
	uint32_t trait[FLEET_NTRAITS];	/* 0 when none */
};

/* A new, empty fleet, or NULL when out of memory. */
struct fleet *fleet_new(void);
/* Free f and everything it holds (NULL is fine). */
void fleet_free(struct fleet *f);
/*
 * Add the node of report r read from source (copied): named by its hostname, else by name_if_none.
 * -1 only when out of memory.
 */
int fleet_add(struct fleet *f, const struct fleet_report *r, const char *source, const char *name_if_none,
	      struct error *err);
/* Add an input that gave no report, with why (copied). -1 only when out of memory. */
int fleet_add_unreadable(struct fleet *f, const char *source, const char *name, const char *why,
			 struct error *err);
/* How many nodes (unreadable inputs included), and the i-th in the order added. */
size_t fleet_count(const struct fleet *f);
const struct fleet_node *fleet_node(const struct fleet *f, size_t i);
/* The text of an id; "" for 0. Borrowed from f. */
const char *fleet_text(const struct fleet *f, uint32_t id);

/* Nodes that share something: a verdict, a root cause, a trait's value. */
struct fleet_group {
	uint32_t value;			/* the shared text (a cause id, a version), 0 for none */
	uint32_t title;			/* for a root cause: its title, from the first node's report */
	size_t count;
	size_t *nodes;			/* node indices, in the view's node order; owned by the view */
	size_t first;			/* where its first node stands in the view's order (ties go by it) */
};

/*
 * The merged view. Nodes are in natural order of their names (node2 before node10), and so is
 * every group's node list.
 */
struct fleet_view {
	const struct fleet *fleet;	/* borrowed */
	size_t nodes, readable;
	struct fleet_group verdict[FLEET_NVERDICTS];
	struct fleet_group *causes;	/* one per root cause, most nodes first */
	size_t ncauses;
	struct {
		struct fleet_group *values;	/* one per value, most nodes first; ties by value */
		size_t nvalues;			/* more than 1: the nodes disagree */
	} drift[FLEET_NTRAITS];
};

/* Group f's nodes into v (which borrows f). -1 only when out of memory (v then empty). */
int fleet_view_build(struct fleet_view *v, const struct fleet *f, struct error *err);
/* Free what v holds. */
void fleet_view_release(struct fleet_view *v);
/* Whether every node is ready (and none is unreadable): the exit status's question. */
int fleet_view_all_ready(const struct fleet_view *v);

#endif
