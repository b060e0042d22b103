/*
 * version.h - gpudoctor's version, as `git describe` saw the source when it
 * was built from git, else the VERSION file (build/gen/version.c, written by
 * the Makefile and rewritten only when the version changes, so a new commit
 * relinks instead of recompiling).
 */
#ifndef GD_VERSION_H
#define GD_VERSION_H

/* "0.1.0", or "0.1.0-3-gabc1234" between tags; never empty. */
extern const char gd_version[];

#endif
