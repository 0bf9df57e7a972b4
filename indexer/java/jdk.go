package java

import (
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer/overload"
)

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
	add("java.lang.reflect.Type", "getTypeName()")
	add("java.lang.reflect.ParameterizedType", "getTypeName() getActualTypeArguments() getRawType() getOwnerType()")
	add("java.lang.reflect.GenericArrayType", "getTypeName() getGenericComponentType()")
	add("java.lang.reflect.WildcardType", "getTypeName() getUpperBounds() getLowerBounds()")
	add("java.util.Iterator", "hasNext() next() remove() forEachRemaining(Consumer)")
	// The collections, with the methods later JDKs added (a superset is
	// safe: a name listed is never looked for in enclosing classes).
	const collection = "size() isEmpty() contains(Object) iterator() toArray() toArray(Object[]) toArray(IntFunction) " +
		"add(*) remove(Object) containsAll(Collection) addAll(Collection) removeAll(Collection) removeIf(Predicate) " +
		"retainAll(Collection) clear() stream() parallelStream() spliterator() forEach(Consumer)"
	add("java.util.Collection java.util.Set java.util.AbstractCollection java.util.AbstractSet", collection)
	add("java.util.List java.util.AbstractList", collection+" get(int) set(int,*) add(int,*) remove(int) indexOf(Object) "+
		"lastIndexOf(Object) listIterator() listIterator(int) subList(int,int) sort(Comparator) replaceAll(UnaryOperator) "+
		"addAll(int,Collection) addFirst(*) addLast(*) getFirst() getLast() removeFirst() removeLast() reversed() removeRange(int,int)")
	add("java.util.Map.Entry", "getKey() getValue() setValue(*)")
	add("java.util.Map java.util.AbstractMap", "size() isEmpty() containsKey(Object) containsValue(Object) get(Object) "+
		"put(*,*) remove(Object) putAll(Map) clear() keySet() values() entrySet() getOrDefault(Object,*) forEach(BiConsumer) "+
		"replaceAll(BiFunction) putIfAbsent(*,*) remove(Object,Object) replace(*,*,*) replace(*,*) "+
		"computeIfAbsent(*,Function) computeIfPresent(*,BiFunction) compute(*,BiFunction) merge(*,*,BiFunction)")
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

// jdkSupers lists the direct supertypes of JDK types by qualified name,
// all of them: a type listed here is a subtype of what its supertypes'
// closure holds and of nothing else (but Object). Overloads are told
// apart by it.
var jdkSupers = func() map[string][]string {
	m := make(map[string][]string)
	for _, line := range strings.Split(strings.TrimSpace(`
java.lang.Object:
java.io.Serializable:
java.lang.Cloneable:
java.lang.Comparable:
java.lang.CharSequence:
java.lang.Appendable:
java.lang.Readable:
java.lang.AutoCloseable:
java.lang.Iterable:
java.lang.Runnable:
java.lang.constant.Constable:
java.lang.constant.ConstantDesc:
java.lang.reflect.Type:
java.lang.reflect.AnnotatedElement:
java.lang.reflect.Member:
java.lang.reflect.GenericDeclaration: java.lang.reflect.AnnotatedElement
java.lang.reflect.ParameterizedType: java.lang.reflect.Type
java.lang.reflect.GenericArrayType: java.lang.reflect.Type
java.lang.reflect.WildcardType: java.lang.reflect.Type
java.lang.reflect.TypeVariable: java.lang.reflect.Type java.lang.reflect.AnnotatedElement
java.lang.reflect.AccessibleObject: java.lang.reflect.AnnotatedElement
java.lang.reflect.Field: java.lang.reflect.AccessibleObject java.lang.reflect.Member
java.lang.reflect.Executable: java.lang.reflect.AccessibleObject java.lang.reflect.Member java.lang.reflect.GenericDeclaration
java.lang.reflect.Method: java.lang.reflect.Executable
java.lang.reflect.Constructor: java.lang.reflect.Executable
java.lang.invoke.TypeDescriptor:
java.lang.invoke.TypeDescriptor.OfField: java.lang.invoke.TypeDescriptor
java.lang.Class: java.io.Serializable java.lang.reflect.GenericDeclaration java.lang.reflect.Type java.lang.reflect.AnnotatedElement java.lang.invoke.TypeDescriptor.OfField java.lang.constant.Constable
java.lang.String: java.io.Serializable java.lang.Comparable java.lang.CharSequence java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.AbstractStringBuilder: java.lang.Appendable java.lang.CharSequence
java.lang.StringBuilder: java.lang.AbstractStringBuilder java.io.Serializable java.lang.Comparable java.lang.CharSequence
java.lang.StringBuffer: java.lang.AbstractStringBuilder java.io.Serializable java.lang.Comparable java.lang.CharSequence
java.lang.Number: java.io.Serializable
java.lang.Integer: java.lang.Number java.lang.Comparable java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.Long: java.lang.Number java.lang.Comparable java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.Float: java.lang.Number java.lang.Comparable java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.Double: java.lang.Number java.lang.Comparable java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.Short: java.lang.Number java.lang.Comparable java.lang.constant.Constable
java.lang.Byte: java.lang.Number java.lang.Comparable java.lang.constant.Constable
java.lang.Character: java.io.Serializable java.lang.Comparable java.lang.constant.Constable
java.lang.Boolean: java.io.Serializable java.lang.Comparable java.lang.constant.Constable
java.math.BigInteger: java.lang.Number java.lang.Comparable
java.math.BigDecimal: java.lang.Number java.lang.Comparable
java.lang.Enum: java.lang.Comparable java.io.Serializable java.lang.constant.Constable
java.lang.Throwable: java.io.Serializable
java.lang.Exception: java.lang.Throwable
java.lang.Error: java.lang.Throwable
java.lang.RuntimeException: java.lang.Exception
java.lang.IllegalArgumentException: java.lang.RuntimeException
java.lang.NumberFormatException: java.lang.IllegalArgumentException
java.lang.IllegalStateException: java.lang.RuntimeException
java.lang.NullPointerException: java.lang.RuntimeException
java.lang.UnsupportedOperationException: java.lang.RuntimeException
java.lang.IndexOutOfBoundsException: java.lang.RuntimeException
java.lang.ArrayIndexOutOfBoundsException: java.lang.IndexOutOfBoundsException
java.lang.StringIndexOutOfBoundsException: java.lang.IndexOutOfBoundsException
java.lang.ClassCastException: java.lang.RuntimeException
java.lang.ArithmeticException: java.lang.RuntimeException
java.lang.SecurityException: java.lang.RuntimeException
java.lang.InterruptedException: java.lang.Exception
java.lang.CloneNotSupportedException: java.lang.Exception
java.lang.ReflectiveOperationException: java.lang.Exception
java.lang.ClassNotFoundException: java.lang.ReflectiveOperationException
java.lang.NoSuchMethodException: java.lang.ReflectiveOperationException
java.lang.NoSuchFieldException: java.lang.ReflectiveOperationException
java.lang.IllegalAccessException: java.lang.ReflectiveOperationException
java.lang.InstantiationException: java.lang.ReflectiveOperationException
java.lang.reflect.InvocationTargetException: java.lang.ReflectiveOperationException
java.lang.AssertionError: java.lang.Error
java.util.NoSuchElementException: java.lang.RuntimeException
java.util.ConcurrentModificationException: java.lang.RuntimeException
java.io.IOException: java.lang.Exception
java.io.EOFException: java.io.IOException
java.io.FileNotFoundException: java.io.IOException
java.io.UncheckedIOException: java.lang.RuntimeException
java.io.Closeable: java.lang.AutoCloseable
java.io.Flushable:
java.io.Reader: java.lang.Readable java.io.Closeable
java.io.StringReader: java.io.Reader
java.io.Writer: java.lang.Appendable java.io.Closeable java.io.Flushable
java.io.StringWriter: java.io.Writer
java.io.InputStream: java.io.Closeable
java.io.OutputStream: java.io.Closeable java.io.Flushable
java.util.Collection: java.lang.Iterable
java.util.List: java.util.Collection
java.util.Set: java.util.Collection
java.util.Map:
`), "\n") {
		name, supers, _ := strings.Cut(line, ":")
		m[name] = strings.Fields(supers)
	}
	return m
}()

// finalTypes are JDK classes no type extends.
var finalTypes = setOf(`java.lang.String java.lang.Integer java.lang.Long java.lang.Short java.lang.Byte
	java.lang.Double java.lang.Float java.lang.Character java.lang.Boolean java.lang.Class java.lang.StringBuilder
	java.lang.StringBuffer`)

// jdkClosure returns the supertypes of the JDK type s jdkSupers lists.
func jdkClosure(s string) []string {
	var out []string
	seen := map[string]bool{s: true}
	for todo := []string{s}; len(todo) > 0; {
		u := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, v := range jdkSupers[u] {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
				todo = append(todo, v)
			}
		}
	}
	return out
}

// jdkSubtype reports whether the JDK type s is t or one of its subtypes:
// yes or no when jdkSupers lists s or t is final, maybe otherwise.
func jdkSubtype(s, t string) overload.Answer {
	if s == t || t == "java.lang.Object" {
		return overload.Yes
	}
	if finalTypes[t] && strings.Contains(s, ".") {
		return overload.No
	}
	if _, ok := jdkSupers[s]; !ok {
		return overload.Maybe
	}
	supers := jdkClosure(s)
	if slices.Contains(supers, t) {
		return overload.Yes
	}
	if !strings.Contains(t, ".") { // a simple name from an on-demand import: one of the same name may be it
		for _, u := range append(supers, s) {
			if u[strings.LastIndexByte(u, '.')+1:] == t {
				return overload.Maybe
			}
		}
	}
	return overload.No
}

// jdkResults are the result types of JDK methods every overload of which
// returns the same type, by declaring type and name; "*" stands for any
// type, for the methods of Object (whose overrides return the same type:
// String and Class cannot be narrowed, nor primitives).
var jdkResults = func() map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(strings.TrimSpace(`
* toString:java.lang.String getClass:java.lang.Class hashCode:int equals:boolean
java.lang.String valueOf:java.lang.String format:java.lang.String join:java.lang.String length:int charAt:char isEmpty:boolean isBlank:boolean substring:java.lang.String trim:java.lang.String strip:java.lang.String toLowerCase:java.lang.String toUpperCase:java.lang.String replace:java.lang.String replaceAll:java.lang.String concat:java.lang.String intern:java.lang.String repeat:java.lang.String startsWith:boolean endsWith:boolean contains:boolean equalsIgnoreCase:boolean matches:boolean indexOf:int lastIndexOf:int compareTo:int compareToIgnoreCase:int split:java.lang.String[] toCharArray:char[] getBytes:byte[]
java.lang.Class getName:java.lang.String getSimpleName:java.lang.String getCanonicalName:java.lang.String getTypeName:java.lang.String isInstance:boolean isArray:boolean isPrimitive:boolean isInterface:boolean isEnum:boolean isAssignableFrom:boolean isAnonymousClass:boolean isMemberClass:boolean isLocalClass:boolean getModifiers:int
java.lang.Number intValue:int longValue:long doubleValue:double floatValue:float shortValue:short byteValue:byte
java.lang.Integer parseInt:int valueOf:java.lang.Integer
java.lang.Long parseLong:long valueOf:java.lang.Long
java.lang.Double parseDouble:double valueOf:java.lang.Double isNaN:boolean isInfinite:boolean
java.lang.Float parseFloat:float valueOf:java.lang.Float isNaN:boolean isInfinite:boolean
java.lang.Boolean parseBoolean:boolean valueOf:java.lang.Boolean booleanValue:boolean
java.lang.Character charValue:char
java.lang.Enum name:java.lang.String ordinal:int
java.lang.Throwable getMessage:java.lang.String getLocalizedMessage:java.lang.String getCause:java.lang.Throwable
java.lang.StringBuilder length:int
`), "\n") {
		f := strings.Fields(line)
		for _, mr := range f[1:] {
			name, result, _ := strings.Cut(mr, ":")
			m[f[0]+"."+name] = result
		}
	}
	return m
}()
