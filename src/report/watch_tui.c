/*
 * watch_tui.c - `gpudoctor watch` full-screen (ncurses): a header line, the
 * GPUs' table with the selected one highlighted, its processes, the
 * findings newest first, and a line of keys. What it shows is the kept
 * sample (watch_view.c), so a key or a resize redraws without the caller.
 *
 * The terminal is taken with newterm() rather than initscr(), which would
 * exit the program when it cannot; the caller's SIGINT/SIGTERM handlers are
 * installed first, so curses leaves them alone and close restores the
 * terminal after Ctrl-C. Colour only when the terminal has it and the
 * caller's report_opts allow it (NO_COLOR, --color=never).
 */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cause/cause.h"
#include "report/report_watch.h"
#include "report/watch_view.h"
#include "util/clock.h"
#include "util/dwidth.h"
#include "util/i18n.h"
#include "util/str.h"

enum { PAIR_ERROR = 1, PAIR_WARNING, PAIR_INFO, PAIR_HEAD };

struct watch_tui {
	SCREEN *screen;
	bool color;
	int selected;			/* GPU index */
	enum view_sort sort;
	struct view view;
	char *ctype;			/* LC_CTYPE before open, restored by close; NULL: unchanged */
};

/*
 * ncursesw draws UTF-8 (translated texts, GPU names) only under a UTF-8 LC_CTYPE; under "C" it shows
 * every byte past ASCII as '?' or M-x. i18n_setup leaves LC_CTYPE "C" (gettext is told to answer
 * UTF-8 regardless), so switch it for the screen's life: the environment's own locale when that is
 * UTF-8, else C.UTF-8 (what a container has). A copy of the old one is kept for close.
 */
static void ctype_utf8(struct watch_tui *ui)
{
	const char *now = setlocale(LC_CTYPE, NULL);

	if (!now || strcmp(nl_langinfo(CODESET), "UTF-8") == 0 || !(ui->ctype = strdup(now)))
		return;
	if (setlocale(LC_CTYPE, "") && strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
		return;
	if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8"))
		setlocale(LC_CTYPE, ui->ctype);	/* no UTF-8 locale: non-ASCII shows as curses can */
}

static void ctype_restore(struct watch_tui *ui)
{
	if (ui->ctype)
		setlocale(LC_CTYPE, ui->ctype);
	free(ui->ctype);
	ui->ctype = NULL;
}

/* See report_watch.h. */
struct watch_tui *watch_tui_open(const struct report_opts *o)
{
	struct watch_tui *ui = calloc(1, sizeof(*ui));

	if (!ui)
		return NULL;
	ctype_utf8(ui);
	if (!(ui->screen = newterm(NULL, stdout, stdin))) {
		ctype_restore(ui);
		free(ui);
		return NULL;
	}
	set_term(ui->screen);
	cbreak();		/* keys at once; Ctrl-C still a signal */
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	ui->color = o->color && has_colors();
	if (ui->color && start_color() == OK) {
		use_default_colors();
		init_pair(PAIR_ERROR, COLOR_RED, -1);
		init_pair(PAIR_WARNING, COLOR_YELLOW, -1);
		init_pair(PAIR_INFO, COLOR_CYAN, -1);
		init_pair(PAIR_HEAD, COLOR_GREEN, -1);
	} else {
		ui->color = false;
	}
	return ui;
}

/* The bytes of s's first characters that fit in cols display columns: a cut never splits a UTF-8 sequence. */
static int fit_bytes(const char *s, int cols)
{
	size_t n = strlen(s), at = 0;
	int used = 0;

	while (at < n) {
		uint32_t cp;
		size_t len = dw_decode(s + at, n - at, &cp);
		int w = dw_char_width(cp);

		if (used + w > cols)
			break;
		used += w;
		at += len;
	}
	return (int)at;
}

/* Display columns of s (CJK: two each). */
static int cols_of(const char *s)
{
	return dw_width(s, strlen(s));
}

/* Text at (y, x), cut at the screen's right edge (and at most max columns when max > 0). */
static void put(int y, int x, const char *s, int max)
{
	int room = COLS - x;

	if (y < 0 || y >= LINES || room <= 0)
		return;
	if (max > 0 && max < room)
		room = max;
	mvaddnstr(y, x, s, fit_bytes(s, room));
}

static void style_on(const struct watch_tui *ui, int pair, attr_t fallback)
{
	if (ui->color)
		attron(COLOR_PAIR(pair));
	else if (fallback)
		attron(fallback);
}

static void style_off(const struct watch_tui *ui, int pair, attr_t fallback)
{
	if (ui->color)
		attroff(COLOR_PAIR(pair));
	else if (fallback)
		attroff(fallback);
}

static void draw_header(const struct watch_tui *ui)
{
	const struct live_sample *s = &ui->view.sample;
	char state[FACT_TEXT * 2 + 96], every[32] = "", line[512];
	double interval = view_interval_s(&ui->view);

	view_driver_state(s, state, sizeof(state));
	if (interval > 0)
		str_printf(every, sizeof(every), _("  every %.1f s"), interval);
	str_printf(line, sizeof(line), _("gpudoctor watch  driver %s  sample %ld%s  driver state: "),
		   s->driver_version[0] ? s->driver_version : "-", s->seq, every);
	attron(A_BOLD);
	put(0, 0, line, 0);
	attroff(A_BOLD);
	style_on(ui, s->state == LIVE_OK ? PAIR_HEAD : PAIR_ERROR, s->state == LIVE_OK ? 0 : A_BOLD);
	put(0, cols_of(line), state, 0);
	style_off(ui, s->state == LIVE_OK ? PAIR_HEAD : PAIR_ERROR, s->state == LIVE_OK ? 0 : A_BOLD);
}

/* One table row (d NULL: the headings) at y. */
static void draw_row(const bool show[VIEW_NCOLS], int name_width, int y, const struct nvml_device *d, int index)
{
	char cell[128];
	int x = 0;

	for (int c = 0; c < VIEW_NCOLS; c++) {
		int w = c == COL_NAME ? name_width : view_col_width(c);

		if (!show[c])
			continue;
		if (!d)
			str_copy(cell, sizeof(cell), view_col_heading(c));
		else
			view_cell(d, index, c, cell, sizeof(cell));
		if (d && d->lost && c > COL_NAME) {
			put(y, x, _("lost: fell off the bus"), 0);
			return;
		}
		put(y, x, cell, w);
		x += w + 1;
	}
}

/* The GPU table from y, at most rows lines; returns the next free line. */
static int draw_gpus(const struct watch_tui *ui, int y, int rows)
{
	const struct live_sample *s = &ui->view.sample;
	bool show[VIEW_NCOLS];
	int name_width = view_fit_columns(COLS, show), first = 0;

	attron(A_BOLD);
	draw_row(show, name_width, y++, NULL, 0);
	attroff(A_BOLD);
	if (s->ndev == 0) {
		put(y++, 0, s->state == LIVE_OK ? _("no GPU") : _("no sample"), 0);
		return y;
	}
	if (ui->selected >= rows)	/* keep the selected GPU on screen */
		first = ui->selected - rows + 1;
	for (int i = first; i < s->ndev && i < first + rows; i++) {
		if (i == ui->selected) {
			attron(A_REVERSE);
			mvhline(y, 0, ' ', COLS);
		}
		draw_row(show, name_width, y++, &s->gpu[i], i);
		if (i == ui->selected)
			attroff(A_REVERSE);
	}
	return y;
}

/* The selected GPU's processes from y, at most rows lines after the heading; returns the next free line. */
static int draw_procs(const struct watch_tui *ui, int y, int rows)
{
	const struct live_sample *s = &ui->view.sample;
	const struct nvml_device *d;
	char line[FACT_TEXT + 96];
	int order[MAX_RT_PROCS];

	if (ui->selected >= s->ndev)
		return y;
	d = &s->gpu[ui->selected];
	str_printf(line, sizeof(line), _("Processes on GPU %d (by %s)%s"), ui->selected, _(view_sort_name(ui->sort)),
		   s->procs_foreign_pids ? _("  pids are the host's (container)") : "");
	attron(A_BOLD);
	put(y++, 0, line, 0);
	attroff(A_BOLD);
	if (d->nprocs == 0) {
		if (d->procs_total > 0)
			str_printf(line, sizeof(line), _("  %d processes, too many to list"), d->procs_total);
		put(y++, 0, d->procs_total > 0 ? line : _("  none"), 0);
		return y;
	}
	put(y++, 0, _("  PID      USER       GPU MiB  COMMAND"), 0);
	view_sort_procs(d, ui->sort, order);
	for (int i = 0; i < d->nprocs && i < rows - 1; i++) {
		const struct gpu_process *p = &d->procs[order[i]];
		char user[40], mem[24];

		if (p->user[0])
			str_copy(user, sizeof(user), p->user);
		else if (p->uid >= 0)
			str_printf(user, sizeof(user), "%lld", p->uid);
		else
			str_copy(user, sizeof(user), "-");
		if (p->used_mib >= 0)
			str_printf(mem, sizeof(mem), "%lld", p->used_mib);
		else
			str_copy(mem, sizeof(mem), "-");
		str_printf(line, sizeof(line), "  %-8u %-10.10s %7s  %s", p->pid, user, mem,
			   p->seen && p->command[0] ? p->command : "-");
		put(y++, 0, line, 0);
	}
	return y;
}

static int severity_pair(enum severity sev)
{
	return sev == SEV_ERROR ? PAIR_ERROR : sev == SEV_WARNING ? PAIR_WARNING : PAIR_INFO;
}

/* The findings from y down to (not including) end. */
static void draw_findings(const struct watch_tui *ui, int y, int end)
{
	const struct view *v = &ui->view;
	char head[128];

	str_printf(head, sizeof(head), _("Findings (%d, newest first)"), v->nfindings + v->findings_dropped);
	attron(A_BOLD);
	put(y++, 0, head, 0);
	attroff(A_BOLD);
	if (v->nfindings == 0 && y < end)
		put(y++, 0, _("  none"), 0);
	for (int i = 0; i < v->nfindings && y < end; i++, y++) {
		const struct view_finding *f = &v->findings[i];
		char since[40], line[320];
		int room;

		str_printf(since, sizeof(since), _("  since sample %ld"), f->since);
		style_on(ui, severity_pair(f->severity), f->severity == SEV_ERROR ? A_BOLD : 0);
		put(y, 2, _(severity_name(f->severity)), 7);
		style_off(ui, severity_pair(f->severity), f->severity == SEV_ERROR ? A_BOLD : 0);
		str_printf(line, sizeof(line), "%s  %s", cause_name(f->cause), f->title);
		/* the title is cut, never "since" */
		room = COLS - 10 - cols_of(since);
		put(y, 10, line, room > 0 ? room : 1);
		if (room > 0)
			put(y, 10 + (cols_of(line) < room ? cols_of(line) : room), since, 0);
	}
}

/* The whole screen from the kept sample. */
static void draw_kept(const struct watch_tui *ui)
{
	const struct live_sample *s = &ui->view.sample;
	int y, left, gpu_rows, proc_rows;
	char help[256];

	erase();
	if (ui->view.have_sample) {
		draw_header(ui);
		/* lines below the header, less the key line: GPUs first, then the processes and the findings share */
		left = LINES - 2;
		gpu_rows = s->ndev < left / 3 ? s->ndev : (left / 3 > 1 ? left / 3 : 1);
		y = draw_gpus(ui, 1, gpu_rows) + 1;
		left = LINES - 1 - y;
		proc_rows = left / 2 > MAX_RT_PROCS + 1 ? MAX_RT_PROCS + 1 : left / 2;
		y = draw_procs(ui, y, proc_rows) + 1;
		draw_findings(ui, y, LINES - 1);
	} else {
		put(0, 0, _("gpudoctor watch: waiting for the first sample"), 0);
	}
	str_printf(help, sizeof(help), _("q quit  up/down j/k select GPU  s sort processes (%s)%s"),
		   _(view_sort_name(ui->sort)), ui->color ? _("  NO_COLOR=1: no colour") : "");
	attron(A_REVERSE);
	put(LINES - 1, 0, help, COLS - 1);	/* the last cell would scroll the screen */
	attroff(A_REVERSE);
	refresh();
}

/* See report_watch.h. */
void watch_tui_draw(struct watch_tui *ui, const struct live_sample *s, const struct diagnosis *d,
		    const struct finding_track *t)
{
	if (!ui)
		return;
	view_keep(&ui->view, s, d, t);
	if (ui->selected >= ui->view.sample.ndev)
		ui->selected = ui->view.sample.ndev > 0 ? ui->view.sample.ndev - 1 : 0;
	draw_kept(ui);
}

/* One key; false on quit. */
static bool handle_key(struct watch_tui *ui, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case KEY_UP:
	case 'k':
		if (ui->selected > 0)
			ui->selected--;
		break;
	case KEY_DOWN:
	case 'j':
		if (ui->selected + 1 < ui->view.sample.ndev)
			ui->selected++;
		break;
	case 's':
		ui->sort = (enum view_sort)((ui->sort + 1) % VIEW_NSORTS);
		break;
	default:	/* KEY_RESIZE too: curses has resized the screen, the redraw follows */
		break;
	}
	return true;
}

/* See report_watch.h. */
bool watch_tui_wait(struct watch_tui *ui, int ms)
{
	double end = clock_ms() + ms;

	if (!ui)
		return true;
	for (;;) {
		double left = end - clock_ms();
		int ch;

		if (left <= 0)
			return true;
		timeout((int)left + 1);
		errno = 0;
		ch = getch();
		if (ch == ERR) {
			if (errno == EINTR)	/* a signal: the caller looks at it */
				return true;
			if (end - clock_ms() > 1)	/* input gone: do not spin */
				napms(20);
			continue;
		}
		if (!handle_key(ui, ch))
			return false;
		draw_kept(ui);
	}
}

/* See report_watch.h. */
void watch_tui_close(struct watch_tui *ui)
{
	if (!ui)
		return;
	curs_set(1);
	endwin();
	delscreen(ui->screen);
	ctype_restore(ui);
	free(ui);
}
