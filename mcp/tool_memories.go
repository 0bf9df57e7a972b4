package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
)

// Memories are Markdown notes an agent keeps between sessions, one file
// per name in a folder beside the local cache (.snap/memories/), never in
// a snapshot. Names are plain file names: they cannot reach another
// folder. Every memory is opened through the folder's os.Root, so that no
// symbolic link leads out of it either, and the folder itself, and the
// one holding it, must be folders, not links: a checkout may carry
// .snap/memories as a link to anywhere.

// ToolsetMemories holds the memory tools.
const ToolsetMemories = "memories"

// Bounds of the memories: a memory's size, and how many a folder holds.
const (
	maxMemory   = 256 << 10
	maxMemories = 1000
)

// memoryName matches the names a memory may have (".md" is added).
var memoryName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// WithMemories keeps the memory tools' notes in dir, created when first
// written. Without it the memory tools say that the server keeps none.
func (r *Registry) WithMemories(dir string) { r.memories = dir }

// memoryDir returns the memories' folder, or why there is none.
func memoryDir(ctx context.Context) (string, *ToolError) {
	r := registryFrom(ctx)
	if r == nil || r.memories == "" {
		return "", toolErr(CodeInvalidArgument, nil, "this server keeps no memories: snap serve keeps them in .snap/memories/ of the repository it serves")
	}
	return r.memories, nil
}

// memoryPath checks name and returns its file.
func memoryPath(ctx context.Context, arg, name string) (string, *ToolError) {
	dir, terr := memoryDir(ctx)
	if terr != nil {
		return "", terr
	}
	name = strings.TrimSuffix(name, ".md")
	if strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") || filepath.IsAbs(name) {
		return "", toolErr(CodePathOutsideRoot, map[string]string{arg: clip(name)}, "%s: a memory's name is a plain file name, without / or ..: got %s", arg, quote(name))
	}
	if !memoryName.MatchString(name) {
		return "", argErr(arg, "want 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit; got %s", quote(name))
	}
	return filepath.Join(dir, name+".md"), nil
}

// linkedFolderError is what openMemories returns for a memories' folder,
// or a folder holding it, that is a symbolic link.
type linkedFolderError struct{ path string }

func (e *linkedFolderError) Error() string {
	return e.path + " is a symbolic link; snap keeps memories only in a folder of its own"
}

// openMemories opens the memories' folder dir as the root every memory
// is read, written and removed through. dir and the folder holding it
// (.snap/) must be folders: a symbolic link at either is refused with a
// *linkedFolderError, whatever it points to. With create, the folders
// missing are made (a new .snap/ with a .gitignore, as the local cache
// has); without, a missing one is fs.ErrNotExist.
func openMemories(dir string, create bool) (*os.Root, error) {
	parent := filepath.Dir(dir)
	base := filepath.Dir(parent)
	if create {
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, err
		}
	}
	outer, err := os.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	defer outer.Close()
	rel := ""
	for _, name := range []string{filepath.Base(parent), filepath.Base(dir)} {
		rel = filepath.Join(rel, name)
		fi, err := outer.Lstat(rel)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			return nil, &linkedFolderError{filepath.Join(base, rel)}
		case err == nil && !fi.IsDir():
			return nil, fmt.Errorf("%s is not a folder", filepath.Join(base, rel))
		case errors.Is(err, fs.ErrNotExist) && create:
			if err := outer.Mkdir(rel, 0o755); err != nil {
				return nil, err
			}
			if rel == ".snap" { // as the local cache does: .snap/ stays out of git status
				if err := outer.WriteFile(filepath.Join(rel, ".gitignore"), []byte("*\n"), 0o644); err != nil {
					return nil, err
				}
			}
		case err != nil:
			return nil, err
		}
	}
	return outer.OpenRoot(rel)
}

// memoryMissing is the error for a memory that is not there.
func memoryMissing(ctx context.Context, name string) *ToolError {
	return toolErr(CodeFileNotFound, map[string]any{"name": name, "memories": memoryNames(ctx)},
		"no memory named %s; snap_list_memories lists them", quote(strings.TrimSuffix(name, ".md")))
}

func memoryNames(ctx context.Context) []string {
	names := []string{}
	ms, _ := listMemories(ctx)
	for _, m := range ms {
		names = append(names, m.Name)
	}
	return names
}

// writeMemory replaces the memory name in root with data, atomically: a
// reader sees the old note or the new, never half of one. A symbolic link
// at name is replaced, not followed.
func writeMemory(root *os.Root, name string, data []byte) error {
	tmp := fmt.Sprintf(".tmp-%d-%x", os.Getpid(), rand.Uint64())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer root.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return root.Rename(tmp, name)
}

// errOutside is what the memory file functions return for a memory that
// is a symbolic link leading out of the memories' folder.
var errOutside = errors.New("a symbolic link out of the memories' folder")

// openMemoryFile opens the memory name of root for reading: names cannot
// leave the folder, and neither can symbolic links planted in it (a
// checkout may carry .snap/memories/), which fail with errOutside.
func openMemoryFile(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.Open(name)
	if err != nil {
		if fi, lerr := root.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, errOutside
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	return f, fi, nil
}

// readMemoryFile reads the memory name of root, of at most maxMemory
// bytes (see openMemoryFile).
func readMemoryFile(root *os.Root, name string) ([]byte, error) {
	f, _, err := openMemoryFile(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMemory+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxMemory {
		return nil, fmt.Errorf("%s holds more than %d bytes, the most a memory may", name, maxMemory)
	}
	return data, nil
}

// countMemories counts the memories of root.
func countMemories(root *os.Root) int {
	d, err := root.Open(".")
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, ".md") {
			n++
		}
	}
	return n
}

// memoryFailed is the error of a memory file function.
func memoryFailed(ctx context.Context, op, name string, err error) *ToolError {
	var linked *linkedFolderError
	switch {
	case errors.As(err, &linked):
		return toolErr(CodePathOutsideRoot, map[string]string{"folder": linked.path},
			"%s memory: the memories' folder %s; remove the link, and snap makes the folder when a memory is first written", op, linked)
	case errors.Is(err, fs.ErrNotExist):
		return memoryMissing(ctx, name)
	case errors.Is(err, errOutside):
		return toolErr(CodePathOutsideRoot, map[string]string{"name": name}, "%s memory %s: it is %v; remove it", op, quote(strings.TrimSuffix(name, ".md")), err)
	}
	return toolErr(CodeInvalidArgument, nil, "%s memory: %v", op, err)
}

type memory struct {
	Name     string `json:"name"`
	Bytes    int    `json:"bytes"`
	Modified string `json:"modified"`        // RFC 3339, UTC
	Title    string `json:"title,omitempty"` // the first line, without #
}

// listMemories lists the memories, without reading more of each than its
// title; none when there is no folder yet.
func listMemories(ctx context.Context) ([]memory, error) {
	dir, terr := memoryDir(ctx)
	if terr != nil {
		return nil, nil
	}
	root, err := openMemories(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	ents, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	var out []memory
	for _, de := range ents {
		name, ok := strings.CutSuffix(de.Name(), ".md")
		if !ok || !de.Type().IsRegular() || !memoryName.MatchString(name) {
			continue
		}
		f, fi, err := openMemoryFile(root, de.Name())
		if err != nil {
			continue
		}
		title, _ := bufio.NewReaderSize(io.LimitReader(f, 256), 256).ReadString('\n')
		f.Close()
		out = append(out, memory{Name: name, Bytes: int(fi.Size()), Modified: fi.ModTime().UTC().Format(time.RFC3339),
			Title: strings.TrimSpace(strings.TrimLeft(strings.ToValidUTF8(title, ""), "# "))})
	}
	slices.SortFunc(out, func(a, b memory) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

type writeMemoryIn struct {
	Name      string `json:"name" jsonschema:"the memory's name: letters, digits, '.', '_', '-' (\".md\" is added)"`
	Content   string `json:"content" bound:"memory" jsonschema:"the note, in Markdown (at most 256 KiB)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a memory of that name (default: fail if it exists)"`
}

type writeMemoryOut struct {
	header
	Name     string `json:"name"`
	Bytes    int    `json:"bytes"`
	Replaced bool   `json:"replaced"`
}

var writeMemoryTool = offline(writer(newTool(
	"snap_write_memory", "Write a memory", ToolsetMemories,
	"Keep a Markdown note for later sessions under a name (what was learned about this code, a plan, a "+
		"decision). Fails if the name is taken unless overwrite is set. Memories live beside the local cache, "+
		"never in a snapshot.",
	func(ctx context.Context, _ *query.Engine, in *writeMemoryIn) (*writeMemoryOut, *ToolError) {
		p, terr := memoryPath(ctx, "name", in.Name)
		if terr != nil {
			return nil, terr
		}
		if len(in.Content) > maxMemory {
			return nil, limitErr("content", maxMemory, "%d bytes; a memory holds at most %d", len(in.Content), maxMemory)
		}
		root, err := openMemories(filepath.Dir(p), true)
		if err != nil {
			return nil, memoryFailed(ctx, "write", in.Name, err)
		}
		defer root.Close()
		_, err = root.Lstat(filepath.Base(p))
		replaced := err == nil
		if replaced && !in.Overwrite {
			return nil, argErr("name", "a memory named %s exists: read it, edit it, or set overwrite", quote(in.Name))
		}
		if !replaced {
			if n := countMemories(root); n >= maxMemories {
				return nil, limitErr("name", maxMemories, "the folder holds %d memories, the most it may: delete one, or overwrite one", n)
			}
		}
		if err := writeMemory(root, filepath.Base(p), []byte(in.Content)); err != nil {
			return nil, memoryFailed(ctx, "write", in.Name, err)
		}
		return &writeMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Bytes: len(in.Content), Replaced: replaced}, nil
	})))

type memoryIn struct {
	Name string `json:"name" jsonschema:"the memory's name"`
}

type readMemoryOut struct {
	header
	Name    string `json:"name"`
	Content string `json:"content"`
}

// withMemory runs fn on the root of the memories' folder and the file
// name of the memory name, answering for op the errors of either.
func withMemory[T any](ctx context.Context, op, name string, fn func(root *os.Root, file string) (*T, *ToolError)) (*T, *ToolError) {
	p, terr := memoryPath(ctx, "name", name)
	if terr != nil {
		return nil, terr
	}
	root, err := openMemories(filepath.Dir(p), false)
	if err != nil {
		return nil, memoryFailed(ctx, op, name, err)
	}
	defer root.Close()
	return fn(root, filepath.Base(p))
}

var readMemoryTool = offline(newTool(
	"snap_read_memory", "Read a memory", ToolsetMemories,
	"A memory's Markdown, by name (snap_list_memories lists them).",
	func(ctx context.Context, _ *query.Engine, in *memoryIn) (*readMemoryOut, *ToolError) {
		return withMemory(ctx, "read", in.Name, func(root *os.Root, file string) (*readMemoryOut, *ToolError) {
			data, err := readMemoryFile(root, file)
			if err != nil {
				return nil, memoryFailed(ctx, "read", in.Name, err)
			}
			return &readMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Content: string(data)}, nil
		})
	}))

type listMemoriesIn struct{}

type listMemoriesOut struct {
	header
	Memories []memory `json:"memories"`
}

var listMemoriesTool = offline(newTool(
	"snap_list_memories", "List memories", ToolsetMemories,
	"Every memory: name, size, when it was last written, and its first line.",
	func(ctx context.Context, _ *query.Engine, _ *listMemoriesIn) (*listMemoriesOut, *ToolError) {
		if _, terr := memoryDir(ctx); terr != nil {
			return nil, terr
		}
		ms, err := listMemories(ctx)
		if err != nil {
			return nil, memoryFailed(ctx, "list", "", err)
		}
		out := &listMemoriesOut{Memories: ms}
		if out.Memories == nil {
			out.Memories = []memory{}
			out.Hint = "no memories yet: snap_write_memory keeps one"
		}
		return out, nil
	}))

type deleteMemoryOut struct {
	header
	Name    string `json:"name"`
	Deleted bool   `json:"deleted"`
}

var deleteMemoryTool = offline(destroyer(newTool(
	"snap_delete_memory", "Delete a memory", ToolsetMemories,
	"Delete a memory by name. It cannot be brought back.",
	func(ctx context.Context, _ *query.Engine, in *memoryIn) (*deleteMemoryOut, *ToolError) {
		return withMemory(ctx, "delete", in.Name, func(root *os.Root, file string) (*deleteMemoryOut, *ToolError) {
			// A symbolic link is removed, not followed.
			if err := root.Remove(file); err != nil {
				return nil, memoryFailed(ctx, "delete", in.Name, err)
			}
			return &deleteMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Deleted: true}, nil
		})
	})))

type editMemoryIn struct {
	Name        string `json:"name" jsonschema:"the memory's name"`
	Find        string `json:"find" bound:"memory" jsonschema:"the text to replace: literal, or a regular expression (RE2 syntax, at most 1 KiB and 200 steps) in regex mode"`
	Replacement string `json:"replacement" bound:"memory" jsonschema:"what replaces it; in regex mode $1 or ${name} insert a group"`
	Mode        string `json:"mode,omitempty" enum:"literal,regex" jsonschema:"literal (default) or regex"`
	All         bool   `json:"all,omitempty" jsonschema:"replace every match (default: exactly one must match)"`
}

type editMemoryOut struct {
	header
	Name     string `json:"name"`
	Replaced int    `json:"replaced"`
	Bytes    int    `json:"bytes"`
}

// Bounds of a regular expression of snap_edit_memory: its length, and
// the instructions of its program, which its matching costs times the
// memory's length (200 take half a second on a memory of 256 KiB of the
// worst text).
const (
	maxMemoryRegex      = 1 << 10
	maxMemoryRegexSteps = 200
)

// regexSteps counts the instructions of the program of a regular
// expression that compiles.
func regexSteps(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

var editMemoryTool = offline(cumulative(writer(newTool(
	"snap_edit_memory", "Edit a memory", ToolsetMemories,
	"Replace text in a memory, literally or by regular expression. Without all, the text must match exactly "+
		"once, so that an edit never lands somewhere unintended.",
	func(ctx context.Context, _ *query.Engine, in *editMemoryIn) (*editMemoryOut, *ToolError) {
		if _, terr := memoryPath(ctx, "name", in.Name); terr != nil {
			return nil, terr
		}
		if in.Find == "" {
			return nil, argErr("find", "must not be empty")
		}
		var re *regexp.Regexp
		switch in.Mode {
		case "", "literal":
		case "regex":
			if len(in.Find) > maxMemoryRegex {
				return nil, limitErr("find", maxMemoryRegex, "a regular expression of %d bytes; at most %d", len(in.Find), maxMemoryRegex)
			}
			var err error
			if re, err = regexp.Compile(in.Find); err != nil {
				return nil, argErr("find", "not a regular expression: %v", err)
			}
			if n := regexSteps(in.Find); n > maxMemoryRegexSteps {
				return nil, limitErr("find", maxMemoryRegexSteps, "a regular expression of %d steps (repetitions count each time); at most %d", n, maxMemoryRegexSteps)
			}
		default:
			return nil, argErr("mode", "want literal or regex, got %s", quote(in.Mode))
		}
		return withMemory(ctx, "edit", in.Name, func(root *os.Root, file string) (*editMemoryOut, *ToolError) {
			data, err := readMemoryFile(root, file)
			if err != nil {
				return nil, memoryFailed(ctx, "edit", in.Name, err)
			}
			// Count the matches, and bound what the edit makes, before
			// making it: an edit must not build what it cannot keep.
			var n, size int
			if re == nil {
				n = bytes.Count(data, []byte(in.Find))
				size = len(data) + n*(len(in.Replacement)-len(in.Find))
			} else {
				matches := re.FindAllIndex(data, -1)
				matched := 0
				for _, m := range matches {
					matched += m[1] - m[0]
				}
				n = len(matches)
				// A match's replacement holds the template's text, and
				// each $ in it inserts at most the whole match.
				size = len(data) - matched + n*len(in.Replacement) + strings.Count(in.Replacement, "$")*matched
			}
			switch {
			case n == 0:
				return nil, argErr("find", "matches nothing in %s", quote(in.Name))
			case n > 1 && !in.All:
				return nil, argErr("find", "matches %d times in %s: make it longer, or set all", n, quote(in.Name))
			case size > maxMemory:
				return nil, limitErr("replacement", maxMemory, "replacing %d matches would make the memory up to %d bytes; a memory holds at most %d",
					n, size, maxMemory)
			}
			var out []byte
			if re != nil {
				out = re.ReplaceAll(data, []byte(in.Replacement))
			} else {
				out = bytes.ReplaceAll(data, []byte(in.Find), []byte(in.Replacement))
			}
			if err := writeMemory(root, file, out); err != nil {
				return nil, memoryFailed(ctx, "write", in.Name, err)
			}
			return &editMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Replaced: n, Bytes: len(out)}, nil
		})
	}))))

// offline marks t as answering without a snapshot.
func offline(t *Tool) *Tool { t.Offline = true; return t }

// writer marks t as changing something.
func writer(t *Tool) *Tool { t.Writes = true; return t }

// destroyer marks t as removing what it cannot bring back.
func destroyer(t *Tool) *Tool { t.Writes, t.Destroys = true, true; return t }

// cumulative marks t as doing more on a second identical call.
func cumulative(t *Tool) *Tool { t.Cumulative = true; return t }

// waiting marks t as one that may wait on a store or the network.
func waiting(t *Tool) *Tool { t.Waits = true; return t }
