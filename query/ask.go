package query

import (
	"fmt"
	"strings"
)

// Intent is what a question asks for: the tool that answers it.
type Intent uint8

// Intents. IntentContext, the zero value, is the fallback: the whole
// question goes to Context.
const (
	IntentContext         Intent = iota // anything else: Subject is the whole question
	IntentCallers                       // who calls Subject
	IntentCallees                       // what Subject calls
	IntentImpact                        // what a change to Subject affects
	IntentPath                          // how Subject reaches Object
	IntentDefinition                    // where and what Subject is
	IntentImplementations               // what implements or extends Subject
	IntentReferences                    // what references Subject
	IntentDependencies                  // what Subject (a file, module or package) imports
	IntentDependents                    // what imports Subject
	IntentOutline                       // the symbols of Subject (a file)
)

var intentNames = [...]string{"context", "callers", "callees", "impact", "path", "definition",
	"implementations", "references", "dependencies", "dependents", "outline"}

// String returns the intent's name ("callers").
func (i Intent) String() string {
	if int(i) < len(intentNames) {
		return intentNames[i]
	}
	return fmt.Sprintf("Intent(%d)", i)
}

// Question is a question in words, routed: its intent and the names it is
// about, as written (a name, a qualified name or a path).
type Question struct {
	Intent  Intent
	Subject string // the symbol or file asked about; the whole question for IntentContext
	Object  string // the target of IntentPath
}

// questionForms route questions, first match wins: narrower forms come
// before the forms they would otherwise fall into ("what does X call"
// before "what is X"). A leading '*' lets the form start anywhere in the
// question, at a word. {A} and {B} match a single name; a form whose name
// would hold a space does not match.
var questionForms = []struct {
	form   string
	intent Intent
}{
	{"how does {A} reach {B}", IntentPath},
	{"how does {A} call {B}", IntentPath},
	{"how does {A} invoke {B}", IntentPath},
	{"how does {A} get to {B}", IntentPath},
	{"how does {A} lead to {B}", IntentPath},
	{"how does {A} end up calling {B}", IntentPath},
	{"how does {A} end up in {B}", IntentPath},
	{"how does {A} use {B}", IntentPath},
	{"how does {A} depend on {B}", IntentPath},
	{"how do i get from {A} to {B}", IntentPath},
	{"how to get from {A} to {B}", IntentPath},
	{"how is {B} reached from {A}", IntentPath},
	{"how is {B} called from {A}", IntentPath},
	{"does {A} reach {B}", IntentPath},
	{"does {A} call {B}", IntentPath},
	{"can {A} reach {B}", IntentPath},
	{"is {B} reachable from {A}", IntentPath},
	{"*path from {A} to {B}", IntentPath},
	{"*path between {A} and {B}", IntentPath},
	{"*route from {A} to {B}", IntentPath},
	{"*chain from {A} to {B}", IntentPath},

	{"what does {A} call", IntentCallees},
	{"what does {A} call into", IntentCallees},
	{"what does {A} invoke", IntentCallees},
	{"what functions does {A} call", IntentCallees},
	{"what methods does {A} call", IntentCallees},
	{"which functions does {A} call", IntentCallees},
	{"which methods does {A} call", IntentCallees},
	{"what is called by {A}", IntentCallees},
	{"what's called by {A}", IntentCallees},
	{"what gets called by {A}", IntentCallees},
	{"*callees of {A}", IntentCallees},

	{"who calls {A}", IntentCallers},
	{"what calls {A}", IntentCallers},
	{"who invokes {A}", IntentCallers},
	{"what invokes {A}", IntentCallers},
	{"who is calling {A}", IntentCallers},
	{"what is calling {A}", IntentCallers},
	{"which functions call {A}", IntentCallers},
	{"which methods call {A}", IntentCallers},
	{"what functions call {A}", IntentCallers},
	{"what methods call {A}", IntentCallers},
	{"where is {A} called", IntentCallers},
	{"where is {A} called from", IntentCallers},
	{"where is {A} invoked", IntentCallers},
	{"where is {A} used", IntentCallers},
	{"where does {A} get called", IntentCallers},
	{"*callers of {A}", IntentCallers},
	{"*call sites of {A}", IntentCallers},

	{"what breaks if i change {A}", IntentImpact},
	{"what breaks if i modify {A}", IntentImpact},
	{"what breaks if i touch {A}", IntentImpact},
	{"what breaks if {A} changes", IntentImpact},
	{"what breaks when {A} changes", IntentImpact},
	{"what would break if i change {A}", IntentImpact},
	{"what would break if i modify {A}", IntentImpact},
	{"what would break if {A} changed", IntentImpact},
	{"what would break if {A} changes", IntentImpact},
	{"if i change {A} what breaks", IntentImpact},
	{"what is affected by changing {A}", IntentImpact},
	{"what is affected if i change {A}", IntentImpact},
	{"what is affected by {A}", IntentImpact},
	{"what's affected by {A}", IntentImpact},
	{"what is impacted by {A}", IntentImpact},
	{"what does changing {A} affect", IntentImpact},
	{"what would changing {A} affect", IntentImpact},
	{"what depends on {A}", IntentImpact},
	{"who depends on {A}", IntentImpact},
	{"*impact of changing {A}", IntentImpact},
	{"*impact of {A}", IntentImpact},
	{"*blast radius of {A}", IntentImpact},

	{"what implements {A}", IntentImplementations},
	{"who implements {A}", IntentImplementations},
	{"which types implement {A}", IntentImplementations},
	{"which classes implement {A}", IntentImplementations},
	{"what extends {A}", IntentImplementations},
	{"who extends {A}", IntentImplementations},
	{"which classes extend {A}", IntentImplementations},
	{"what inherits from {A}", IntentImplementations},
	{"who inherits from {A}", IntentImplementations},
	{"what subclasses {A}", IntentImplementations},
	{"*implementations of {A}", IntentImplementations},
	{"*implementers of {A}", IntentImplementations},
	{"*implementors of {A}", IntentImplementations},
	{"*subclasses of {A}", IntentImplementations},
	{"*classes that implement {A}", IntentImplementations},
	{"*types that implement {A}", IntentImplementations},
	{"*classes that extend {A}", IntentImplementations},

	{"who references {A}", IntentReferences},
	{"what references {A}", IntentReferences},
	{"who refers to {A}", IntentReferences},
	{"what refers to {A}", IntentReferences},
	{"who uses {A}", IntentReferences},
	{"what uses {A}", IntentReferences},
	{"which functions use {A}", IntentReferences},
	{"*references to {A}", IntentReferences},
	{"*references of {A}", IntentReferences},
	{"*usages of {A}", IntentReferences},
	{"*uses of {A}", IntentReferences},

	{"what does {A} import", IntentDependencies},
	{"what does {A} depend on", IntentDependencies},
	{"what packages does {A} import", IntentDependencies},
	{"what modules does {A} import", IntentDependencies},
	{"which packages does {A} import", IntentDependencies},
	{"what is imported by {A}", IntentDependencies},
	{"*imports of {A}", IntentDependencies},
	{"*dependencies of {A}", IntentDependencies},
	{"*deps of {A}", IntentDependencies},

	{"who imports {A}", IntentDependents},
	{"what imports {A}", IntentDependents},
	{"which files import {A}", IntentDependents},
	{"which packages import {A}", IntentDependents},
	{"which modules import {A}", IntentDependents},
	{"where is {A} imported", IntentDependents},
	{"*importers of {A}", IntentDependents},
	{"*dependents of {A}", IntentDependents},

	{"what is in {A}", IntentOutline},
	{"what's in {A}", IntentOutline},
	{"what is inside {A}", IntentOutline},
	{"what is defined in {A}", IntentOutline},
	{"what's defined in {A}", IntentOutline},
	{"what is declared in {A}", IntentOutline},
	{"what does {A} contain", IntentOutline},
	{"outline {A}", IntentOutline},
	{"*outline of {A}", IntentOutline},
	{"*symbols in {A}", IntentOutline},
	{"*symbols of {A}", IntentOutline},
	{"*contents of {A}", IntentOutline},
	{"*structure of {A}", IntentOutline},

	{"where is {A} defined", IntentDefinition},
	{"where is {A} declared", IntentDefinition},
	{"where is {A} implemented", IntentDefinition},
	{"where does {A} live", IntentDefinition},
	{"where is {A}", IntentDefinition},
	{"where's {A}", IntentDefinition},
	{"what is {A}", IntentDefinition},
	{"what's {A}", IntentDefinition},
	{"what does {A} do", IntentDefinition},
	{"*definition of {A}", IntentDefinition},
	{"find {A}", IntentDefinition},
	{"show {A}", IntentDefinition},
	{"define {A}", IntentDefinition},
	{"locate {A}", IntentDefinition},
	{"look up {A}", IntentDefinition},
	{"lookup {A}", IntentDefinition},
	{"go to {A}", IntentDefinition},
	{"jump to {A}", IntentDefinition},
	{"{A}", IntentDefinition}, // a bare name
}

// politeness is what a question may start with that routes nothing.
var politeness = []string{"please ", "can you ", "could you ", "would you ", "tell me ", "show me ",
	"i want to know ", "i'd like to know ", "do you know ", "i wonder ", "so ", "ok ", "okay ", "hey "}

// ParseQuestion routes a question in words to an intent, deterministically:
// "who calls X", "where is X used" (callers); "what does X call"
// (callees); "what breaks if I change X", "what depends on X", "impact of
// X" (impact); "how does A reach B", "path from A to B" (path); "where is
// X defined", "what is X", "find X", "show X", a bare name (definition);
// "what implements X", "subclasses of X" (implementations); "who
// references X", "who uses X" (references); "what does FILE import"
// (dependencies); "who imports X" (dependents); "what is in FILE",
// "outline of FILE" (outline), and a few more phrasings of each. Case,
// quotes, backticks, a trailing '?', polite openings ("can you tell me")
// and "the function"-like words around names are ignored. A question that
// fits no form, or whose names would not be single words, is
// IntentContext with the whole question as Subject.
func ParseQuestion(text string) Question {
	s := normalizeSentence(text)
	for {
		before := s
		for _, p := range politeness {
			if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
				s = s[len(p):]
			}
		}
		if s == before {
			break
		}
	}
	for _, f := range questionForms {
		if a, b, ok := matchForm(f.form, s); ok {
			return Question{Intent: f.intent, Subject: a, Object: b}
		}
	}
	return Question{Intent: IntentContext, Subject: strings.TrimSpace(text)}
}

// normalizeSentence collapses white space, drops quotes and backticks
// around words, and trailing '?', '.' and '!'.
func normalizeSentence(s string) string {
	const ends = "?.!"
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(s), ends+" "))
	out := f[:0]
	for _, w := range f {
		if w = strings.Trim(w, "`\"'“”‘’"); w != "" {
			out = append(out, w)
		}
	}
	return strings.TrimRight(strings.Join(out, " "), ends)
}

// matchForm matches text against form ("how does {A} reach {B}"): the
// form's words ignoring ASCII case, and a name for each hole, cleaned by
// cleanName. A leading '*' lets the form start at any word of text.
func matchForm(form, text string) (a, b string, ok bool) {
	lower := foldASCII(text)
	anywhere := strings.HasPrefix(form, "*")
	form = strings.TrimPrefix(form, "*")
	// Split the form into literals around its holes.
	var lits, holes []string
	for {
		i := strings.IndexByte(form, '{')
		if i < 0 {
			lits = append(lits, form)
			break
		}
		lits = append(lits, form[:i])
		holes = append(holes, form[i:i+3])
		form = form[i+3:]
	}
	pos := 0
	switch {
	case anywhere:
		i := 0
		for {
			j := strings.Index(lower[i:], lits[0])
			if j < 0 {
				return "", "", false
			}
			if i+j == 0 || lower[i+j-1] == ' ' {
				pos = i + j + len(lits[0])
				break
			}
			i += j + 1
		}
	case strings.HasPrefix(lower, lits[0]):
		pos = len(lits[0])
	default:
		return "", "", false
	}
	if len(holes) == 0 {
		return "", "", pos == len(lower)
	}
	caps := map[string]string{}
	for k, h := range holes {
		lit := lits[k+1]
		var c string
		switch {
		case k == len(holes)-1:
			if !strings.HasSuffix(lower, lit) || len(lower)-len(lit) < pos {
				return "", "", false
			}
			c = text[pos : len(text)-len(lit)]
		default:
			j := strings.Index(lower[pos:], lit)
			if j < 0 {
				return "", "", false
			}
			c = text[pos : pos+j]
			pos += j + len(lit)
		}
		name, ok := cleanName(c)
		if !ok {
			return "", "", false
		}
		caps[h] = name
	}
	return caps["{A}"], caps["{B}"], true
}

// nameFillers are the words a name may come with: "the function Serve",
// "the Server type".
var (
	namePrefixes = []string{"the ", "a ", "an ", "function ", "func ", "method ", "class ", "struct ",
		"interface ", "trait ", "enum ", "type ", "file ", "package ", "module ", "symbol ", "variable ",
		"constant ", "field ", "def "}
	nameSuffixes = []string{" function", " func", " method", " class", " struct", " interface",
		" trait", " enum", " type", " file", " package", " module", " symbol", " variable", " constant",
		" field"}
	notNames = setOf("it this that them these those what who which here there something anything everything i me")
)

// cleanName strips filler words, quotes and a trailing "()" from a name as
// a question or claim writes it, and reports whether what is left is one
// word.
func cleanName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for changed := true; changed; {
		changed = false
		for _, p := range namePrefixes {
			if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
				s, changed = s[len(p):], true
			}
		}
		for _, p := range nameSuffixes {
			if len(s) > len(p) && strings.EqualFold(s[len(s)-len(p):], p) {
				s, changed = s[:len(s)-len(p)], true
			}
		}
	}
	s = strings.Trim(s, "`\"'“”‘’")
	s = strings.TrimSuffix(s, "()")
	if s == "" || strings.ContainsAny(s, " \t") || notNames[foldASCII(s)] {
		return "", false
	}
	return s, true
}
