# completion.awk - writes gpudoctor's shell completion for bash, zsh or fish
# from the command-line data tools/cli-spec prints (build/gen/cli.tsv): the
# commands, each command's options, the values an option takes, and the
# operands (explain: files; kb: its queries, read from kb's help).
#
#   awk -v shell=bash|zsh|fish -f tools/cli-tsv.awk -f tools/completion.awk build/gen/cli.tsv
#
# What an option's value completes to follows from the name its help gives
# the value (FORMAT, WHEN, LEVEL, LANG, DIR, PATH); a new value name fails here until
# it is given a completion below, or declared free text.
BEGIN {
	FS = "\t"
	# in the order the completion functions test them
	nvalue = split("FORMAT WHEN LEVEL LANG", value_order, " ")
	words["FORMAT"] = "text json markdown"
	words["WHEN"] = "auto always never"
	words["LEVEL"] = "error warning"
	words["LANG"] = "en zh_CN"; kind["LANG"] = "words"
	kind["FORMAT"] = "words"; kind["WHEN"] = "words"; kind["LEVEL"] = "words"
	kind["DIR"] = "dir"
	kind["PATH"] = "python"	# --python PATH: an interpreter
	kind["SECONDS"] = "free"; kind["VERSION"] = "free"; kind["SM"] = "free"
	kind["N"] = "free"; kind["ADDR:PORT"] = "free"
}
# A help text made short enough for the one-line descriptions zsh and fish
# show: up to a ';', then, when still long, before a parenthesis that leaves
# enough to read.
function short(s,    t, i) {
	sub(/;.*/, "", s)
	if (length(s) > 50) {
		t = s
		if ((i = index(t, " (")) > 12)
			s = substr(t, 1, i - 1)
	}
	sub(/ +$/, "", s)
	return s
}
function sq_sh(s) { gsub(/'/, "'\\''", s); return "'" s "'" }
function sq_fish(s) { gsub(/\\/, "\\\\", s); gsub(/'/, "\\'", s); return "'" s "'" }

$1 == "command" {
	cmds[++ncmd] = $2
	summary[$2] = unesc($4)
	next
}
$1 == "epilogue" {
	# kb's queries: "  driver-for cuda VERSION   ...", the second word when it is a literal
	text = unesc($3)
	n = split(text, line, "\n")
	inq = 0
	for (i = 1; i <= n; i++) {
		if (line[i] == "queries:") { inq = 1; continue }
		if (inq && line[i] ~ /^  [a-z][a-z-]* /) {
			split(substr(line[i], 3), w, " ")
			queries[$2] = queries[$2] (queries[$2] == "" ? "" : " ") w[1]
			if (w[2] ~ /^[a-z]+$/) {
				second[$2 SUBSEP w[1]] = w[2]
				second_order[++nsecond] = $2 SUBSEP w[1]
			}
		}
	}
	next
}
$1 == "option" {
	o = ++nopt
	ocmd[o] = $2; olong[o] = "--" $3; oletter[o] = unesc($4); ovalue[o] = unesc($5); ohelp[o] = unesc($6)
	if (ovalue[o] != "") {
		if (!(ovalue[o] in kind)) {
			printf "completion.awk: no completion for %s's value %s\n", olong[o], ovalue[o] > "/dev/stderr"
			failed = 1
		}
		if (!(olong[o] in takes))
			takes_order[++ntakes] = olong[o]
		takes[olong[o]] = 1
	}
	next
}

# Options of command c (global ones included), with or without aliases.
function options_of(c, with_alias,    i, t) {
	t = ""
	for (i = 1; i <= nopt; i++)
		if ((ocmd[i] == c || ocmd[i] == "*") && (with_alias || ohelp[i] != "")) {
			if (oletter[i] != "")
				t = t " -" oletter[i]
			t = t " " olong[i]
		}
	return substr(t, 2)
}
# "cmd:--opt|cmd:--opt" patterns of every option whose value is of kind k (words: of value name v).
function pattern(k, v,    i, c, t) {
	t = ""
	for (c = 1; c <= ncmd; c++)
		for (i = 1; i <= nopt; i++)
			if ((ocmd[i] == cmds[c] || ocmd[i] == "*") && ovalue[i] != "" && kind[ovalue[i]] == k &&
			    (v == "" || ovalue[i] == v))
				t = t "|" cmds[c] ":" olong[i]
	return substr(t, 2)
}
function takes_list(    i, t) {
	t = ""
	for (i = 1; i <= ntakes; i++)
		t = t " " takes_order[i]
	return substr(t, 2)
}
function command_list(    c, t) {
	for (c = 1; c <= ncmd; c++)
		t = t (c > 1 ? " " : "") cmds[c]
	return t
}

END {
	if (failed)
		exit 1
	if (shell == "bash")
		bash()
	else if (shell == "zsh")
		zsh()
	else if (shell == "fish")
		fish()
	else {
		print "completion.awk: shell is bash, zsh or fish" > "/dev/stderr"
		exit 1
	}
}

function bash(    c, v, q, k, j, p) {
	print "# bash completion for gpudoctor(1). Written by tools/completion.awk from the"
	print "# program's option tables (tools/cli-spec): edit those, not this file."
	print ""
	print "_gpudoctor_commands=" sq_sh(command_list())
	print "_gpudoctor_takes_value=" sq_sh(takes_list())
	print ""
	print "# The options command $1 takes."
	print "_gpudoctor_options() {"
	print "\tcase $1 in"
	for (c = 1; c <= ncmd; c++)
		printf "\t%s) echo %s ;;\n", cmds[c], sq_sh(options_of(cmds[c], 0))
	print "\tesac"
	print "}"
	print ""
	print "# Interpreters on PATH named python, python3, python3.12..., and file names."
	print "_gpudoctor_pythons() {"
	print "\tlocal name"
	print "\tif [[ $1 != */* ]]; then"
	print "\t\twhile IFS= read -r name; do"
	print "\t\t\t[[ $name =~ ^python[0-9.]*$ ]] && COMPREPLY+=(\"$name\")"
	print "\t\tdone < <(compgen -c -- \"$1\" | sort -u)"
	print "\tfi"
	print "\tif [[ $1 == */* || ${#COMPREPLY[@]} -eq 0 ]]; then"
	print "\t\tcompopt -o filenames 2>/dev/null"
	print "\t\tCOMPREPLY+=($(compgen -f -- \"$1\"))"
	print "\tfi"
	print "}"
	print ""
	print "# The value of option $2 of command $1, from $3."
	print "_gpudoctor_value() {"
	print "\tcase $1:$2 in"
	for (j = 1; j <= nvalue; j++)
		if ((p = pattern("words", v = value_order[j])) != "")
			printf "\t%s) COMPREPLY=($(compgen -W %s -- \"$3\")) ;;\n", p, sq_sh(words[v])
	if ((p = pattern("dir", "")) != "")
		printf "\t%s) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$3\")) ;;\n", p
	if ((p = pattern("python", "")) != "")
		printf "\t%s) _gpudoctor_pythons \"$3\" ;;\n", p
	print "\tesac"
	print "}"
	print ""
	print "_gpudoctor() {"
	print "\tlocal cur=${COMP_WORDS[COMP_CWORD]} cmd= opt= w i"
	print "\tlocal -a operands=()"
	print "\tCOMPREPLY=()"
	print "\t# The command word is the first word that is neither an option nor an"
	print "\t# option's value; the words after it that are neither are its operands."
	print "\tfor ((i = 1; i < COMP_CWORD; i++)); do"
	print "\t\tw=${COMP_WORDS[i]}"
	print "\t\tif [[ $w == -- ]]; then break"
	print "\t\telif [[ ${COMP_WORDS[i + 1]} == = ]]; then ((i += 2))	# --option=value, split at ="
	print "\t\telif [[ $w == -* ]]; then [[ \" $_gpudoctor_takes_value \" == *\" $w \"* ]] && ((i++))"
	print "\t\telif [[ -z $cmd ]]; then cmd=$w"
	print "\t\telse operands+=(\"$w\")"
	print "\t\tfi"
	print "\tdone"
	print "\tif [[ $cur == = ]]; then"
	print "\t\topt=${COMP_WORDS[COMP_CWORD - 1]} cur="
	print "\telif ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]]; then"
	print "\t\topt=${COMP_WORDS[COMP_CWORD - 2]}"
	print "\telif ((COMP_CWORD > 1)) && [[ \" $_gpudoctor_takes_value \" == *\" ${COMP_WORDS[COMP_CWORD - 1]} \"* ]]; then"
	print "\t\topt=${COMP_WORDS[COMP_CWORD - 1]}"
	print "\tfi"
	print "\tif [[ -n $opt ]]; then"
	print "\t\t_gpudoctor_value \"${cmd:-doctor}\" \"$opt\" \"$cur\""
	print "\t\treturn 0"
	print "\tfi"
	print "\tif [[ $cur == -* ]]; then"
	print "\t\tCOMPREPLY=($(compgen -W \"$(_gpudoctor_options \"${cmd:-doctor}\")\" -- \"$cur\"))"
	print "\t\treturn 0"
	print "\tfi"
	print "\tif [[ -z $cmd ]]; then"
	print "\t\tCOMPREPLY=($(compgen -W \"$_gpudoctor_commands\" -- \"$cur\"))"
	print "\t\treturn 0"
	print "\tfi"
	print "\tcase $cmd in"
	print "\texplain) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")) ;;"
	for (c = 1; c <= ncmd; c++) {
		q = cmds[c]
		if (!(q in queries))
			continue
		printf "\t%s)\n", q
		printf "\t\tif ((${#operands[@]} == 0)); then COMPREPLY=($(compgen -W %s -- \"$cur\"))\n", sq_sh(queries[q])
		printf "\t\telif ((${#operands[@]} == 1)); then\n"
		printf "\t\t\tcase ${operands[0]} in\n"
		for (j = 1; j <= nsecond; j++) {
			split(k = second_order[j], kk, SUBSEP)
			if (kk[1] == q)
				printf "\t\t\t%s) COMPREPLY=($(compgen -W %s -- \"$cur\")) ;;\n", kk[2], sq_sh(second[k])
		}
		printf "\t\t\tesac\n"
		printf "\t\tfi ;;\n"
	}
	print "\tesac"
	print "\treturn 0"
	print "}"
	print ""
	print "complete -F _gpudoctor gpudoctor"
}

function zsh(    c, i, v, p, k, q, j) {
	print "#compdef gpudoctor"
	print "# zsh completion for gpudoctor(1). Written by tools/completion.awk from the"
	print "# program's option tables (tools/cli-spec): edit those, not this file."
	print ""
	print "_gpudoctor() {"
	print "\tsetopt localoptions extendedglob"
	print "\tlocal cur=${words[CURRENT]} cmd= opt= w i"
	print "\tlocal -a operands gd_commands gd_options"
	print "\tlocal takes=" sq_sh(" " takes_list() " ")
	printf "\tgd_commands=("
	for (c = 1; c <= ncmd; c++)
		printf "\n\t\t%s", sq_sh(cmds[c] ":" summary[cmds[c]])
	print "\n\t)"
	print "\tfor ((i = 2; i < CURRENT; i++)); do"
	print "\t\tw=${words[i]}"
	print "\t\tif [[ $w == -- ]]; then break"
	print "\t\telif [[ $w == -* ]]; then [[ $w != *=* && $takes == *\" $w \"* ]] && ((i++))"
	print "\t\telif [[ -z $cmd ]]; then cmd=$w"
	print "\t\telse operands+=(\"$w\")"
	print "\t\tfi"
	print "\tdone"
	print "\tif [[ $cur == --*=* ]]; then"
	print "\t\topt=${cur%%=*}"
	print "\t\tcompset -P '*='"
	print "\telif ((CURRENT > 2)) && [[ $takes == *\" ${words[CURRENT - 1]} \"* ]]; then"
	print "\t\topt=${words[CURRENT - 1]}"
	print "\tfi"
	print "\tif [[ -n $opt ]]; then"
	print "\t\tcase ${cmd:-doctor}:$opt in"
	for (j = 1; j <= nvalue; j++)
		if ((p = pattern("words", v = value_order[j])) != "")
			printf "\t\t(%s) compadd -- %s ;;\n", p, words[v]
	if ((p = pattern("dir", "")) != "")
		printf "\t\t(%s) _files -/ ;;\n", p
	if ((p = pattern("python", "")) != "")
		printf "\t\t(%s) compadd -- ${(k)commands[(I)python[0-9.]#]}; _files ;;\n", p
	print "\t\tesac"
	print "\t\treturn 0"
	print "\tfi"
	print "\tif [[ $cur == -* ]]; then"
	print "\t\tcase ${cmd:-doctor} in"
	for (c = 1; c <= ncmd; c++) {
		printf "\t\t(%s) gd_options=(", cmds[c]
		for (i = 1; i <= nopt; i++)
			if ((ocmd[i] == cmds[c] || ocmd[i] == "*") && ohelp[i] != "") {
				printf "\n\t\t\t%s", sq_sh(olong[i] ":" short(ohelp[i]))
				if (oletter[i] != "")
					printf " %s", sq_sh("-" oletter[i] ":" short(ohelp[i]))
			}
		print "\n\t\t) ;;"
	}
	print "\t\tesac"
	print "\t\t_describe -t options option gd_options"
	print "\t\treturn 0"
	print "\tfi"
	print "\tif [[ -z $cmd ]]; then"
	print "\t\t_describe -t commands command gd_commands"
	print "\t\treturn 0"
	print "\tfi"
	print "\tcase $cmd in"
	print "\t(explain) _files ;;"
	for (c = 1; c <= ncmd; c++) {
		q = cmds[c]
		if (!(q in queries))
			continue
		printf "\t(%s)\n", q
		printf "\t\tif ((${#operands} == 0)); then compadd -- %s\n", queries[q]
		printf "\t\telif ((${#operands} == 1)); then\n"
		printf "\t\t\tcase ${operands[1]} in\n"
		for (j = 1; j <= nsecond; j++) {
			split(k = second_order[j], kk, SUBSEP)
			if (kk[1] == q)
				printf "\t\t\t(%s) compadd -- %s ;;\n", kk[2], second[k]
		}
		printf "\t\t\tesac\n"
		printf "\t\tfi ;;\n"
	}
	print "\tesac"
	print "}"
	print ""
	print "_gpudoctor \"$@\""
}

function fish(    c, i, v, k, q, cond, spec, j, values) {
	print "# fish completion for gpudoctor(1). Written by tools/completion.awk from the"
	print "# program's option tables (tools/cli-spec): edit those, not this file."
	print ""
	print "# The words before the cursor: the command word (doctor when there is none) on"
	print "# the first line, then the operands after it."
	print "function __gpudoctor_words"
	print "    set -l tokens (commandline -opc)"
	print "    set -e tokens[1]"
	print "    set -l skip 0"
	print "    set -l cmd"
	print "    set -l operands"
	print "    for t in $tokens"
	print "        if test $skip = 1"
	print "            set skip 0"
	print "            continue"
	print "        end"
	print "        switch $t"
	print "            case --"
	print "                break"
	printf "            case"
	printf " %s", takes_list()
	print ""
	print "                set skip 1"
	print "            case '-*'"
	print "            case '*'"
	print "                if test -z \"$cmd\""
	print "                    set cmd $t"
	print "                else"
	print "                    set -a operands $t"
	print "                end"
	print "        end"
	print "    end"
	print "    if test -z \"$cmd\""
	print "        echo doctor"
	print "    else"
	print "        echo $cmd"
	print "    end"
	print "    test (count $operands) -gt 0; and printf '%s\\n' $operands"
	print "end"
	print ""
	print "function __gpudoctor_no_command"
	print "    set -l tokens (commandline -opc)"
	print "    set -e tokens[1]"
	print "    set -l skip 0"
	print "    for t in $tokens"
	print "        if test $skip = 1"
	print "            set skip 0"
	print "            continue"
	print "        end"
	print "        switch $t"
	print "            case --"
	print "                return 0"
	printf "            case"
	printf " %s", takes_list()
	print ""
	print "                set skip 1"
	print "            case '-*'"
	print "            case '*'"
	print "                return 1"
	print "        end"
	print "    end"
	print "    return 0"
	print "end"
	print ""
	print "# Whether the command is $argv[1] and it has $argv[2] operands so far (any number if not given)."
	print "function __gpudoctor_is"
	print "    set -l w (__gpudoctor_words)"
	print "    test \"$w[1]\" = $argv[1]; or return 1"
	print "    test (count $argv) -lt 2; and return 0"
	print "    test (math (count $w) - 1) -eq $argv[2]"
	print "end"
	print ""
	print "# The first operand, for a query's second word."
	print "function __gpudoctor_operand"
	print "    set -l w (__gpudoctor_words)"
	print "    test \"$w[2]\" = $argv[1]"
	print "end"
	print ""
	print "# Interpreters on PATH named python, python3, python3.12..., then file names."
	print "function __gpudoctor_pythons"
	print "    for d in $PATH"
	print "        for f in $d/python*"
	print "            set -l n (basename $f)"
	print "            string match -qr '^python[0-9.]*$' -- $n; and echo $n"
	print "        end"
	print "    end | sort -u"
	print "    __fish_complete_path (commandline -ct)"
	print "end"
	print ""
	print "complete -c gpudoctor -f"
	for (c = 1; c <= ncmd; c++)
		printf "complete -c gpudoctor -n __gpudoctor_no_command -a %s -d %s\n", cmds[c], sq_fish(summary[cmds[c]])
	for (c = 1; c <= ncmd; c++) {
		cond = sq_fish("__gpudoctor_is " cmds[c])
		for (i = 1; i <= nopt; i++) {
			if (!(ocmd[i] == cmds[c] || ocmd[i] == "*") || ohelp[i] == "")
				continue
			spec = "-l " substr(olong[i], 3)
			if (oletter[i] != "")
				spec = spec " -s " oletter[i]
			# the values first, without the option's description, then the option with it
			v = ovalue[i]
			values = ""
			if (v != "" && kind[v] == "words")
				values = sq_fish(words[v])
			else if (v != "" && kind[v] == "dir")
				values = sq_fish("(__fish_complete_directories (commandline -ct))")
			else if (v != "" && kind[v] == "python")
				values = sq_fish("(__gpudoctor_pythons)")
			if (values != "")
				printf "complete -c gpudoctor -n %s %s -x -a %s\n", cond, spec, values
			if (v != "")
				spec = spec " -x"
			printf "complete -c gpudoctor -n %s %s -d %s\n", cond, spec, sq_fish(short(ohelp[i]))
		}
	}
	print "complete -c gpudoctor -n '__gpudoctor_is explain' -F"
	for (c = 1; c <= ncmd; c++) {
		q = cmds[c]
		if (!(q in queries))
			continue
		printf "complete -c gpudoctor -n %s -a %s\n", sq_fish("__gpudoctor_is " q " 0"), sq_fish(queries[q])
		for (j = 1; j <= nsecond; j++) {
			split(k = second_order[j], kk, SUBSEP)
			if (kk[1] == q)
				printf "complete -c gpudoctor -n %s -a %s\n", sq_fish("__gpudoctor_is " q " 1; and __gpudoctor_operand " kk[2]), sq_fish(second[k])
		}
	}
}
