# tsv2c.awk - compile a knowledge table (data/NAME.tsv) into C.
#
# Input: tab-separated text; '#' lines are comments; the first other line
# names the columns. Output: one `const struct kb_table kb_table_NAME` (kb/kb.h)
# holding the column names, the cells row by row, and each row's line
# number in the .tsv. Every row must have exactly as many
# fields as the header and a non-empty last column (the source): a table
# that breaks this fails the build, naming the line.
BEGIN { FS = "\t"; ncols = 0; nrows = 0; bad = 0 }
function cstr(s) {
	gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); sub(/\r$/, "", s)
	return "\"" s "\""
}
/^#/ || /^[ \t]*$/ { next }
ncols == 0 {
	ncols = NF
	for (i = 1; i <= NF; i++) header[i] = $i
	if (header[ncols] != "source") { printf "%s:%d: last column must be 'source'\n", FILENAME, NR > "/dev/stderr"; bad = 1 }
	next
}
{
	if (NF != ncols) { printf "%s:%d: %d fields, header has %d\n", FILENAME, NR, NF, ncols > "/dev/stderr"; bad = 1; next }
	if ($ncols == "") { printf "%s:%d: row has no source\n", FILENAME, NR > "/dev/stderr"; bad = 1; next }
	row = "\t"
	for (i = 1; i <= NF; i++) row = row cstr($i) (i < NF ? ", " : "")
	rows[++nrows] = row ","
	lines[nrows] = NR
}
END {
	if (bad) exit 1
	printf "/* Generated from %s by tools/tsv2c.awk. Do not edit. */\n", FILENAME
	printf "#include \"kb/kb.h\"\n\n"
	printf "static const char *const columns[] = { "
	for (i = 1; i <= ncols; i++) printf "%s%s", cstr(header[i]), (i < ncols ? ", " : "")
	printf " };\n"
	printf "static const int lines[] = {"
	for (i = 1; i <= nrows; i++) printf "%s%d,", (i % 16 == 1 ? "\n\t" : " "), lines[i]
	printf "%s};\n", nrows ? "\n" : " 0 "
	printf "static const char *const cells[] = {\n"
	for (i = 1; i <= nrows; i++) print rows[i]
	if (nrows == 0) print "\tNULL,"
	printf "};\n\n"
	printf "const struct kb_table kb_table_%s = { \"%s\", columns, %d, cells, lines, %d };\n", table, table, ncols, nrows
}
