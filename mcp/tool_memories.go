package mcp

import (
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
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
)

// Memories are Markdown notes an agent keeps between sessions, one file
// per name in a folder beside the local cache (.snap/memories/), never in
// a snapshot. Names are plain file names: they cannot reach another
// folder.

// ToolsetMemories holds the memory tools.
const ToolsetMemories = "memories"

// maxMemory bounds a memory's size.
const maxMemory = 1 << 20

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
		return "", toolErr(CodePathOutsideRoot, map[string]string{arg: name}, "%s: a memory's name is a plain file name, without / or ..: got %q", arg, name)
	}
	if !memoryName.MatchString(name) {
		return "", argErr(arg, "want 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit; got %q", name)
	}
	return filepath.Join(dir, name+".md"), nil
}

// memoryMissing is the error for a memory that is not there.
func memoryMissing(ctx context.Context, name string) *ToolError {
	return toolErr(CodeFileNotFound, map[string]any{"name": name, "memories": memoryNames(ctx)},
		"no memory named %q; snap_list_memories lists them", strings.TrimSuffix(name, ".md"))
}

func memoryNames(ctx context.Context) []string {
	names := []string{}
	for _, m := range listMemories(ctx) {
		names = append(names, m.Name)
	}
	return names
}

// writeMemory replaces the memory at p with data, atomically: a reader
// sees the old note or the new, never half of one. It writes through the
// folder's root (see openMemories): a symbolic link at p is replaced, not
// followed.
func writeMemory(p string, data []byte) error {
	cache := filepath.Dir(filepath.Dir(p))
	_, err := os.Stat(cache)
	fresh := errors.Is(err, fs.ErrNotExist) && filepath.Base(cache) == ".snap"
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if fresh {
		// As the local cache does: .snap/ stays out of git status.
		if err := os.WriteFile(filepath.Join(cache, ".gitignore"), []byte("*\n"), 0o644); err != nil {
			return err
		}
	}
	root, err := os.OpenRoot(filepath.Dir(p))
	if err != nil {
		return err
	}
	defer root.Close()
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
	return root.Rename(tmp, filepath.Base(p))
}

// errOutside is what the memory file functions return for a memory that
// is a symbolic link leading out of the memories' folder.
var errOutside = errors.New("a symbolic link out of the memories' folder")

// readMemoryFile reads the memory at p, of at most maxMemory bytes,
// through its folder's root: names cannot leave the folder, and neither
// can symbolic links planted in it (a checkout may carry .snap/memories/),
// which fail with errOutside.
func readMemoryFile(p string) ([]byte, fs.FileInfo, error) {
	root, err := os.OpenRoot(filepath.Dir(p))
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	name := filepath.Base(p)
	f, err := root.Open(name)
	if err != nil {
		if fi, lerr := root.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, errOutside
		}
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMemory+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > maxMemory {
		return nil, nil, fmt.Errorf("%s holds more than %d bytes", name, maxMemory)
	}
	return data, fi, nil
}

// memoryFailed is the error of a memory file function.
func memoryFailed(ctx context.Context, op, name string, err error) *ToolError {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return memoryMissing(ctx, name)
	case errors.Is(err, errOutside):
		return toolErr(CodePathOutsideRoot, map[string]string{"name": name}, "%s memory %q: it is %v; remove it", op, strings.TrimSuffix(name, ".md"), err)
	}
	return toolErr(CodeInvalidArgument, nil, "%s memory: %v", op, err)
}

type memory struct {
	Name     string `json:"name"`
	Bytes    int    `json:"bytes"`
	Modified string `json:"modified"`        // RFC 3339, UTC
	Title    string `json:"title,omitempty"` // the first line, without #
}

func listMemories(ctx context.Context) []memory {
	r := registryFrom(ctx)
	if r == nil || r.memories == "" {
		return nil
	}
	ents, err := os.ReadDir(r.memories)
	if err != nil {
		return nil
	}
	var out []memory
	for _, de := range ents {
		name, ok := strings.CutSuffix(de.Name(), ".md")
		if !ok || !de.Type().IsRegular() || !memoryName.MatchString(name) {
			continue
		}
		data, fi, err := readMemoryFile(filepath.Join(r.memories, de.Name()))
		if err != nil {
			continue
		}
		title, _, _ := strings.Cut(string(data), "\n")
		out = append(out, memory{Name: name, Bytes: len(data), Modified: fi.ModTime().UTC().Format(time.RFC3339),
			Title: strings.TrimSpace(strings.TrimLeft(title, "# "))})
	}
	slices.SortFunc(out, func(a, b memory) int { return strings.Compare(a.Name, b.Name) })
	return out
}

type writeMemoryIn struct {
	Name      string `json:"name" jsonschema:"the memory's name: letters, digits, '.', '_', '-' (\".md\" is added)"`
	Content   string `json:"content" jsonschema:"the note, in Markdown (at most 1 MiB)"`
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
			return nil, argErr("content", "%d bytes; a memory holds at most %d", len(in.Content), maxMemory)
		}
		replaced := false
		if root, err := os.OpenRoot(filepath.Dir(p)); err == nil {
			_, err := root.Lstat(filepath.Base(p))
			replaced = err == nil
			root.Close()
		}
		if replaced && !in.Overwrite {
			return nil, argErr("name", "a memory named %q exists: read it, edit it, or set overwrite", in.Name)
		}
		if err := writeMemory(p, []byte(in.Content)); err != nil {
			return nil, toolErr(CodeInvalidArgument, nil, "write memory: %v", err)
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

var readMemoryTool = offline(newTool(
	"snap_read_memory", "Read a memory", ToolsetMemories,
	"A memory's Markdown, by name (snap_list_memories lists them).",
	func(ctx context.Context, _ *query.Engine, in *memoryIn) (*readMemoryOut, *ToolError) {
		p, terr := memoryPath(ctx, "name", in.Name)
		if terr != nil {
			return nil, terr
		}
		data, _, err := readMemoryFile(p)
		if err != nil {
			return nil, memoryFailed(ctx, "read", in.Name, err)
		}
		return &readMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Content: string(data)}, nil
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
		out := &listMemoriesOut{Memories: listMemories(ctx)}
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
		p, terr := memoryPath(ctx, "name", in.Name)
		if terr != nil {
			return nil, terr
		}
		root, err := os.OpenRoot(filepath.Dir(p))
		if err == nil {
			// A symbolic link is removed, not followed.
			err = root.Remove(filepath.Base(p))
			root.Close()
		}
		if err != nil {
			return nil, memoryFailed(ctx, "delete", in.Name, err)
		}
		return &deleteMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Deleted: true}, nil
	})))

type editMemoryIn struct {
	Name        string `json:"name" jsonschema:"the memory's name"`
	Find        string `json:"find" jsonschema:"the text to replace: literal, or a regular expression (RE2 syntax) in regex mode"`
	Replacement string `json:"replacement" jsonschema:"what replaces it; in regex mode $1 or ${name} insert a group"`
	Mode        string `json:"mode,omitempty" enum:"literal,regex" jsonschema:"literal (default) or regex"`
	All         bool   `json:"all,omitempty" jsonschema:"replace every match (default: exactly one must match)"`
}

type editMemoryOut struct {
	header
	Name     string `json:"name"`
	Replaced int    `json:"replaced"`
	Bytes    int    `json:"bytes"`
}

var editMemoryTool = offline(cumulative(writer(newTool(
	"snap_edit_memory", "Edit a memory", ToolsetMemories,
	"Replace text in a memory, literally or by regular expression. Without all, the text must match exactly "+
		"once, so that an edit never lands somewhere unintended.",
	func(ctx context.Context, _ *query.Engine, in *editMemoryIn) (*editMemoryOut, *ToolError) {
		p, terr := memoryPath(ctx, "name", in.Name)
		if terr != nil {
			return nil, terr
		}
		if in.Find == "" {
			return nil, argErr("find", "must not be empty")
		}
		var re *regexp.Regexp
		switch in.Mode {
		case "", "literal":
			re = regexp.MustCompile(regexp.QuoteMeta(in.Find))
		case "regex":
			var err error
			if re, err = regexp.Compile(in.Find); err != nil {
				return nil, argErr("find", "not a regular expression: %v", err)
			}
		default:
			return nil, argErr("mode", "want literal or regex, got %q", in.Mode)
		}
		data, _, err := readMemoryFile(p)
		if err != nil {
			return nil, memoryFailed(ctx, "edit", in.Name, err)
		}
		n := len(re.FindAllIndex(data, -1))
		switch {
		case n == 0:
			return nil, argErr("find", "matches nothing in %q", in.Name)
		case n > 1 && !in.All:
			return nil, argErr("find", "matches %d times in %q: make it longer, or set all", n, in.Name)
		}
		var out []byte
		if in.Mode == "regex" {
			out = re.ReplaceAll(data, []byte(in.Replacement))
		} else {
			out = bytes.ReplaceAll(data, []byte(in.Find), []byte(in.Replacement))
		}
		if len(out) > maxMemory {
			return nil, argErr("replacement", "the memory would hold %d bytes; at most %d", len(out), maxMemory)
		}
		if err := writeMemory(p, out); err != nil {
			return nil, toolErr(CodeInvalidArgument, nil, "write memory: %v", err)
		}
		return &editMemoryOut{Name: strings.TrimSuffix(in.Name, ".md"), Replaced: n, Bytes: len(out)}, nil
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
