package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Resources: the snapshot's manifest, a file's content as indexed, and a
// symbol as snap_node answers it.
const (
	manifestURI  = "snap://manifest"
	filePrefix   = "snap://file/"
	nodePrefix   = "snap://node/"
	jsonMIMEType = "application/json"
)

// addResources registers the resources of reg's snapshot on srv.
func addResources(srv *server.MCPServer, reg *Registry) {
	srv.AddResource(mcpgo.NewResource(manifestURI, "manifest",
		mcpgo.WithResourceDescription("The served snapshot's manifest.json: repository, branch, commit, counts, tables and their SHA-256."),
		mcpgo.WithMIMEType(jsonMIMEType)),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			e, err := reg.engine(ctx)
			if err != nil {
				return nil, err
			}
			raw, err := json.MarshalIndent(e.Manifest(), "", "  ")
			if err != nil {
				return nil, err
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: manifestURI, MIMEType: jsonMIMEType, Text: string(raw)}}, nil
		})
	srv.AddResourceTemplate(mcpgo.NewResourceTemplate(filePrefix+"{+path}", "file",
		mcpgo.WithTemplateDescription("A file's content as indexed in the snapshot (never the local disk); path relative to the repository root."),
		mcpgo.WithTemplateMIMEType("text/plain")),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			e, err := reg.engine(ctx)
			if err != nil {
				return nil, err
			}
			p, err := resourcePath(req.Params.URI)
			if err != nil {
				return nil, err
			}
			src, ok := e.Source(p)
			if raw := strings.TrimPrefix(req.Params.URI, filePrefix); !ok && raw != p && confined(raw) == nil {
				// A path with a '%' of its own, sent as it is.
				p = raw
				src, ok = e.Source(p)
			}
			if !ok {
				return nil, fmt.Errorf("resource %.100q: the snapshot holds no content for %.100q (see snap_status detail stats for files not indexed)", req.Params.URI, p)
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: string(src)}}, nil
		})
	srv.AddResourceTemplate(mcpgo.NewResourceTemplate(nodePrefix+"{id}", "node",
		mcpgo.WithTemplateDescription("A symbol by id, as snap_symbol answers it: kind, names, location, signature, doc, parent and edge counts."),
		mcpgo.WithTemplateMIMEType(jsonMIMEType)),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			e, err := reg.engine(ctx)
			if err != nil {
				return nil, err
			}
			id := strings.TrimPrefix(req.Params.URI, nodePrefix)
			args, _ := json.Marshal(map[string]string{"id": id})
			// The tool's handler, whether or not the toolsets offer it.
			res, terr := symbolTool.Handler(ctx, e, args)
			if terr != nil {
				return nil, fmt.Errorf("%s: %s: %s", req.Params.URI, terr.Code, terr.Message)
			}
			if a, ok := res.(answer); ok {
				a.head().Commit = e.Commit()
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: jsonMIMEType, Text: string(encode(res))}}, nil
		})
}

// resourcePath returns the path a snap://file/ URI names: the rest of the
// URI, percent-decoded (clients expand {+path} escaping what is neither
// reserved nor unreserved), relative to the repository root and within it.
// The path is looked up in the snapshot only, never on disk; refusing
// paths that leave the root keeps it that way should that ever change.
func resourcePath(uri string) (string, error) {
	raw, ok := strings.CutPrefix(uri, filePrefix)
	if !ok {
		return "", fmt.Errorf("resource %.100q: not a %s URI", uri, filePrefix)
	}
	p, err := url.PathUnescape(raw)
	if err != nil {
		return "", fmt.Errorf("resource %.100q: bad escape in the path", uri)
	}
	if err := confined(p); err != nil {
		return "", fmt.Errorf("resource %.100q: %w", uri, err)
	}
	return p, nil
}

// confined checks that p is a path relative to the repository root that
// stays within it: not empty, not absolute (nor a Windows drive), no NUL
// byte, and no ".." segment (with / or \ as separator).
func confined(p string) error {
	slashed := strings.ReplaceAll(p, `\`, "/")
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.ContainsRune(p, 0):
		return errors.New("the path holds a NUL byte")
	case strings.HasPrefix(slashed, "/") || len(slashed) > 1 && slashed[1] == ':':
		return errors.New("the path is absolute; give it relative to the repository root")
	case slices.Contains(strings.Split(slashed, "/"), ".."):
		return errors.New("the path leaves the repository root")
	}
	return nil
}
