#include "util/dwidth.h"

/*
 * The code points whose East_Asian_Width is W or F, as ranges, from the Unicode Character Database's
 * EastAsianWidth.txt (Unicode 14.0; https://www.unicode.org/Public/14.0.0/ucd/EastAsianWidth.txt), with
 * the unassigned code points of the CJK ideograph blocks that the file's header says default to W
 * (3400..4DBF, 4E00..9FFF, F900..FAFF, 20000..2FFFD, 30000..3FFFD). Unicode Standard Annex #11,
 * https://www.unicode.org/reports/tr11/, says how these map to display cells: W and F take two.
 */
static const struct { uint32_t first, last; } wide_ranges[] = {
	{ 0x01100, 0x0115F }, { 0x0231A, 0x0231B }, { 0x02329, 0x0232A }, { 0x023E9, 0x023EC },
	{ 0x023F0, 0x023F0 }, { 0x023F3, 0x023F3 }, { 0x025FD, 0x025FE }, { 0x02614, 0x02615 },
	{ 0x02648, 0x02653 }, { 0x0267F, 0x0267F }, { 0x02693, 0x02693 }, { 0x026A1, 0x026A1 },
	{ 0x026AA, 0x026AB }, { 0x026BD, 0x026BE }, { 0x026C4, 0x026C5 }, { 0x026CE, 0x026CE },
	{ 0x026D4, 0x026D4 }, { 0x026EA, 0x026EA }, { 0x026F2, 0x026F3 }, { 0x026F5, 0x026F5 },
	{ 0x026FA, 0x026FA }, { 0x026FD, 0x026FD }, { 0x02705, 0x02705 }, { 0x0270A, 0x0270B },
	{ 0x02728, 0x02728 }, { 0x0274C, 0x0274C }, { 0x0274E, 0x0274E }, { 0x02753, 0x02755 },
	{ 0x02757, 0x02757 }, { 0x02795, 0x02797 }, { 0x027B0, 0x027B0 }, { 0x027BF, 0x027BF },
	{ 0x02B1B, 0x02B1C }, { 0x02B50, 0x02B50 }, { 0x02B55, 0x02B55 }, { 0x02E80, 0x02E99 },
	{ 0x02E9B, 0x02EF3 }, { 0x02F00, 0x02FD5 }, { 0x02FF0, 0x02FFB }, { 0x03000, 0x0303E },
	{ 0x03041, 0x03096 }, { 0x03099, 0x030FF }, { 0x03105, 0x0312F }, { 0x03131, 0x0318E },
	{ 0x03190, 0x031E3 }, { 0x031F0, 0x0321E }, { 0x03220, 0x03247 }, { 0x03250, 0x04DBF },
	{ 0x04E00, 0x0A48C }, { 0x0A490, 0x0A4C6 }, { 0x0A960, 0x0A97C }, { 0x0AC00, 0x0D7A3 },
	{ 0x0F900, 0x0FAFF }, { 0x0FE10, 0x0FE19 }, { 0x0FE30, 0x0FE52 }, { 0x0FE54, 0x0FE66 },
	{ 0x0FE68, 0x0FE6B }, { 0x0FF01, 0x0FF60 }, { 0x0FFE0, 0x0FFE6 }, { 0x16FE0, 0x16FE4 },
	{ 0x16FF0, 0x16FF1 }, { 0x17000, 0x187F7 }, { 0x18800, 0x18CD5 }, { 0x18D00, 0x18D08 },
	{ 0x1AFF0, 0x1AFF3 }, { 0x1AFF5, 0x1AFFB }, { 0x1AFFD, 0x1AFFE }, { 0x1B000, 0x1B122 },
	{ 0x1B150, 0x1B152 }, { 0x1B164, 0x1B167 }, { 0x1B170, 0x1B2FB }, { 0x1F004, 0x1F004 },
	{ 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A }, { 0x1F200, 0x1F202 },
	{ 0x1F210, 0x1F23B }, { 0x1F240, 0x1F248 }, { 0x1F250, 0x1F251 }, { 0x1F260, 0x1F265 },
	{ 0x1F300, 0x1F320 }, { 0x1F32D, 0x1F335 }, { 0x1F337, 0x1F37C }, { 0x1F37E, 0x1F393 },
	{ 0x1F3A0, 0x1F3CA }, { 0x1F3CF, 0x1F3D3 }, { 0x1F3E0, 0x1F3F0 }, { 0x1F3F4, 0x1F3F4 },
	{ 0x1F3F8, 0x1F43E }, { 0x1F440, 0x1F440 }, { 0x1F442, 0x1F4FC }, { 0x1F4FF, 0x1F53D },
	{ 0x1F54B, 0x1F54E }, { 0x1F550, 0x1F567 }, { 0x1F57A, 0x1F57A }, { 0x1F595, 0x1F596 },
	{ 0x1F5A4, 0x1F5A4 }, { 0x1F5FB, 0x1F64F }, { 0x1F680, 0x1F6C5 }, { 0x1F6CC, 0x1F6CC },
	{ 0x1F6D0, 0x1F6D2 }, { 0x1F6D5, 0x1F6D7 }, { 0x1F6DD, 0x1F6DF }, { 0x1F6EB, 0x1F6EC },
	{ 0x1F6F4, 0x1F6FC }, { 0x1F7E0, 0x1F7EB }, { 0x1F7F0, 0x1F7F0 }, { 0x1F90C, 0x1F93A },
	{ 0x1F93C, 0x1F945 }, { 0x1F947, 0x1F9FF }, { 0x1FA70, 0x1FA74 }, { 0x1FA78, 0x1FA7C },
	{ 0x1FA80, 0x1FA86 }, { 0x1FA90, 0x1FAAC }, { 0x1FAB0, 0x1FABA }, { 0x1FAC0, 0x1FAC5 },
	{ 0x1FAD0, 0x1FAD9 }, { 0x1FAE0, 0x1FAE7 }, { 0x1FAF0, 0x1FAF6 }, { 0x20000, 0x2FFFD },
	{ 0x30000, 0x3FFFD },
};

/* See dwidth.h. */
bool dw_is_wide(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(wide_ranges) / sizeof(wide_ranges[0]);

	if (cp < wide_ranges[0].first)
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < wide_ranges[mid].first)
			hi = mid;
		else if (cp > wide_ranges[mid].last)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* See dwidth.h. */
int dw_char_width(uint32_t cp)
{
	return dw_is_wide(cp) ? 2 : 1;
}

/* See dwidth.h: overlong forms, surrogates and values past U+10FFFF are invalid too. */
size_t dw_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	uint32_t c, min;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xE0) == 0xC0) {
		n = 2, c = u[0] & 0x1F, min = 0x80;
	} else if ((u[0] & 0xF0) == 0xE0) {
		n = 3, c = u[0] & 0x0F, min = 0x800;
	} else if ((u[0] & 0xF8) == 0xF0) {
		n = 4, c = u[0] & 0x07, min = 0x10000;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (n > len)
		goto invalid;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			goto invalid;
		c = (c << 6) | (u[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		goto invalid;
	*cp = c;
	return n;
invalid:
	*cp = 0xFFFD;
	return 1;
}

/* See dwidth.h. */
int dw_width(const char *text, size_t len)
{
	int w = 0;

	for (size_t i = 0; i < len;) {
		uint32_t cp;

		i += dw_decode(text + i, len - i, &cp);
		w += dw_char_width(cp);
	}
	return w;
}

static bool in_list(uint32_t cp, const uint32_t *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == cp)
			return true;
	return false;
}

/* See dwidth.h. */
bool dw_can_break(uint32_t a, uint32_t b)
{
	/* ， 。 ： ； ！ ？ 、 ） 」 』 》 and their ASCII kin */
	static const uint32_t no_start[] = { 0xFF0C, 0x3002, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F, 0x3001, 0xFF09, 0x300D,
					     0x300F, 0x300B, ',', '.', ':', ';', '!', '?', ')', ']', '}', '`', '"', '\'' };
	/* （ 「 『 《 and their ASCII kin */
	static const uint32_t no_end[] = { 0xFF08, 0x300C, 0x300E, 0x300A, '(', '[', '{', '`', '"', '\'' };

	return (dw_is_wide(a) || dw_is_wide(b)) && !in_list(b, no_start, sizeof(no_start) / sizeof(no_start[0])) &&
	       !in_list(a, no_end, sizeof(no_end) / sizeof(no_end[0]));
}
