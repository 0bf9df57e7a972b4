package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestResolveC(t *testing.T) {
	edges := languagetest.Edges(t, map[string]string{
		"a.h": "int shared(int x);\n",
		"a.c": "#include \"a.h\"\nstatic int helper(void) { return 1; }\nint shared(int x) { return helper() + x; }\n",
		"b.c": "#include \"a.h\"\nstatic int helper(void) { return 2; }\nint use(void) { return shared(helper()); }\n",
		// c.c includes nothing: shared and helper are not declared in view.
		"c.c": "int other(void) { return shared(1) + helper(); }\n",
		// Two programs define the same function; d.c sees only a declaration.
		"p1/main.c": "int dup(void) { return 1; }\n",
		"p2/main.c": "int dup(void) { return 2; }\n",
		"d.h":       "int dup(void);\n",
		"d.c":       "#include \"d.h\"\nint g(void) { return dup(); }\n",
		"s.c":       "struct ops { int (*run)(int); };\nint h(struct ops *o) { return o->run(1); }\n",
	}, c.New())
	languagetest.Expect(t, edges, []string{
		"shared -calls-> helper (local) a.c:3",
		"use -calls-> helper (local) b.c:3",
		"use -calls-> shared (import) b.c:3",
		"other -calls-> ?shared (unresolved",
		"other -calls-> ?helper (unresolved",
		"g -calls-> ?dup (ambiguous",
		"h -calls-> ?o->run (unresolved: call through a field",
	},
		"other -calls-> shared (",
		"other -calls-> helper (",
		"g -calls-> dup (",
	)
}

func TestResolveCpp(t *testing.T) {
	edges := languagetest.Edges(t, map[string]string{
		"base.hpp": `#pragma once
namespace zoo {
class Animal {
public:
	virtual int speak() const = 0;
	int twice() const { return speak() * 2; }
};
class Dog : public Animal {
public:
	int speak() const override;
	void feed(int n);
	void feed(double d);
	void walk(int n, int m = 1);
};
}
`,
		"dog.cpp": `#include "base.hpp"
namespace zoo {
int Dog::speak() const { return 1; }
void Dog::feed(int n) {}
void Dog::feed(double d) {}
void Dog::walk(int n, int m) { feed(n); feed(m * 2L); }
}
`,
		"main.cpp": `#include <memory>
#include "base.hpp"
using namespace zoo;
int run(Animal &a, Dog *d) {
	d->walk(1);
	d->walk(1, 2);
	auto p = std::make_unique<Dog>();
	p->speak();
	p.reset();
	Dog local;
	local.twice();
	return a.speak();
}
`,
	}, cpp.New(), c.New())
	languagetest.Expect(t, edges, []string{
		"run -calls-> zoo::Dog::walk (receiver) main.cpp:5",
		"run -calls-> zoo::Dog::walk (receiver) main.cpp:6",
		"run -calls-> zoo::Dog::speak (receiver) main.cpp:8",
		"run -calls-> zoo::Animal::twice (receiver) main.cpp:11",
		"run -calls-> zoo::Animal::speak (receiver) main.cpp:12",
		"run -calls-> ?p.reset (unresolved",
		"zoo::Animal::twice -calls-> zoo::Animal::speak (scope)",
		"zoo::Dog::walk -calls-> zoo::Dog::feed (scope) dog.cpp:6",
		"zoo::Dog::walk -calls-> ?feed (ambiguous: ambiguous overload)",
	},
		"run -calls-> zoo::Dog::speak (receiver) main.cpp:12",
		"run -calls-> zoo::Dog::feed",
	)
}

// TestOverloadArgs checks that an argument whose text starts like a
// literal or a cast but is a larger expression decides no overload.
func TestOverloadArgs(t *testing.T) {
	edges := languagetest.Edges(t, map[string]string{
		"a.cpp": `void g(char c) {}
void g(int i) {}
void g(int *p) {}
void f(int n) {
	g('c');
	g("a"[0]);
	g('c' + 1);
	g((char)n);
	g((char)n + 1);
	g(static_cast<char>(n) + 1);
	g(&n);
}
`,
	}, cpp.New())
	languagetest.Expect(t, edges, []string{
		"f -calls-> g (local) a.cpp:5",
		"f -calls-> ?g (ambiguous: several definitions) a.cpp:6",
		"f -calls-> ?g (ambiguous: several definitions) a.cpp:7",
		"f -calls-> g (local) a.cpp:8",
		"f -calls-> ?g (ambiguous: several definitions) a.cpp:9",
		"f -calls-> ?g (ambiguous: several definitions) a.cpp:10",
		"f -calls-> g (local) a.cpp:11",
	})
}
