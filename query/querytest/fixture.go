// Package querytest builds snapshots for tests and benchmarks of query and
// the packages above it: Fixture, a small hand-written Go and Python
// repository with its symbols, edges, files and sources; and Synthetic, a
// large generated graph.
package querytest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Commit is the fixture's commit.
const Commit = "3f2c1e9a7b5d4c6e8f0a1b2c3d4e5f6a7b8c9d0e"

var sources = map[string]string{
	"src/net/http/server.go": `package http

import "net"

// Handler responds to an HTTP request.
type Handler interface {
	ServeHTTP(w ResponseWriter, r *Request)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ResponseWriter, *Request)

// ServeHTTP calls f(w, r).
func (f HandlerFunc) ServeHTTP(w ResponseWriter, r *Request) {
	f(w, r)
}

// A Server defines parameters for running an HTTP server.
type Server struct {
	Addr    string
	Handler Handler
}

// ListenAndServe listens on srv.Addr and then calls Serve.
func (srv *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		return err
	}
	return srv.Serve(ln)
}

// Serve accepts incoming connections on the Listener l.
func (srv *Server) Serve(l net.Listener) error {
	for {
		rw, err := l.Accept()
		if err != nil {
			return err
		}
		c := srv.newConn(rw)
		go c.serve()
	}
}

func (srv *Server) newConn(rwc net.Conn) *conn {
	return &conn{server: srv, rwc: rwc}
}

type conn struct {
	server *Server
	rwc    net.Conn
}

func (c *conn) serve() {
	serverHandler{c.server}.ServeHTTP(nil, nil)
}

type serverHandler struct {
	srv *Server
}

func (sh serverHandler) ServeHTTP(rw ResponseWriter, req *Request) {
	handler := sh.srv.Handler
	handler.ServeHTTP(rw, req)
}

// ListenAndServe listens on addr and then calls Serve with handler.
func ListenAndServe(addr string, handler Handler) error {
	server := &Server{Addr: addr, Handler: handler}
	return server.ListenAndServe()
}

// Serve accepts incoming HTTP connections on the listener l.
func Serve(l net.Listener, handler Handler) error {
	srv := &Server{Handler: handler}
	return srv.Serve(l)
}
`,
	"src/net/http/client.go": `package http

// A Client is an HTTP client.
type Client struct {
	Timeout int
}

// DefaultClient is the default Client.
var DefaultClient = &Client{}

// Do sends an HTTP request and returns an HTTP response.
func (c *Client) Do(req *Request) (*Response, error) {
	return c.do(req)
}

func (c *Client) do(req *Request) (*Response, error) {
	resp, err := c.send(req)
	if err == nil && resp.redirect() {
		return c.Do(resp.next())
	}
	return resp, err
}

func (c *Client) send(req *Request) (*Response, error) {
	return send(req, c.Timeout)
}

// Get issues a GET to the specified URL.
func (c *Client) Get(url string) (*Response, error) {
	req, err := NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Get issues a GET with the DefaultClient.
func Get(url string) (*Response, error) {
	return DefaultClient.Get(url)
}
`,
	"src/net/rpc/server.go": `package rpc

// Server represents an RPC Server.
type Server struct {
	serviceMap map[string]*service
}

// NewServer returns a new Server.
func NewServer() *Server {
	return &Server{}
}

// ServeConn runs the server on a single connection.
func (server *Server) ServeConn(conn io.ReadWriteCloser) {
	server.ServeCodec(newGobServerCodec(conn))
}

// ServeCodec is like ServeConn but uses the specified codec.
func (server *Server) ServeCodec(codec ServerCodec) {
	for {
		if err := server.readRequest(codec); err != nil {
			break
		}
	}
}
`,
	"cmd/app/main.go": `package main

import (
	"log"
	"net/http"
)

func main() {
	http.HandleFunc("/", index)
	log.Fatal(http.ListenAndServe(":8080", nil))
}

func index(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("hello"))
}
`,
	"app/models/user.py": `"""User accounts."""
from app.db import Session


class User:
    """A registered user."""

    def __init__(self, name, email):
        self.name = name
        self.email = email

    def save(self, session=None):
        session = session or Session()
        session.add(self)
        session.commit()

    def display_name(self):
        return self.name.title()


class Admin(User):
    """A user with every permission."""

    def save(self, session=None):
        audit("save", self)
        super().save(session)


def load_user(user_id):
    session = Session()
    row = session.get(user_id)
    return User(row.name, row.email)
`,
	"app/db.py": `"""Database sessions."""


class Session:
    def add(self, obj):
        self.pending.append(obj)

    def commit(self):
        for obj in self.pending:
            self.flush(obj)

    def flush(self, obj):
        pass

    def get(self, key):
        return self.rows[key]
`,
	"app/views.py": `from app.models.user import User, load_user


def user_detail(request, user_id):
    user = load_user(user_id)
    return render(request, "user.html", {"user": user})


def create_user(request):
    user = User(request.form["name"], request.form["email"])
    user.save()
    return redirect("/users")
`,
}

// decl is one symbol of the fixture. at is the text where it starts in its
// file (the first occurrence); its end follows from the language's blocks.
type decl struct {
	kind, qname, file, at, parent, doc string
}

// A Go package and every file are added by Fixture itself.
var decls = []decl{
	{kind: schemas.KindPackage, qname: "net/http", file: "src/net/http/server.go", at: "package http"},
	{kind: schemas.KindInterface, qname: "net/http.Handler", file: "src/net/http/server.go", at: "type Handler interface", doc: "Handler responds to an HTTP request."},
	{kind: schemas.KindMethod, qname: "net/http.Handler.ServeHTTP", file: "src/net/http/server.go", at: "ServeHTTP(w ResponseWriter, r *Request)\n}", parent: "net/http.Handler"},
	{kind: schemas.KindTypeAlias, qname: "net/http.HandlerFunc", file: "src/net/http/server.go", at: "type HandlerFunc func", doc: "HandlerFunc adapts a function to a Handler."},
	{kind: schemas.KindMethod, qname: "net/http.HandlerFunc.ServeHTTP", file: "src/net/http/server.go", at: "func (f HandlerFunc) ServeHTTP", parent: "net/http.HandlerFunc", doc: "ServeHTTP calls f(w, r)."},
	{kind: schemas.KindStruct, qname: "net/http.Server", file: "src/net/http/server.go", at: "type Server struct", doc: "A Server defines parameters for running an HTTP server."},
	{kind: schemas.KindField, qname: "net/http.Server.Addr", file: "src/net/http/server.go", at: "Addr    string", parent: "net/http.Server"},
	{kind: schemas.KindField, qname: "net/http.Server.Handler", file: "src/net/http/server.go", at: "Handler Handler", parent: "net/http.Server"},
	{kind: schemas.KindMethod, qname: "net/http.(*Server).ListenAndServe", file: "src/net/http/server.go", at: "func (srv *Server) ListenAndServe", parent: "net/http.Server", doc: "ListenAndServe listens on srv.Addr and then calls Serve."},
	{kind: schemas.KindMethod, qname: "net/http.(*Server).Serve", file: "src/net/http/server.go", at: "func (srv *Server) Serve(", parent: "net/http.Server", doc: "Serve accepts incoming connections on the Listener l."},
	{kind: schemas.KindMethod, qname: "net/http.(*Server).newConn", file: "src/net/http/server.go", at: "func (srv *Server) newConn", parent: "net/http.Server"},
	{kind: schemas.KindStruct, qname: "net/http.conn", file: "src/net/http/server.go", at: "type conn struct"},
	{kind: schemas.KindMethod, qname: "net/http.(*conn).serve", file: "src/net/http/server.go", at: "func (c *conn) serve", parent: "net/http.conn"},
	{kind: schemas.KindStruct, qname: "net/http.serverHandler", file: "src/net/http/server.go", at: "type serverHandler struct"},
	{kind: schemas.KindMethod, qname: "net/http.serverHandler.ServeHTTP", file: "src/net/http/server.go", at: "func (sh serverHandler) ServeHTTP", parent: "net/http.serverHandler"},
	{kind: schemas.KindFunction, qname: "net/http.ListenAndServe", file: "src/net/http/server.go", at: "func ListenAndServe(", doc: "ListenAndServe listens on addr and then calls Serve with handler."},
	{kind: schemas.KindFunction, qname: "net/http.Serve", file: "src/net/http/server.go", at: "func Serve(", doc: "Serve accepts incoming HTTP connections on the listener l."},

	{kind: schemas.KindStruct, qname: "net/http.Client", file: "src/net/http/client.go", at: "type Client struct", doc: "A Client is an HTTP client."},
	{kind: schemas.KindField, qname: "net/http.Client.Timeout", file: "src/net/http/client.go", at: "Timeout int", parent: "net/http.Client"},
	{kind: schemas.KindVariable, qname: "net/http.DefaultClient", file: "src/net/http/client.go", at: "var DefaultClient", doc: "DefaultClient is the default Client."},
	{kind: schemas.KindMethod, qname: "net/http.(*Client).Do", file: "src/net/http/client.go", at: "func (c *Client) Do(", parent: "net/http.Client", doc: "Do sends an HTTP request and returns an HTTP response."},
	{kind: schemas.KindMethod, qname: "net/http.(*Client).do", file: "src/net/http/client.go", at: "func (c *Client) do(", parent: "net/http.Client"},
	{kind: schemas.KindMethod, qname: "net/http.(*Client).send", file: "src/net/http/client.go", at: "func (c *Client) send(", parent: "net/http.Client"},
	{kind: schemas.KindMethod, qname: "net/http.(*Client).Get", file: "src/net/http/client.go", at: "func (c *Client) Get(", parent: "net/http.Client", doc: "Get issues a GET to the specified URL."},
	{kind: schemas.KindFunction, qname: "net/http.Get", file: "src/net/http/client.go", at: "func Get(", doc: "Get issues a GET with the DefaultClient."},

	{kind: schemas.KindStruct, qname: "net/rpc.Server", file: "src/net/rpc/server.go", at: "type Server struct", doc: "Server represents an RPC Server."},
	{kind: schemas.KindFunction, qname: "net/rpc.NewServer", file: "src/net/rpc/server.go", at: "func NewServer", doc: "NewServer returns a new Server."},
	{kind: schemas.KindMethod, qname: "net/rpc.(*Server).ServeConn", file: "src/net/rpc/server.go", at: "func (server *Server) ServeConn", parent: "net/rpc.Server", doc: "ServeConn runs the server on a single connection."},
	{kind: schemas.KindMethod, qname: "net/rpc.(*Server).ServeCodec", file: "src/net/rpc/server.go", at: "func (server *Server) ServeCodec", parent: "net/rpc.Server", doc: "ServeCodec is like ServeConn but uses the specified codec."},

	{kind: schemas.KindFunction, qname: "main.main", file: "cmd/app/main.go", at: "func main()"},
	{kind: schemas.KindFunction, qname: "main.index", file: "cmd/app/main.go", at: "func index("},

	{kind: schemas.KindModule, qname: "app.models.user", file: "app/models/user.py", at: `"""User accounts."""`, doc: "User accounts."},
	{kind: schemas.KindClass, qname: "app.models.user.User", file: "app/models/user.py", at: "class User:", parent: "app.models.user", doc: "A registered user."},
	{kind: schemas.KindConstructor, qname: "app.models.user.User.__init__", file: "app/models/user.py", at: "def __init__", parent: "app.models.user.User"},
	{kind: schemas.KindMethod, qname: "app.models.user.User.save", file: "app/models/user.py", at: "def save(self, session=None):\n        session", parent: "app.models.user.User"},
	{kind: schemas.KindMethod, qname: "app.models.user.User.display_name", file: "app/models/user.py", at: "def display_name", parent: "app.models.user.User"},
	{kind: schemas.KindClass, qname: "app.models.user.Admin", file: "app/models/user.py", at: "class Admin(User):", parent: "app.models.user", doc: "A user with every permission."},
	{kind: schemas.KindMethod, qname: "app.models.user.Admin.save", file: "app/models/user.py", at: "def save(self, session=None):\n        audit", parent: "app.models.user.Admin"},
	{kind: schemas.KindFunction, qname: "app.models.user.load_user", file: "app/models/user.py", at: "def load_user", parent: "app.models.user"},
	{kind: schemas.KindModule, qname: "app.db", file: "app/db.py", at: `"""Database sessions."""`, doc: "Database sessions."},
	{kind: schemas.KindClass, qname: "app.db.Session", file: "app/db.py", at: "class Session:", parent: "app.db"},
	{kind: schemas.KindMethod, qname: "app.db.Session.add", file: "app/db.py", at: "def add", parent: "app.db.Session"},
	{kind: schemas.KindMethod, qname: "app.db.Session.commit", file: "app/db.py", at: "def commit", parent: "app.db.Session"},
	{kind: schemas.KindMethod, qname: "app.db.Session.flush", file: "app/db.py", at: "def flush", parent: "app.db.Session"},
	{kind: schemas.KindMethod, qname: "app.db.Session.get", file: "app/db.py", at: "def get", parent: "app.db.Session"},
	{kind: schemas.KindModule, qname: "app.views", file: "app/views.py", at: "from app.models.user import"},
	{kind: schemas.KindFunction, qname: "app.views.user_detail", file: "app/views.py", at: "def user_detail", parent: "app.views"},
	{kind: schemas.KindFunction, qname: "app.views.create_user", file: "app/views.py", at: "def create_user", parent: "app.views"},
}

// ref is one edge of the fixture: src and dst are qualified names (a path
// for a file node; dst empty when unresolved), at the text of the site,
// searched from the start of src; a '|' in it marks where the site starts.
type ref struct {
	kind, src, dst, at, resolution, reason string
}

var refs = []ref{
	{schemas.EdgeImplements, "net/http.HandlerFunc", "net/http.Handler", "type HandlerFunc", schemas.ResolvedStructural, ""},
	{schemas.EdgeImplements, "net/http.serverHandler", "net/http.Handler", "type serverHandler", schemas.ResolvedStructural, ""},
	{schemas.EdgeReferences, "net/http.Server.Handler", "net/http.Handler", "Handler\n", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.(*Server).ListenAndServe", "", "net.Listen(", schemas.Unresolved, "package net not indexed"},
	{schemas.EdgeCalls, "net/http.(*Server).ListenAndServe", "net/http.(*Server).Serve", "srv.Serve(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.(*Server).Serve", "", "l.Accept(", schemas.Unresolved, "method of net.Listener, not indexed"},
	{schemas.EdgeCalls, "net/http.(*Server).Serve", "net/http.(*Server).newConn", "srv.newConn(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.(*Server).Serve", "net/http.(*conn).serve", "c.serve(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeInstantiates, "net/http.(*Server).newConn", "net/http.conn", "conn{", schemas.ResolvedScope, ""},
	{schemas.EdgeInstantiates, "net/http.(*conn).serve", "net/http.serverHandler", "serverHandler{", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.(*conn).serve", "net/http.serverHandler.ServeHTTP", "ServeHTTP(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.serverHandler.ServeHTTP", "net/http.Handler.ServeHTTP", "handler.ServeHTTP(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeInstantiates, "net/http.ListenAndServe", "net/http.Server", "Server{", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.ListenAndServe", "net/http.(*Server).ListenAndServe", "server.ListenAndServe(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeInstantiates, "net/http.Serve", "net/http.Server", "Server{", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.Serve", "net/http.(*Server).Serve", "srv.Serve(", schemas.ResolvedReceiver, ""},

	{schemas.EdgeInstantiates, "net/http.DefaultClient", "net/http.Client", "Client{", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.(*Client).Do", "net/http.(*Client).do", "c.do(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.(*Client).do", "net/http.(*Client).send", "c.send(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.(*Client).do", "", "resp.redirect(", schemas.Unresolved, "unknown type of resp"},
	{schemas.EdgeCalls, "net/http.(*Client).do", "net/http.(*Client).Do", "c.Do(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/http.(*Client).send", "", "return |send(", schemas.Ambiguous, "2 candidates: net/http.send, net/http.(*Client).send"},
	{schemas.EdgeCalls, "net/http.(*Client).Get", "", "NewRequest(", schemas.Unresolved, "no symbol NewRequest in net/http"},
	{schemas.EdgeCalls, "net/http.(*Client).Get", "net/http.(*Client).Do", "c.Do(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeReferences, "net/http.Get", "net/http.DefaultClient", "DefaultClient.", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/http.Get", "net/http.(*Client).Get", "DefaultClient.Get(", schemas.ResolvedReceiver, ""},

	{schemas.EdgeInstantiates, "net/rpc.NewServer", "net/rpc.Server", "Server{", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "net/rpc.(*Server).ServeConn", "net/rpc.(*Server).ServeCodec", "server.ServeCodec(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "net/rpc.(*Server).ServeConn", "", "newGobServerCodec(", schemas.Unresolved, "no symbol newGobServerCodec in net/rpc"},

	{schemas.EdgeImports, "cmd/app/main.go", "", `"log"`, schemas.Unresolved, "package log not indexed"},
	{schemas.EdgeImports, "cmd/app/main.go", "net/http", `"net/http"`, schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "main.main", "", "http.HandleFunc(", schemas.Unresolved, "no symbol HandleFunc in net/http"},
	{schemas.EdgeReferences, "main.main", "main.index", "index)", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "main.main", "", "log.Fatal(", schemas.Unresolved, "package log not indexed"},
	{schemas.EdgeCalls, "main.main", "net/http.ListenAndServe", "http.ListenAndServe(", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "main.index", "", "w.Write(", schemas.Unresolved, "method of net/http.ResponseWriter, not indexed"},

	{schemas.EdgeImports, "app/models/user.py", "app.db", "from app.db", schemas.ResolvedImport, ""},
	{schemas.EdgeInstantiates, "app.models.user.User.save", "app.db.Session", "Session()", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "app.models.user.User.save", "app.db.Session.add", "session.add(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "app.models.user.User.save", "app.db.Session.commit", "session.commit(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "app.models.user.User.display_name", "", "title(", schemas.Unresolved, "unknown type of self.name"},
	{schemas.EdgeExtends, "app.models.user.Admin", "app.models.user.User", "User)", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "app.models.user.Admin.save", "", "audit(", schemas.Unresolved, "name audit is not defined"},
	{schemas.EdgeCalls, "app.models.user.Admin.save", "app.models.user.User.save", "super().save(", schemas.ResolvedScope, ""},
	{schemas.EdgeInstantiates, "app.models.user.load_user", "app.db.Session", "Session()", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "app.models.user.load_user", "app.db.Session.get", "session.get(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeInstantiates, "app.models.user.load_user", "app.models.user.User", "User(", schemas.ResolvedScope, ""},
	{schemas.EdgeCalls, "app.db.Session.commit", "app.db.Session.flush", "self.flush(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeImports, "app/views.py", "app.models.user", "from app.models.user", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "app.views.user_detail", "app.models.user.load_user", "load_user(", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "app.views.user_detail", "", "render(", schemas.Unresolved, "name render is not defined"},
	{schemas.EdgeInstantiates, "app.views.create_user", "app.models.user.User", "User(", schemas.ResolvedImport, ""},
	{schemas.EdgeCalls, "app.views.create_user", "app.models.user.User.save", "user.save(", schemas.ResolvedReceiver, ""},
	{schemas.EdgeCalls, "app.views.create_user", "", "redirect(", schemas.Unresolved, "name redirect is not defined"},
}

// Fixture returns a new copy of the hand-written snapshot: three Go
// packages (net/http's server and client, net/rpc, a main package) and a
// Python application, with files, sources, symbols at their real positions
// in the sources, and resolved and unresolved edges. It holds ambiguous
// names (Serve, ServeHTTP, Server, save, Get), a call cycle
// ((*Client).Do → do → Do) and interface implementations.
func Fixture() *snapshot.Snapshot {
	paths := make([]string, 0, len(sources))
	for p := range sources {
		paths = append(paths, p)
	}
	slices.Sort(paths)

	s := &snapshot.Snapshot{}
	byQName := map[string]*schemas.Node{}
	var nodes []*schemas.Node
	addNode := func(n *schemas.Node) {
		n.ID = nodeID(n.Language, n.Kind, n.QualifiedName, n.File)
		byQName[n.QualifiedName] = n
		nodes = append(nodes, n)
	}
	for _, p := range paths {
		src := sources[p]
		lang := language(p)
		lines := uint32(strings.Count(src, "\n"))
		sum := sha256.Sum256([]byte(src))
		s.Files = append(s.Files, schemas.File{
			Path: p, Language: lang, SHA256: hex.EncodeToString(sum[:]),
			Size: int64(len(src)), Lines: lines, Status: schemas.StatusOK,
		})
		s.Sources = append(s.Sources, schemas.Source{Path: p, Content: []byte(src)})
		n := &schemas.Node{
			Kind: schemas.KindFile, Name: p[strings.LastIndexByte(p, '/')+1:], QualifiedName: p,
			File: p, Language: lang, Exported: true,
		}
		setSpan(n, src, 0, len(src))
		addNode(n)
	}
	s.Files = append(s.Files,
		schemas.File{Path: "app/broken.py", Language: "python", Size: 31, Lines: 2, Status: schemas.StatusParseError, Error: "syntax error at 2:1"},
		schemas.File{Path: "assets/logo.png", Size: 4096, Status: schemas.StatusSkippedBinary})
	slices.SortFunc(s.Files, func(a, b schemas.File) int { return strings.Compare(a.Path, b.Path) })

	for _, d := range decls {
		src := sources[d.file]
		start := strings.Index(src, d.at)
		if start < 0 {
			panic(fmt.Sprintf("querytest: %s: %q not in %s", d.qname, d.at, d.file))
		}
		lang := language(d.file)
		name := d.qname[strings.LastIndexAny(d.qname, "./")+1:]
		if d.kind == schemas.KindPackage {
			name = d.qname[strings.LastIndexByte(d.qname, '/')+1:]
		}
		n := &schemas.Node{
			Kind: d.kind, Name: name, QualifiedName: d.qname, File: d.file, Language: lang,
			Doc: d.doc, Exported: exported(lang, name),
		}
		n.Visibility = schemas.Private
		if n.Exported {
			n.Visibility = schemas.Public
		}
		end := blockEnd(src, start, lang)
		if d.kind == schemas.KindModule {
			start, end = 0, len(src)
		}
		setSpan(n, src, start, end)
		n.Signature = strings.TrimSuffix(strings.TrimSpace(src[start:start+strings.IndexByte(src[start:], '\n')]), " {")
		n.BodyHash = fnv64(src[start:end])
		addNode(n)
	}

	// Parents: a declared parent, else the module of a Python file, else
	// the file; a file's parent is its Go package when it has one.
	type edgeSpec struct {
		src, dst *schemas.Node
		kind     string
		at       string
		res      string
		reason   string
	}
	var specs []edgeSpec
	for _, d := range decls {
		n := byQName[d.qname]
		parent := byQName[cmp.Or(d.parent, d.file)]
		if n.Kind == schemas.KindPackage || n.Kind == schemas.KindModule {
			parent = nil
			if n.Kind == schemas.KindPackage {
				byQName[d.file].ParentID = n.ID
				specs = append(specs, edgeSpec{src: n, dst: byQName[d.file], kind: schemas.EdgeContains, res: schemas.ResolvedStructural})
			}
		}
		if parent == nil {
			continue
		}
		n.ParentID = parent.ID
		specs = append(specs, edgeSpec{src: parent, dst: n, kind: schemas.EdgeContains, res: schemas.ResolvedStructural})
	}
	for _, r := range refs {
		src := byQName[r.src]
		if src == nil {
			panic("querytest: no source " + r.src)
		}
		var dst *schemas.Node
		if r.dst != "" {
			if dst = byQName[r.dst]; dst == nil {
				panic("querytest: no target " + r.dst)
			}
		}
		specs = append(specs, edgeSpec{src: src, dst: dst, kind: r.kind, at: r.at, res: r.resolution, reason: r.reason})
	}

	slices.SortFunc(nodes, func(a, b *schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
	row := map[uint64]int32{}
	for i, n := range nodes {
		s.Nodes = append(s.Nodes, *n)
		row[n.ID] = int32(i)
	}
	for _, sp := range specs {
		e := schemas.Edge{
			Src: sp.src.ID, Kind: sp.kind, File: sp.src.File, Resolution: sp.res, Reason: sp.reason,
			SrcRow: row[sp.src.ID], DstRow: -1, Confidence: 1,
		}
		if sp.dst != nil {
			e.Dst, e.DstRow = sp.dst.ID, row[sp.dst.ID]
		} else {
			e.Confidence = 0
		}
		src := sources[sp.src.File]
		at := int(sp.src.StartByte)
		if sp.at != "" {
			i := strings.Index(src[at:], strings.Replace(sp.at, "|", "", 1))
			if i < 0 {
				panic(fmt.Sprintf("querytest: %q not in %s", sp.at, sp.src.QualifiedName))
			}
			site := sp.at
			if j := strings.IndexByte(site, '|'); j >= 0 {
				i, site = i+j, site[j+1:]
			}
			at += i
			switch sp.kind {
			case schemas.EdgeImports:
				e.Target = strings.Trim(strings.TrimPrefix(site, "from "), `"`)
			case schemas.EdgeImplements:
				e.Target = sp.dst.Name
			default:
				e.Target = strings.TrimRight(strings.TrimSuffix(site, "("), "{().\n")
				if sp.kind == schemas.EdgeCalls && strings.HasSuffix(site, "(") {
					e.Args = callArgs(src[at+len(site):])
				}
			}
		} else {
			at = int(sp.dst.StartByte)
			e.Target = sp.dst.Name
		}
		e.Line, e.Col = position(src, at)
		s.Edges = append(s.Edges, e)
	}
	slices.SortFunc(s.Edges, compareEdges)

	s.Manifest = schemas.Manifest{
		FormatVersion: schemas.FormatVersion, FeatureVersion: schemas.FeatureVersion,
		Repo:      "github.com/graphsnap/demo",
		Branch:    "main",
		Commit:    Commit,
		Parents:   []string{"9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807"},
		IndexedAt: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
		Indexer:   schemas.Indexer{Name: "snap", Version: "0.1.0", GoVersion: "go1.26.0"},
		Grammars:  map[string]string{"go": "v0.25.0", "python": "v0.25.0"},
		Build:     schemas.Build{DurationMS: 1834, Workers: 2, FilesParsed: len(sources) + 1, SourceBytes: 0},
	}
	m := &s.Manifest
	m.Counts = schemas.Counts{Files: len(s.Files), Nodes: len(s.Nodes), Edges: len(s.Edges), Languages: map[string]int{}}
	for _, f := range s.Files {
		if f.Language != "" {
			m.Counts.Languages[f.Language]++
		}
		if f.Status == schemas.StatusParseError {
			m.Counts.ParseErrors++
		}
		m.Build.SourceBytes += int64(len(sources[f.Path]))
	}
	for _, e := range s.Edges {
		if e.Dst == 0 {
			m.Counts.Unresolved++
		}
	}
	return s
}

func compareEdges(a, b schemas.Edge) int {
	return cmp.Or(
		cmp.Compare(a.Src, b.Src),
		strings.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Dst, b.Dst),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		strings.Compare(a.Target, b.Target))
}

func language(path string) string {
	if strings.HasSuffix(path, ".py") {
		return "python"
	}
	return "go"
}

func exported(lang, name string) bool {
	if lang == "python" {
		return !strings.HasPrefix(name, "_") || strings.HasSuffix(name, "__")
	}
	return name != "" && 'A' <= name[0] && name[0] <= 'Z'
}

func nodeID(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return cmp.Or(h.Sum64(), 1)
}

func fnv64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// blockEnd returns where the declaration starting at start ends: at its
// closing brace for a Go line ending in '{', after the last more-indented
// line for a Python line ending in ':', else at the end of its line.
func blockEnd(src string, start int, lang string) int {
	eol := start + strings.IndexByte(src[start:], '\n')
	line := strings.TrimRight(src[start:eol], " ")
	switch {
	case lang == "go" && strings.HasSuffix(line, "{"):
		depth := 0
		for i := eol - 1; i < len(src); i++ {
			switch src[i] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	case lang == "python" && strings.HasSuffix(line, ":"):
		lineStart := strings.LastIndexByte(src[:start], '\n') + 1
		indent := start - lineStart
		end := eol
		for i := eol + 1; i < len(src); {
			next := i + strings.IndexByte(src[i:], '\n')
			text := src[i:next]
			if strings.TrimSpace(text) != "" {
				if len(text)-len(strings.TrimLeft(text, " ")) <= indent {
					break
				}
				end = next
			}
			i = next + 1
		}
		return end
	}
	return eol
}

// position returns the 1-based line and column of byte offset at.
func position(src string, at int) (line, col uint32) {
	line = uint32(strings.Count(src[:at], "\n")) + 1
	col = uint32(at-strings.LastIndexByte(src[:at], '\n')-1) + 1
	return line, col
}

func setSpan(n *schemas.Node, src string, start, end int) {
	n.StartByte, n.EndByte = uint32(start), uint32(end)
	n.StartLine, n.StartCol = position(src, start)
	n.EndLine, n.EndCol = position(src, end)
}

// callArgs returns the arguments of a call as written: rest up to the
// parenthesis that closes the call, on its line ("" when not there).
func callArgs(rest string) string {
	depth := 0
	for i, c := range rest {
		switch c {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return rest[:i]
			}
			depth--
		case '\n':
			return ""
		}
	}
	return ""
}
