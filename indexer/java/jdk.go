package java

import "strings"

// The resolver knows nothing of the JDK but what is below: the simple
// names java.lang exports (imported implicitly by every file), and the
// complete method sets of the few JDK types that classes commonly extend
// or implement. A class whose supertypes are all known here is closed: a
// member it does not declare is not inherited from outside the snapshot.
// Any other external supertype makes the class open.

// javaLang holds the public types of java.lang code names unqualified.
var javaLang = setOf(`
	Object String System Math StrictMath Integer Long Short Byte Double Float Character Boolean Number Void
	Class ClassLoader Enum Record Thread ThreadLocal InheritableThreadLocal Runnable Iterable Comparable
	CharSequence StringBuilder StringBuffer AutoCloseable Cloneable Runtime Process ProcessBuilder
	ProcessHandle StackWalker StackTraceElement Module ModuleLayer Package SecurityManager Appendable
	Readable Override Deprecated SuppressWarnings FunctionalInterface SafeVarargs ScopedValue
	Throwable Exception RuntimeException Error IllegalArgumentException IllegalStateException
	NullPointerException UnsupportedOperationException IndexOutOfBoundsException
	ArrayIndexOutOfBoundsException StringIndexOutOfBoundsException ClassCastException ArithmeticException
	NumberFormatException InterruptedException CloneNotSupportedException ReflectiveOperationException
	ClassNotFoundException NoSuchFieldException NoSuchMethodException InstantiationException
	IllegalAccessException SecurityException NegativeArraySizeException ArrayStoreException
	IllegalMonitorStateException EnumConstantNotPresentException TypeNotPresentException
	StackOverflowError OutOfMemoryError AssertionError LinkageError NoClassDefFoundError
	ExceptionInInitializerError VirtualMachineError InternalError UnsatisfiedLinkError
	IncompatibleClassChangeError AbstractMethodError NoSuchFieldError NoSuchMethodError
	MatchException WrongThreadException`)

// knownType is a JDK type whose methods are all listed, inherited ones
// included, with their erased parameter types by simple name; "*" stands
// for a type variable, which any type may override.
type knownType struct {
	methods map[string][][]string
}

func (k *knownType) has(name string) bool { return k.methods[name] != nil }

const (
	objectMethods = "equals(Object) hashCode() toString() getClass() notify() notifyAll() wait() wait(long) wait(long,int) " +
		"clone() finalize()"
	throwableMethods = "getMessage() getLocalizedMessage() getCause() initCause(Throwable) printStackTrace() " +
		"printStackTrace(PrintStream) printStackTrace(PrintWriter) getStackTrace() setStackTrace(StackTraceElement[]) " +
		"fillInStackTrace() addSuppressed(Throwable) getSuppressed()"
)

var knownTypes = func() map[string]*knownType {
	m := make(map[string]*knownType)
	add := func(names, methods string) {
		k := &knownType{methods: make(map[string][][]string)}
		for _, sig := range strings.Fields(objectMethods + " " + methods) {
			name, params, _ := strings.Cut(strings.TrimSuffix(sig, ")"), "(")
			var ps []string
			if params != "" {
				ps = strings.Split(params, ",")
			}
			k.methods[name] = append(k.methods[name], ps)
		}
		for _, name := range strings.Fields(names) {
			m[name] = k
		}
	}
	add("java.lang.Object java.io.Serializable java.lang.Cloneable java.util.RandomAccess java.util.EventListener", "")
	add("java.lang.Record", "")
	// values() and valueOf(String) are implicit members of every enum.
	add("java.lang.Enum", "name() ordinal() compareTo(*) getDeclaringClass() describeConstable() valueOf(String) "+
		"valueOf(Class,String) values()")
	add("java.lang.Comparable", "compareTo(*)")
	add("java.lang.Runnable", "run()")
	add("java.util.concurrent.Callable", "call()")
	add("java.lang.AutoCloseable java.io.Closeable", "close()")
	add("java.lang.Iterable", "iterator() forEach(Consumer) spliterator()")
	add("java.util.function.Supplier", "get()")
	add("java.util.function.Consumer", "accept(*) andThen(Consumer)")
	add("java.util.function.BiConsumer", "accept(*,*) andThen(BiConsumer)")
	add("java.util.function.Function", "apply(*) andThen(Function) compose(Function) identity()")
	add("java.util.function.BiFunction", "apply(*,*) andThen(Function)")
	add("java.util.function.Predicate", "test(*) and(Predicate) or(Predicate) negate() not(Predicate) isEqual(Object)")
	add("java.lang.Throwable java.lang.Exception java.lang.RuntimeException java.lang.Error "+
		"java.lang.IllegalArgumentException java.lang.IllegalStateException java.lang.UnsupportedOperationException "+
		"java.lang.NullPointerException java.lang.IndexOutOfBoundsException java.lang.ArithmeticException "+
		"java.lang.InterruptedException java.lang.ReflectiveOperationException java.lang.ClassNotFoundException "+
		"java.lang.CloneNotSupportedException java.lang.NumberFormatException java.lang.SecurityException "+
		"java.io.IOException java.io.UncheckedIOException java.io.FileNotFoundException "+
		"java.util.NoSuchElementException java.util.ConcurrentModificationException "+
		"java.util.concurrent.ExecutionException java.util.concurrent.TimeoutException",
		throwableMethods)
	return m
}()

func setOf(s string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
