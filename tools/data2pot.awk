# data2pot.awk - the user-facing text of a knowledge table (data/NAME.tsv) as
# gettext messages: awk -v cols=title,detail -f tools/data2pot.awk data/causes.tsv
#
# cols names the header's columns to take. A column named in steps (a fix
# column: "text :: command || text :: command") gives each step's text, without
# the command and without a leading "or " (how the program shows them). Each
# text is one msgid with a "#: data/NAME.tsv:LINE" reference per row it is in;
# the program looks the same text up with gettext when it shows it. A column
# named in lists ("shows => means || ...") gives each item between " || ".
# Empty fields and "-" are skipped, as are texts with "{name}" placeholders
# (filled in before they are shown, so they cannot be looked up as they
# stand) unless templates=1: explain translates a template before it fills
# it, so its msgid keeps the placeholders and the translation keeps them too.
BEGIN {
	FS = "\t"
	n = split(cols, want, ",")
	ns = split(steps, stepcol, ",")
	for (i = 1; i <= ns; i++)
		is_steps[stepcol[i]] = 1
	nl = split(lists, listcol, ",")
	for (i = 1; i <= nl; i++)
		is_list[listcol[i]] = 1
	count = 0
}

function po_quote(s) {
	gsub(/\\/, "&&", s)	# a backslash doubled: & is the matched one
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

function add(text, line) {
	sub(/^[ \t]+/, "", text)
	sub(/[ \t]+$/, "", text)
	if (text == "" || text == "-" || (!templates && text ~ /\{[a-z_]+\}/))
		return
	if (!(text in refs)) {
		order[++count] = text
		refs[text] = ""
	}
	refs[text] = refs[text] "#: " FILENAME ":" line "\n"
}

/^#/ || /^[ \t]*$/ { next }
!header {
	sub(/\r$/, "")
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (i = 1; i <= n; i++)
		if (!(want[i] in col)) {
			printf "data2pot.awk: %s has no column '%s'\n", FILENAME, want[i] > "/dev/stderr"
			exit 1
		}
	header = 1
	next
}
{
	sub(/\r$/, "")
	for (i = 1; i <= n; i++) {
		field = $(col[want[i]])
		if (want[i] in is_list) {
			m = split(field, parts, / \|\| /)
			for (k = 1; k <= m; k++)
				add(parts[k], FNR)
			continue
		}
		if (!(want[i] in is_steps)) {
			add(field, FNR)
			continue
		}
		m = split(field, parts, / \|\| /)
		for (k = 1; k <= m; k++) {
			text = parts[k]
			sub(/ :: .*/, "", text)
			sub(/^or /, "", text)
			add(text, FNR)
		}
	}
}

END {
	print "msgid \"\""
	print "msgstr \"\""
	print "\"Content-Type: text/plain; charset=UTF-8\\n\""
	for (i = 1; i <= count; i++) {
		printf "\n%s", refs[order[i]]
		if (order[i] ~ /%/)
			print "#, no-c-format"
		print "msgid " po_quote(order[i])
		print "msgstr \"\""
	}
}
