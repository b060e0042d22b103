# man-tidy.awk - drops the empty paragraphs scdoc writes (a .P before a
# heading, after a heading, or before the end of an indented block), which
# `mandoc -T lint` reports and which change nothing on the page. The
# paragraph break that ends an indented block is moved after its .RE.
#
#   scdoc < page.scd | awk -f tools/man-tidy.awk > page
{ line[++n] = $0 }
function macro(s, name) { return s == name || index(s, name " ") == 1 }
END {
	# .P .RE -> .RE .P: the break belongs after the indented block.
	for (i = 1; i < n; i++)
		if (line[i] == ".P" && line[i + 1] == ".RE") {
			line[i] = ".RE"
			line[i + 1] = ".P"
		}
	m = 0
	for (i = 1; i <= n; i++) {
		if (line[i] == ".P") {
			prev = m ? out[m] : ""
			next_line = i < n ? line[i + 1] : ".SH"
			if (macro(prev, ".TH") || macro(prev, ".SH") || macro(prev, ".SS") || prev == ".P" ||
			    macro(next_line, ".SH") || macro(next_line, ".SS") || next_line == ".P")
				continue
		}
		out[++m] = line[i]
	}
	for (i = 1; i <= m; i++)
		print out[i]
}
