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
java.util.concurrent.atomic.AtomicInteger get:int
java.util.concurrent.atomic.AtomicLong get:long
java.util.concurrent.atomic.AtomicBoolean get:boolean
java.util.concurrent.atomic.AtomicIntegerArray get:int length:int
java.util.concurrent.atomic.AtomicLongArray get:long length:int
java.net.InetAddress getHostAddress:java.lang.String getHostName:java.lang.String
java.net.URL toExternalForm:java.lang.String
java.net.URI toASCIIString:java.lang.String
java.util.Currency getCurrencyCode:java.lang.String
java.time.ZoneId getId:java.lang.String
java.time.ZoneOffset getId:java.lang.String getTotalSeconds:int
java.nio.ByteBuffer allocate:java.nio.ByteBuffer allocateDirect:java.nio.ByteBuffer wrap:java.nio.ByteBuffer array:byte[]
`), "\n") {
		f := strings.Fields(line)
		for _, mr := range f[1:] {
			name, result, _ := strings.Cut(mr, ":")
			m[f[0]+"."+name] = result
		}
	}
	return m
}()

// genericType is a generic JDK type of jdkGenerics.
type genericType struct {
	params  []string
	supers  []tref                    // its generic supertypes, in terms of params
	members map[string]*genericMember // by name "/" number of arguments
}

// genericMember is what jdkGenerics says of a member: its result, and
// the parameters of the lambda it takes as argument lambda.
type genericMember struct {
	result *tref
	lambda int // -1 for none
	params []tref
}

// jdkGenerics lists the JDK's generic types whose type arguments this
// package follows, one a line:
//
//	Type<P,...> [Supertype<...> ...] : member ...
//	member = name "/" arguments [ "=" result ] [ "@" j "(" type { "," type } ")" ]
//
// Supertypes are the generic ones whose members the type inherits. A
// member is listed only when every overload of that name and number of
// arguments returns the same type (List.remove is not: remove(int) and
// remove(Object) differ). The result is a type in terms of the type
// parameters; @j(...) gives the types of the parameters of a lambda
// passed as argument j (Iterable.forEach(Consumer<? super T>) binds its
// lambda's parameter to T). A member not listed has no known result.
var jdkGenerics = func() map[string]*genericType {
	m := make(map[string]*genericType)
	for _, line := range strings.Split(strings.TrimSpace(`
java.lang.Iterable<T> : iterator/0=java.util.Iterator<T> forEach/1@0(T)
java.util.Iterator<E> : next/0=E forEachRemaining/1@0(E)
java.util.ListIterator<E> java.util.Iterator<E> : previous/0=E
java.util.Enumeration<E> : nextElement/0=E
java.util.Collection<E> java.lang.Iterable<E> : stream/0=java.util.stream.Stream<E> parallelStream/0=java.util.stream.Stream<E> removeIf/1@0(E)
java.util.SequencedCollection<E> java.util.Collection<E> : getFirst/0=E getLast/0=E removeFirst/0=E removeLast/0=E
java.util.List<E> java.util.SequencedCollection<E> : get/1=E set/2=E subList/2=java.util.List<E> listIterator/0=java.util.ListIterator<E> listIterator/1=java.util.ListIterator<E> reversed/0=java.util.List<E> replaceAll/1@0(E) sort/1@0(E,E)
java.util.Set<E> java.util.Collection<E> :
java.util.SortedSet<E> java.util.Set<E> java.util.SequencedCollection<E> : first/0=E last/0=E headSet/1=java.util.SortedSet<E> tailSet/1=java.util.SortedSet<E> subSet/2=java.util.SortedSet<E>
java.util.NavigableSet<E> java.util.SortedSet<E> : pollFirst/0=E pollLast/0=E ceiling/1=E floor/1=E higher/1=E lower/1=E descendingIterator/0=java.util.Iterator<E> descendingSet/0=java.util.NavigableSet<E>
java.util.Queue<E> java.util.Collection<E> : peek/0=E poll/0=E element/0=E remove/0=E
java.util.Deque<E> java.util.Queue<E> java.util.SequencedCollection<E> : peekFirst/0=E peekLast/0=E pollFirst/0=E pollLast/0=E pop/0=E descendingIterator/0=java.util.Iterator<E>
java.util.concurrent.BlockingQueue<E> java.util.Queue<E> : take/0=E
java.util.concurrent.BlockingDeque<E> java.util.concurrent.BlockingQueue<E> java.util.Deque<E> : takeFirst/0=E takeLast/0=E
java.util.AbstractCollection<E> java.util.Collection<E> :
java.util.AbstractList<E> java.util.AbstractCollection<E> java.util.List<E> :
java.util.AbstractSequentialList<E> java.util.AbstractList<E> :
java.util.ArrayList<E> java.util.AbstractList<E> :
java.util.LinkedList<E> java.util.AbstractSequentialList<E> java.util.Deque<E> :
java.util.Vector<E> java.util.AbstractList<E> : firstElement/0=E lastElement/0=E elementAt/1=E elements/0=java.util.Enumeration<E>
java.util.Stack<E> java.util.Vector<E> : push/1=E pop/0=E peek/0=E
java.util.concurrent.CopyOnWriteArrayList<E> java.util.List<E> :
java.util.AbstractSet<E> java.util.AbstractCollection<E> java.util.Set<E> :
java.util.HashSet<E> java.util.AbstractSet<E> :
java.util.LinkedHashSet<E> java.util.HashSet<E> java.util.SequencedCollection<E> :
java.util.TreeSet<E> java.util.AbstractSet<E> java.util.NavigableSet<E> :
java.util.AbstractQueue<E> java.util.AbstractCollection<E> java.util.Queue<E> :
java.util.ArrayDeque<E> java.util.AbstractCollection<E> java.util.Deque<E> :
java.util.PriorityQueue<E> java.util.AbstractQueue<E> :
java.util.concurrent.ConcurrentLinkedQueue<E> java.util.AbstractQueue<E> :
java.util.concurrent.ConcurrentLinkedDeque<E> java.util.AbstractCollection<E> java.util.Deque<E> :
java.util.concurrent.LinkedBlockingQueue<E> java.util.AbstractQueue<E> java.util.concurrent.BlockingQueue<E> :
java.util.concurrent.ArrayBlockingQueue<E> java.util.AbstractQueue<E> java.util.concurrent.BlockingQueue<E> :
java.util.concurrent.LinkedBlockingDeque<E> java.util.AbstractQueue<E> java.util.concurrent.BlockingDeque<E> :
java.util.Map<K,V> : get/1=V put/2=V remove/1=V getOrDefault/2=V putIfAbsent/2=V replace/2=V keySet/0=java.util.Set<K> values/0=java.util.Collection<V> entrySet/0=java.util.Set<java.util.Map.Entry<K,V>> forEach/1@0(K,V) replaceAll/1@0(K,V) computeIfAbsent/2=V@1(K) computeIfPresent/2=V@1(K,V) compute/2=V@1(K,V) merge/3=V@2(V,V)
java.util.Map.Entry<K,V> : getKey/0=K getValue/0=V setValue/1=V
java.util.SortedMap<K,V> java.util.Map<K,V> : firstKey/0=K lastKey/0=K
java.util.NavigableMap<K,V> java.util.SortedMap<K,V> : firstEntry/0=java.util.Map.Entry<K,V> lastEntry/0=java.util.Map.Entry<K,V> pollFirstEntry/0=java.util.Map.Entry<K,V> pollLastEntry/0=java.util.Map.Entry<K,V> ceilingEntry/1=java.util.Map.Entry<K,V> floorEntry/1=java.util.Map.Entry<K,V> higherEntry/1=java.util.Map.Entry<K,V> lowerEntry/1=java.util.Map.Entry<K,V> ceilingKey/1=K floorKey/1=K higherKey/1=K lowerKey/1=K
java.util.concurrent.ConcurrentMap<K,V> java.util.Map<K,V> :
java.util.AbstractMap<K,V> java.util.Map<K,V> :
java.util.HashMap<K,V> java.util.AbstractMap<K,V> :
java.util.LinkedHashMap<K,V> java.util.HashMap<K,V> :
java.util.TreeMap<K,V> java.util.AbstractMap<K,V> java.util.NavigableMap<K,V> :
java.util.Hashtable<K,V> java.util.Map<K,V> :
java.util.IdentityHashMap<K,V> java.util.AbstractMap<K,V> :
java.util.WeakHashMap<K,V> java.util.AbstractMap<K,V> :
java.util.EnumMap<K,V> java.util.AbstractMap<K,V> :
java.util.concurrent.ConcurrentHashMap<K,V> java.util.AbstractMap<K,V> java.util.concurrent.ConcurrentMap<K,V> :
java.util.concurrent.ConcurrentSkipListMap<K,V> java.util.AbstractMap<K,V> java.util.concurrent.ConcurrentMap<K,V> java.util.NavigableMap<K,V> :
java.util.Optional<T> : get/0=T orElse/1=T orElseGet/1=T orElseThrow/0=T orElseThrow/1=T filter/1=java.util.Optional<T>@0(T) or/1=java.util.Optional<T> stream/0=java.util.stream.Stream<T> ifPresent/1@0(T) ifPresentOrElse/2@0(T) map/1@0(T) flatMap/1@0(T)
java.util.stream.Stream<T> : filter/1=java.util.stream.Stream<T>@0(T) distinct/0=java.util.stream.Stream<T> sorted/0=java.util.stream.Stream<T> sorted/1=java.util.stream.Stream<T>@0(T,T) peek/1=java.util.stream.Stream<T>@0(T) limit/1=java.util.stream.Stream<T> skip/1=java.util.stream.Stream<T> takeWhile/1=java.util.stream.Stream<T>@0(T) dropWhile/1=java.util.stream.Stream<T>@0(T) findFirst/0=java.util.Optional<T> findAny/0=java.util.Optional<T> min/1=java.util.Optional<T>@0(T,T) max/1=java.util.Optional<T>@0(T,T) toList/0=java.util.List<T> iterator/0=java.util.Iterator<T> forEach/1@0(T) forEachOrdered/1@0(T) anyMatch/1@0(T) allMatch/1@0(T) noneMatch/1@0(T) map/1@0(T) flatMap/1@0(T) mapToInt/1@0(T) mapToLong/1@0(T) mapToDouble/1@0(T)
java.util.function.Supplier<T> : get/0=T
java.util.concurrent.Callable<V> : call/0=V
java.util.concurrent.Future<V> : get/0=V get/2=V
java.util.concurrent.CompletableFuture<T> java.util.concurrent.Future<T> : join/0=T getNow/1=T
java.util.concurrent.atomic.AtomicReference<V> : get/0=V getAndSet/1=V getPlain/0=V getAcquire/0=V getOpaque/0=V
java.lang.ThreadLocal<T> : get/0=T
java.lang.InheritableThreadLocal<T> java.lang.ThreadLocal<T> :
java.lang.ref.Reference<T> : get/0=T
java.lang.ref.WeakReference<T> java.lang.ref.Reference<T> :
java.lang.ref.SoftReference<T> java.lang.ref.Reference<T> :
java.lang.Class<T> : cast/1=T
`), "\n") {
		head, members, _ := strings.Cut(line, " : ")
		f := strings.Fields(head)
		name, ps := genericHead(f[0])
		g := &genericType{params: ps, members: make(map[string]*genericMember)}
		for _, s := range f[1:] {
			g.supers = append(g.supers, genericRef(s, ps))
		}
		for _, mem := range strings.Fields(members) {
			key, rest := mem, ""
			if i := strings.IndexAny(mem, "=@"); i >= 0 {
				key, rest = mem[:i], mem[i:]
			}
			gm := &genericMember{lambda: -1}
			res, lambda, _ := strings.Cut(rest, "@")
			if res, ok := strings.CutPrefix(res, "="); ok {
				t := genericRef(res, ps)
				gm.result = &t
			}
			if lambda != "" {
				j, list, _ := strings.Cut(strings.TrimSuffix(lambda, ")"), "(")
				gm.lambda = int(j[0] - '0')
				for _, p := range strings.Split(list, ",") {
					gm.params = append(gm.params, genericRef(p, ps))
				}
			}
			g.members[key] = gm
		}
		m[name] = g
	}
	return m
}()

// genericHead splits "java.util.Map<K,V>" into its name and parameters.
func genericHead(s string) (string, []string) {
	name, ps, _ := strings.Cut(strings.TrimSuffix(s, ">"), "<")
	return name, strings.Split(ps, ",")
}

// genericRef reads a type of jdkGenerics: a type parameter of ps, or a
// type with type arguments.
func genericRef(s string, ps []string) tref {
	if slices.Contains(ps, s) {
		return tref{tv: s}
	}
	t := tref{ext: s}
	if a := argsText(s); a != "" {
		t.ext = s[:strings.IndexByte(s, '<')]
		for _, p := range splitTypeArgs(a) {
			t.args = append(t.args, targ{t: genericRef(p, ps)})
		}
	}
	return t
}

// jdkStatics are the static JDK methods whose result follows their first
// argument, by type, name and number of arguments: "$0" is the
// argument's type, "T($0)" the JDK type T with the argument's type
// arguments as a T (Collections.unmodifiableList(List<Item>) is a
// List<Item>).
var jdkStatics = map[string]string{
	"java.util.Objects.requireNonNull/1":               "$0",
	"java.util.Objects.requireNonNull/2":               "$0",
	"java.util.Collections.unmodifiableCollection/1":   "java.util.Collection($0)",
	"java.util.Collections.unmodifiableList/1":         "java.util.List($0)",
	"java.util.Collections.unmodifiableSet/1":          "java.util.Set($0)",
	"java.util.Collections.unmodifiableSortedSet/1":    "java.util.SortedSet($0)",
	"java.util.Collections.unmodifiableMap/1":          "java.util.Map($0)",
	"java.util.Collections.unmodifiableSortedMap/1":    "java.util.SortedMap($0)",
	"java.util.Collections.synchronizedCollection/1":   "java.util.Collection($0)",
	"java.util.Collections.synchronizedList/1":         "java.util.List($0)",
	"java.util.Collections.synchronizedSet/1":          "java.util.Set($0)",
	"java.util.Collections.synchronizedMap/1":          "java.util.Map($0)",
	"java.util.Collections.unmodifiableNavigableSet/1": "java.util.NavigableSet($0)",
	"java.util.Collections.unmodifiableNavigableMap/1": "java.util.NavigableMap($0)",
}

// jdkFields are the types of JDK constants, by qualified name.
var jdkFields = func() map[string]tref {
	m := make(map[string]tref)
	for t, prim := range map[string]string{
		"Byte": "byte", "Short": "short", "Integer": "int", "Long": "long", "Character": "char", "Float": "float", "Double": "double",
	} {
		for _, f := range []string{"MIN_VALUE", "MAX_VALUE"} {
			m["java.lang."+t+"."+f] = tref{prim: prim}
		}
	}
	m["java.lang.Boolean.TRUE"] = tref{ext: "java.lang.Boolean"}
	m["java.lang.Boolean.FALSE"] = tref{ext: "java.lang.Boolean"}
	m["java.lang.Math.PI"] = tref{prim: "double"}
	m["java.lang.Math.E"] = tref{prim: "double"}
	return m
}()
