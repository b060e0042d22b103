/*
 * kernlog.c - what the NVIDIA driver wrote to the kernel log since this boot:
 * Xid events, the open module refusing a GPU without GSP, a failed probe, a
 * GPU left to a legacy driver branch.
 *
 * Live, /dev/kmsg is read from the start of the ring buffer (it holds only
 * this boot). It is a device, so it is opened directly and never under
 * --root; reading it needs root or CAP_SYSLOG where dmesg_restrict is set.
 * Otherwise, and under --root, the tail of the syslog daemon's file is read:
 * /var/log/kern.log (Debian, Ubuntu), /var/log/messages (RHEL, Fedora, SUSE).
 * Those span boots, so the lines of this boot are told apart: by the boot
 * time (btime in /proc/stat) against RFC 3339 stamps, else by the last
 * "Linux version" line or the kernel's [seconds] stamps starting over.
 *
 * The log is extra evidence, not part of the chain: a refusal is kept in
 * this section's status (denied) and not in the rootfs's refusal log, which
 * would otherwise mark every run by a normal user unreadable.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/probe_internal.h"
#include "util/str.h"

#define KMSG_READ_MAX (16 * 1024 * 1024)	/* bytes of /dev/kmsg records read at most */
#define KLOG_TAIL_MAX (4 * 1024 * 1024)		/* bytes read from the end of a log file */
#define KLOG_LINE_MAX 2048			/* a log line is cut here */
#define KLOG_GPU_WINDOW 4			/* lines after "The NVIDIA GPU X" that may name why */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The token at p (up to a space, ')' or ':' at the end of a PCI address), into out. */
static void copy_token(char *out, size_t outsz, const char *p, const char *stops)
{
	size_t n = strcspn(p, stops);

	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* Whether s looks like a PCI address as the driver prints it: 0000:09:00.0 or 0000:86:00. */
static bool looks_like_pci(const char *s)
{
	size_t n = strlen(s);

	return n >= 7 && strchr(s, ':') && strspn(s, "0123456789abcdefABCDEF:.") == n;
}

/* "NVRM: Xid (PCI:0000:86:00): 79, pid=1234, ..." (older drivers: "NVRM: Xid (0000:01:00): 13, ..."). */
static void take_xid(struct kernlog_facts *k, struct kernlog_scan *s, const char *xid_at, double seconds)
{
	const char *p = xid_at + strlen("NVRM: Xid ");
	struct klog_xid *x;
	char bus[32] = "";
	long code;

	if (*p == '(') {
		p++;
		if (str_starts_with(p, "PCI:"))
			p += 4;
		copy_token(bus, sizeof(bus), p, ")");
		if (!(p = strchr(p, ')')))
			return;
		p++;
	}
	p += strspn(p, ": ");
	if (!is_digit(*p))
		return;
	code = strtol(p, NULL, 10);
	if (k->nxids == MAX_KLOG_XIDS) {	/* keep the latest: drop the oldest */
		memmove(&k->xids[0], &k->xids[1], sizeof(k->xids[0]) * (MAX_KLOG_XIDS - 1));
		k->nxids--;
		s->xids_dropped++;
	}
	x = &k->xids[k->nxids++];
	str_copy(x->bus_id, sizeof(x->bus_id), looks_like_pci(bus) ? bus : "");
	x->xid = (int)code;
	x->seconds = seconds;
	str_copy(x->text, sizeof(x->text), xid_at);
}

/* "NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01)" or "NVRM: The NVIDIA GeForce GT 1030 GPU installed ..." */
static void take_the_nvidia(struct kernlog_scan *s, const char *p)
{
	const char *pci, *end;

	if (str_starts_with(p, "GPU ")) {
		copy_token(s->gpu_bus, sizeof(s->gpu_bus), p + 4, " \t(");
		s->gpu_pci[0] = '\0';
		if ((pci = strstr(p, "(PCI ID: ")))
			copy_token(s->gpu_pci, sizeof(s->gpu_pci), pci + strlen("(PCI ID: "), ")");
		s->gpu_window = KLOG_GPU_WINDOW;
	} else if ((end = strstr(p, " GPU installed in this system"))) {
		size_t n = (size_t)(end - p);

		if (n >= sizeof(s->legacy_gpu))
			n = sizeof(s->legacy_gpu) - 1;
		memcpy(s->legacy_gpu, p, n);
		s->legacy_gpu[n] = '\0';
		s->legacy_window = KLOG_GPU_WINDOW;
	}
}

/* "nvidia 0000:09:00.0: probe with driver nvidia failed with error -1"; "nvidia: probe of 0000:09:00.0 failed ..." */
static void take_probe_failed(struct kernlog_facts *k, const char *line)
{
	const char *p;

	if ((p = strstr(line, ": probe with driver nvidia failed"))) {
		const char *start = p;

		while (start > line && start[-1] != ' ')
			start--;
		k->probe_failed = true;
		if (!k->probe_failed_bus_id[0] && (size_t)(p - start) < sizeof(k->probe_failed_bus_id)) {
			memcpy(k->probe_failed_bus_id, start, (size_t)(p - start));
			k->probe_failed_bus_id[p - start] = '\0';
		}
	} else if ((p = strstr(line, "nvidia: probe of ")) && strstr(p, " failed with error")) {
		k->probe_failed = true;
		if (!k->probe_failed_bus_id[0])
			copy_token(k->probe_failed_bus_id, sizeof(k->probe_failed_bus_id), p + strlen("nvidia: probe of "), " ");
	}
}

/* "The 610.43.02 NVIDIA driver will ignore": the version before the phrase. */
static void take_ignoring(struct kernlog_facts *k, const char *line, const char *phrase)
{
	const char *the = NULL;

	for (const char *p = line; (p = strstr(p, "The ")) && p < phrase; p++)
		the = p;
	if (the && phrase - (the + 4) > 0 && (size_t)(phrase - (the + 4)) < sizeof(k->legacy_ignoring)) {
		memcpy(k->legacy_ignoring, the + 4, (size_t)(phrase - (the + 4)));
		k->legacy_ignoring[phrase - (the + 4)] = '\0';
	}
}

/*
 * See probe_internal.h. One line of a kernel message; the NVIDIA driver's long messages span lines, so s carries
 * the GPU a message began with into the lines that say what is wrong with it.
 */
void kernlog_take_line(struct kernlog_facts *k, struct kernlog_scan *s, const char *line, double seconds)
{
	const char *p;

	k->lines++;
	if ((p = strstr(line, "NVRM: Xid ")))
		take_xid(k, s, p, seconds);
	else if ((p = strstr(line, "NVRM: The NVIDIA ")))
		take_the_nvidia(s, p + strlen("NVRM: The NVIDIA "));
	if (strstr(line, "not supported by open")) {
		k->gsp_refused = true;
		if (s->gpu_window > 0 && !k->gsp_bus_id[0]) {
			str_copy(k->gsp_bus_id, sizeof(k->gsp_bus_id), s->gpu_bus);
			str_copy(k->gsp_pci_id, sizeof(k->gsp_pci_id), s->gpu_pci);
		}
	}
	if ((p = strstr(line, "NVRM: NVIDIA ")) && strstr(p, " driver release") && s->gpu_window > 0 &&
	    !k->release_refused) {
		k->release_refused = true;
		str_copy(k->release_refused_bus_id, sizeof(k->release_refused_bus_id), s->gpu_bus);
	}
	if ((p = strstr(line, "supported through the NVIDIA ")) && strstr(p, "Legacy")) {
		copy_token(k->legacy_branch, sizeof(k->legacy_branch), p + strlen("supported through the NVIDIA "), " ");
		if (s->legacy_window > 0)
			str_copy(k->legacy_gpu, sizeof(k->legacy_gpu), s->legacy_gpu);
	}
	if ((p = strstr(line, " NVIDIA driver will ignore")))
		take_ignoring(k, line, p);
	take_probe_failed(k, line);
	if (strstr(line, "NVRM: No NVIDIA GPU found") || strstr(line, "NVRM: No NVIDIA graphics adapter found"))
		k->no_gpu_found = true;
	if (s->gpu_window > 0)
		s->gpu_window--;
	if (s->legacy_window > 0)
		s->legacy_window--;
}

/* A message that may hold several lines, split at sep ("\n" from /dev/kmsg, "#012" from rsyslog's escaping). */
static void take_message(struct kernlog_facts *k, struct kernlog_scan *s, char *msg, const char *sep, double seconds)
{
	for (char *p = msg, *next; p; p = next) {
		if ((next = strstr(p, sep))) {
			*next = '\0';
			next += strlen(sep);
		}
		kernlog_take_line(k, s, p, seconds);
	}
}

static int hexval(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * See probe_internal.h. "6,1234,5140900,-;NVRM: ...\n SUBSYSTEM=pci\n" (Documentation/ABI/testing/dev-kmsg):
 * priority, sequence, microseconds since boot, flags (and, in newer kernels, more fields), ';', the message
 * with unprintable bytes as \xNN; the dictionary lines after the first newline are left out.
 */
int kmsg_parse_record(const char *rec, size_t len, double *seconds, char *msg, size_t msgsz)
{
	const char *semi = memchr(rec, ';', len), *p = rec, *end;
	size_t o = 0;
	int field = 0;

	if (!semi || msgsz == 0)
		return -1;
	*seconds = -1;
	while (p < semi && field < 2) {	/* to the third field */
		const char *comma = memchr(p, ',', (size_t)(semi - p));

		if (!comma)
			return -1;
		p = comma + 1;
		field++;
	}
	if (field < 2 || !is_digit(*p))
		return -1;
	*seconds = (double)strtoull(p, NULL, 10) / 1e6;
	end = memchr(semi + 1, '\n', len - (size_t)(semi + 1 - rec));
	if (!end)
		end = rec + len;
	for (p = semi + 1; p < end && o + 1 < msgsz; p++) {
		int hi, lo;

		if (*p == '\\' && end - p >= 4 && p[1] == 'x' && (hi = hexval(p[2])) >= 0 && (lo = hexval(p[3])) >= 0) {
			msg[o++] = (char)(hi * 16 + lo);
			p += 3;
		} else {
			msg[o++] = *p;
		}
	}
	msg[o] = '\0';
	return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int digits(const char *p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* See probe_internal.h. "2026-12-03T13:05:26.123456+01:00", "...Z": seconds since the epoch, UTC. */
int rfc3339_epoch(const char *s, long long *out, const char **end)
{
	int y = digits(s, 4), mo, d, h, mi, se, sign, oh, om;
	const char *p;

	if (y < 0 || s[4] != '-' || (mo = digits(s + 5, 2)) < 1 || mo > 12 || s[7] != '-' ||
	    (d = digits(s + 8, 2)) < 1 || d > 31 || s[10] != 'T' || (h = digits(s + 11, 2)) < 0 || h > 23 ||
	    s[13] != ':' || (mi = digits(s + 14, 2)) < 0 || mi > 59 || s[16] != ':' ||
	    (se = digits(s + 17, 2)) < 0 || se > 60)
		return -1;
	p = s + 19;
	if (*p == '.')
		for (p++; is_digit(*p); p++)
			;
	if (*p == 'Z') {
		sign = 0, oh = om = 0;
		p++;
	} else if ((*p == '+' || *p == '-') && (oh = digits(p + 1, 2)) >= 0 && p[3] == ':' &&
		   (om = digits(p + 4, 2)) >= 0) {
		sign = *p == '+' ? 1 : -1;
		p += 6;
	} else {
		return -1;
	}
	*out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se -
	       sign * (oh * 3600 + om * 60);
	if (end)
		*end = p;
	return 0;
}

/* "Dec  3 13:05:26 ": the classic BSD stamp, no year and no zone. */
static const char *classic_stamp_end(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4];

	copy_token(mon, sizeof(mon), s, " ");
	if (strlen(mon) != 3 || !strstr(months, mon) || s[3] != ' ' || (s[4] != ' ' && !is_digit(s[4])) ||
	    !is_digit(s[5]) || s[6] != ' ' || digits(s + 7, 2) < 0 || s[9] != ':' || digits(s + 10, 2) < 0 ||
	    s[12] != ':' || digits(s + 13, 2) < 0 || s[15] != ' ')
		return NULL;
	return s + 15;
}

/*
 * See probe_internal.h. "<stamp> <host> kernel: [  27.177056] NVRM: ...": the stamp is RFC 3339 (rsyslog's
 * RSYSLOG_FileFormat) or classic (RSYSLOG_TraditionalFileFormat); the [seconds] part is there when the kernel
 * printed it. Lines of other programs (in /var/log/messages) are not kernel lines: -1.
 */
int syslog_parse_line(const char *line, struct syslog_line *out)
{
	const char *p;
	char *e;

	out->epoch = -1;
	out->seconds = -1;
	if (rfc3339_epoch(line, &out->epoch, &p) < 0 && !(p = classic_stamp_end(line)))
		return -1;
	p += strspn(p, " ");
	p += strcspn(p, " ");	/* the host */
	p += strspn(p, " ");
	if (!str_starts_with(p, "kernel:"))
		return -1;
	p += strlen("kernel:");
	p += strspn(p, " ");
	if (*p == '[') {
		const char *q = p + 1 + strspn(p + 1, " ");
		unsigned long long whole = strtoull(q, &e, 10);

		if (e != q && *e == '.') {
			const char *frac = e + 1;
			double scale = 0.1, f = 0;

			for (q = frac; is_digit(*q); q++, scale /= 10)
				f += (*q - '0') * scale;
			if (*q == ']') {
				out->seconds = (double)whole + f;
				p = q + 1 + strspn(q + 1, " ");
			}
		}
	}
	out->msg = p;
	return 0;
}

/* Copy one line (to '\n' or end) into buf, cut; returns the start of the next line or NULL. */
static const char *next_line(const char *p, const char *end, char *buf, size_t bufsz)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = (size_t)((nl ? nl : end) - p);

	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return nl ? nl + 1 : NULL;
}

/*
 * Where this boot starts in text: with btime (> 0) and stamps that carry a date and zone, the first line at or
 * after it; else after the last "Linux version" line or the last point where the kernel's stamps went back.
 * Returns the offset, or -1 when the boot cannot be told (then everything is kept).
 */
static long boot_start(const char *text, size_t len, long long btime, const char **how)
{
	char line[KLOG_LINE_MAX];
	const char *p = text, *end = text + len;
	long marker = -1, first_after = -1;
	bool any_epoch = false;
	double last = -1;

	while (p && p < end) {
		const char *at = p;
		struct syslog_line sl;

		p = next_line(p, end, line, sizeof(line));
		if (syslog_parse_line(line, &sl) < 0)
			continue;
		if (sl.epoch >= 0) {
			any_epoch = true;
			if (btime > 0 && first_after < 0 && sl.epoch >= btime - 1)
				first_after = at - text;
		}
		if (str_starts_with(sl.msg, "Linux version ") || (sl.seconds >= 0 && last >= 0 && sl.seconds < last))
			marker = at - text;
		if (sl.seconds >= 0)
			last = sl.seconds;
	}
	if (btime > 0 && any_epoch) {
		*how = "btime in /proc/stat";
		return first_after >= 0 ? first_after : (long)len;
	}
	*how = "the kernel log restarting";
	return marker;
}

/* See probe_internal.h. text is a whole syslog file's tail, NUL-terminated; it is not changed. */
void kernlog_read_syslog(struct kernlog_facts *k, struct kernlog_scan *s, const char *text, long long btime)
{
	size_t len = strlen(text);
	const char *how = "";
	long start = boot_start(text, len, btime, &how);
	const char *p = text + (start > 0 ? start : 0), *end = text + len;
	char line[KLOG_LINE_MAX];

	k->this_boot_only = start >= 0;
	str_copy(k->boot_by, sizeof(k->boot_by), start >= 0 ? how : "");
	while (p && p < end) {
		struct syslog_line sl;

		p = next_line(p, end, line, sizeof(line));
		if (syslog_parse_line(line, &sl) < 0)
			continue;
		take_message(k, s, (char *)sl.msg, "#012", sl.seconds);
	}
}

/* btime from /proc/stat: the boot time in seconds since the epoch; 0 when unknown. */
static long long read_btime(const struct rootfs *fs)
{
	char *text = NULL;
	long long btime = 0;
	const char *p;

	if (rootfs_read(fs, "/proc/stat", 1024 * 1024, &text, NULL, NULL, NULL) < 0)
		return 0;
	for (p = text; (p = strstr(p, "btime ")); p++)
		if (p == text || p[-1] == '\n') {
			btime = strtoll(p + strlen("btime "), NULL, 10);
			break;
		}
	free(text);
	return btime;
}

/* The live ring buffer; 0 read, -1 with errno (EACCES/EPERM: refused). */
static int read_kmsg(struct kernlog_facts *k, struct kernlog_scan *s)
{
	char rec[8192], msg[8192];
	size_t total = 0;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (total < KMSG_READ_MAX) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		double seconds;

		if (r < 0 && (errno == EPIPE || errno == EINTR))
			continue;	/* EPIPE: records overwritten while we read; go on with the next */
		if (r <= 0)
			break;		/* EAGAIN: the end of the buffer */
		total += (size_t)r;
		if (kmsg_parse_record(rec, (size_t)r, &seconds, msg, sizeof(msg)) == 0)
			take_message(k, s, msg, "\n", seconds);
	}
	close(fd);
	k->this_boot_only = true;
	str_copy(k->boot_by, sizeof(k->boot_by), "/dev/kmsg holds only this boot");
	str_copy(k->source, sizeof(k->source), "/dev/kmsg");
	return 0;
}

/* The last KLOG_TAIL_MAX bytes of a log file, from its first whole line; 0, or -1 with err->code. */
static int read_tail(const struct rootfs *fs, const char *path, char **out, struct error *err)
{
	struct stat st;
	off_t off;
	size_t want, got = 0;
	char *buf;
	int fd = rootfs_open(fs, path, err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		err->code = errno;
		close(fd);
		return -1;
	}
	off = st.st_size > KLOG_TAIL_MAX ? st.st_size - KLOG_TAIL_MAX : 0;
	want = (size_t)(st.st_size - off);
	if (!(buf = malloc(want + 1))) {
		err->code = ENOMEM;
		close(fd);
		return -1;
	}
	while (got < want) {
		ssize_t r = pread(fd, buf + got, want - got, off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	if (off > 0) {	/* the first line is cut: start after it */
		char *nl = strchr(buf, '\n');

		memmove(buf, nl ? nl + 1 : buf + got, strlen(nl ? nl + 1 : buf + got) + 1);
	}
	*out = buf;
	return 0;
}

/*
 * Fills f->kernlog. Live, /dev/kmsg first; then the syslog files, through a rootfs that does not log refusals
 * (a log the user may not read is this section's UNKNOWN + denied, not an unreadable machine).
 */
void probe_kernlog(struct facts *f, const struct probe_ctx *ctx)
{
	static const char *const files[] = { "/var/log/kern.log", "/var/log/messages" };
	struct kernlog_facts *k = &f->kernlog;
	struct kernlog_scan scan = { 0 };
	struct rootfs quiet = *ctx->fs;
	const char *refused = NULL;

	quiet.denied = NULL;
	if (ctx->fs->live) {
		if (read_kmsg(k, &scan) == 0)
			goto done;
		if (errno == EACCES || errno == EPERM)
			refused = "/dev/kmsg";
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct error err = { 0 };
		char *text = NULL;

		if (read_tail(&quiet, files[i], &text, &err) < 0) {
			if ((err.code == EACCES || err.code == EPERM) && !refused)
				refused = files[i];
			continue;
		}
		str_copy(k->source, sizeof(k->source), files[i]);
		kernlog_read_syslog(k, &scan, text, read_btime(&quiet));
		free(text);
		goto done;
	}
	if (refused) {
		fact_status_set(&k->status, FACT_UNKNOWN, "cannot read %s: permission denied (root can)", refused);
		k->status.denied = true;
	} else {
		fact_status_set(&k->status, FACT_ABSENT, "no kernel log: %s/var/log/kern.log and /var/log/messages are missing",
				ctx->fs->live ? "/dev/kmsg cannot be opened, " : "");
	}
	return;
done:
	k->status.state = FACT_OK;
	if (scan.xids_dropped)
		facts_dropped(f, "kernel log Xid lines (the latest were kept)", MAX_KLOG_XIDS, scan.xids_dropped);
}
