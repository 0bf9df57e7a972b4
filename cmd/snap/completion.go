package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/clientconfig"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

var completionShells = []string{"bash", "zsh", "fish"}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script for bash, zsh or fish",
		UsageText: "snap completion bash|zsh|fish",
		ArgsUsage: "SHELL",
		Description: "Prints a script that completes snap's commands, their flags, the clients of\n" +
			"snap setup, and the tools of snap query with each tool's arguments. The script\n" +
			"is made from this binary's commands: load it again after upgrading snap.\n" +
			"Completion never runs snap.\n\n" +
			"On Ubuntu, snapd's completion for its own snap command is replaced in the\n" +
			"shells that load this script.\n\n" +
			"Examples:\n" +
			"  snap completion bash > ~/.local/share/bash-completion/completions/snap\n" +
			"  echo 'source <(snap completion bash)' >> ~/.bashrc\n" +
			"  snap completion zsh > \"${fpath[1]}/_snap\"    # then start a new zsh\n" +
			"  snap completion fish > ~/.config/fish/completions/snap.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("completion: name a shell: %s", strings.Join(completionShells, ", "))
			}
			if err := exactArgs(c, 1, 1); err != nil {
				return err
			}
			cmds := completionTree(c.App)
			var script string
			switch shell := c.Args().First(); shell {
			case "bash":
				script = bashCompletion(c.App.Name, cmds)
			case "zsh":
				script = zshCompletion(c.App.Name, cmds)
			case "fish":
				script = fishCompletion(c.App.Name, cmds)
			default:
				return usagef("completion: unknown shell %q (have %s)", shell, strings.Join(completionShells, ", "))
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}

// compCmd is what completion knows of a command. The root, the program
// itself, has an empty name; its words are the commands.
type compCmd struct {
	names []string // the name, then the aliases
	usage string
	flags []compFlag
	// words are what the first argument may be; without words, any file.
	words []compWord
	// after holds the flags offered once the first argument is a given
	// word (a tool's arguments after snap query TOOL).
	after map[string][]compFlag
}

type compWord struct{ word, usage string }

type compFlag struct {
	long, short string // without dashes; either may be empty
	usage       string
	value       string // the name of the value it takes; "" for a switch
}

// completionTree describes app's visible commands for completion, the
// root first.
func completionTree(app *cli.App) []compCmd {
	root := compCmd{flags: []compFlag{
		{long: "help", short: "h", usage: "show help"},
		{long: "version", short: "v", usage: "print the version"},
	}}
	var cmds []compCmd
	for _, c := range app.VisibleCommands() {
		cc := compCmd{names: c.Names(), usage: c.Usage, flags: completionFlags(c.VisibleFlags())}
		if !slices.ContainsFunc(cc.flags, func(f compFlag) bool { return f.long == "help" }) {
			cc.flags = append(cc.flags, compFlag{long: "help", short: "h", usage: "show help"})
		}
		switch c.Name {
		case "help":
			for _, o := range app.VisibleCommands() {
				cc.words = append(cc.words, compWord{o.Name, o.Usage})
			}
		case "setup":
			for _, cl := range clientconfig.Clients {
				cc.words = append(cc.words, compWord{cl.Name, cl.Title})
			}
		case "completion":
			for _, sh := range completionShells {
				cc.words = append(cc.words, compWord{sh, ""})
			}
		case "query":
			cc.flags = queryCompletionFlags()
			cc.words, cc.after = toolCompletions()
		}
		cmds = append(cmds, cc)
		for _, name := range c.Names() {
			root.words = append(root.words, compWord{name, c.Usage})
		}
	}
	return append([]compCmd{root}, cmds...)
}

func completionFlags(flags []cli.Flag) []compFlag {
	var out []compFlag
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		value, usage := unquoteUsage(df.GetUsage())
		if !df.TakesValue() {
			value = ""
		} else if value == "" {
			value = "value"
		}
		cf := compFlag{usage: usage, value: value}
		for _, n := range f.Names() {
			switch {
			case len(n) == 1 && cf.short == "":
				cf.short = n
			case len(n) > 1 && cf.long == "":
				cf.long = n
			}
		}
		out = append(out, cf)
	}
	return out
}

// unquoteUsage returns the placeholder of a flag's usage, the word
// between backquotes, and the usage without them (as urfave/cli does).
func unquoteUsage(usage string) (string, string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	name, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return name, before + name + after
}

// queryCompletionFlags are the options of snap query, which parses its
// own flags.
func queryCompletionFlags() []compFlag {
	return []compFlag{
		{long: "snapshot", usage: "answer from the snapshot in this folder", value: "FOLDER"},
		{long: "store", usage: "store URL (default: .snap/ at the repository root)", value: "URL"},
		{long: "repo", usage: "repository name in the store", value: "NAME"},
		{long: "branch", usage: "branch in the store", value: "BRANCH"},
		{long: "json", usage: "print the answer on one line"},
		{long: "list", usage: "list the tools and their arguments"},
		{long: "help", short: "h", usage: "show help"},
	}
}

// toolCompletions lists the tools of the catalog, without their snap_
// prefix, and the arguments each takes; not the former names the compat
// toolset keeps.
func toolCompletions() ([]compWord, map[string][]compFlag) {
	reg, err := mcp.NewRegistry(&query.Holder{})
	if err != nil {
		return nil, nil
	}
	var words []compWord
	after := make(map[string][]compFlag)
	for _, t := range reg.Tools() {
		if t.Toolset == mcp.ToolsetCompat {
			continue
		}
		name := strings.TrimPrefix(t.Name, "snap_")
		words = append(words, compWord{name, t.Title})
		var schema struct {
			Properties map[string]struct {
				Type        any    `json:"type"`
				Description string `json:"description"`
			} `json:"properties"`
		}
		json.Unmarshal(t.InputSchema, &schema)
		var args []compFlag
		for arg, p := range schema.Properties {
			f := compFlag{long: arg, usage: firstSentence(p.Description), value: "value"}
			if p.Type == "boolean" {
				f.value = ""
			}
			args = append(args, f)
		}
		slices.SortFunc(args, func(a, b compFlag) int { return strings.Compare(a.long, b.long) })
		after[name] = args
	}
	return words, after
}

// firstSentence shortens a description to its first sentence.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}

func (f compFlag) spellings() []string {
	var s []string
	if f.long != "" {
		s = append(s, "--"+f.long)
	}
	if f.short != "" {
		s = append(s, "-"+f.short)
	}
	return s
}

func spellings(flags []compFlag, values bool) string {
	var s []string
	for _, f := range flags {
		if !values || f.value != "" {
			s = append(s, f.spellings()...)
		}
	}
	return strings.Join(s, " ")
}

func wordList(words []compWord) string {
	var s []string
	for _, w := range words {
		s = append(s, w.word)
	}
	return strings.Join(s, " ")
}

// bashCompletion is a bash script completing prog from cmds. A word is
// completed from the lists in the script; where no list applies (a path,
// a flag's value) bash completes file names.
func bashCompletion(prog string, cmds []compCmd) string {
	fn := "_" + shellName(prog)
	var b strings.Builder
	fmt.Fprintf(&b, `# bash completion for %[1]s, made by "%[1]s completion bash" (%[1]s %[2]s).
#
# Load it in this shell:        source <(%[1]s completion bash)
# or in every new one:          %[1]s completion bash > ~/.local/share/bash-completion/completions/%[1]s

%[3]s() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd= arg= flags= values= words= w i
    # The command is the first word that is not a flag.
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then
            cmd=${COMP_WORDS[i]}
            break
        fi
    done
    # flags: the flags; values: those taking a value; words: what the
    # first argument may be.
    case $cmd in
`, prog, version(), fn)
	for _, c := range cmds {
		label := "''"
		if len(c.names) > 0 {
			label = strings.Join(c.names, "|")
		}
		fmt.Fprintf(&b, "    %s)\n", label)
		fmt.Fprintf(&b, "        flags='%s'\n", spellings(c.flags, false))
		if v := spellings(c.flags, true); v != "" {
			fmt.Fprintf(&b, "        values='%s'\n", v)
		}
		if len(c.words) > 0 {
			fmt.Fprintf(&b, "        words='%s'\n", wordList(c.words))
		}
		b.WriteString("        ;;\n")
	}
	fmt.Fprintf(&b, `    *)
        return
        ;;
    esac
    if [[ -n $cmd ]]; then
        # The first argument: the first word after the command that is
        # neither a flag nor a flag's value.
        for ((i++; i < COMP_CWORD; i++)); do
            w=${COMP_WORDS[i]}
            if [[ " $values " == *" $w "* ]]; then
                ((i++))
            elif [[ $w != -* ]]; then
                arg=$w
                break
            fi
        done
        case $cmd:$arg in
`)
	for _, c := range cmds {
		for _, w := range sortedKeys(c.after) {
			if len(c.after[w]) == 0 {
				continue
			}
			fmt.Fprintf(&b, "        %s:%s)\n", c.names[0], w)
			fmt.Fprintf(&b, "            flags+=' %s'\n", spellings(c.after[w], false))
			if v := spellings(c.after[w], true); v != "" {
				fmt.Fprintf(&b, "            values+=' %s'\n", v)
			}
			b.WriteString("            ;;\n")
		}
	}
	fmt.Fprintf(&b, `        esac
    fi
    if [[ " $values " == *" $prev "* ]]; then
        return # a flag's value: file names
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -z $arg && -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}

complete -o default -F %[1]s %[2]s
`, fn, prog)
	return b.String()
}

// zshCompletion is a zsh completion function for prog, to be put in a
// folder of $fpath as _prog, or sourced.
func zshCompletion(prog string, cmds []compCmd) string {
	fn := "_" + shellName(prog)
	var b strings.Builder
	fmt.Fprintf(&b, `#compdef %[1]s
# zsh completion for %[1]s, made by "%[1]s completion zsh" (%[1]s %[2]s).
#
# Load it in this shell:        source <(%[1]s completion zsh)
# or in every new one:          %[1]s completion zsh > "${fpath[1]}/_%[1]s"

%[3]s() {
    local curcontext=$curcontext state line ret=1
    typeset -A opt_args
    local -a commands
    commands=(
`, prog, version(), fn)
	root, cmds := cmds[0], cmds[1:]
	for _, w := range root.words {
		fmt.Fprintf(&b, "        %s\n", zshQuote(zshEscapeColon(w.word)+":"+w.usage))
	}
	b.WriteString("    )\n    _arguments -C \\\n")
	for _, f := range root.flags {
		fmt.Fprintf(&b, "        %s \\\n", zshFlagSpec(f, "'(- *)'"))
	}
	fmt.Fprintf(&b, `        '1:command:->command' \
        '*::argument:->argument' && ret=0
    case $state in
    command)
        _describe -t commands '%[1]s command' commands && ret=0
        ;;
    argument)
        curcontext=${curcontext%%:*:*}:%[1]s-$words[1]:
        case $words[1] in
`, prog)
	for _, c := range cmds {
		fmt.Fprintf(&b, "        %s)\n", strings.Join(c.names, "|"))
		if len(c.after) > 0 {
			b.WriteString("            local -a after\n            case $words[2] in\n")
			for _, w := range sortedKeys(c.after) {
				if len(c.after[w]) == 0 {
					continue
				}
				fmt.Fprintf(&b, "            %s)\n                after=(\n", w)
				for _, f := range c.after[w] {
					fmt.Fprintf(&b, "                    %s\n", zshFlagSpec(f, ""))
				}
				b.WriteString("                )\n                ;;\n")
			}
			b.WriteString("            esac\n")
		}
		b.WriteString("            _arguments \\\n")
		for _, f := range c.flags {
			fmt.Fprintf(&b, "                %s \\\n", zshFlagSpec(f, ""))
		}
		if len(c.after) > 0 {
			b.WriteString("                $after \\\n")
		}
		if len(c.words) > 0 {
			var ws []string
			for _, w := range c.words {
				if w.usage == "" {
					ws = append(ws, zshEscapeWord(w.word))
				} else {
					ws = append(ws, zshEscapeWord(w.word)+`\:`+zshEscapeWord(w.usage))
				}
			}
			fmt.Fprintf(&b, "                %s \\\n", zshQuote("1:argument:(("+strings.Join(ws, " ")+"))"))
		} else {
			b.WriteString("                '*:file:_files' \\\n")
		}
		b.WriteString("                && ret=0\n            ;;\n")
	}
	fmt.Fprintf(&b, `        esac
        ;;
    esac
    return ret
}

if [[ $funcstack[1] == %[1]s ]]; then
    # autoloaded from $fpath: complete now
    %[1]s "$@"
else
    # sourced
    compdef %[1]s %[2]s
fi
`, fn, prog)
	return b.String()
}

// zshFlagSpec is an _arguments spec of f; exclude is its exclusion list,
// quoted.
func zshFlagSpec(f compFlag, exclude string) string {
	desc := "[" + zshEscape(f.usage) + "]"
	value := ""
	if f.value != "" {
		value = ":" + zshEscapeColon(strings.ToLower(f.value)) + ":_files"
		if f.long != "" {
			desc = "=" + desc
		}
	}
	sp := f.spellings()
	if len(sp) == 1 {
		return exclude + zshQuote(sp[0]+desc+value)
	}
	if exclude == "" {
		exclude = zshQuote("(" + strings.Join(sp, " ") + ")")
	}
	// '(--help -h)'{--help,-h}'[show help]'
	return exclude + "{" + strings.Join(sp, ",") + "}" + zshQuote(strings.TrimPrefix(desc, "=")+value)
}

// zshEscape escapes the characters that end a description in an
// _arguments spec.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func zshEscapeColon(s string) string { return strings.ReplaceAll(s, ":", `\:`) }

// zshEscapeWord escapes s for a ((word\:description ...)) list.
func zshEscapeWord(s string) string {
	return strings.NewReplacer(`\`, `\\`, ":", `\:`, " ", `\ `, "(", `\(`, ")", `\)`).Replace(s)
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishCompletion is a fish script completing prog.
func fishCompletion(prog string, cmds []compCmd) string {
	p := shellName(prog)
	var b strings.Builder
	fmt.Fprintf(&b, `# fish completion for %[1]s, made by "%[1]s completion fish" (%[1]s %[2]s).
#
# Load it in this shell:        %[1]s completion fish | source
# or in every new one:          %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish

# the words after %[1]s so far, flags left out
function __fish_%[3]s_args
    for w in (commandline -opc)[2..-1]
        string match -q -- '-*' $w; or echo $w
    end
end

# __fish_%[3]s_in COMMAND [N]: completing the arguments of COMMAND [with N of them given]
function __fish_%[3]s_in
    set -l w (__fish_%[3]s_args)
    test "$w[1]" = "$argv[1]"; or return 1
    test (count $argv) -lt 2; or test (math (count $w) - 1) -eq $argv[2]
end

# __fish_%[3]s_after COMMAND WORD: completing after COMMAND WORD
function __fish_%[3]s_after
    set -l w (__fish_%[3]s_args)
    test "$w[1]" = "$argv[1]" -a "$w[2]" = "$argv[2]"
end

complete -c %[1]s -e
`, prog, version(), p)
	root, cmds := cmds[0], cmds[1:]
	top := fmt.Sprintf("test (count (__fish_%s_args)) -eq 0", p)
	for _, f := range root.flags {
		b.WriteString(fishFlag(prog, top, f))
	}
	for _, w := range root.words {
		fmt.Fprintf(&b, "complete -c %s -n %s -f -a %s -d %s\n", prog, fishQuote(top), fishQuote(w.word), fishQuote(w.usage))
	}
	for _, c := range cmds {
		b.WriteString("\n")
		for _, name := range c.names {
			in := fmt.Sprintf("__fish_%s_in %s", p, name)
			for _, f := range c.flags {
				b.WriteString(fishFlag(prog, in, f))
			}
			for _, w := range c.words {
				fmt.Fprintf(&b, "complete -c %s -n %s -f -a %s", prog, fishQuote(in+" 0"), fishQuote(w.word))
				if w.usage != "" {
					fmt.Fprintf(&b, " -d %s", fishQuote(w.usage))
				}
				b.WriteString("\n")
			}
			for _, w := range sortedKeys(c.after) {
				for _, f := range c.after[w] {
					b.WriteString(fishFlag(prog, fmt.Sprintf("__fish_%s_after %s %s", p, name, w), f))
				}
			}
		}
	}
	return b.String()
}

func fishFlag(prog, cond string, f compFlag) string {
	s := fmt.Sprintf("complete -c %s -n %s", prog, fishQuote(cond))
	if f.long != "" {
		s += " -l " + f.long
	}
	if f.short != "" {
		s += " -s " + f.short
	}
	if f.value != "" {
		s += " -r"
	} else {
		s += " -f"
	}
	if f.usage != "" {
		s += " -d " + fishQuote(f.usage)
	}
	return s + "\n"
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// shellName makes prog usable in a shell function's name.
func shellName(prog string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, prog)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
