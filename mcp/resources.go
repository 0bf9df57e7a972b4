package mcp

import (
	"context"
	"encoding/json"
	"fmt"
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
			p := strings.TrimPrefix(req.Params.URI, filePrefix)
			src, ok := e.Source(p)
			if !ok {
				return nil, fmt.Errorf("%s: the snapshot holds no content for %q (see snap_stats for files not indexed)", req.Params.URI, p)
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: string(src)}}, nil
		})
	srv.AddResourceTemplate(mcpgo.NewResourceTemplate(nodePrefix+"{id}", "node",
		mcpgo.WithTemplateDescription("A symbol by id, as snap_node answers it: kind, names, location, signature, doc, parent and edge counts."),
		mcpgo.WithTemplateMIMEType(jsonMIMEType)),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			e, err := reg.engine(ctx)
			if err != nil {
				return nil, err
			}
			id := strings.TrimPrefix(req.Params.URI, nodePrefix)
			args, _ := json.Marshal(map[string]string{"id": id})
			// The tool's handler, whether or not the toolsets offer it.
			res, terr := nodeTool.Handler(ctx, e, args)
			if terr != nil {
				return nil, fmt.Errorf("%s: %s: %s", req.Params.URI, terr.Code, terr.Message)
			}
			if a, ok := res.(answer); ok {
				a.head().Commit = e.Commit()
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: jsonMIMEType, Text: string(encode(res))}}, nil
		})
}
