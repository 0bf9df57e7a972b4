import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.Plugin;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.QualifiedNameable;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * A javac plugin that prints, after attribution, what every method call,
 * instance creation and method reference of the compiled files resolves
 * to: file, line, column (of the method's name, of new, of the
 * reference), kind, the declaring type, the name and the erased parameter
 * types. Calls javac could not resolve are left out, and so are calls of
 * implicit constructors, which have no declaration. An anonymous class
 * is named by where its creation starts, "anonymous:" file ":" line ":"
 * column (those of enum constants are left out). The creation of an
 * anonymous class, new T(...) { ... }, is reported as a creation of T
 * calling the constructor of T its own implicit constructor calls.
 */
public class CallDump implements Plugin {
    @Override
    public String getName() {
        return "CallDump";
    }

    @Override
    public void init(JavacTask task, String... args) {
        Trees trees = Trees.instance(task);
        Types types = task.getTypes();
        Elements elements = task.getElements();
        task.addTaskListener(new TaskListener() {
            @Override
            public void finished(TaskEvent e) {
                if (e.getKind() != TaskEvent.Kind.ANALYZE) {
                    return;
                }
                CompilationUnitTree cu = e.getCompilationUnit();
                SourcePositions sp = trees.getSourcePositions();
                LineMap lines = cu.getLineMap();
                String file = cu.getSourceFile().toUri().getPath();
                new TreePathScanner<Void, Void>() {
                    // The bodies of anonymous classes, by start, and where the
                    // creation of each is reported.
                    final Map<Long, Long> anonymous = new HashMap<>();
                    final Map<Long, String> anonymousKind = new HashMap<>();
                    // Anonymous classes, named by where their creation starts:
                    // "anonymous:" file ":" line ":" column.
                    final Map<Element, String> anonymousNames = new HashMap<>();

                    void emit(String kind, long pos, Element el) {
                        if (pos < 0 || !(el instanceof ExecutableElement m) || elements.getOrigin(m) == Elements.Origin.MANDATED) {
                            return;
                        }
                        Element owner = m.getEnclosingElement();
                        String ownerName = owner instanceof QualifiedNameable q ? q.getQualifiedName().toString() : "";
                        if (ownerName.isEmpty()) {
                            ownerName = anonymousNames.getOrDefault(owner, "");
                        }
                        if (ownerName.isEmpty()) {
                            return; // an anonymous class of an enum constant
                        }
                        List<String> params = new ArrayList<>();
                        for (VariableElement p : m.getParameters()) {
                            params.add(types.erasure(p.asType()).toString());
                        }
                        long line = lines.getLineNumber(pos);
                        long col = pos - lines.getStartPosition(line) + 1;
                        System.out.println(file + "\t" + line + "\t" + col + "\t" + kind + "\t" + ownerName + "\t"
                                + m.getSimpleName() + "\t" + String.join(",", params) + "\t"
                                + m.getModifiers().contains(Modifier.STATIC));
                    }

                    @Override
                    public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
                        ExpressionTree sel = t.getMethodSelect();
                        long pos = sp.getStartPosition(cu, sel);
                        if (sel instanceof MemberSelectTree ms) {
                            pos = sp.getEndPosition(cu, ms) - ms.getIdentifier().length();
                        }
                        Element el = trees.getElement(new TreePath(getCurrentPath(), sel));
                        Long creation = anonymous.get(pos);
                        if (creation != null && sel.toString().equals("super")) {
                            emit(anonymousKind.get(pos), creation, el); // the implicit constructor of an anonymous class
                        } else {
                            emit("call", pos, el);
                        }
                        return super.visitMethodInvocation(t, v);
                    }

                    @Override
                    public Void visitNewClass(NewClassTree t, Void v) {
                        Element el = trees.getElement(getCurrentPath());
                        long pos = sp.getStartPosition(cu, t);
                        String kind = "new";
                        Tree parent = getCurrentPath().getParentPath().getLeaf();
                        if (parent instanceof VariableTree var && trees.getElement(getCurrentPath().getParentPath()) != null
                                && trees.getElement(getCurrentPath().getParentPath()).getKind() == ElementKind.ENUM_CONSTANT) {
                            // An enum constant: at its name, as the indexer reports it.
                            pos = nameAt(sp.getStartPosition(cu, var), var.getName().toString());
                            kind = "call";
                        }
                        if (t.getClassBody() != null) {
                            long body = sp.getStartPosition(cu, t.getClassBody());
                            anonymous.put(body, pos);
                            anonymousKind.put(body, kind);
                            Element c = trees.getElement(new TreePath(getCurrentPath(), t.getClassBody()));
                            long start = sp.getStartPosition(cu, t);
                            long line = lines.getLineNumber(start);
                            if (c != null && kind.equals("new")) {
                                anonymousNames.put(c, "anonymous:" + file + ":" + line + ":" + (start - lines.getStartPosition(line) + 1));
                            }
                        } else if (el != null && el.getKind() == ElementKind.CONSTRUCTOR) {
                            emit(kind, pos, el);
                        }
                        return super.visitNewClass(t, v);
                    }

                    long nameAt(long from, String name) {
                        try {
                            String text = cu.getSourceFile().getCharContent(true).toString();
                            int i = text.indexOf(name, (int) from);
                            return i < 0 ? from : i;
                        } catch (java.io.IOException ex) {
                            return from;
                        }
                    }

                    @Override
                    public Void visitMemberReference(MemberReferenceTree t, Void v) {
                        emit("ref", sp.getStartPosition(cu, t), trees.getElement(getCurrentPath()));
                        return super.visitMemberReference(t, v);
                    }
                }.scan(cu, null);
            }
        });
    }
}
