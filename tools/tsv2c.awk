# tsv2c.awk - compile a knowledge table (data/NAME.tsv) into C.
#
# Input: tab-separated text; '#' lines are comments; the first other line
# names the columns. Output: an array of string rows, the column names and
# the counts, under the symbols kb_NAME_columns / kb_NAME_cells (row-major) /
# kb_NAME_ncolumns / kb_NAME_nrows. Every row must have exactly as many
# fields as the header and a non-empty last column (the source): a table
# that breaks this fails the build, naming the line.
BEGIN { FS = "\t"; ncols = 0; nrows = 0; bad = 0 }
function cstr(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); sub(/\r$/, "", s)
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
	printf "#include <stddef.h>\n\n"
	printf "const size_t kb_%s_ncolumns = %d;\n", table, ncols
	printf "const size_t kb_%s_nrows = %d;\n", table, nrows
	printf "const char *const kb_%s_columns[] = { ", table
	for (i = 1; i <= ncols; i++) printf "%s%s", cstr(header[i]), (i < ncols ? ", " : "")
	printf " };\n"
	printf "const int kb_%s_lines[] = {", table
	for (i = 1; i <= nrows; i++) printf "%s%d,", (i % 16 == 1 ? "\n\t" : " "), lines[i]
	printf "%s};\n", nrows ? "\n" : " 0 "
	printf "const char *const kb_%s_cells[] = {\n", table
	for (i = 1; i <= nrows; i++) print rows[i]
	if (nrows == 0) print "\tNULL,"
	printf "};\n"
}
