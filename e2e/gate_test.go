package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gateCase is one language's file in the gate test: in the base, add
// takes two parameters, gone exists and a method (or, where the language
// has none, a function) is named m; the head drops add's second
// parameter, removes gone and renames m, leaving their callers as they
// were. Each caller must come out of `snap diff --fail-on broken` as a
// broken caller.
type gateCase struct {
	lang, file, base string
	head             [][2]string // replacements turning base into head
	callers          []string    // names of the callers that break
}

var gateCases = []gateCase{
	{"go", "golang/lib.go", `package golang

func Add(a, b int) int { return a + b }

func Gone() int { return 1 }

type K struct{}

func (K) M() int { return 1 }

func Use() int { return Add(1, 2) }

func UseGone() int { return Gone() }

func CallM() int {
	var k K
	return k.M()
}
`, [][2]string{{"Add(a, b int)", "Add(a int)"}, {"a + b", "a"}, {"func Gone() int { return 1 }\n", ""}, {"func (K) M()", "func (K) M2()"}},
		[]string{"Use", "UseGone", "CallM"}},
	{"python", "py/lib.py", `def add(a, b):
    return a + b


def gone():
    return 1


class K:
    def m(self):
        return 1


def use():
    return add(1, 2)


def use_gone():
    return gone()


def call_m():
    return K().m()
`, [][2]string{{"def add(a, b):\n    return a + b", "def add(a):\n    return a"}, {"def gone():\n    return 1\n", ""}, {"def m(self)", "def m2(self)"}},
		[]string{"use", "use_gone", "call_m"}},
	{"typescript", "ts/lib.ts", tsGate, tsHead, []string{"use", "useGone", "callM"}},
	{"tsx", "tsx/lib.tsx", tsGate, tsHead, []string{"use", "useGone", "callM"}},
	{"javascript", "js/lib.js", `export function add(a, b) { return a + b; }
export function gone() { return 1; }
export class K { m() { return 1; } }
export function use() { return add(1, 2); }
export function useGone() { return gone(); }
export function callM() { const k = new K(); return k.m(); }
`, [][2]string{{"add(a, b) { return a + b; }", "add(a) { return a; }"}, {"export function gone() { return 1; }\n", ""}, {"m() { return 1; }", "m2() { return 1; }"}},
		[]string{"use", "useGone", "callM"}},
	{"java", "java/p/Lib.java", `package p;

public class Lib {
  static int add(int a, int b) { return a + b; }
  static int gone() { return 1; }
  static int use() { return add(1, 2); }
  static int useGone() { return gone(); }
  static int callM() { K k = new K(); return k.m(); }
}

class K {
  int m() { return 1; }
}
`, [][2]string{{"add(int a, int b) { return a + b; }", "add(int a) { return a; }"}, {"  static int gone() { return 1; }\n", ""}, {"int m()", "int m2()"}},
		[]string{"use", "useGone", "callM"}},
	{"kotlin", "kt/p/Lib.kt", `package p

fun add(a: Int, b: Int): Int = a + b
fun gone(): Int = 1
class K { fun m(): Int = 1 }
fun use(): Int = add(1, 2)
fun useGone(): Int = gone()
fun callM(): Int { val k = K(); return k.m() }
`, [][2]string{{"add(a: Int, b: Int): Int = a + b", "add(a: Int): Int = a"}, {"fun gone(): Int = 1\n", ""}, {"fun m()", "fun m2()"}},
		[]string{"use", "useGone", "callM"}},
	{"csharp", "cs/Lib.cs", `namespace P
{
    public class Lib
    {
        public static int Add(int a, int b) { return a + b; }
        public static int Gone() { return 1; }
        public static int Use() { return Add(1, 2); }
        public static int UseGone() { return Gone(); }
        public static int CallM() { K k = new K(); return k.M(); }
    }

    public class K
    {
        public int M() { return 1; }
    }
}
`, [][2]string{{"Add(int a, int b) { return a + b; }", "Add(int a) { return a; }"}, {"        public static int Gone() { return 1; }\n", ""}, {"int M()", "int M2()"}},
		[]string{"Use", "UseGone", "CallM"}},
	{"scala", "scala/p/Lib.scala", `package p

object Lib {
  def add(a: Int, b: Int): Int = a + b
  def gone(): Int = 1
  def use(): Int = add(1, 2)
  def useGone(): Int = gone()
  def callM(): Int = { val k = new K(); k.m() }
}

class K {
  def m(): Int = 1
}
`, [][2]string{{"add(a: Int, b: Int): Int = a + b", "add(a: Int): Int = a"}, {"  def gone(): Int = 1\n", ""}, {"def m()", "def m2()"}},
		[]string{"use", "useGone", "callM"}},
	{"rust", "rs/src/lib.rs", `pub fn add(a: i32, b: i32) -> i32 { a + b }

pub fn gone() -> i32 { 1 }

pub struct K;

impl K {
    pub fn m(&self) -> i32 { 1 }
}

pub fn use_add() -> i32 { add(1, 2) }

pub fn use_gone() -> i32 { gone() }

pub fn call_m() -> i32 { let k = K; k.m() }
`, [][2]string{{"add(a: i32, b: i32) -> i32 { a + b }", "add(a: i32) -> i32 { a }"}, {"pub fn gone() -> i32 { 1 }\n", ""}, {"pub fn m(&self)", "pub fn m2(&self)"}},
		[]string{"use_add", "use_gone", "call_m"}},
	{"c", "c/lib.c", `int add(int a, int b) { return a + b; }
int gone(void) { return 1; }
int m(void) { return 1; }
int use(void) { return add(1, 2); }
int use_gone(void) { return gone(); }
int call_m(void) { return m(); }
`, [][2]string{{"add(int a, int b) { return a + b; }", "add(int a) { return a; }"}, {"int gone(void) { return 1; }\n", ""}, {"int m(void)", "int m2(void)"}},
		[]string{"use", "use_gone", "call_m"}},
	{"cpp", "cpp/lib.cpp", `int add(int a, int b) { return a + b; }
int gone() { return 1; }
class K {
 public:
  int m() { return 1; }
};
int use() { return add(1, 2); }
int useGone() { return gone(); }
int callM() {
  K k;
  return k.m();
}
`, [][2]string{{"add(int a, int b) { return a + b; }", "add(int a) { return a; }"}, {"int gone() { return 1; }\n", ""}, {"int m()", "int m2()"}},
		[]string{"use", "useGone", "callM"}},
	{"swift", "swift/Lib.swift", `func add(_ a: Int, _ b: Int) -> Int { return a + b }
func gone() -> Int { return 1 }
class K { func m() -> Int { return 1 } }
func use() -> Int { return add(1, 2) }
func useGone() -> Int { return gone() }
func callM() -> Int { let k = K(); return k.m() }
`, [][2]string{{"add(_ a: Int, _ b: Int) -> Int { return a + b }", "add(_ a: Int) -> Int { return a }"}, {"func gone() -> Int { return 1 }\n", ""}, {"func m()", "func m2()"}},
		[]string{"use", "useGone", "callM"}},
	{"php", "php/lib.php", `<?php
function add($a, $b) { return $a + $b; }
function gone() { return 1; }
class K { public function m() { return 1; } }
function useAdd() { return add(1, 2); }
function useGone() { return gone(); }
function callM() { $k = new K(); return $k->m(); }
`, [][2]string{{"add($a, $b) { return $a + $b; }", "add($a) { return $a; }"}, {"function gone() { return 1; }\n", ""}, {"function m()", "function m2()"}},
		[]string{"useAdd", "useGone", "callM"}},
	{"ruby", "rb/lib.rb", `module Lib
  def self.add(a, b)
    a + b
  end

  def self.gone
    1
  end

  def self.use
    add(1, 2)
  end

  def self.use_gone
    gone()
  end

  def self.call_m
    K.new.m
  end
end

class K
  def m
    1
  end
end
`, [][2]string{{"def self.add(a, b)\n    a + b", "def self.add(a)\n    a"}, {"  def self.gone\n    1\n  end\n\n", ""}, {"def m\n", "def m2\n"}},
		[]string{"use", "use_gone", "call_m"}},
	{"lua", "lua/lib.lua", `local M = {}

function M.add(a, b) return a + b end

function M.gone() return 1 end

local K = {}

function K:m() return 1 end

function M.use() return M.add(1, 2) end

function M.use_gone() return M.gone() end

function M.call_m() return K:m() end

return M
`, [][2]string{{"M.add(a, b) return a + b end", "M.add(a) return a end"}, {"function M.gone() return 1 end\n\n", ""}, {"function K:m()", "function K:m2()"}},
		[]string{"use", "use_gone", "call_m"}},
	{"bash", "sh/lib.sh", `#!/bin/bash
gone() { echo 1; }
m() { echo 1; }
use_gone() { gone; }
call_m() { m; }
`, [][2]string{{"gone() { echo 1; }\n", ""}, {"m() { echo 1; }", "m2() { echo 1; }"}},
		[]string{"use_gone", "call_m"}}, // a shell function has no parameters to drop
}

const tsGate = `export function add(a: number, b: number): number { return a + b; }
export function gone(): number { return 1; }
export class K { m(): number { return 1; } }
export function use(): number { return add(1, 2); }
export function useGone(): number { return gone(); }
export function callM(): number { const k = new K(); return k.m(); }
`

var tsHead = [][2]string{{"add(a: number, b: number): number { return a + b; }", "add(a: number): number { return a; }"},
	{"export function gone(): number { return 1; }\n", ""}, {"m(): number", "m2(): number"}}

// TestGateEveryLanguage runs the pull-request gate on a repository with
// one file per language: dropping a parameter, removing a function and
// renaming a method must each fail `snap diff --fail-on broken`, naming
// every caller left behind, in every language.
func TestGateEveryLanguage(t *testing.T) {
	repo := t.TempDir()
	store := filepath.Join(t.TempDir(), "store")
	write := func(name, src string) {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/gate\n\ngo 1.22\n")
	write("rs/Cargo.toml", "[package]\nname = \"gate\"\nversion = \"0.1.0\"\n")
	for _, c := range gateCases {
		write(c.file, c.base)
	}
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "base")
	if code, _, stderr := snapIn(t, repo, nil, "index", "-q", "--store", store, "."); code != 0 {
		t.Fatalf("index main: exit %d\n%s", code, stderr)
	}
	gitIn(t, repo, "checkout", "-q", "-b", "feature")
	for _, c := range gateCases {
		src := c.base
		for _, r := range c.head {
			if !strings.Contains(src, r[0]) {
				t.Fatalf("%s: the head's edit %q does not apply", c.lang, r[0])
			}
			src = strings.Replace(src, r[0], r[1], 1)
		}
		write(c.file, src)
	}
	gitIn(t, repo, "commit", "-q", "-am", "break every caller")
	if code, _, stderr := snapIn(t, repo, nil, "index", "-q", "--store", store, "."); code != 0 {
		t.Fatalf("index feature: exit %d\n%s", code, stderr)
	}

	code, stdout, stderr := snapIn(t, repo, nil, "diff", "--store", store, "--json", "--fail-on", "broken", "main", "feature")
	if code != 1 {
		t.Fatalf("snap diff --fail-on broken: exit %d, want 1\n%s", code, stderr)
	}
	var d struct {
		Symbols []struct {
			Change  string `json:"change"`
			QName   string `json:"qname"`
			Callers []struct {
				QName    string `json:"qname"`
				Location string `json:"location"`
				Reason   string `json:"reason"`
			} `json:"callers"`
		} `json:"symbols"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, stdout)
	}
	broken := map[string]string{} // file and caller name → reason
	for _, s := range d.Symbols {
		for _, c := range s.Callers {
			file, _, _ := strings.Cut(c.Location, ":")
			broken[file+" "+lastName(c.QName)] = s.Change + ": " + c.Reason
		}
	}
	missed := 0
	for _, c := range gateCases {
		for _, name := range c.callers {
			if _, ok := broken[c.file+" "+name]; !ok {
				t.Errorf("%s: %s is not listed as a broken caller", c.lang, name)
				missed++
			}
		}
	}
	// Where the head leaves the old call unresolved, the gate says why,
	// in the head's words.
	for _, site := range []string{"java/p/Lib.java use", "cs/Lib.cs Use", "kt/p/Lib.kt use"} {
		if r := broken[site]; !strings.HasPrefix(r, "signature: ") || len(r) == len("signature: ") {
			t.Errorf("%s: broken as %q, want the head's reason for the signature change", site, r)
		}
	}
	if missed > 0 || t.Failed() {
		t.Logf("broken callers listed: %v", broken)
	}
}

// lastName is the last name of a qualified name, whatever the language
// joins names with.
func lastName(q string) string {
	if i := strings.LastIndexAny(q, ".:#/\\"); i >= 0 {
		return q[i+1:]
	}
	return q
}
