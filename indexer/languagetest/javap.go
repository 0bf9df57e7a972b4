package languagetest

import (
	"bufio"
	"bytes"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// JVMCall is one call in compiled JVM bytecode, as javap prints it: the
// method a compiler chose, which makes the class files of a JVM language
// the judge of its overload resolution.
type JVMCall struct {
	Class  string // the calling class, a binary name with dots (a.b.C$D)
	Method string // the calling method; <init> and <clinit> for initializers
	Line   int    // the source line of the call (LineNumberTable)
	Op     string // invokevirtual, invokestatic, invokespecial, invokeinterface
	Owner  string // the called method's class, a binary name with dots
	Name   string // the called method's name
	Desc   string // the called method's descriptor, as (I)V
}

// CompileJVM compiles the files glob matches with compiler (a path),
// args before them, into a temporary folder, and returns the calls of
// the class files it wrote (JVMCalls). It fails t when no file matches or
// the compiler fails.
func CompileJVM(t testing.TB, compiler string, args []string, glob string) []JVMCall {
	t.Helper()
	srcs, err := filepath.Glob(glob)
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no files match %s: %v", glob, err)
	}
	out := t.TempDir()
	if b, err := exec.Command(compiler, slices.Concat(args, []string{"-d", out}, srcs)...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(compiler), err, b)
	}
	return JVMCalls(t, out)
}

// JVMCalls disassembles every class file below dir with javap and
// returns the calls their methods make, in javap's order. It fails t
// when javap is missing or fails.
func JVMCalls(t testing.TB, dir string) []JVMCall {
	t.Helper()
	javap := LookTool(t, "javap", "install a JDK")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".class") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no class files below %s", dir)
	}
	sort.Strings(files)
	out, err := exec.Command(javap, append([]string{"-c", "-l", "-p"}, files...)...).Output()
	if err != nil {
		t.Fatalf("javap: %v", err)
	}
	return ParseJavap(out)
}

// ParseJavap reads the output of javap -c -l -p: the calls of each
// method, each at the line whose LineNumberTable entry starts at or
// before the call's offset.
func ParseJavap(out []byte) []JVMCall {
	var (
		calls  []JVMCall
		class  string
		method string
		at     []int     // the offsets of the method's calls so far
		mine   []JVMCall // the method's calls, their Line not yet known
		lines  [][2]int  // the method's LineNumberTable: offset, line
		flush  = func() {
			sort.Slice(lines, func(i, j int) bool { return lines[i][0] < lines[j][0] })
			for i := range mine {
				for _, l := range lines {
					if l[0] <= at[i] {
						mine[i].Line = l[1]
					}
				}
			}
			calls = append(calls, mine...)
			at, mine, lines = nil, nil, nil
		}
	)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case !strings.HasPrefix(line, " ") && strings.HasSuffix(trimmed, "{"):
			flush()
			class = className(trimmed)
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.HasSuffix(trimmed, ";"):
			flush()
			method = methodName(trimmed, class)
		case strings.HasPrefix(trimmed, "line "):
			l, pc, ok := strings.Cut(strings.TrimPrefix(trimmed, "line "), ": ")
			n, err1 := strconv.Atoi(l)
			off, err2 := strconv.Atoi(pc)
			if ok && err1 == nil && err2 == nil {
				lines = append(lines, [2]int{off, n})
			}
		default:
			if c, off, ok := invoke(trimmed, class); ok {
				c.Class, c.Method = class, method
				mine, at = append(mine, c), append(at, off)
			}
		}
	}
	flush()
	return calls
}

// className reads the class a javap header line declares:
// "public final class a.b.C<T> extends D {".
func className(header string) string {
	f := strings.Fields(header)
	for i, w := range f {
		if (w == "class" || w == "interface") && i+1 < len(f) {
			name, _, _ := strings.Cut(f[i+1], "<")
			return name
		}
	}
	return ""
}

// methodName reads the method a javap member line declares:
// "public int f(int);", "public a.B();" (a constructor), "static {};".
func methodName(decl, class string) string {
	if decl == "static {};" {
		return "<clinit>"
	}
	before, _, ok := strings.Cut(decl, "(")
	if !ok {
		return "" // a field
	}
	name := before[strings.LastIndexByte(before, ' ')+1:]
	if name == class {
		return "<init>"
	}
	return name
}

// invoke reads an instruction line that calls a method:
// "2: invokevirtual #20  // Method a/B.f:(I)I" (the owner left out when
// it is class). It returns the call and its offset.
func invoke(ins, class string) (JVMCall, int, bool) {
	pc, rest, ok := strings.Cut(ins, ": ")
	if !ok || !strings.HasPrefix(rest, "invoke") || strings.HasPrefix(rest, "invokedynamic") {
		return JVMCall{}, 0, false
	}
	off, err := strconv.Atoi(pc)
	op, _, _ := strings.Cut(rest, " ")
	_, ref, found := strings.Cut(rest, "// ")
	if err != nil || !found {
		return JVMCall{}, 0, false
	}
	_, ref, _ = strings.Cut(ref, " ") // "Method" or "InterfaceMethod"
	target, desc, ok := strings.Cut(ref, ":")
	if !ok {
		return JVMCall{}, 0, false
	}
	owner, name := class, target
	if i := strings.LastIndexByte(target, '.'); i >= 0 {
		owner, name = strings.ReplaceAll(target[:i], "/", "."), target[i+1:]
	}
	return JVMCall{Op: op, Owner: owner, Name: strings.Trim(name, `"`), Desc: desc}, off, true
}
