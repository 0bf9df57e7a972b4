package languagetest

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestJVMCalls(t *testing.T) {
	javac := LookTool(t, "javac", "install a JDK")
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{"p/A.java": `package p;
class A {
  static int f(int x) { return x; }
  static int f(long x) { return 1; }
  int g(Object o) { return 2; }
  A() {
    f(1);
    f(2L); g("s");
  }
  class In {
    void h() { new A().g(
      f(3)); }
  }
}
`})
	var got []JVMCall
	for _, c := range CompileJVM(t, javac, nil, filepath.Join(dir, "p", "*.java")) {
		if !strings.HasPrefix(c.Owner, "java.") {
			got = append(got, c)
		}
	}
	want := []JVMCall{ // files in name order: A$In.class before A.class
		{"p.A$In", "h", 11, "invokespecial", "p.A", "<init>", "()V"},
		{"p.A$In", "h", 12, "invokestatic", "p.A", "f", "(I)I"},
		{"p.A$In", "h", 11, "invokevirtual", "p.A", "g", "(Ljava/lang/Object;)I"},
		{"p.A", "<init>", 7, "invokestatic", "p.A", "f", "(I)I"},
		{"p.A", "<init>", 8, "invokestatic", "p.A", "f", "(J)I"},
		{"p.A", "<init>", 8, "invokevirtual", "p.A", "g", "(Ljava/lang/Object;)I"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d calls, want %d:\n%v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
