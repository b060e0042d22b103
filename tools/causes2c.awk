# causes2c.awk - compile the cause registry (data/causes.tsv) into C.
#
#   awk -v out=ids -f tools/causes2c.awk data/causes.tsv     > build/gen/cause_ids.h
#   awk -v out=table -f tools/causes2c.awk data/causes.tsv   > build/gen/cause_table.c
#
# ids: enum cause_id, one CAUSE_X per row in table order, then CAUSE_COUNT.
# table: const struct cause cause_table[CAUSE_COUNT] (src/cause/cause.h).
# Every row is checked: the column count, a unique well-formed id, a known
# severity, stage and origin, an integer rank, and follows naming known ids;
# a bad table fails the build, naming the line.
BEGIN { FS = "\t"; n = 0; bad = 0; header = 0
	split("error warning info", a, " "); for (i in a) sev[a[i]] = 1
	split("platform gpu kernel device-nodes user-libraries cuda toolkit cudnn python environment summary", a, " ")
	for (i in a) stg[a[i]] = 1
	split("doctor explain both", a, " "); for (i in a) org[a[i]] = 1
}
function fail(msg) { printf "%s:%d: %s\n", FILENAME, NR, msg > "/dev/stderr"; bad = 1 }
function cname(id,   s) { s = toupper(id); gsub(/[.-]/, "_", s); return "CAUSE_" s }
function cstr(s) { gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
/^#/ || /^[ \t]*$/ { next }
!header {
	if ($0 != "id\tseverity\tstage\trank\tfollows\tfrom\ttitle") fail("header must be: id severity stage rank follows from title")
	header = 1; next
}
{
	sub(/\r$/, "")
	if (NF != 7) { fail(NF " fields, want 7"); next }
	if ($1 !~ /^[a-z]+\.[a-z0-9-]+$/) fail("bad id '" $1 "'")
	if ($1 in seen) fail("duplicate id '" $1 "'")
	if (!($2 in sev)) fail("bad severity '" $2 "'")
	if (!($3 in stg)) fail("bad stage '" $3 "'")
	if ($4 !~ /^[0-9]+$/) fail("bad rank '" $4 "'")
	if (!($6 in org)) fail("bad from '" $6 "'")
	if ($7 == "") fail("no title")
	seen[$1] = 1; n++
	id[n] = $1; severity[n] = $2; stage[n] = $3; rank[n] = $4; follows[n] = $5; from[n] = $6; title[n] = $7; line[n] = NR
}
END {
	for (i = 1; i <= n; i++) {
		if (follows[i] == "-") continue
		k = split(follows[i], f, ",")
		for (j = 1; j <= k; j++) if (!(f[j] in seen)) { printf "%s:%d: follows unknown id '%s'\n", FILENAME, line[i], f[j] > "/dev/stderr"; bad = 1 }
	}
	if (bad) exit 1
	if (out == "ids") {
		printf "/* Generated from %s by tools/causes2c.awk. Do not edit. */\n", FILENAME
		printf "#ifndef GD_GEN_CAUSE_IDS_H\n#define GD_GEN_CAUSE_IDS_H\n\nenum cause_id {\n"
		for (i = 1; i <= n; i++) printf "\t%s,\n", cname(id[i])
		printf "\tCAUSE_COUNT\n};\n\n#endif\n"
	} else {
		printf "/* Generated from %s by tools/causes2c.awk. Do not edit. */\n", FILENAME
		printf "#include <stddef.h>\n\n#include \"cause/cause.h\"\n\n"
		for (i = 1; i <= n; i++) {
			if (follows[i] == "-") continue
			k = split(follows[i], f, ",")
			printf "static const enum cause_id follows_%d[] = {", i
			for (j = 1; j <= k; j++) printf " %s,", cname(f[j])
			printf " };\n"
		}
		printf "\nconst struct cause cause_table[CAUSE_COUNT] = {\n"
		for (i = 1; i <= n; i++) {
			k = follows[i] == "-" ? 0 : split(follows[i], f, ",")
			printf "\t[%s] = { %s, SEV_%s, STAGE_%s, %d, %s, %d, CAUSE_FROM_%s, %s },\n", cname(id[i]), cstr(id[i]),
				toupper(severity[i]), toupper(stage[i] == "device-nodes" ? "device_nodes" : stage[i] == "user-libraries" ? "user_libs" : stage[i] == "environment" ? "env" : stage[i]),
				rank[i], k ? "follows_" i : "NULL", k, toupper(from[i]), cstr(title[i])
		}
		printf "};\n"
	}
}
