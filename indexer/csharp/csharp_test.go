package csharp_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/csharp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestFixture runs the shared suite over the C# fixture, and over the
// tree named by $CSHARP_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/csharp/shop", "CSHARP_CORPUS", csharp.New())
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
var index = languagetest.EdgesWith(csharp.New())

func TestBasesByDeclaredKind(t *testing.T) {
	edges := index(t, map[string]string{
		"A.cs": `namespace N {
public interface IRepo { void Save(); }
public interface IBase {}
public interface IMore : IBase {}
public class Impl : IRepo, IMore { public void Save() {} }
public class Island {}
public class Sub : Island, IRepo { public void Save() {} }
public class Ext : Exception {}
public struct S : IRepo { public void Save() {} }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"N.Impl -implements-> N.IRepo (scope)",
		"N.Impl -implements-> N.IMore (scope)",
		"N.IMore -extends-> N.IBase (scope)",
		"N.Sub -extends-> N.Island (scope)",
		"N.Sub -implements-> N.IRepo (scope)",
		"N.Ext -extends-> ?Exception (unresolved: external Exception (base class or interface))",
		"N.S -implements-> N.IRepo (scope)",
	}, "N.Impl -extends->", "N.Sub -implements-> N.Island")
}

func TestScopes(t *testing.T) {
	edges := index(t, map[string]string{
		"Nested.cs": `namespace Outer.Inner
{
    using Alias = Outer.Other.Tool;
    using static Outer.Other.Helpers;

    public class Host
    {
        private Alias tool;
        public class Part { public void Run() {} }
        public void Go(Part p)
        {
            var tool = new Part();
            tool.Run();
            this.tool.Use();
            Alias.Make().Use();
            Assist(1);
            p.Run();
            Outer.Other.Tool.Make();
            Tool.Make().Use();
            tool.Use();
        }
    }
}`,
		"Other.cs": `namespace Outer.Other
{
    public class Tool
    {
        public static Tool Make() => new Tool();
        public void Use() {}
    }
    public static class Helpers
    {
        public static void Assist(int n) {}
        public static void Ext(this Tool t) {}
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"Outer.Inner.Host.Go -calls-> Outer.Inner.Host.Part.Run (receiver) Nested.cs:13",
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Use (receiver) Nested.cs:14",
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Make (import) Nested.cs:15",
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Use (receiver) Nested.cs:15",
		"Outer.Inner.Host.Go -calls-> Outer.Other.Helpers.Assist (import) Nested.cs:16",
		"Outer.Inner.Host.Go -calls-> Outer.Inner.Host.Part.Run (receiver) Nested.cs:17",
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Make (scope) Nested.cs:18",
		"Outer.Inner.Host.Go -calls-> ?tool.Use (unresolved: unknown method Use) Nested.cs:20",
	},
		// Tool is not imported (only aliased) into Outer.Inner: Tool.Make() names no type.
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Make (scope) Nested.cs:19",
		// the local tool (a Part) shadows the field.
		"Outer.Inner.Host.Go -calls-> Outer.Other.Tool.Use (receiver) Nested.cs:20",
	)
}

func TestPartialAndStatic(t *testing.T) {
	edges := index(t, map[string]string{
		"A.cs": `namespace N; public partial class P { public void A() { B(); C.Inst(); } public static int Count() => 0; }`,
		"B.cs": `namespace N; public partial class P { public void B() { A(); P.Count(); P.A(); } }
public class C { public void Inst() {} }`,
	})
	languagetest.Expect(t, edges, []string{
		"N.P.A -calls-> N.P.B (scope) A.cs:1",
		"N.P.B -calls-> N.P.A (scope) B.cs:1",
		"N.P.B -calls-> N.P.Count (scope) B.cs:1",
		"N.P.A -calls-> ?C.Inst (unresolved: instance member called on a type)",
		"N.P.B -calls-> ?P.A (unresolved: instance member called on a type)",
	})
}

func TestLocalsAndOpenBases(t *testing.T) {
	edges := index(t, map[string]string{
		"A.cs": `namespace N;
public class Helper { public static void Run() {} public void Go() {} }
public class C : External.Base
{
    public void Run() {}
    void F(Helper h)
    {
        Run();
        L();
        void L() {}
        h.Go();
        Helper.Run();
        Items.Add(1);
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"N.C.F -calls-> N.C.Run (scope) A.cs:8",
		"N.C.F -calls-> ?L (unresolved: local function) A.cs:9",
		"N.C.F -calls-> N.Helper.Go (receiver) A.cs:11",
		"N.C.F -calls-> N.Helper.Run (scope) A.cs:12",
		"N.C.F -calls-> ?Items.Add (unresolved: external Items) A.cs:13",
	})
}

// TestConfidence checks that a type named by simple name from code whose
// class has a base outside the snapshot gets a lower confidence: the base
// may declare a member of that name.
func TestConfidence(t *testing.T) {
	dir := t.TempDir()
	src := `namespace N;
public class Helper { public static void Run() {} }
public class C : External.Base { void F() { Helper.Run(); } }
public class D { void F() { Helper.Run(); } }`
	if err := os.WriteFile(filepath.Join(dir, "A.cs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: []indexer.Language{csharp.New()}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var conf []float32
	for _, e := range g.Edges {
		if e.Kind == "calls" && e.Dst != 0 {
			conf = append(conf, e.Confidence)
		}
	}
	if len(conf) != 2 || !(conf[0] == 0.8 && conf[1] == 1 || conf[0] == 1 && conf[1] == 0.8) {
		t.Errorf("confidences %v, want one 0.8 and one 1", conf)
	}
}

func TestTypeParameters(t *testing.T) {
	edges := index(t, map[string]string{
		"A.cs": `namespace N;
public class T { public void Run() {} }
public class Box<T> where T : new()
{
    private T item;
    public void Fill(T x) { x.Run(); item.Run(); new T(); }
    public void Other<U>(U u, T2 t) { u.Run(); t.Run(); }
}
public class T2 { public void Run() {} }`,
	})
	languagetest.Expect(t, edges, []string{"N.Box.Other -calls-> N.T2.Run (receiver) A.cs:7"},
		"N.Box.Fill -calls-> N.T.Run", "N.Box.Fill -instantiates-> N.T", "N.Box.Other -calls-> N.T.Run")
}
