# man.awk - writes gpudoctor(1) in scdoc: man/gpudoctor.1.scd.in with
#   @VERSION@          the version (-v version=...)
#   @GLOBAL-OPTIONS@   the options every command takes
#   @COMMANDS@         a subsection per command: usage, description, its own
#                      options, epilogue (exit status, queries)
# filled in from the command-line data tools/cli-spec prints.
#
#   awk -v version=V -f tools/cli-tsv.awk -f tools/man.awk build/gen/cli.tsv man/gpudoctor.1.scd.in
BEGIN { FS = "\t"; ncmd = 0 }

# scdoc's markup characters in running text.
function esc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/\*/, "\\*", s)
	gsub(/_/, "\\_", s)
	return s
}
# Paragraphs (blank-line separated) of wrapped text: newlines inside are spaces.
function paragraphs(s,    n, p, i, t) {
	n = split(s, p, /\n\n+/)
	t = ""
	for (i = 1; i <= n; i++) {
		gsub(/\n/, " ", p[i])
		sub(/^ +/, "", p[i]); sub(/ +$/, "", p[i])
		if (p[i] != "")
			t = t esc(p[i]) "\n\n"
	}
	return t
}
# Preformatted text: a paragraph with indented lines stays a literal block.
function preformatted(s,    n, p, i, t) {
	n = split(s, p, /\n\n+/)
	t = ""
	for (i = 1; i <= n; i++) {
		sub(/^\n+/, "", p[i]); sub(/\n+$/, "", p[i])
		if (p[i] == "")
			continue
		if (p[i] ~ /\n  /)
			t = t "```\n" p[i] "\n```\n\n"
		else
			t = t paragraphs(p[i])
	}
	return t
}
function option_entry(i,    t) {
	t = "*--" opt_long[i] "*"
	if (opt_letter[i] != "")
		t = "*-" opt_letter[i] "*, " t
	if (opt_value[i] != "")
		t = t " _" esc(opt_value[i]) "_"
	return t "\n\t" esc(opt_help[i]) "\n\n"
}

FNR == NR {
	if ($1 == "command") {
		cmd[++ncmd] = $2
		summary[$2] = unesc($4)
		usage[$2] = unesc($5)
	} else if ($1 == "describe")
		description[$2] = unesc($3)
	else if ($1 == "epilogue")
		epilogue[$2] = unesc($3)
	else if ($1 == "option" && $6 != "-") {
		nopt++
		opt_cmd[nopt] = $2; opt_long[nopt] = $3
		opt_letter[nopt] = unesc($4); opt_value[nopt] = unesc($5); opt_help[nopt] = unesc($6)
	}
	next
}

/^@GLOBAL-OPTIONS@$/ {
	for (i = 1; i <= nopt; i++)
		if (opt_cmd[i] == "*")
			printf "%s", option_entry(i)
	next
}
/^@COMMANDS@$/ {
	for (c = 1; c <= ncmd; c++) {
		name = cmd[c]
		printf "## %s\n\n", name
		printf "*%s*\n\n", esc(usage[name])
		printf "%s", paragraphs(description[name])
		own = 0
		for (i = 1; i <= nopt; i++)
			if (opt_cmd[i] == name) {
				if (!own++)
					printf "Options of *%s*, besides those under *OPTIONS*:\n\n", name
				printf "%s", option_entry(i)
			}
		if (!own)
			printf "It takes only the options under *OPTIONS*.\n\n"
		printf "%s", preformatted(epilogue[name])
	}
	next
}
{ gsub(/@VERSION@/, version); print }
