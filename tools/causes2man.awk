# causes2man.awk - writes gpudoctor-causes(7) in scdoc from the cause registry
# (data/causes.tsv): every cause id with its title, severity, stage, who names
# it and what it usually follows from, grouped by the doctor's stages in the
# order of the causal chain.
#
#   awk -v version=V -f tools/causes2man.awk data/causes.tsv
BEGIN { FS = "\t"; n = 0 }
function esc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/\*/, "\\*", s)
	gsub(/_/, "\\_", s)
	return s
}
/^#/ || /^$/ { next }
$1 == "id" { next }	# the header
NF >= 7 {
	n++
	id[n] = $1; severity[n] = $2; stage[n] = $3; follows[n] = $5; from[n] = $6; title[n] = $7
	if (!(stage[n] in seen)) {
		seen[stage[n]] = 1
		stages[++nstages] = stage[n]
	}
	next
}
{ printf "causes2man.awk: line %d has %d columns, not 7\n", NR, NF > "/dev/stderr"; bad = 1; exit 1 }
END {
	if (bad)
		exit 1
	if (n == 0) {
		print "causes2man.awk: no causes read" > "/dev/stderr"
		exit 1
	}
	namer["doctor"] = "the doctor (from this machine)"
	namer["explain"] = "explain (from error text and logs)"
	namer["both"] = "the doctor and explain"
	printf "gpudoctor-causes(7) \"gpudoctor %s\"\n\n", version
	print "# NAME\n"
	print "gpudoctor-causes - the causes gpudoctor names, by their stable ids\n"
	print "# DESCRIPTION\n"
	print "Every finding of *gpudoctor*(1) names its cause by an id of the form"
	print "_family.short-name_: in the text report, in the JSON report's *findings* (the"
	print "*id* field) and in *explain*'s ranking. An id is never renamed and never reused,"
	print "so scripts may match on it."
	print ""
	print "The causes are listed below by the doctor's stage of the causal chain,"
	print "bottom up, the way the doctor orders its findings. Each entry gives its title,"
	print "its usual severity (a check may choose another), who names it, and the"
	print "causes it usually follows from: when one of those is in the same report, the"
	print "finding is blocked by it and is not the root cause."
	print ""
	printf "There are %d causes.\n\n", n
	for (s = 1; s <= nstages; s++) {
		printf "# STAGE: %s\n\n", toupper(stages[s])
		for (i = 1; i <= n; i++) {
			if (stage[i] != stages[s])
				continue
			printf "*%s*\n", esc(id[i])
			printf "\t%s.\n", esc(title[i])
			printf "\tSeverity: %s. Named by %s.", severity[i], (from[i] in namer) ? namer[from[i]] : esc(from[i])
			if (follows[i] != "-") {
				f = follows[i]
				gsub(/,/, ", ", f)
				printf " Usually follows from: %s.", esc(f)
			}
			printf "\n\n"
		}
	}
	print "# SEE ALSO\n"
	print "*gpudoctor*(1). The project's docs/causes.md explains each cause, the evidence"
	print "that names it and its fix."
}
