/*
 * root_library.c - a "libcuda" an image could carry: its constructor runs as
 * soon as anything loads it and leaves a mark, so the hostile-root suite can
 * tell whether gpudoctor loaded a library from under --root.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_mark(void)
{
	const char *mark = getenv("HOSTILE_MARK");
	int fd;

	if (mark && (fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) >= 0)
		close(fd);
}
