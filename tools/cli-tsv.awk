# cli-tsv.awk - reading build/gen/cli.tsv (tools/cli-spec.c), shared by tools/man.awk and
# tools/completion.awk: awk -f tools/cli-tsv.awk -f tools/man.awk ...

# A field as cli-spec wrote it: "-" is empty, "\\n" a newline, "\\X" the character X.
function unesc(s,    out, i, c) {
	if (s == "-")
		return ""
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && i < length(s)) {
			i++
			c = substr(s, i, 1)
			out = out (c == "n" ? "\n" : c)
		} else
			out = out c
	}
	return out
}
